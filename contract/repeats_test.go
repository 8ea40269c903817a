package contract_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestRepeatsChangesNothing: a message Repeats says is applied already
// changes nothing when applied again (no journal entry, no notice, the
// state file the same to the byte), whatever came between: 3,000 messages
// of a few IDs, list copies and direct copies that wait for them (an
// hour), mail from the past and from later, across the weekly events that
// fall due between them. And it is not said of every message: of a
// message never seen, of one arriving after the clock, of one arriving
// when an event is due.
func TestRepeatsChangesNothing(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &herald{})
	rng := rand.New(rand.NewPCG(7, 14))
	start := contracttest.At(t, "2026-12-01T10:00:00Z")
	froms := []string{"alice@example.test", "bob@example.test", "carol@example.test"}
	repeats, applied := 0, 0
	var err error
	for i := range 3000 {
		// Time moves on by minutes, with some mail from up to a day back.
		at := start.Add(time.Duration(i*7) * time.Minute)
		if rng.IntN(4) == 0 {
			at = at.Add(-time.Duration(rng.IntN(24*60)) * time.Minute)
		}
		m := &contract.Message{ID: fmt.Sprintf("m%d@example.test", rng.IntN(400)), From: froms[rng.IntN(len(froms))], Date: at, Arrived: at,
			Subject: "actions", Channel: contract.ChanPublic, ListCopy: rng.IntN(3) > 0, Authenticated: true,
			Text: fmt.Sprintf("I shout w%d in Herald.", rng.IntN(9))}
		if rng.IntN(5) == 0 {
			m.Channel = contract.ChanPrivate
		}
		rep := h.E.Repeats(h.S, m)
		var before []byte
		if rep {
			if before, err = contract.Encode(h.S); err != nil {
				t.Fatal(err)
			}
		}
		outbox := len(h.S.Outbox)
		ent, err := h.E.Apply(h.S, m)
		if err != nil {
			t.Fatal(err)
		}
		if !rep {
			applied++
			h.S.Outbox = nil // sent
			continue
		}
		repeats++
		after, err := contract.Encode(h.S)
		if err != nil {
			t.Fatal(err)
		}
		if len(ent) > 0 || len(h.S.Outbox) != outbox || !bytes.Equal(before, after) {
			t.Fatalf("message %d (%s at %s, list copy %v): Repeats said it was applied before, and it made %d entries, %d notices, a state changed: %v", i, m.ID, at.Format(time.RFC3339), m.ListCopy, len(ent), len(h.S.Outbox)-outbox, !bytes.Equal(before, after))
		}
	}
	if repeats < 500 || applied < 500 {
		t.Fatalf("of 3,000 messages, %d repeats and %d others: the test no longer tries both", repeats, applied)
	}

	// Never seen; seen but arriving after the clock; seen, when an event is
	// due by its arrival.
	seen := &contract.Message{ID: "once@example.test", From: "alice@example.test", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: "I shout hi in Herald."}
	seen.Arrived = h.S.Clock
	seen.Date = seen.Arrived
	if h.E.Repeats(h.S, seen) {
		t.Errorf("a message never seen: Repeats says it was applied")
	}
	if _, err := h.E.Apply(h.S, seen); err != nil {
		t.Fatal(err)
	}
	if !h.E.Repeats(h.S, seen) {
		t.Errorf("the same message again: Repeats says no")
	}
	later := *seen
	later.Arrived = h.S.Clock.Add(time.Minute)
	if h.E.Repeats(h.S, &later) {
		t.Errorf("a message seen, arriving after the clock (which it moves): Repeats says yes")
	}
	due := *seen
	due.Arrived = h.S.Clock.Add(30 * 24 * time.Hour) // past a weekly event
	h.S.Clock = due.Arrived                          // as if the clock had moved without running it
	if h.E.Repeats(h.S, &due) {
		t.Errorf("a message seen, with an event due by its arrival: Repeats says yes")
	}
}
