package contract_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// reportAt advances the harness to at and returns the last weekly report
// it published by then; the test fails when there is none.
func reportAt(t *testing.T, h *contracttest.Harness, at string) *contract.Notice {
	t.Helper()
	var report *contract.Notice
	for _, n := range h.Advance(at) {
		if n.Kind == "report" {
			report = n
		}
	}
	if report == nil {
		t.Fatalf("no weekly report by %s", at)
	}
	return report
}

// flat folds white space, so tests do not depend on where text wraps.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// receiptHas checks that the receipt text body holds each of wants, its
// lines joined as flat joins them (a player reads the wrapped lines as one).
func receiptHas(t *testing.T, body string, wants ...string) {
	t.Helper()
	text := flat(body)
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("the receipt lacks %q:\n%s", want, body)
		}
	}
}

// other is a second game with a "join" verb, to test routing.
type other struct{ toy }

func (g *other) Spec() contract.Spec {
	s := g.toy.Spec()
	s.ID, s.Title, s.Aliases, s.Currencies = "other", "Other", []string{"other"}, nil
	return s
}

// many is n, or short under -short: the number of random games or inputs of
// a property test. scripts/mutate.sh runs every mutant's tests with -short,
// so each costs seconds, not a minute; the full count runs in CI.
func many(n, short int) int {
	if testing.Short() {
		return short
	}
	return n
}
