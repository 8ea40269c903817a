package contract_test

import (
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// asker is the toy game whose Next first asks the engine for its own next
// event (GameNext, as the status page asks it), then answers as the toy.
type asker struct {
	toy
	e      *contract.Engine
	s      *contract.State
	asking bool
}

func (g *asker) Next(c *contract.Ctx) (contract.Event, bool) {
	if !g.asking && g.e != nil {
		g.asking = true
		g.e.GameNext(g.s, "toy")
		g.asking = false
	}
	return g.toy.Next(c)
}

// TestNextAsksAgain: a game whose Next asks for its own next event again
// (a Next inside a Next), on a state not asked before (as `referee status`
// asks of the state it loads), gets its round scheduled as the toy does,
// each time it is asked: the inner question does not spoil the outer's
// context.
func TestNextAsksAgain(t *testing.T) {
	g := &asker{}
	h := contracttest.New(t, "2026-12-01T10:00:00Z", g)
	mustDo(t, h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game."))
	s := contract.Snapshot(h.S)
	g.e, g.s = h.E, s
	want := contracttest.At(t, "2026-12-07T00:00:00Z")
	for i := range 2 {
		ev, ok, err := h.E.GameNext(s, "toy")
		if err != nil || !ok || ev.Name != "round" || !ev.At.Equal(want) {
			t.Errorf("asked %d times, the toy's next event: %+v %v %v, want its round at %s", i+1, ev, ok, err, want.Format(time.RFC3339))
		}
	}
	if at, ok, err := h.E.NextDue(s); err != nil || !ok || at.After(want) {
		t.Errorf("next due: %s %v %v, want by %s", at, ok, err, want.Format(time.RFC3339))
	}
}
