package life

import (
	"strings"
	"testing"

	"referee/contract"
)

// TestRevisionShowsACorrectedClaimOnce: Alice's join misread ("I jion"),
// her claim is refused, as she is no contestant; corrected to read "I join
// the Life contest.", the claim is made. The revision's mail listed it
// under "Outcomes that changed" twice, "Alice life coe" (was: not in the
// record) and "- coe" (now: no longer happens), since the refusal is
// journaled without a game and without a player (she was none) and the
// claim with both. It is one change now, "was" the refusal and "now" the
// claim; the journaled revision keeps the two (referee verify re-computes
// it as written).
func TestRevisionShowsACorrectedClaimOnce(t *testing.T) {
	h := recordedJoins(t, bob)
	notDone(t, h.Public("2026-11-16T13:05:00Z", alice, "I jion the Life contest."), "not understood") // m2
	notDone(t, h.Private("2026-11-16T14:00:00Z", alice, "I CoE on randomness/2026-W47/20261116T120000: the map is wrong."), "")
	done(t, h.Private("2026-11-16T14:01:00Z", bob, "I CoE on randomness/2026-W47/20261116T120000: Alice's join was misread."), "Claim of Error #1")
	rev, _, err := h.Correct("2026-11-16T15:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m2@example.test", Text: "I join the Life contest."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	claims := 0
	for _, o := range rev.Outcomes {
		if o.Old != nil && o.Old.Verb == "coe" || o.New != nil && o.New.Verb == "coe" {
			claims++
		}
	}
	if claims != 2 {
		t.Errorf("the journaled revision has %d outcomes of the claim, want the two as journaled", claims)
	}
	_, outcomes, _ := strings.Cut(rev.Text(), "Outcomes that changed")
	outcomes, _, _ = strings.Cut(outcomes, "The state")
	want := "2026-11-16 14:00  Alice  life coe\n" +
		"    was: rejected\n" +
		"    now: applied\n"
	if got := strings.Count(outcomes, "14:00"); got != 1 || !strings.Contains(outcomes, want) {
		t.Errorf("the outcomes that changed (the claim %d times):\n%s\nwant the claim once:\n%s", got, outcomes, want)
	}
}

// TestRevisionShowsAClaimNoLongerMadeOnce: the other way, Alice's claim
// made in the record and refused in the corrected one, her join void, is
// one change under her name.
func TestRevisionShowsAClaimNoLongerMadeOnce(t *testing.T) {
	h := recordedJoins(t, alice, bob)
	done(t, h.Private("2026-11-16T14:00:00Z", alice, "I CoE on randomness/2026-W47/20261116T120000: the map is wrong."), "Claim of Error #1")
	done(t, h.Private("2026-11-16T14:01:00Z", bob, "I CoE on randomness/2026-W47/20261116T120000: Alice never joined."), "Claim of Error #2")
	rev, _, err := h.Correct("2026-11-16T15:00:00Z", contract.Correction{CoE: 2, Kind: contract.FixVoid, MsgID: "m1@example.test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, outcomes, _ := strings.Cut(rev.Text(), "Outcomes that changed")
	outcomes, _, _ = strings.Cut(outcomes, "The state")
	want := "2026-11-16 14:00  Alice  coe\n" +
		"    was: applied\n" +
		"    now: rejected\n"
	if got := strings.Count(outcomes, "14:00"); got != 1 || !strings.Contains(outcomes, want) {
		t.Errorf("the outcomes that changed (the claim %d times):\n%s\nwant the claim once:\n%s", got, outcomes, want)
	}
}
