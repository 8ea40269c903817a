package contract_test

import (
	"testing"

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
