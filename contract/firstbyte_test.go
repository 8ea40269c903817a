package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
)

// verbTexts are actions as the sentence reader hands them to the verbs:
// those of the phrasing corpus, each in upper and lower case, and texts
// that begin with a rune past ASCII which folds to an ASCII letter (K,
// the Kelvin sign, for k; ſ for s) or with other bytes.
func verbTexts(t testing.TB) []string {
	var out []string
	for _, s := range contract.ShortcutSeeds(t) {
		for _, sen := range contract.Sentences(s) {
			p, ok := contract.ReadPerformative(sen.Text)
			if !ok {
				continue
			}
			for _, a := range []string{p.Action, strings.ToUpper(p.Action), strings.ToLower(p.Action)} {
				out = append(out, a, "\u212A"+a, "ſ"+a, "\u017F"+strings.TrimLeft(a, "sS"), "\u212A"+strings.TrimLeft(a, "kK"), " "+a, "("+a)
			}
		}
	}
	return append(out, "", "\u212Aeep", "ſearch", "ſend 2 Vials to Bob", "\xff", "1 Vial to Bob", "(1, 2)", "#3")
}

// TestVerbFirstBytes: a verb whose first bytes rule an action out does not
// match it, for every verb of the four games and the referee's own, over
// the phrasing corpus; and most verbs have first bytes, so that most are
// not tried on an action.
func TestVerbFirstBytes(t *testing.T) {
	e := corpusEngine(t)
	n, verbs := 0, 0
	for _, text := range verbTexts(t) {
		n = contract.CheckVerbFirstBytes(t, e, text)
	}
	for _, g := range e.Games() {
		for _, v := range g.Verbs() {
			if !v.Extracted {
				verbs++
			}
		}
	}
	if n < verbs/2 {
		t.Errorf("%d verbs have first bytes, of %d and more: most verbs are tried on every action", n, verbs)
	}
}

func FuzzVerbFirstBytes(f *testing.F) {
	e := corpusEngine(f)
	for _, s := range verbTexts(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		contract.CheckVerbFirstBytes(t, e, text)
	})
}
