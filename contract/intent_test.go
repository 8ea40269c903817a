package contract_test

import (
	"strings"
	"testing"

	"referee/contract/contracttest"
)

// joined is a toy harness where Alice, Bob, Carol and Dan have joined.
func joined(t *testing.T) *contracttest.Harness {
	t.Helper()
	h := newToy(t)
	for _, p := range []string{alice, bob, carol, dan} {
		h.Public("2026-12-01T10:05:00Z", p, "I join the Toy game.")
	}
	return h
}

const dan = "Dan <dan@example.test>"

// TestIntentExpires: an intent can be resolved until 14 days after it is
// tabled (G7); at the 14th day it is dropped from the state, with a journal
// line, and "I do so" then finds nothing to resolve.
func TestIntentExpires(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Advance("2026-12-15T10:09:00Z")
	if len(h.S.Intents) != 1 {
		t.Fatalf("the intent is gone before its 14 days: %+v", h.S.Intents)
	}
	h.Advance("2026-12-15T10:10:00Z")
	if len(h.S.Intents) != 0 {
		t.Errorf("the state still holds the intent after 14 days: %+v", h.S.Intents)
	}
	expired := false
	for _, en := range h.Entries {
		expired = expired || en.Verb == "intent expired" && en.Detail["intent"] == 1
	}
	if !expired {
		t.Error("the journal has no line for the expired intent")
	}
	r := h.Public("2026-12-15T10:11:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "0 done, 1 not done") || h.Data("toy").(*toyState).Ended {
		t.Errorf("an intent resolved after 14 days:\n%s", r.Body)
	}

	// A minute before the 14 days end it still resolves.
	h = joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	r = h.Public("2026-12-15T10:09:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "Done: the game of Toy is over") {
		t.Errorf("an intent did not resolve on its 14th day:\n%s", r.Body)
	}
}

// TestAgoranConsent: with Agoran consent, the action passes only with more
// supporters than objectors; a tie does not pass (G7, AGORA "Dependent
// actions").
func TestAgoranConsent(t *testing.T) {
	h := joined(t)
	r := h.Public("2026-12-01T10:10:00Z", alice, "I intend, with Agoran consent, to reset the Toy rounds.")
	if !strings.Contains(flat(r.Body), "intent #1 tabled: reset the Toy rounds, with Agoran consent") {
		t.Fatalf("receipt:\n%s", r.Body)
	}
	h.Public("2026-12-01T11:00:00Z", bob, "I support intent #1.")
	h.Public("2026-12-01T11:01:00Z", carol, "I object to intent #1.")
	r = h.Public("2026-12-05T10:11:00Z", alice, "I do so.")
	if !strings.Contains(flat(r.Body), "intent #1 has 1 supporters and 1 objectors; consent needs more supporters") {
		t.Errorf("a tie passed:\n%s", r.Body)
	}
	h.Public("2026-12-05T11:00:00Z", dan, "I support intent #1.")
	r = h.Public("2026-12-05T11:01:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "Done: the Toy rounds are reset") {
		t.Errorf("two supporters against one objector did not pass:\n%s", r.Body)
	}
}
