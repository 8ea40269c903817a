package rumble

import (
	"strings"
	"testing"

	"referee/contract"
)

// TestCorrectionKeepsPowerRulingNumbers: in round 1 Alice and Bob each use
// Flight, a power the referee does not implement, and the contestmaster is
// asked how each use works (requests #1, Alice's, and #2, Bob's, keyed by
// game, round, contestant and power, U5). Carol claims Alice's list was not
// hers, and the contestmaster corrects it to read "none": Alice's use is
// no longer made, and Bob's request keeps #2, so that "I rule on #2"
// answers Bob's use, as it was asked, and #1 answers nothing.
func TestCorrectionKeepsPowerRulingNumbers(t *testing.T) {
	h := atBids(t)
	h.Record()
	flightRulingsDue(t, h)
	if got := rulingKeys(h.S); got != "#1 1/round-1/Alice/Flight #2 1/round-1/Bob/Flight " {
		t.Fatalf("the ruling requests: %s", got)
	}
	var msgID string
	for _, in := range h.RecordedInputs().Inputs {
		if in.Msg != nil && in.Msg.From == "alice@example.test" && in.Msg.Text == "Flight: 5" {
			msgID = in.Msg.ID
		}
	}
	if r := h.Private("2026-12-03T11:00:00Z", carol, "I CoE on rumble/1/round/1/actions: Alice's list was not hers."); !strings.Contains(norm(r.Body), "Claim of Error #1 recorded") {
		t.Fatalf("the claim:\n%s", r.Body)
	}
	fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: msgID, Text: "none"}
	if _, _, err := h.Correct("2026-12-03T11:30:00Z", fix, nil); err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	if got := rulingKeys(h.S); !strings.HasPrefix(got, "#2 1/round-1/Bob/Flight ") || strings.Contains(got, "Alice") {
		t.Fatalf("after the correction the ruling requests are %s, want #2 on Bob's Flight", got)
	}
	if r := h.Private("2026-12-03T12:00:00Z", mars, "I rule on #1: strike Carol 20"); !strings.Contains(norm(r.Body), "no open ruling request #1") {
		t.Errorf("a ruling on #1 after the correction:\n%s", r.Body)
	}
	mustDone(t, h.Private("2026-12-03T12:01:00Z", mars, "I rule on #2: mend 7"))
	if st := data2(h); st.Phase != PhaseRound || st.Round != 2 {
		t.Errorf("phase %q round %d after the ruling on Bob's use, want round 2", st.Phase, st.Round)
	}
}
