package contract

import (
	"regexp"
	"testing"
)

// CheckVerbFirstBytes fails when a verb of e whose first bytes rule text
// out matches it; it returns how many of e's verbs have first bytes (the
// others are tried on every action).
func CheckVerbFirstBytes(t testing.TB, e *Engine, text string) int {
	t.Helper()
	n := 0
	for _, cv := range e.verbs {
		if cv.first != nil {
			n++
		}
		if !cv.first.mayBegin(text) && cv.re().MatchString(text) {
			t.Errorf("verb %s of %q: %q begins with a byte its first bytes rule out, and matches %s", cv.verb.Name, cv.game, text, cv.re())
		}
	}
	return n
}

// TestFirstBytesOf: the first bytes of expressions of every shape a
// verb's pattern has, against what each matches.
func TestFirstBytesOf(t *testing.T) {
	for _, c := range []struct {
		re         string
		none       bool   // no first bytes: tried on every text
		yes, no    string // texts whose first byte may and may not begin a match
		nonASCII   bool
		matchEmpty bool
	}{
		{re: `(?i)^(?:claim)$`, yes: "cC", no: "dD0 (", nonASCII: true},
		{re: `^(?:claim)$`, yes: "c", no: "CdD0 (", nonASCII: false},
		{re: `(?i)^(?:(?:join|enter)\s+x)$`, yes: "jJeE", no: "xX ", nonASCII: true},
		{re: `(?i)^(?:(?P<n>\d+)\s+vials?)$`, yes: "0123456789", no: "vV "},
		{re: `(?i)^(?:(?:take\s+)?cells?)$`, yes: "tTcC", no: "eE", nonASCII: true}, // a folded letter is taken to reach past ASCII
		{re: `(?i)^(?:\bkeep)$`, yes: "kK", no: "eE", nonASCII: true},               // K, the Kelvin sign, folds to k
		{re: `(?i)^(?:.*)$`, none: true},
		{re: `(?i)^(?:x?)$`, none: true, matchEmpty: true},
		{re: `(?i)(?:claim)$`, none: true}, // not anchored
		{re: `^(?:é|e)`, yes: "e", no: "E", nonASCII: true},
		{re: `^(?:[a-\x{80}]x)`, yes: "a\x7f", no: "A0", nonASCII: true}, // a range that ends at U+0080, the first rune past ASCII
	} {
		re := regexp.MustCompile(c.re)
		fb, err := firstBytesOf(c.re)
		if err != nil {
			t.Errorf("%s: %v", c.re, err)
			continue
		}
		if (fb == nil) != c.none {
			t.Errorf("%s: first bytes %v, want none: %v", c.re, fb, c.none)
			continue
		}
		if c.matchEmpty && fb.mayBegin("") != re.MatchString("") {
			t.Errorf("%s: the empty text may begin a match: %v", c.re, fb.mayBegin(""))
		}
		if fb == nil {
			continue
		}
		for _, b := range []byte(c.yes) {
			if !fb.mayBegin(string(b)) {
				t.Errorf("%s: %q ruled out", c.re, b)
			}
		}
		for _, b := range []byte(c.no) {
			if fb.mayBegin(string(b)) {
				t.Errorf("%s: %q may begin a match", c.re, b)
			}
		}
		if fb.mayBegin("\u212Aé") != c.nonASCII {
			t.Errorf("%s: a rune past ASCII may begin a match: %v, want %v", c.re, fb.mayBegin("\u212Aé"), c.nonASCII)
		}
	}
}

// ShortcutSeeds are the sentences the reader's shortcuts are tested on.
func ShortcutSeeds(t testing.TB) []string { return shortcutSeeds(t) }
