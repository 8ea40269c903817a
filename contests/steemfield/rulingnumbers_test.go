package steemfield

import (
	"fmt"
	"testing"

	"referee/contract"
)

// TestCorrectionKeepsTheRoundsRuling: Steemfield numbers nothing a
// correction could move under its players: the request of a ruling on a
// passed rule is keyed by its Round ("rule/2"), not by a count of what was
// made before it. Bob's proposals pass in Rounds 1 and 2 (ruling requests
// #1 on "rule/1", #2 on "rule/2"), and the contestmaster rules on #2; a
// correction voids Bob's first proposal (m4), so that Round 1 passes
// nothing: the second's request keeps its key and its number, and the
// ruling on it still applies. (The rule set's own paragraph numbers follow
// its rules: "Participation 5" is 4 again once 4 is not added.)
func TestCorrectionKeepsTheRoundsRuling(t *testing.T) {
	h := newHarness(t)
	h.Record()
	joinAll(t, h, 3)
	for i, round := range []struct{ results, proposal, propose, advance, vote, end string }{
		{r1, p1, "2026-12-01T11:00:00Z", "2026-12-02T10:30:00Z", "2026-12-02T11:00:00Z", "2026-12-04T10:30:00Z"},
		{"steemfield/round/2/results-post", "steemfield/round/2/proposal-post", "2026-12-04T11:00:00Z", "2026-12-05T10:30:00Z", "2026-12-05T11:00:00Z", "2026-12-07T10:30:00Z"},
	} {
		prop := "---\n{PROPOSAL:ADDITION}\nAddition: Participation\nPlayers must be polite " + []string{"once", "twice"}[i] + ".\n---"
		mustContain(t, reply(t, h, round.propose, players[1], prop, round.results), "Done: your proposal is recorded")
		h.Advance(round.advance)
		mustContain(t, reply(t, h, round.vote, players[1], "{YES}", round.proposal), "Done")
		h.Advance(round.end)
	}
	if got := rulingsOf(h.S); got != "#2 rule/2 " { // #1's default applied at its deadline
		t.Fatalf("the ruling requests: %s", got)
	}
	mustContain(t, h.Private("2026-12-07T12:00:00Z", "cm@example.test", "I rule on #2: SET LANDCap = 120"), "Done")
	mustContain(t, h.Private("2026-12-07T12:10:00Z", players[0], "I CoE on "+r1+": Bob's first proposal was not his."), "Claim of Error #1 recorded")
	rev, _, err := h.Correct("2026-12-07T13:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m4@example.test"}, nil)
	if err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	if !rev.Changed() {
		t.Fatal("voiding the first proposal changed nothing")
	}
	if got := h.S.Games[ID].Params["LANDCap"]; got != "120" {
		t.Errorf("LANDCap = %s after the correction, want the ruling's 120", got)
	}
	if got := rulingsOf(h.S); got != "" {
		t.Errorf("after the correction the ruling requests open are %s", got)
	}
}

func rulingsOf(s *contract.State) string {
	out := ""
	for _, r := range s.Rulings {
		out += fmt.Sprintf("#%d %s ", r.ID, r.Key)
	}
	return out
}
