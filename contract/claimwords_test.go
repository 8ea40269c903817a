package contract_test

import (
	"strings"
	"testing"
)

// TestPublicClaimQuotedAsWritten: the next report lists an open claim made on
// a public list with its words between quotation marks as the player wrote
// them, where a quotation mark or backslash in them was escaped with a
// backslash as in Go source (`the report says \"3 coins\"`).
func TestPublicClaimQuotedAsWritten(t *testing.T) {
	h := newToy(t)
	h.Advance("2026-12-07T00:00:00Z")
	h.Public("2026-12-07T10:05:00Z", alice, "I join the Toy game.")
	h.Advance("2026-12-14T00:00:00Z")
	words := `the report says "3 coins" (C:\toy), I have 4.`
	if r := h.Public("2026-12-14T10:00:00Z", alice, "I CoE on toy/report/2026-W51: "+words); r == nil || !strings.Contains(flat(r.Body), "Claim of Error #1 recorded") {
		t.Fatalf("the claim: %v", r)
	}
	var report string
	for _, o := range h.Advance("2026-12-21T00:00:00Z") {
		if b := flat(o.Body); strings.Contains(b, "Cite as: toy/report/2026-W52") {
			report = b
		}
	}
	if want := `Open Claims of Error: #1 by Alice on toy/report/2026-W51 (2026-12-14 10:00): "` + words + `"; awaiting the contestmaster`; !strings.Contains(report, want) {
		t.Errorf("the report does not list\n%s\nin\n%s", want, report)
	}
}
