package wackyworld

import (
	"strings"
	"testing"

	"referee/contract"
)

// TestRevisionPairsChangesByWhatTheyAre: Atlas's one message makes
// modifications #1 (SET BuildXCost = 2) and #2 (SET Width = 20); a
// correction adds SET Height = 20 in front of them. The two keep their
// numbers and their changes, and the new one is #3. Paired by their place
// in the message, the revision's outcomes read "was #1, now #3", "was #2,
// now #1" and "now #2", as if every modification had changed; paired by
// what they are, it lists the one added alone. So also when the
// correction words the action of a kept one otherwise ("i MODIFY the wacky
// world contract: ..."): its outcome names its number.
func TestRevisionPairsChangesByWhatTheyAre(t *testing.T) {
	for _, width := range []string{"I modify the Wacky World contract: SET Width = 20", "i MODIFY the wacky world contract: SET Width = 20"} {
		t.Run(width[:8], func(t *testing.T) { checkRevisionPairs(t, width) })
	}
}

func checkRevisionPairs(t *testing.T, width string) {
	h, atlas := withParties(t)
	modifiesTwiceAtOnce(t, h, atlas)
	if r := h.H.Private("2026-12-01T13:00:00Z", bob, "I CoE on randomness/2026-W49/20261201T090000: a modification is missing."); !strings.Contains(r.Body, "Claim of Error #1 recorded") {
		t.Fatalf("the claim:\n%s", r.Body)
	}
	fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m3@example.test",
		Text: "I modify the Wacky World contract: SET Height = 20\n\nI modify the Wacky World contract: SET BuildXCost = 2\n\n" + width}
	rev, _, err := h.H.Correct("2026-12-01T13:30:00Z", fix, nil)
	if err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	_, outcomes, _ := strings.Cut(rev.Text(), "Outcomes that changed")
	outcomes, _, _ = strings.Cut(outcomes, "\n\n")
	if strings.Contains(outcomes, "#1") || strings.Contains(outcomes, "#2") || strings.Count(outcomes, "was: not in the record") != 1 ||
		!strings.Contains(outcomes, "modification #3") || strings.Contains(outcomes, "no longer happens") {
		t.Errorf("the revision's outcomes list more than the modification added:\n%s", rev.Text())
	}
}
