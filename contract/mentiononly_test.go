package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// riddle is the toy game under another name, whose first form shares no
// word with a mention of it and whose second shares three ("the", "riddle",
// "contest").
type riddle struct{ toy }

func (g *riddle) Spec() contract.Spec {
	return contract.Spec{ID: "riddle", Title: "Riddle", Aliases: []string{"riddle"}, Guide: "The riddle game.\n"}
}

func (g *riddle) Verbs() []*contract.Verb {
	return []*contract.Verb{
		{Name: "guess", Pattern: `guess (?P<n>\d+)`, Syntax: "I guess N", Rule: "Q1",
			Do: func(c *contract.Ctx, a *contract.Action) error { return nil }},
		{Name: "leave", Pattern: `leave`, Syntax: "I leave the Riddle contest", Rule: "Q2",
			Do: func(c *contract.Ctx, a *contract.Action) error { return nil }},
	}
}

// TestMentionOnlyIsNotTheAction: a sentence that is only a mention of a
// game ("I the Riddle contest") is not understood, and the nearest form
// the receipt suggests is chosen from what the sentence says besides the
// mention (nothing: the game's first form), as for a mention after an
// action, not from the words of the mention itself.
func TestMentionOnlyIsNotTheAction(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &riddle{})
	for _, text := range []string{"I the Riddle contest.", "I for the Riddle contest."} {
		r := h.Public("2026-12-01T10:05:00Z", alice, text)
		want := `not understood; the nearest form is: I guess N (send "help riddle" for all)`
		if r == nil || !strings.Contains(flat(r.Body), want) {
			t.Errorf("%q: the receipt lacks %q: %v", text, want, r)
		}
	}
	r := h.Public("2026-12-01T10:06:00Z", alice, "I leave at once, in the Riddle contest.")
	if want := "the nearest form is: I leave the Riddle contest"; r == nil || !strings.Contains(flat(r.Body), want) {
		t.Errorf("the receipt lacks %q: %v", want, r)
	}
}
