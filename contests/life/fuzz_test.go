package life

import (
	"strings"
	"testing"
)

// The parsers of player text never panic, and what they return is sane.
func FuzzParseCells(f *testing.F) {
	for _, s := range []string{"(12, 34)", "(1,2) and (3, 4)", "12,34", "(-1, -1)", "((", "(99999999999999999999, 1)", "", " \t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pts, ok := parseCells(s)
		if ok != (len(pts) > 0) {
			t.Errorf("parseCells(%q) = %v, %v: ok must mean at least one Cell", s, pts, ok)
		}
		for _, p := range pts {
			if !strings.Contains(s, ",") {
				t.Errorf("parseCells(%q) found %v without a comma", s, p)
			}
		}
	})
}

func FuzzSuggestionText(f *testing.F) {
	f.Add("I suggest: SET VPP = 12", 0)
	f.Add("Hi\nI suggest the following change:\nSELECT original\nEND", 3)
	f.Fuzz(func(t *testing.T, msg string, off int) {
		txt := suggestionText(msg, off)
		if len(txt) > len(msg) {
			t.Errorf("the text is longer than the message")
		}
		cs, err := parseChanges(New(), txt)
		if err != nil {
			return
		}
		for _, n := range regulationsOf(txt, cs) {
			if n < 1 || n > 99 {
				t.Errorf("regulation %d named", n)
			}
		}
		for _, ch := range cs {
			p, ok := findParam(New(), ch.Param)
			if !ok {
				t.Fatalf("change of unknown parameter %q", ch.Param)
			}
			if v, err := p.Validate(ch.Value); err != nil || v != ch.Value {
				t.Errorf("change %s = %q does not validate to itself: %q, %v", ch.Param, ch.Value, v, err)
			}
		}
	})
}
