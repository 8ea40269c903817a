package store

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// appendJSONStringReference is appendJSONString as it was first written,
// a branch per byte instead of its tables: the reference the table lookup
// is held to.
func appendJSONStringReference(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
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
// and of the awkward strings, are written as the reference writes them,
// after what the buffer held.
func TestJournalStringIsReference(t *testing.T) {
	check := func(s string) {
		t.Helper()
		got := appendJSONString([]byte("kept"), s)
		if want := appendJSONStringReference([]byte("kept"), s); !bytes.Equal(got, want) {
			t.Fatalf("%q written as %s, the reference writes %s", s, got, want)
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

// FuzzJournalStringIsReference: a fuzzed string is written as the
// reference writes it.
func FuzzJournalStringIsReference(f *testing.F) {
	for _, s := range awkwardStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendJSONString(nil, s), appendJSONStringReference(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q written as %s, the reference writes %s", s, got, want)
		}
	})
}

// BenchmarkJournalString writes a message's text, as an input's line
// holds it, by appendJSONString and by the reference in the same run.
//
//	go test ./contract/store -run '^$' -bench '^BenchmarkJournalString$' -count 3
func BenchmarkJournalString(b *testing.B) {
	text := "Hello all,\n\nI join the Life contest. I claim cells (3, 4) and (5, 6) in Life.\n\n" +
		"The report says the contest holds most of the Vials now. Is that intended? -- Rêve <reve@example.test> & co.\n" +
		strings.Repeat("> quoted line of the message this one answers, as a mail client quotes it\n", 6)
	for _, impl := range []struct {
		name   string
		append func([]byte, string) []byte
	}{{"now", appendJSONString}, {"reference", appendJSONStringReference}} {
		b.Run(impl.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			var buf []byte
			for b.Loop() {
				buf = impl.append(buf[:0], text)
			}
		})
	}
}
