package scenario

import (
	"errors"
	"strings"
	"testing"

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
//   - CoE #2, denied: Bob doubts a report that is right;
//   - CoE #3, a misread claim: Carol's message of 18 November is re-read as
//     claiming Cell (12, 10); the correction is refused, since the Round
//     reports it changes have self-ratified, until the contestmaster states
//     that it overrides ratification.
//
// The claims are filed by the players' mail and answered by the
// contestmaster's; what has ratified is the referee's own record of
// citations.
func TestScenarioCorrections(t *testing.T) {
	h := contracttest.New(t, "2026-11-16T12:00:00Z", life.New(), rumble.New())
	h.Record()
	h.Mbox("testdata/weeks1.mbox")
	h.Advance("2026-11-25T09:00:00Z")
	// Ratified: what the referee's own record of citations says.
	ratified := func(id string) bool {
		for _, c := range h.S.Cited {
			if c.ID == id {
				return c.Status == "ratified"
			}
		}
		return false
	}
	var reports []*contract.Outgoing
	life5 := "life5.alice@example.test"
	cells := func() map[string]string { return h.Data(life.ID).(*life.State).Cells }
	before := cells()["alice@example.test"]

	// CoE #1: the late message, claimed by Alice, corrected by mail.
	claim(t, h, "2026-11-25T09:30:00Z", "alice@example.test", "life5.alice@example.test", "CoE: I sent these claims on Sunday evening; they were held up on the way.", 1)
	fixes := correctByMail(t, h, "2026-11-25T10:00:00Z", "I correct CoE #1: message <"+life5+"> arrived at 2026-11-22 23:00.")
	rev, out, err := h.Correct("2026-11-25T10:00:00Z", fixes[0], ratified)
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

	// CoE #2, denied: Bob doubts a report that is right.
	claim(t, h, "2026-12-15T08:00:00Z", "bob@example.test", "", "I CoE on life/report/2026-W51: my Cells are missing.", 2)
	deny := contracttest.Receipt(h.Send(&contract.Message{From: contracttest.Contestmaster, Name: "The Contestmaster",
		Date: contracttest.At(t, "2026-12-15T08:30:00Z"), Arrived: contracttest.At(t, "2026-12-15T08:30:00Z"), Subject: "CoE #2",
		Channel: contract.ChanPrivate, Authenticated: true, Text: "I deny CoE #2: Bob has no living Cells since the Round of 7 December."}))
	if deny == nil || !strings.Contains(deny.Body, "1 done") {
		t.Fatalf("the denial was not done: %v", deny)
	}
	// CoE #3: the misread claim; the reports it changes have ratified.
	claim(t, h, "2026-12-15T09:00:00Z", "carol@example.test", "life3.carol@example.test", "CoE: I claimed Cell (12, 10), not (10, 10), in Life.", 3)
	fixes = correctByMail(t, h, "2026-12-15T10:00:00Z", "I correct CoE #3: message <life3.carol@example.test> reads `Me too. I join the Life contest.\nI claim cell (12, 10) in Life.\nI claim cells (40, 40), (41, 40), (42, 40), (40, 41) and (41, 42) in Life.`")
	_, out, err = h.Correct("2026-12-15T10:00:00Z", fixes[0], ratified)
	var refused *contract.RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("a correction changing ratified reports was not refused: %v", err)
	}
	if len(out) != 1 || out[0].To[0] != contracttest.Contestmaster || !strings.Contains(out[0].Body, "\"overriding") {
		t.Fatalf("the contestmaster is not told why the correction was refused: %v", out)
	}
	fixes = correctByMail(t, h, "2026-12-15T11:00:00Z", "I correct CoE #3: message <life3.carol@example.test> reads `Me too. I join the Life contest.\nI claim cell (12, 10) in Life.\nI claim cells (40, 40), (41, 40), (42, 40), (40, 41) and (41, 42) in Life.`, overriding ratification.")
	rev, out, err = h.Correct("2026-12-15T11:00:00Z", fixes[0], ratified)
	if err != nil {
		t.Fatal(err)
	}
	if len(rev.Overrides) == 0 || !strings.Contains(find(out, "revision/3").Body, "overrides ratification") {
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

// claim files a claim of error by private mail, in reply to the receipt of
// message about when there is one, and checks its number.
func claim(t *testing.T, h *contracttest.Harness, at, from, about, text string, want int) {
	t.Helper()
	m := &contract.Message{From: from, Date: contracttest.At(t, at), Arrived: contracttest.At(t, at), Subject: "CoE",
		Channel: contract.ChanPrivate, Authenticated: true, Text: text}
	if about != "" {
		receipt := contract.MessageID("receipt/"+about, contract.Domain(contracttest.Referee))
		m.InReplyTo, m.References = []string{receipt}, []string{about, receipt}
	}
	r := contracttest.Receipt(h.Send(m))
	for _, c := range h.S.Claims {
		if c.ID == want {
			return
		}
	}
	t.Fatalf("the claim %q was not filed as #%d: %v", text, want, r)
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
