package scenario

import (
	"errors"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contract"
	"referee/contract/contracttest"
)

// Four weeks of Life and a Rumble game beside it, mbox in, mails out,
// golden, with the contestmaster's corrections:
//
//   - CoE #1, a late-arriving message: Alice's claims of Tuesday 24
//     November reached the referee after the Monday Round; the contestmaster
//     corrects its arrival to Sunday 22 November, so the Round of the 23rd
//     comes out otherwise (the revision lists the Cells and Vials that
//     changed, and the draws);
//   - CoE #2, a misread claim: Carol's message of 18 November is re-read as
//     claiming Cell (12, 10); the correction is refused, since the Round
//     reports it changes have self-ratified, until the contestmaster states
//     that it overrides ratification.
//
// The claims of error are in the starting state, as their filing leaves
// them (filing and denying claims are the claims' own tests); ratification
// is by the self-ratification period, 7 days after a report.
func TestScenarioCorrections(t *testing.T) {
	h := contracttest.New(t, "2026-11-16T12:00:00Z", life.New(), rumble.New())
	h.S.Claims = []*contract.Claim{
		{ID: 1, Game: life.ID, Report: "receipt/life5.alice@example.test", Claimant: "Alice", From: "alice@example.test", What: "my claims were sent on Sunday", Public: true, Status: "open"},
		{ID: 2, Game: life.ID, Report: "receipt/life3.carol@example.test", Claimant: "Carol", From: "carol@example.test", What: "I claimed (12, 10)", Public: true, Status: "open"},
	}
	h.S.NextClaim = 3
	h.Record()
	h.Mbox("testdata/weeks1.mbox")
	h.Advance("2026-11-25T10:00:00Z")
	var reports []*contract.Outgoing
	ratifiedAt := func(now time.Time) func(string) bool {
		return func(id string) bool {
			for _, o := range h.Sent {
				if o.ID == id && (o.Kind == "report" || o.Kind == "notice") && o.Channel != contract.ChanPrivate && !o.Time.Add(contract.DefaultRatification).After(now) {
					return true
				}
			}
			return false
		}
	}
	life5 := "life5.alice@example.test"
	cells := func() map[string]string { return h.Data(life.ID).(*life.State).Cells }
	before := cells()["alice@example.test"]

	// CoE #1: the late message, by mail.
	fixes := correctByMail(t, h, "2026-11-25T10:00:00Z", "I correct CoE #1: message <"+life5+"> arrived at 2026-11-22 23:00.")
	rev, out, err := h.Correct("2026-11-25T10:00:00Z", fixes[0], ratifiedAt(contracttest.At(t, "2026-11-25T10:00:00Z")))
	if err != nil {
		t.Fatal(err)
	}
	revision := find(out, "revision/1")
	if revision == nil || !strings.Contains(revision.Body, "Cell (") || !strings.Contains(revision.Body, "Vials of") {
		t.Fatalf("the revision does not list the changed Cells and Vials:\n%v", revision)
	}
	if cells()["alice@example.test"] == before {
		t.Fatal("the Round after the corrected arrival came out the same")
	}
	roundChanged := false
	for _, c := range rev.Outcomes {
		if c.New != nil && c.New.Verb == "weekly" || c.Old != nil && c.Old.Verb == "weekly" {
			roundChanged = true
		}
	}
	if !roundChanged && len(rev.Notices) == 0 {
		t.Fatalf("the revision lists no Round that changed:\n%s", rev.Text())
	}

	h.Mbox("testdata/weeks2.mbox")
	h.Advance("2026-12-15T10:00:00Z")
	reports = nil
	for _, o := range h.Sent {
		if o.Kind == "report" {
			reports = append(reports, o)
		}
	}
	if len(reports) == 0 {
		t.Fatal("no report was sent")
	}

	// CoE #2: the misread claim; the reports it changes have ratified.
	now := contracttest.At(t, "2026-12-15T10:00:00Z")
	fixes = correctByMail(t, h, "2026-12-15T10:00:00Z", "I correct CoE #2: message <life3.carol@example.test> reads `Me too. I join the Life contest.\nI claim cell (12, 10) in Life.\nI claim cells (40, 40), (41, 40), (42, 40), (40, 41) and (41, 42) in Life.`")
	_, _, err = h.Correct("2026-12-15T10:00:00Z", fixes[0], ratifiedAt(now))
	var refused *contract.RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("a correction changing ratified reports was not refused: %v", err)
	}
	fixes = correctByMail(t, h, "2026-12-15T11:00:00Z", "I correct CoE #2: message <life3.carol@example.test> reads `Me too. I join the Life contest.\nI claim cell (12, 10) in Life.\nI claim cells (40, 40), (41, 40), (42, 40), (40, 41) and (41, 42) in Life.`, overriding ratification.")
	rev, out, err = h.Correct("2026-12-15T11:00:00Z", fixes[0], ratifiedAt(now))
	if err != nil {
		t.Fatal(err)
	}
	if len(rev.Overrides) == 0 || !strings.Contains(find(out, "revision/2").Body, "overrides ratification") {
		t.Fatalf("the override is not said in the revision:\n%s", rev.Text())
	}
	if got := cells()["carol@example.test"]; got == "" {
		t.Fatalf("Carol has no Cell after the override")
	}
	for _, o := range h.Sent {
		if o.Channel != contract.ChanPrivate && strings.Contains(o.Body, "master secret") {
			t.Errorf("notice %s mentions the master secret", o.ID)
		}
	}
	h.Golden("testdata/corrections.golden")
}

// correctByMail sends the contestmaster's correction privately and returns
// the corrections the referee accepted from it.
func correctByMail(t *testing.T, h *contracttest.Harness, at, text string) []contract.Correction {
	t.Helper()
	m := &contract.Message{From: contracttest.Contestmaster, Name: "The Contestmaster", Date: contracttest.At(t, at), Arrived: contracttest.At(t, at),
		Subject: "CoE", Channel: contract.ChanPrivate, Authenticated: true, Text: text}
	n := len(h.Entries)
	r := contracttest.Receipt(h.Send(m))
	fixes := contract.Corrections(h.Entries[n:])
	if len(fixes) != 1 {
		t.Fatalf("the correction %q was not accepted: %v", text, r)
	}
	return fixes
}

func find(ns []*contract.Notice, id string) *contract.Notice {
	for _, n := range ns {
		if n.ID == id {
			return n
		}
	}
	return nil
}
