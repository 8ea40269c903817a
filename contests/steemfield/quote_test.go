package steemfield

import (
	"strings"
	"testing"
)

// TestProposalQuotedAsWritten: a proposal's text is quoted as the player wrote
// it, in the receipt and the results post: quotation marks
// and backslashes inside it stay as they are, where they were escaped with
// backslashes (`say \"hello\"`) as in Go source.
func TestProposalQuotedAsWritten(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	text := `A player who writes "hello" (or C:\games) gets 1 LAND.`
	want := `ADDITION to Gameplay: "` + text + `"`
	r := reply(t, h, "2026-12-01T11:00:00Z", players[0], "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\n"+text+"\n---", r1)
	mustContain(t, r, "Done: your proposal is recorded: "+want)
	h.Advance("2026-12-02T10:30:00Z")
	for _, p := range players[:3] {
		reply(t, h, "2026-12-02T11:00:00Z", p, "{YES}", p1)
	}
	ns := h.Advance("2026-12-04T10:30:00Z")
	post := findNotice(ns, "steemfield/round/2/results-post")
	mustContain(t, post, "The proposal of Alice: "+want, "Gameplay 16. "+text)
	for _, n := range ns {
		if strings.Contains(n.Body, `\"`) {
			t.Errorf("%s escapes a quotation mark:\n%s", n.ID, n.Body)
		}
	}
}
