package contract_test

import (
	"strings"
	"testing"
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
// a colon, or in quotation marks) stay in the text: "if" in a suggestion is
// the suggestion's.
func TestConditionInsideATextIsTheTexts(t *testing.T) {
	e := corpusEngine(t)
	for _, text := range []string{
		"I suggest the following change to the Life regulations: a Cell dies if it is lonely.",
		"I intend, without 3 objections, to amend Wacky World: parties may move twice if they reap.",
	} {
		for _, r := range e.Read(text) {
			if r.Args["if"] != "" {
				t.Errorf("%q read with the condition %q", text, r.Args["if"])
			}
		}
	}
}
