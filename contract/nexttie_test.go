package contract

import (
	"testing"
	"time"
)

// TestNextTieBreaks: of the referee's own duties due at the same instant,
// coreNext takes them in a fixed order whatever the map order of the
// state: the Randomness notice, then the intents as listed, then the
// rulings as listed (each one's reminder before its deadline), then the
// waits for a list's copy, the lowest Message-ID first (heldNext), then
// ratifications; and a duty due earlier comes first whatever its kind.
func TestNextTieBreaks(t *testing.T) {
	at := time.Date(2026, 11, 9, 0, 0, 0, 0, time.UTC)
	state := func() *State {
		return &State{
			Randomness: Randomness{NextNotice: at},
			Intents:    []*Intent{{ID: 7, Created: at.Add(-intentLife)}, {ID: 3, Created: at.Add(-intentLife)}},
			Rulings: []*Ruling{
				{ID: 5, Asked: at.Add(-time.Hour), Deadline: at, Reminded: true},
				{ID: 2, Asked: at, Deadline: at}, // its reminder at the midpoint, at
			},
			Held: map[string]*Held{
				"c@example.test": {Until: at}, "a@example.test": {Until: at}, "b@example.test": {Until: at},
				"0@example.test": {Until: at.Add(time.Second)}, // the lowest ID, due later
			},
			Cited: []*Cited{{ID: "life/report/2026-W45", Status: "pending", Ratifies: at}},
		}
	}
	s := state()
	for _, want := range []string{"randomness ", "intent expired 7", "intent expired 3", "ruling deadline 5", "ruling reminder 2",
		"ruling deadline 2", "list copy missing a@example.test", "list copy missing b@example.test",
		"list copy missing c@example.test", "ratification life/report/2026-W45", "list copy missing 0@example.test"} {
		var ev Event
		for range 20 { // each map order of the waits gives the same duty
			var ok bool
			if ev, ok = coreNext(s); !ok || ev.Name+" "+ev.Key != want {
				t.Fatalf("next duty %q (found: %v), want %q", ev.Name+" "+ev.Key, ok, want)
			}
		}
		if due := at.Add(map[bool]time.Duration{true: time.Second}[ev.Key == "0@example.test"]); !ev.At.Equal(due) {
			t.Fatalf("%s %s due at %v, want %v", ev.Name, ev.Key, ev.At, due)
		}
		// The duty done: out of the state, as running it takes it.
		switch ev.Name {
		case "randomness":
			s.Randomness.NextNotice = time.Time{}
		case "intent expired":
			s.Intents = s.Intents[1:]
		case "ruling reminder":
			s.Rulings[0].Reminded = true
		case "ruling deadline":
			s.Rulings = s.Rulings[1:]
		case "list copy missing":
			delete(s.Held, ev.Key)
		case "ratification":
			s.Cited = nil
		}
	}
	if ev, ok := coreNext(s); ok {
		t.Fatalf("a duty left: %+v", ev)
	}

	for range 50 {
		ev, ok := heldNext(state())
		if !ok || ev.Key != "a@example.test" || !ev.At.Equal(at) {
			t.Fatalf("heldNext = %+v (found: %v), want the wait of a@example.test at %v", ev, ok, at)
		}
	}

	for i, early := range []func(*State){
		func(s *State) { s.Cited[0].Ratifies = at.Add(-time.Second) },
		func(s *State) { s.Held["z@example.test"] = &Held{Until: at.Add(-time.Second)} },
		func(s *State) { s.Rulings[1].Deadline = at.Add(-time.Second) },
		func(s *State) { s.Intents[1].Created = at.Add(-intentLife - time.Second) },
	} {
		s := state()
		early(s)
		if ev, _ := coreNext(s); !ev.At.Equal(at.Add(-time.Second)) {
			t.Errorf("case %d: next duty %s %s at %v, want the one due a second earlier", i, ev.Name, ev.Key, ev.At)
		}
	}
}
