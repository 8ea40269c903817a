package contract_test

import (
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// herald is a game whose one verb mails its sender a notice of a fixed ID.
type herald struct{}

func (g *herald) Spec() contract.Spec {
	return contract.Spec{ID: "herald", Title: "Herald", Aliases: []string{"herald"}, Guide: "Shouting.\n"}
}
func (g *herald) NewState() any                                    { return &struct{}{} }
func (g *herald) Init(c *contract.Ctx) error                       { return nil }
func (g *herald) Next(c *contract.Ctx) (contract.Event, bool)      { return contract.Event{}, false }
func (g *herald) Run(c *contract.Ctx, e contract.Event) error      { return nil }
func (g *herald) Report(c *contract.Ctx) (*contract.Notice, error) { return nil, nil }
func (g *herald) Verbs() []*contract.Verb {
	return []*contract.Verb{{Name: "shout", Pattern: `shout (?P<what>\w+)`, Syntax: "I shout <word> in Herald", Rule: "H1",
		Do: func(c *contract.Ctx, a *contract.Action) error {
			c.Notify(&contract.Notice{ID: "herald/shout", Channel: contract.ChanPrivate, To: []string{c.Msg().From},
				Subject: "Shout", Body: a.Arg("what") + "\n"})
			c.Did("shouted %s", a.Arg("what"))
			return nil
		}},
		{Name: "decree", Pattern: `decree (?P<what>\w+)`, Syntax: "I decree <word> in Herald (the contestmaster)", Rule: "H2",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				if !c.FromContestmaster() {
					return contract.Reject("H2", "only the contestmaster decrees")
				}
				c.Did("decreed %s", a.Arg("what"))
				return nil
			}}}
}

// TestSameNoticeIDNumbered: notices of one ID waiting in the outbox
// together are told apart by a number after the first, counting up (the
// mail's Message-ID is made from it: each is a mail of its own).
func TestSameNoticeIDNumbered(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &herald{})
	h.Public("2026-12-01T10:05:00Z", alice, "I shout one in Herald. I shout two in Herald. I shout three in Herald. I shout four in Herald.")
	want := map[string]string{"herald/shout": "one\n", "herald/shout/2": "two\n", "herald/shout/3": "three\n", "herald/shout/4": "four\n"}
	for _, o := range h.Sent {
		if o.Subject != "Shout" {
			continue
		}
		if w, ok := want[o.ID]; !ok || o.Body != w {
			t.Errorf("notice %s says %q", o.ID, o.Body)
		}
		delete(want, o.ID)
	}
	if len(want) != 0 {
		t.Errorf("no notice %v", want)
	}
}

// TestOnlyTheContestmasterDecrees: a verb the game keeps for its
// contestmaster (G8) is done for the contestmaster's address and refused
// naming the rule for anyone else; with no contestmaster named, for no one.
func TestOnlyTheContestmasterDecrees(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &herald{})
	for _, c := range []struct{ from, want string }{
		{alice, "only the contestmaster decrees (H2)"},
		{"The CM <CM@Example.Test>", "Done: decreed peace"},
	} {
		if r := h.Public("2026-12-01T10:05:00Z", c.from, "I decree peace in Herald."); r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%s: the receipt lacks %q:\n%v", c.from, c.want, r)
		}
	}
	h = contracttest.NewConfig(t, contract.Config{Referee: contracttest.Referee, ListWait: time.Hour}, "2026-12-01T10:00:00Z", &herald{})
	if r := h.Public("2026-12-01T10:05:00Z", contracttest.Contestmaster, "I decree peace in Herald."); r == nil || !strings.Contains(flat(r.Body), "only the contestmaster decrees (H2)") {
		t.Errorf("with no contestmaster: %v", r)
	}
}

// TestSendFailedNamesTheNotice: a notice the mail server refuses for good
// leaves the outbox and is listed by `referee check` by its own ID and
// subject; the notices beside it in the outbox stay to be sent.
func TestSendFailedNamesTheNotice(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &herald{})
	at := contracttest.At(t, "2026-12-01T10:05:00Z")
	if _, err := h.E.Apply(h.S, &contract.Message{ID: "s1@example.test", From: "alice@example.test", Name: "Alice", Date: at, Arrived: at,
		Subject: "shouts", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: "I shout one in Herald. I shout two in Herald."}); err != nil {
		t.Fatal(err)
	}
	if o := h.S.SendFailed("herald/shout/2", "550 no such user", true, time.Time{}); o == nil || o.ID != "herald/shout/2" {
		t.Fatalf("SendFailed: %+v", o)
	}
	want := "failed: notice herald/shout/2 (Shout) to alice@example.test could not be delivered: 550 no such user"
	if p := h.E.Check(h.S); len(p) != 1 || p[0] != want {
		t.Errorf("referee check: %q, want %q", p, want)
	}
	var left []string
	for _, o := range h.S.Outbox {
		left = append(left, o.ID)
	}
	if len(left) != 2 || left[0] != "herald/shout" {
		t.Errorf("the outbox holds %v, want herald/shout and the receipt", left)
	}
}
