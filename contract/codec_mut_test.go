package contract_test

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestTextWithC1Controls: a text written double-quoted (it begins with a
// line break) that holds a C1 control character, U+0080 to U+009F, which
// YAML does not allow unescaped, is saved and loaded back whole.
func TestTextWithC1Controls(t *testing.T) {
	for _, r := range []rune{0x80, 0x9f} {
		t.Run(fmt.Sprintf("U+%04X", r), func(t *testing.T) {
			checkTextRoundTrip(t, textState(t, "\n"+string(r)+"a\nb"))
		})
	}
}

// TestTextBesideNULs: a state holding texts that begin with a line break
// beside texts that begin with NULs, among them "\x000" and "\x0000" (what
// a breaking text is written through on its way to the file, a run of NULs
// and its rank), is saved and loaded back with each text in its place: no
// NUL-led text comes back as a breaking text, nor one as another.
func TestTextBesideNULs(t *testing.T) {
	nuls := []string{"\x000", "\x0000", "\x00000", "\x0001", "\x0002", "\x00\x000", "\x00\x0001", "\x00a"}
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	i := 0
	fillText(reflect.ValueOf(h.S), func() string {
		i++
		if i%2 == 0 {
			return nuls[(i/2)%len(nuls)]
		}
		return leadingBreaks[(i/2)%len(leadingBreaks)] + fmt.Sprint(i)
	}, 0)
	checkTextRoundTrip(t, h.S)
}

// TestGameTextWithBlankLine: a game's section holding a text with a blank
// line (a recent event's) is saved as the YAML encoder writes the whole
// state: the blank line stays empty in the file, not a line of the
// section's indentation.
func TestGameTextWithBlankLine(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	g := h.S.Games["toy"]
	g.Recent = append(g.Recent, contract.Happening{Time: contracttest.At(t, "2026-12-01T10:06:00Z"), What: "first line\n\nafter a blank line\n"})
	got, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	enc := yaml.NewEncoder(&want)
	enc.SetIndent(2)
	if err := enc.Encode(h.S); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("saved as\n%s\nthe YAML encoder writes\n%s", got, want.Bytes())
	}
	if !bytes.Contains(got, []byte("first line\n\n")) {
		t.Errorf("the blank line is not empty in the file:\n%s", got)
	}
}

// TestMultilineTextBesideBreakingOnes: beside texts that begin with a line
// break (a line feed, NEL, U+2028, U+2029), each written double-quoted, a
// text of two lines that begins with neither is written as the YAML
// encoder writes it, a literal block, in the saved file (all a player's
// nicknames).
func TestMultilineTextBesideBreakingOnes(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.S.Players[0].Nicknames = []string{"\nbreaking\ntext", "\u0085next line\nx", "\u2028line separator\nx", "\u2029paragraph separator\nx", "first line\nsecond line"}
	b, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`- "\nbreaking\ntext"`, `- "\Nnext line\nx"`, `- "\Lline separator\nx"`, `- "\Pparagraph separator\nx"`, "- |-\n        first line\n        second line\n"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the saved file lacks %q:\n%s", want, b)
		}
	}
	checkTextRoundTrip(t, h.S)
}

// TestBreakingTextAfterDoubleBar: a text that begins with a line break,
// saved after a text holding "||" (a bar right after a bar, where the
// search for the YAML encoder's block headers resumes), is still written
// double-quoted and loaded back whole.
func TestBreakingTextAfterDoubleBar(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.S.Players[0].Nicknames = []string{"this || that", "\nPlease note:\nthe round ends on Monday."}
	checkTextRoundTrip(t, h.S)
}

// TestTabLedTextAlone: a text whose first line begins with a tab, the only
// such text of a player, is saved double-quoted and loaded back whole,
// whatever its end: no line feed, one, or more (the YAML encoder's block
// header "|-", "|" or "|+").
func TestTabLedTextAlone(t *testing.T) {
	for _, nick := range []string{"\ttabbed\nline", "\ttabbed\nline\n", "\ttabbed\nline\n\n"} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.S.Players[0].Nicknames = []string{nick}
		checkTextRoundTrip(t, h.S)
	}
}
