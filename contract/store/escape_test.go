package store

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"referee/internal/benchanchor"
)

// encodingJSON is b and s as encoding/json writes a string: what a journal
// line must hold (its readers are JSON's).
func encodingJSON(b []byte, s string) []byte {
	q, err := json.Marshal(s)
	if err != nil {
		panic(err) // a string always encodes
	}
	return append(b, q...)
}

// appendJSONStringByByte is appendJSONString as it was before it passed
// four plain bytes at once: a lookup of jsonSafe per byte. The test and
// the fuzz target hold appendJSONString to it as well, and
// BenchmarkJournalString times the two.
func appendJSONStringByByte(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonSafe[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			b = append(b, jsonEscape[c]...)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// TestJournalStringIsReference: every byte alone, and random strings of
// every byte, of runes of each length, of the runes escaped, of cut runes
// and of the awkward strings, are written as encoding/json writes them
// (and as the byte-at-a-time version did), after what the buffer held.
func TestJournalStringIsReference(t *testing.T) {
	check := func(s string) {
		t.Helper()
		got := appendJSONString([]byte("kept"), s)
		if want := encodingJSON([]byte("kept"), s); !bytes.Equal(got, want) {
			t.Fatalf("%q written as %s, encoding/json writes %s", s, got, want)
		}
		if want := appendJSONStringByByte([]byte("kept"), s); !bytes.Equal(got, want) {
			t.Fatalf("%q written as %s, the lookup by byte writes %s", s, got, want)
		}
	}
	for c := range 256 {
		check(string([]byte{byte(c)}))
		check("a" + string([]byte{byte(c)}) + "b")
	}
	pieces := append([]string{"\u2028", "\u2029", "\u2027", "\u202a", "é", "日", "🎲", "\xe2\x80", "\xf0\x9f\x8e", "\xc3", "\xed\xa0\x80", "\xf4\x90\x80\x80"}, awkwardStrings...)
	r := rand.New(rand.NewPCG(9, 14))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(40) {
			switch r.IntN(3) {
			case 0:
				b.WriteByte(byte(r.IntN(256)))
			case 1:
				b.WriteRune(rune(r.IntN(0x110000)))
			default:
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
		}
		check(b.String())
	}
}

// FuzzJournalStringIsReference: a fuzzed string is written as
// encoding/json writes it, and as the byte-at-a-time version did.
func FuzzJournalStringIsReference(f *testing.F) {
	for _, s := range awkwardStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendJSONString(nil, s), encodingJSON(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q written as %s, encoding/json writes %s", s, got, want)
		}
		if got, want := appendJSONString(nil, s), appendJSONStringByByte(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q written as %s, the lookup by byte writes %s", s, got, want)
		}
	})
}

// BenchmarkJournalString writes a message's text, as an input's line
// holds it, by appendJSONString and by the lookup by byte it replaced in
// the same loop, 16 calls of each timed by the thread's CPU time (so the
// figures hold on a loaded machine): now-ns/op, bybyte-ns/op and their
// ratio.
//
//	go test ./contract/store -run '^$' -bench '^BenchmarkJournalString$' -count 3
func BenchmarkJournalString(b *testing.B) {
	text := "Hello all,\n\nI join the Life contest. I claim cells (3, 4) and (5, 6) in Life.\n\n" +
		"The report says the contest holds most of the Vials now. Is that intended? -- Rêve <reve@example.test> & co.\n" +
		strings.Repeat("> quoted line of the message this one answers, as a mail client quotes it\n", 6)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := func() time.Duration {
		d, err := benchanchor.ThreadCPU()
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	var buf []byte
	var now, before time.Duration
	n := 0
	for b.Loop() {
		t0 := cpu()
		for range 16 {
			buf = appendJSONString(buf[:0], text)
		}
		t1 := cpu()
		for range 16 {
			buf = appendJSONStringByByte(buf[:0], text)
		}
		before += cpu() - t1
		now += t1 - t0
		n += 16
	}
	b.ReportMetric(float64(now.Nanoseconds())/float64(n), "now-ns/op")
	b.ReportMetric(float64(before.Nanoseconds())/float64(n), "bybyte-ns/op")
	b.ReportMetric(float64(now)/float64(before), "ratio")
}
