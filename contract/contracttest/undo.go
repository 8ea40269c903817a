package contracttest

import (
	"bytes"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
)

// Twin plays one game's mail on two states for a game's undo property test:
// A takes every message, each in a transaction that the test ends (Keep) or
// undoes (Undo), as the daemon undoes a message it could not save; B takes
// only the messages kept. Check says whether the two states are the same,
// byte for byte. The undo checks of the harness (SetVerifyUndo) are for the
// test to turn off, so that the property holds on what the game saves
// itself, not on the deep copies of those checks.
type Twin struct {
	t          testing.TB
	EA, EB     *contract.Engine
	A, B       *contract.State
	encA, encB contract.Encoder // the sections unchanged since the last Check not encoded again
	tx         *contract.Txn
	undone     int
}

// NewTwin makes the two states, each with an engine of its own running the
// games game makes (a game's value may keep a cache of its state), created
// at start with the harness's configuration and secret.
func NewTwin(t testing.TB, start time.Time, games func() []contract.Game) *Twin {
	t.Helper()
	cfg := contract.Config{Referee: Referee, Contestmaster: Contestmaster, SeenHorizon: 5 * 24 * time.Hour}
	w := &Twin{t: t}
	for _, p := range []struct {
		e **contract.Engine
		s **contract.State
	}{{&w.EA, &w.A}, {&w.EB, &w.B}} {
		e, err := contract.NewEngine(cfg, games()...)
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := e.NewState(Secret[:], start)
		if err != nil {
			t.Fatal(err)
		}
		*p.e, *p.s = e, s
	}
	return w
}

// Play runs on s the events due by m's arrival and m itself, and returns
// what they did.
func (w *Twin) Play(e *contract.Engine, s *contract.State, m *contract.Message) []contract.Entry {
	w.t.Helper()
	ent, err := e.Advance(s, m.Arrived)
	if err != nil {
		w.t.Fatal(err)
	}
	cp := *m // Apply may fill in what it decided about the message
	more, err := e.Apply(s, &cp)
	if err != nil {
		w.t.Fatal(err)
	}
	return append(ent, more...)
}

// Try plays m on A in a transaction left open for Keep or Undo.
func (w *Twin) Try(m *contract.Message) []contract.Entry {
	w.t.Helper()
	w.tx = w.A.Begin()
	return w.Play(w.EA, w.A, m)
}

// Keep ends the transaction of m on A and plays m on B.
func (w *Twin) Keep(m *contract.Message) {
	w.t.Helper()
	w.tx.End()
	w.Play(w.EB, w.B, m)
}

// Undo undoes the transaction of the message tried on A.
func (w *Twin) Undo() {
	w.tx.Undo()
	w.undone++
}

// Undone is how many messages were undone.
func (w *Twin) Undone() int { return w.undone }

// Check fails the test unless A and B encode to the same text, naming what
// differs, after message n (m); then empties both outboxes (sent).
func (w *Twin) Check(n int, m *contract.Message) {
	w.t.Helper()
	a, err := w.encA.Encode(w.A)
	if err != nil {
		w.t.Fatal(err)
	}
	b, err := w.encB.Encode(w.B)
	if err != nil {
		w.t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		w.t.Fatalf("after message %d (%q, %d undone) the states differ (-kept only +with undone):\n%s", n, m.Text, w.undone, cmp.Diff(string(b), string(a)))
	}
	w.A.Outbox, w.B.Outbox = nil, nil
}

// CostsAlike checks that trying an action costs about the same with few
// and with many others in the game (cost, TryCost's figure with that many
// others: at most half as much again, and 4 kB, with many), and logs both:
// what says the action, others what the others are ("other members").
func CostsAlike(t testing.TB, what, others string, few, many int, cost func(n int) float64) {
	t.Helper()
	small, large := cost(few), cost(many)
	t.Logf("bytes allocated by %s: %.0f with %d %s, %.0f with %d", what, small, few, others, large, many)
	if large > small*1.5+4096 {
		t.Errorf("%s allocates %.0f bytes with %d %s against %.0f with %d: it copies what it does not change", what, large, many, others, small, few)
	}
}

// TryCost is the number of bytes trying m on s allocates: m applied and
// undone, fifty times after a first try, which must apply it. A game whose
// actions cost what they change allocates about the same whatever the
// number of players.
//
// Under the race detector the bytes counted are not the game's alone (its
// instrumentation allocates, and a sync.Pool drops what is put in it at
// random): the test calling TryCost is skipped there. scripts/test.sh runs
// the cost tests again without it.
func TryCost(t testing.TB, e *contract.Engine, s *contract.State, m *contract.Message) float64 {
	t.Helper()
	if race {
		t.Skip("the bytes allocated under the race detector are not the game's: run without -race (scripts/test.sh does)")
	}
	var outcome string
	try := func() {
		tx := s.Begin()
		cp := *m
		ent, err := e.Apply(s, &cp)
		if err != nil {
			t.Fatal(err)
		}
		outcome = ent[len(ent)-1].Outcome
		tx.Undo()
	}
	try()
	if outcome != "applied" {
		t.Fatalf("%q was %s", m.Text, outcome)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const n = 50
	for range n {
		try()
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / n
}
