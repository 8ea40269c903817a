package text_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"referee/contract/text"
)

// wrapIndentReference is WrapIndent as it was first written, a word list
// from strings.Fields and a line built by concatenation: the reference the
// faster one is held to.
func wrapIndentReference(s string, width int, first, rest string) string {
	if width == 0 {
		width = text.Width
	}
	var b strings.Builder
	line := first
	empty := true
	for _, w := range strings.Fields(s) {
		if !empty && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width {
			b.WriteString(line)
			b.WriteByte('\n')
			line = rest
			empty = true
		}
		if !empty {
			line += " "
		}
		line += w
		empty = false
	}
	if !empty {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// wrapWords are the words of the random texts: short and long ones, words
// longer than any line, Unicode of one to four bytes a rune, combining
// marks, invalid UTF-8 and a lone continuation byte.
var wrapWords = []string{
	"a", "I", "the", "Life", "contest.", "Controllers", "(12,", "34)", "R18;", "ruling", "L3",
	"Rêve", "Ærø", "日本語の文", "夢", "🎲🎲", "e\u0301", "naïve—dash", "\ufffd",
	strings.Repeat("x", 71), strings.Repeat("y", 72), strings.Repeat("z", 73), strings.Repeat("long", 40),
	strings.Repeat("é", 80), "not\x80utf-8", "\xff", "cut\xe2\x82", "\u200b", "zero\u200bwidth",
}

// wrapSpaces are what separates the words: every kind of space
// strings.Fields splits at (ASCII, Latin-1's NEL and no-break space, the
// wide ones), runs of them and blank lines.
var wrapSpaces = []string{
	" ", " ", " ", "  ", "\t", "\n", "\n\n", "\n \n", "\r\n", "\v", "\f",
	"\u0085", "\u00a0", "\u1680", "\u2003", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
}

var wrapPrefixes = []string{"", "> ", "  ", "  Not done: ", "            ", "- ", " 1. ", "»  ", "日本 ", "\t", strings.Repeat(" ", 80)}

// randomWrapText joins random words with random spaces, sometimes with
// space at either end or nothing but space.
func randomWrapText(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(4) == 0 {
		b.WriteString(wrapSpaces[r.IntN(len(wrapSpaces))])
	}
	for range r.IntN(60) {
		b.WriteString(wrapWords[r.IntN(len(wrapWords))])
		b.WriteString(wrapSpaces[r.IntN(len(wrapSpaces))])
	}
	if r.IntN(3) == 0 {
		b.WriteString(wrapWords[r.IntN(len(wrapWords))])
	}
	return b.String()
}

func TestWrapIndentIsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	widths := []int{0, 0, 0, -1, 1, 2, 10, 30, 40, 71, 72, 73, 200}
	for i := range 20000 {
		s := randomWrapText(r)
		width := widths[r.IntN(len(widths))]
		first := wrapPrefixes[r.IntN(len(wrapPrefixes))]
		rest := wrapPrefixes[r.IntN(len(wrapPrefixes))]
		got := text.WrapIndent(s, width, first, rest)
		if want := wrapIndentReference(s, width, first, rest); got != want {
			t.Fatalf("case %d: WrapIndent(%q, %d, %q, %q)\n got %q\nwant %q", i, s, width, first, rest, got, want)
		}
	}
}

func FuzzWrapIndent(f *testing.F) {
	f.Add("I join the Life contest.", 0, "> ", "> ")
	f.Add("Goethe joins the Life contest and receives 10 Vials of Primordial Ooze, which is a long line", 30, "  Not done: ", "            ")
	f.Add("  \n\n  ", 72, "- ", "  ")
	f.Add("Rêve\u00a0日本語\u3000"+strings.Repeat("z", 80)+"\u0085e\u0301", 10, "日本 ", "\t")
	f.Add("not\x80utf-8 \xff cut\xe2\x82", -1, "", "")
	f.Fuzz(func(t *testing.T, s string, width int, first, rest string) {
		got := text.WrapIndent(s, width, first, rest)
		if want := wrapIndentReference(s, width, first, rest); got != want {
			t.Fatalf("WrapIndent(%q, %d, %q, %q)\n got %q\nwant %q", s, width, first, rest, got, want)
		}
	})
}

// BenchmarkWrapIndent wraps a receipt's quoted paragraph and a report's
// long event line, by WrapIndent and by the reference, in the same run.
func BenchmarkWrapIndent(b *testing.B) {
	para := strings.Repeat("Goethe claims Cell (12, 34) and pays 2 Vials of Primordial Ooze; Rêve passes. ", 8)
	for _, impl := range []struct {
		name string
		wrap func(s string, width int, first, rest string) string
	}{{"now", text.WrapIndent}, {"reference", wrapIndentReference}} {
		b.Run(impl.name, func(b *testing.B) {
			b.SetBytes(int64(len(para)))
			for b.Loop() {
				impl.wrap(para, 0, "> ", "> ")
				impl.wrap(para, 0, "2026-12-01 14:03  Goethe  ", strings.Repeat(" ", 26))
			}
		})
	}
}
