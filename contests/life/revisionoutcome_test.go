package life

import (
	"strings"
	"testing"

	"referee/contract"
)

// TestRevisionShowsACorrectedTransferOnce: a transfer refused for want of
// Vials and corrected to one that is done is one outcome that changed in
// the revision's mail, "was" the refusal and "now" the transfer. The
// refusal is journaled without a game and the transfer with Life's, and
// the mail showed them as two: "life transfer", not in the record, and
// "transfer", no longer happening. The journaled revision keeps the two
// (referee verify re-computes it as written).
func TestRevisionShowsACorrectedTransferOnce(t *testing.T) {
	h := recordedJoins(t, alice, bob)
	h.Public("2026-11-16T13:05:00Z", alice, "I transfer 30 Vials to Bob.") // m3
	done(t, h.Private("2026-11-16T14:00:00Z", alice, "I CoE on randomness/2026-W47/20261116T120000: my transfer."), "Claim of Error #1")
	rev, _, err := h.Correct("2026-11-16T15:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m3@example.test", Text: "I transfer 3 Vials to Bob."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rev.Outcomes) != 2 {
		t.Errorf("the journaled revision has %d outcomes that changed, want the two as journaled", len(rev.Outcomes))
	}
	body := rev.Text()
	_, outcomes, _ := strings.Cut(body, "Outcomes that changed")
	outcomes, _, _ = strings.Cut(outcomes, "The state")
	want := "2026-11-16 13:05  Alice  life transfer\n" +
		"    was: rejected (you own 10 Vials, fewer than 30 (Life R13))\n" +
		"    now: applied: 3 Vials moved from Alice to Bob; you now own 7\n"
	if got := strings.TrimPrefix(strings.TrimSpace(outcomes), strings.Repeat("-", 21)+"\n"); got != strings.TrimSpace(want) {
		t.Errorf("the outcomes that changed:\n%s\nwant:\n%s", got, want)
	}
}
