package contract_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// reportOnly is the toy game with a weekly event that only sends the
// report, as Wacky World's and Rumble's report events do, an hour after the
// week begins (so that the core's duties of the week's start come first).
type reportOnly struct{ toy }

func (g *reportOnly) Next(c *contract.Ctx) (contract.Event, bool) {
	if len(c.Players()) == 0 {
		return contract.Event{}, false
	}
	from := c.Section().LastReport
	if from.IsZero() {
		from = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) // the tests' first week
	}
	return contract.Event{At: contract.NextWeekStart(from).Add(time.Hour), Name: "report"}, true
}

func (g *reportOnly) Run(c *contract.Ctx, e contract.Event) error {
	n, err := g.Report(c)
	if err != nil {
		return err
	}
	c.Notify(n)
	c.ReportSent()
	return nil
}

// TestMailedReportIsTheMailedOne: the report MailedReport gives (what
// `referee report` prints) for the state just before a weekly report
// goes out is the report then mailed, citation block and all, and the
// state it was given is unchanged.
func TestMailedReportIsTheMailedOne(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &reportOnly{})
	mustDo(t, h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game."))
	mustDo(t, h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game."))
	// The first week's report (the next goes out as this one ratifies, and
	// the ratification, a core duty of the same instant, comes first).
	at := contracttest.At(t, "2026-12-07T01:00:00Z")
	mustDo(t, h.Public(at.Add(-2*time.Hour).Format(time.RFC3339), alice, "I transfer 1 coin to Bob."))
	h.Advance(at.Add(-time.Minute).Format(time.RFC3339)) // the week's start
	before := contract.Snapshot(h.S)
	before.Clock = at
	kept := contract.Snapshot(before)
	want, err := h.E.MailedReport(before, "toy", at)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, kept) {
		t.Error("MailedReport changed the state it was given")
	}
	got := reportAt(t, h, at.Format(time.RFC3339))
	if got.ID != want.ID || got.Subject != want.Subject || got.Body != want.Body {
		t.Errorf("the report as it would be mailed:\n%s %s\n%s\n--- the report mailed:\n%s %s\n%s", want.ID, want.Subject, want.Body, got.ID, got.Subject, got.Body)
	}
	if !strings.Contains(got.Body, "Cite as: "+got.ID) {
		t.Errorf("the mailed report has no citation block:\n%s", got.Body)
	}
}

func mustDo(t *testing.T, r *contract.Notice) {
	t.Helper()
	if r == nil || !strings.Contains(r.Body, "1 done, 0 not done") {
		t.Fatalf("not done:\n%v", r)
	}
}
