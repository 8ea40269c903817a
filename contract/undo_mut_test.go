package contract_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestUndoAfterEndKeepsTheChange: undoing a transaction that has ended
// does nothing (the daemon may do both), and a transaction begun after it
// undoes only its own changes.
func TestUndoAfterEndKeepsTheChange(t *testing.T) {
	h := newToy(t)
	tx := h.S.Begin()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	tx.End()
	tx.Undo()
	kept, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	tx = h.S.Begin()
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	tx.Undo()
	after, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	if p := h.S.PlayerByName("Alice"); p == nil || !p.In("toy") || !bytes.Contains(kept, []byte("name: Alice")) {
		t.Errorf("an ended transaction was undone: Alice is not a player:\n%s", kept)
	}
	if !bytes.Equal(kept, after) {
		t.Errorf("the second transaction's undo did not restore the state it began from:\n%s", lineDiff(string(kept), string(after)))
	}
}

// TestUndoOfTheOuterTransaction: undoing a transaction undoes those opened
// inside it too, and ends them.
func TestUndoOfTheOuterTransaction(t *testing.T) {
	h := newToy(t)
	before, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	outer := h.S.Begin()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	inner := h.S.Begin()
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	outer.Undo()
	inner.End() // ended by the outer undo: nothing to do
	after, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the state after undoing both is not the state before:\n%s", lineDiff(string(before), string(after)))
	}
}

// scrawl is a game whose verbs change its section behind the undo log, then
// refuse: a bug the checks of undo must name.
type scrawl struct{ toy }

func (g *scrawl) Spec() contract.Spec {
	s := g.toy.Spec()
	s.ID, s.Title, s.Aliases, s.Currencies = "scrawl", "Scrawl", []string{"scrawl"}, nil
	return s
}

func (g *scrawl) Verbs() []*contract.Verb {
	gs := func(c *contract.Ctx) *contract.GameState { return c.State().Games[c.Game()] }
	return []*contract.Verb{
		{Name: "param", Pattern: `scrawl on the param`, Syntax: "I scrawl on the param", Rule: "S1",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				gs(c).Params["START"] = "9"
				return contract.Reject("S1", "no")
			}},
		{Name: "params", Pattern: `scrawl away the params`, Syntax: "I scrawl away the params", Rule: "S1",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				gs(c).Params = nil
				return contract.Reject("S1", "no")
			}},
		{Name: "data", Pattern: `scrawl away the data`, Syntax: "I scrawl away the data", Rule: "S1",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				gs(c).Data = nil
				return contract.Reject("S1", "no")
			}},
	}
}

// TestUndoCheckNamesWhatItMissed: a refused action whose change the undo
// log missed is caught when it is undone, naming the entry of a map, a map
// gone, or a game's data gone.
func TestUndoCheckNamesWhatItMissed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"I scrawl on the param.", "state.Games[scrawl].Params[START]: 5 against 9"},
		{"I scrawl away the params.", "state.Games[scrawl].Params: nil map against a map"},
		{"I scrawl away the data.", "state.Games[scrawl].Data: nil against not nil"},
	} {
		t.Run(c.text, func(t *testing.T) {
			h := contracttest.New(t, "2026-12-01T10:00:00Z", &scrawl{})
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Fatalf("the missed change was not named %q: %v", c.want, r)
				}
			}()
			h.Public("2026-12-01T11:00:00Z", alice, c.text)
		})
	}
}
