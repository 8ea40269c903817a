package contract_test

import (
	"strings"
	"testing"

	"referee/contract/contracttest"
)

// TestCorrectionAnswersOneOfTwoClaims: a correction that answers the claim
// on one report lets that report self-ratify again, a period after the
// correction, while another claim, on another report, stays open and
// keeps its report from self-ratifying.
func TestCorrectionAnswersOneOfTwoClaims(t *testing.T) {
	h := newToy(t)
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	h.Public("2026-12-01T10:07:00Z", alice, "I transfer 2 coins to Bob.") // m3
	h.Advance("2026-12-07T00:00:00Z")
	for _, c := range []struct{ at, from, text string }{
		{"2026-12-07T10:00:00Z", alice, "I CoE on toy/report/2026-W50: my transfer."},
		{"2026-12-14T10:00:00Z", bob, "I CoE on toy/report/2026-W51: my coins."},
	} {
		h.Advance(c.at)
		if r := h.Public(c.at, c.from, c.text); r == nil || !strings.Contains(r.Body, "recorded") {
			t.Fatalf("the claim %q: %v", c.text, r)
		}
	}
	h.Private("2026-12-14T11:00:00Z", "Contestmaster <"+contracttest.Contestmaster+">", "I correct CoE #1: message <m3@example.test> is void.")
	fixes := h.S.PendingCorrections()
	if len(fixes) != 1 {
		t.Fatalf("pending corrections: %v", fixes)
	}
	if _, _, err := h.Correct("2026-12-14T11:00:00Z", fixes[0], nil); err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, x := range h.S.Cites() {
		status[x.ID] = x.Status + " " + x.Ratifies.Format("2006-01-02T15:04")
	}
	for id, want := range map[string]string{
		"toy/report/2026-W50": "pending 2026-12-21T11:00",
		"toy/report/2026-W51": "claimed",
	} {
		if got := status[id]; !strings.HasPrefix(got, want) {
			t.Errorf("%s is %q, want %q", id, got, want)
		}
	}
}
