package contract_test

import (
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
)

// Several actions with one "I" after a transfer, or joined by "then", are
// read as several (AGORA "What performs an action"): "I transfer 3 Vials to
// Bob, then claim cell (1, 2) in Life." was refused as a transfer to a
// player called "Bob, then claim cell (1, 2)", and so were "... and claim
// ...", "..., and then I claim ..." and "... to Bob and 2 Vials to Carol",
// which now shares the verb of its first part. "... to Bob and Carol"
// names no action after "and", and is still refused.
func TestThenAndAfterATransfer(t *testing.T) {
	for _, c := range []struct {
		text      string
		want      []string
		bob, carl int64
	}{
		{"I transfer 3 Vials to Bob, then claim cell (1, 2) in Life.",
			[]string{"Done: 3 Vials moved from Alice to Bob", "Done: you Control Cell (1, 2)", "2 done, 0 not done"}, 13, 10},
		{"I transfer 3 Vials to Bob, and then I claim cell (1, 2) in Life.",
			[]string{"Done: 3 Vials moved from Alice to Bob", "Done: you Control Cell (1, 2)", "2 done, 0 not done"}, 13, 10},
		{"I transfer 3 Vials to Bob and claim cells (1, 2) and (3, 4) in Life.",
			[]string{"Done: 3 Vials moved from Alice to Bob", "Done: you Control Cells (1, 2), (3, 4)", "2 done, 0 not done"}, 13, 10},
		{"I transfer 3 Vials to Bob and 2 Vials to Carol.",
			[]string{"> ... and 2 Vials to Carol", "Done: 2 Vials moved from Alice to Carol", "2 done, 0 not done"}, 13, 12},
		{"I transfer 3 Vials to Bob and Carol.",
			[]string{`Not done: no player is known as "Bob and Carol"`}, 10, 10},
	} {
		h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
		for _, who := range []string{alice, bob, carol} {
			h.Quietly("2026-11-30T10:00:00Z", who, contract.ChanPublic, "I join the Life contest.")
		}
		r := h.Public("2026-12-01T10:00:00Z", alice, c.text)
		for _, w := range c.want {
			if r == nil || !strings.Contains(flat(r.Body), w) {
				t.Errorf("%q: the receipt lacks %q:\n%v", c.text, w, r)
			}
		}
		if b, cl := h.S.Ledger.Balance(life.Vial, "Bob"), h.S.Ledger.Balance(life.Vial, "Carol"); b != c.bob || cl != c.carl {
			t.Errorf("%q: Bob owns %d Vials and Carol %d, want %d and %d", c.text, b, cl, c.bob, c.carl)
		}
	}
}
