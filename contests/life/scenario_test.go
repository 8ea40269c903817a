package life

import (
	"strings"
	"testing"
)

// A month of play, mbox in, mails out, golden: three players join and claim
// Cells (with a claim of a living Cell and an overdraft refused), two weekly
// Rounds, the first-full-week Round of December with the Notice of Award and
// the Vial reset, a suggestion adopted by consent that selects the original
// R21/R23, and the next Round sharing the contest's Vials the original way.
func TestScenarioMonth(t *testing.T) {
	h := newHarness(t, "2026-11-16T12:00:00Z")
	h.Mbox("testdata/month.mbox")
	h.Advance("2026-12-14T00:00:00Z")
	h.Golden("testdata/month.golden")

	s := st(h)
	if s.Rounds != 4 {
		t.Errorf("rounds = %d, want 4 (Nov 23, Nov 30, Dec 7, Dec 14)", s.Rounds)
	}
	if got := h.S.Games[ID].Params["R21"]; got != Original {
		t.Errorf("R21 variant = %q, want original after Suggestion #1", got)
	}
	if s.LastRound == nil || s.LastRound.Variant != Original {
		t.Errorf("the Dec 14 Round used variant %+v, want original", s.LastRound)
	}
	var award, change bool
	for _, o := range h.Sent {
		award = award || o.Subject == "Life Contest: Notice of Award"
		change = change || o.Subject == "Life Contest - Change of Regulations"
	}
	if !award || !change {
		t.Errorf("notice of award sent: %v, change of regulations sent: %v", award, change)
	}
	for _, o := range h.Sent {
		if strings.Contains(o.Body, "master secret") {
			t.Errorf("notice %s mentions the master secret", o.ID)
		}
	}
}
