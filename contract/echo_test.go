package contract_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
)

// A receipt quotes each action as the player wrote it. "I transfer 3 Vials
// to Bob, then claim cell (1, 2) in Life." was quoted back as "I transfer
// 3 Vials to Bob in life" (the game the reader gave the transfer, which
// the player never wrote) and "... and claim cell (1, 2) in Life" (an
// "and" for eir "then"); the items of "I perform the following actions, in
// order:" as "I Transfer 1 Vial to Bob." (the "I" the reader put over the
// list mark, before the item's capital). Each part of a sentence is now
// quoted from the sentence, "..." standing for the start it shares, and a
// list's item with its mark.
func TestReceiptQuotesWhatWasWritten(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"I transfer 3 Vials to Bob, then claim cell (1, 2) in Life.",
			[]string{"I transfer 3 Vials to Bob", "... then claim cell (1, 2) in Life."}},
		{"For the record, I transfer 3 Vials to Bob and then I claim cell (1, 2) in Life, please.",
			[]string{"For the record, I transfer 3 Vials to Bob", "... and then I claim cell (1, 2) in Life, please."}},
		{"I transfer 3 Vials to Bob and 2 Vials to Carol.",
			[]string{"I transfer 3 Vials to Bob", "... and 2 Vials to Carol."}},
		{"I perform the following actions, in order:\n1. Transfer 1 Vial to Bob.\n2.  claim cell (3, 4) in Life.\n- transfer 1 Vial to Bob, then claim cell (5, 6)\n(c)\tTransfer 1 Vial to Carol",
			[]string{"1. Transfer 1 Vial to Bob.", "2. claim cell (3, 4) in Life.", "- transfer 1 Vial to Bob", "... then claim cell (5, 6)", "(c) Transfer 1 Vial to Carol"}},
		{"I do the following:\n- Transfer 1 Vial to Bobb.",
			[]string{"- Transfer 1 Vial to Bobb."}},
	} {
		h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
		for _, who := range []string{alice, bob, carol} {
			h.Quietly("2026-11-30T10:00:00Z", who, contract.ChanPublic, "I join the Life contest.")
		}
		r := h.Public("2026-12-01T10:00:00Z", alice, c.text)
		if r == nil {
			t.Errorf("%q: no receipt", c.text)
			continue
		}
		if d := cmp.Diff(c.want, quoted(r)); d != "" {
			t.Errorf("%q: the receipt quotes (-want +got):\n%s\n%s", c.text, d, r.Body)
		}
	}
}
