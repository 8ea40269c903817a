package contract

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"
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

// TestOneLineChunkTakenAsItIs: a paragraph of one line is read as that
// line, with no copy of it made (most actions are one line); a second line
// joins it with a space.
func TestOneLineChunkTakenAsItIs(t *testing.T) {
	line := "I claim Cell (2, 3) in Life."
	var text string
	if n := testing.AllocsPerRun(20, func() {
		var c chunk
		c.add(line)
		text = c.text()
	}); n != 0 {
		t.Errorf("a chunk of one line made %v allocations, want none", n)
	}
	if text != line || unsafe.StringData(text) != unsafe.StringData(line) {
		t.Errorf("a chunk of one line reads %q, not the line itself", text)
	}
	var c chunk
	c.add(line)
	c.add("And I join.")
	if got, want := c.text(), line+" And I join."; got != want {
		t.Errorf("two lines read %q, want %q", got, want)
	}
}
