package steemfield

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScenario replays five players over five rounds from an mbox (mail in,
// mail out, golden): a tied vote that fails 1.000 to 1.000, a passed
// replacement that sets a parameter, a passed subtraction, a passed addition
// that needs the totem controller's ruling (G9), a referral, a gift, a burn
// that puts a lower-power player's proposal first, growth and deaths on the
// map, a placement conflict and violations (a second vote, a second
// placement) denying the end-of-round LAND.
func TestScenario(t *testing.T) {
	h := newHarness(t)
	h.Mbox("testdata/scenario.mbox")
	h.Advance("2026-12-13T12:00:00Z")
	h.Private("2026-12-13T13:00:00Z", "cm@example.test", "I rule on #1: confirmed as written; it has no effect the referee must apply.")
	h.Advance("2026-12-16T10:30:00Z")
	h.Golden("testdata/scenario.golden")

	s := data0(h)
	if s.Round != 6 {
		t.Errorf("round = %d, want 6", s.Round)
	}
	if got := h.S.Games[ID].Params[PWin]; got != "40" {
		t.Errorf("WinLAND = %q, want 40 after the passed replacement of Gameplay 5", got)
	}
	// The ledger's LAND never exceeds the cap.
	if sup := h.S.Ledger.Supply[LAND]; sup > 100 {
		t.Errorf("LAND supply %d exceeds the cap", sup)
	}
	var names []string
	for _, m := range s.Players {
		names = append(names, m.Name)
	}
	if diff := cmp.Diff([]string{"Alice", "Bob", "Carol", "Dave", "Erin"}, names); diff != "" {
		t.Errorf("players (-want +got):\n%s", diff)
	}
}
