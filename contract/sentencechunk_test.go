package contract

import (
	"reflect"
	"strings"
	"testing"
)

// checkChunks fails unless the sentences of text are the same with a
// paragraph's one line taken as it is and with every line joined.
func checkChunks(t *testing.T, text string) {
	t.Helper()
	got := Sentences(text)
	joinChunks = true
	want := Sentences(text)
	joinChunks = false
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: sentences\n%+v\nwith every line joined\n%+v", text, got, want)
	}
}

// TestSentenceChunks: over the reader's seeds, the phrasing corpus, and
// paragraphs of one line and of several, each line taken alone reads as
// the joined lines do.
func TestSentenceChunks(t *testing.T) {
	texts := []string{"", "\n", "one line", "  indented line.  \n", "two\nlines", "I join.\nI claim (1, 2)\nin Life.",
		"a\n\nb\n\n\nc", "- I join\n- I claim\n  (1, 2).", "No. 3\nis it", "x \r\n y \r\n\r\nz", "I join;\n\n   I leave", "\u00a0I join\n\u2028I leave"}
	texts = append(texts, shortcutSeeds(t)...)
	seeds := shortcutSeeds(t)
	for i := 0; i+3 < len(seeds); i += 3 {
		texts = append(texts, strings.Join(seeds[i:i+3], "\n"), strings.Join(seeds[i:i+3], "\n\n"))
	}
	for _, text := range texts {
		checkChunks(t, text)
	}
}

func FuzzSentenceChunks(f *testing.F) {
	for _, s := range shortcutSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(checkChunks)
}
