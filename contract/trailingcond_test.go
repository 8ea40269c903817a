package contract_test

import (
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
)

// A condition written after the action is decided as one written before it
// (G3): "I transfer 1 coin to Bob if I own at least 5 coins" was refused
// as a transfer to a player called "Bob if I own at least 5 coins", and a
// Wacky World drop took the condition for part of the thing's name. One
// the referee cannot decide ("unless ...", "(if I have them)") makes the
// action fail, as before it.
func TestConditionAfterTheAction(t *testing.T) {
	for _, c := range []struct {
		text, want string
		done       bool
	}{
		{"I transfer 1 coin to Bob if I own at least 5 coins.", `Done: condition "I own at least 5 coins" holds`, true},
		{"I transfer 1 coin to Bob, if I own at least 6 coins.", `Not done: the condition "I own at least 6 coins" is false, so the action was not performed (G3)`, false},
		{"I transfer 1 coin to Bob provided that I own at least 5 coins.", `Done: condition "I own at least 5 coins" holds`, true},
		{"I transfer 1 coin to Bob as long as I own at most 4 coins.", `the condition "I own at most 4 coins" is false`, false},
		{"I transfer 1 coin to Bob (if I have them).", `Not done: the referee cannot decide the condition "I have them" from the state`, false},
		{"I transfer 1 coin to Bob unless Carol objects.", `Not done: the referee cannot decide the condition "unless Carol objects" from the state`, false},
		{"If I am a player of Toy, I transfer 1 coin to Bob if I own at least 6 coins.", `the condition "I am a player of Toy and I own at least 6 coins" is false`, false},
	} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game.")
		r := h.Public("2026-12-01T10:06:00Z", alice, c.text)
		if r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%q: the receipt lacks %q:\n%v", c.text, c.want, r)
			continue
		}
		if got := h.S.Ledger.Balance("toy/coin", "Bob") == 6; got != c.done {
			t.Errorf("%q: transferred %v, want %v:\n%s", c.text, got, c.done, r.Body)
		}
	}
}

// A condition's words inside the text of an action that carries one (after
// a colon, in quotation marks, or after a verb whose argument is a text, a
// suggestion's or an amendment's) stay in the text: "if" in a suggestion is
// the suggestion's. Without a colon, "I suggest we let a Cell survive if it
// has 2 neighbours." was read as a suggestion on the condition "it has 2
// neighbours", refused as a condition the referee cannot decide, and an
// amendment lost the words from "if" on.
func TestConditionInsideATextIsTheTexts(t *testing.T) {
	e := corpusEngine(t)
	for _, text := range []string{
		"I suggest the following change to the Life regulations: a Cell dies if it is lonely.",
		"I intend, without 3 objections, to amend Wacky World: parties may move twice if they reap.",
		"I suggest we let a Cell survive if it has 2 neighbours.",
		"If I am a contestant of Life, I suggest we let a Cell survive if it has 2 neighbours.",
		"Without 3 objections, I amend Wacky World by letting parties move twice if they reap.",
		"I modify Wacky World to read parties may move twice if they reap.",
		"Without 2 objections, I amend the Rumble contract to read Players may attack twice if they own more than 5 energy.",
	} {
		rs := e.Read(text)
		if len(rs) != 1 {
			t.Errorf("%q read as %v", text, rs)
		}
		for _, r := range rs {
			if r.Args["if"] != "" && r.Args["if"] != "I am a contestant of Life" {
				t.Errorf("%q read with the condition %q", text, r.Args["if"])
			}
			if txt := r.Args["text"]; txt != "" && !strings.HasSuffix(txt, "if they reap") && !strings.HasSuffix(txt, "if they own more than 5 energy") {
				t.Errorf("%q read with the text %q", text, txt)
			}
		}
	}
}

// A suggestion written without a colon keeps its "if": "I suggest we let a
// Cell survive if it has 2 neighbours." was refused, "the referee cannot
// decide the condition", and is now Suggestion #1. A condition before it
// is still decided.
func TestSuggestionKeepsItsIf(t *testing.T) {
	h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
	h.Quietly("2026-11-30T10:00:00Z", alice, contract.ChanPublic, "I join the Life contest.")
	r := h.Public("2026-12-01T10:00:00Z", alice, "I suggest we let a Cell survive if it has 2 neighbours.")
	if r == nil || !strings.Contains(flat(r.Body), "Done: Suggestion #1 recorded") {
		t.Errorf("receipt:\n%v", r)
	}
	r = h.Public("2026-12-01T10:05:00Z", alice, "If I own more than 50 Vials, I suggest we let a Cell survive if it has 3 neighbours.")
	if r == nil || !strings.Contains(flat(r.Body), `the condition "I own more than 50 Vials" is false`) {
		t.Errorf("receipt:\n%v", r)
	}
}
