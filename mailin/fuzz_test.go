package mailin

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func addCorpusSeeds(f *testing.F, add func(raw []byte)) {
	for _, path := range corpusFiles(f) {
		raw, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		add(raw)
	}
}

// FuzzParse: Parse never panics, errors only for empty input, and what it
// returns is clean (valid UTF-8, no CR, no control characters in echoed
// header values, a known class).
func FuzzParse(f *testing.F) {
	addCorpusSeeds(f, func(raw []byte) { f.Add(raw) })
	f.Add([]byte("Content-Type: multipart/mixed; boundary=a\n\n--a\nContent-Type: multipart/mixed; boundary=a\n\n--a--\n"))
	f.Add([]byte("Content-Type: text/html\n\n<blockquote><blockquote><pre>x"))
	cfg := corpusConfig()
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Parse(raw, time.Time{}, cfg)
		if err != nil {
			if !errors.Is(err, ErrEmpty) {
				t.Fatalf("Parse error %v", err)
			}
			return
		}
		for name, s := range map[string]string{"Text": m.Text, "Quoted": m.Quoted, "Subject": m.Subject, "FromName": m.FromName, "MessageID": m.MessageID} {
			if !utf8.ValidString(s) {
				t.Errorf("%s is not valid UTF-8: %q", name, s)
			}
		}
		if strings.ContainsRune(m.Text, '\r') || strings.ContainsRune(m.Quoted, '\r') {
			t.Errorf("CR in text")
		}
		for _, s := range []string{m.Subject, m.FromName} {
			for _, r := range s {
				if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
					t.Errorf("control character %U in %q", r, s)
				}
			}
		}
		switch m.Class {
		case Public, Official, Discussion, Private:
			if m.IgnoreReason != "" {
				t.Errorf("class %s with reason %q", m.Class, m.IgnoreReason)
			}
		case Ignorable:
			if m.IgnoreReason == "" {
				t.Errorf("ignorable without a reason")
			}
		default:
			t.Errorf("unknown class %q", m.Class)
		}
		if m.MessageID == "" || m.Size != len(raw) {
			t.Errorf("MessageID %q, Size %d (len %d)", m.MessageID, m.Size, len(raw))
		}
		if m.TooLarge && m.Text != "" {
			t.Errorf("TooLarge with text")
		}
	})
}

// FuzzStrip: what stripQuoted keeps is taken from the input, holds no quoted
// line and no signature delimiter, and stripping it again changes nothing.
func FuzzStrip(f *testing.F) {
	addCorpusSeeds(f, func(raw []byte) {
		if m, err := Parse(raw, time.Time{}, nil); err == nil {
			f.Add(m.Text + "\n" + m.Quoted)
		}
		_, body, _ := readHeader(raw)
		f.Add(string(body))
	})
	f.Fuzz(func(t *testing.T, s string) {
		kept, quoted := stripQuoted(s)
		in := map[string]bool{}
		for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
			in[strings.TrimRight(l, " \t\r")] = true
		}
		for _, l := range strings.Split(kept, "\n") {
			if l == "" {
				continue
			}
			if !in[l] {
				t.Errorf("kept line %q is not in the input", l)
			}
			if isQuoted(l) || isSigDelimiter(l) {
				t.Errorf("kept line %q should have been removed", l)
			}
		}
		if len(kept)+len(quoted) > len(s)+1 {
			t.Errorf("output longer than input: %d+%d > %d", len(kept), len(quoted), len(s))
		}
		if again, q2 := stripQuoted(kept); again != kept {
			t.Errorf("not idempotent: %q -> %q (removed %q)", kept, again, q2)
		}
	})
}
