package contract_test

import (
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// alarm is a game whose one event, "ring", is scheduled from what its
// Next reads: its own data (an alarm set for a time), its section's
// recent events (one ring for each not yet rung), and, by its mode, the
// clock (noon, once the clock has passed it) or the state (one ring for
// each player not yet greeted). The engine keeps each game's answer to
// Next while nothing it read has changed (nextAnswer); these tests fail
// when an answer is kept after such a change.
type alarm struct {
	mode  string // "", "noon" or "greet"
	asked int    // Next's calls
}

type alarmState struct {
	Set     time.Time `yaml:"set,omitempty"` // the alarm rings then
	Rung    int       `yaml:"rung"`          // recent events rung for
	Noon    bool      `yaml:"noon,omitempty"`
	Greeted int       `yaml:"greeted"` // players greeted
	Rings   []string  `yaml:"rings"`   // why each ring rang
}

var alarmNoon = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func (g *alarm) Spec() contract.Spec {
	return contract.Spec{ID: "alarm", Title: "Alarm", Aliases: []string{"alarm"}, Guide: "An alarm.\n"}
}
func (g *alarm) NewState() any                                    { return &alarmState{} }
func (g *alarm) Init(c *contract.Ctx) error                       { return nil }
func (g *alarm) Report(c *contract.Ctx) (*contract.Notice, error) { return nil, nil }

func (g *alarm) Next(c *contract.Ctx) (contract.Event, bool) {
	g.asked++
	st := c.Data().(*alarmState)
	switch {
	case !st.Set.IsZero():
		return contract.Event{At: st.Set, Name: "ring", Key: "set"}, true
	case len(c.Section().Recent) > st.Rung:
		return contract.Event{At: c.Section().Recent[st.Rung].Time, Name: "ring", Key: "recent"}, true
	case g.mode == "noon" && !st.Noon && !c.Now().Before(alarmNoon):
		return contract.Event{At: alarmNoon, Name: "ring", Key: "noon"}, true
	case g.mode == "greet" && len(c.State().Players) > st.Greeted:
		return contract.Event{At: c.State().Clock, Name: "ring", Key: "greet"}, true
	}
	return contract.Event{}, false
}

func (g *alarm) Run(c *contract.Ctx, e contract.Event) error {
	st := c.Data().(*alarmState)
	switch e.Key {
	case "set":
		st.Set = time.Time{}
	case "recent":
		st.Rung++
	case "noon":
		st.Noon = true
	case "greet":
		st.Greeted = len(c.State().Players)
	}
	st.Rings = append(st.Rings, e.Key+" at "+c.Now().Format("15:04"))
	return nil
}

func (g *alarm) Verbs() []*contract.Verb {
	return []*contract.Verb{
		{Name: "set", Pattern: `set the alarm for (?P<at>now|\d\d:\d\d)`, Syntax: "I set the alarm for <HH:MM>", Rule: "A1",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				at := c.Now()
				if a.Arg("at") != "now" {
					d, err := time.Parse("15:04", a.Arg("at"))
					if err != nil {
						return contract.Reject("A1", "not a time: %v", err)
					}
					at = at.Truncate(24 * time.Hour).Add(d.Sub(d.Truncate(24 * time.Hour)))
				}
				c.Data().(*alarmState).Set = at
				c.Did("the alarm is set for %s", a.Arg("at"))
				return nil
			}},
		{Name: "note", Pattern: `note (?P<what>.+)`, Syntax: "I note <what> in Alarm", Rule: "A2",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				c.Record(c.Actor().Name, "notes %s", a.Arg("what"))
				c.Did("noted")
				return nil
			}},
		{Name: "greet", Pattern: `greet myself`, Syntax: "I greet myself in Alarm", Rule: "A3",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				c.Actor()
				c.Did("registered")
				return nil
			}},
	}
}

// rings is what the alarm rang for, and when.
func rings(h *contracttest.Harness) []string { return h.Data("alarm").(*alarmState).Rings }

// newAlarm is a harness with the alarm in a mode, a chatter message
// applied so that the alarm's answer to Next is kept.
func newAlarm(t *testing.T, mode string) *contracttest.Harness {
	t.Helper()
	h := contracttest.New(t, "2026-12-01T09:00:00Z", &alarm{mode: mode})
	h.Public("2026-12-01T09:30:00Z", alice, "Good morning.")
	if got := rings(h); len(got) != 0 {
		t.Fatalf("rings before anything: %v", got)
	}
	return h
}

// TestActionSchedulesNow: an action that sets its game's event for now
// has it run in the same message, after the action (G2: the events due
// by the message's arrival, the arrival included), though the game's
// answer before the action, kept, was "nothing".
func TestActionSchedulesNow(t *testing.T) {
	h := newAlarm(t, "")
	if r := h.Public("2026-12-01T10:00:00Z", alice, "I set the alarm for now in Alarm."); r == nil || !strings.Contains(r.Body, "the alarm is set for now") {
		t.Fatalf("receipt: %v", r)
	}
	if got := rings(h); len(got) != 1 || got[0] != "set at 10:00" {
		t.Errorf("rings after the alarm was set for 10:00 at 10:00: %v, want [set at 10:00]", got)
	}
}

// TestSectionChangeAsksAgain: an action that changes only the
// interpreter's part of its game's section (a recent event, which Next
// reads) has the event that makes due run in the same message.
func TestSectionChangeAsksAgain(t *testing.T) {
	h := newAlarm(t, "")
	h.Public("2026-12-01T10:00:00Z", alice, "I note the time in Alarm.")
	if got := rings(h); len(got) != 1 || got[0] != "recent at 10:00" {
		t.Errorf("rings after a recent event at 10:00: %v, want [recent at 10:00]", got)
	}
}

// TestClockAsksAgain: a Next that read the clock is asked again when the
// clock moved: noon's ring comes with the first message after noon, in
// that message, though no section changed.
func TestClockAsksAgain(t *testing.T) {
	h := newAlarm(t, "noon")
	h.Public("2026-12-01T11:00:00Z", alice, "Still morning.")
	h.Public("2026-12-01T13:00:00Z", alice, "Afternoon now.")
	if got := rings(h); len(got) != 1 || got[0] != "noon at 13:00" {
		t.Errorf("rings after the 13:00 message: %v, want [noon at 13:00]", got)
	}
}

// TestStateReadAsksAgain: a Next that read the state beyond its section
// (Ctx.State) is asked again whatever changed: a player registered by an
// action is greeted in the same message.
func TestStateReadAsksAgain(t *testing.T) {
	h := newAlarm(t, "greet")
	h.Public("2026-12-01T10:00:00Z", alice, "I greet myself in Alarm.")
	if got := rings(h); len(got) != 1 || got[0] != "greet at 10:00" {
		t.Errorf("rings after Alice registered at 10:00: %v, want [greet at 10:00]", got)
	}
}

// TestUndoAsksAgain: an answer given inside a transaction (the alarm set
// for 10:30) is not kept after the transaction is undone (a message the
// daemon could not save): the alarm never set does not ring. Without the
// undo checks, whose runs undone would hide a kept answer.
func TestUndoAsksAgain(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	h := newAlarm(t, "")
	tx := h.S.Begin()
	h.Public("2026-12-01T10:00:00Z", alice, "I set the alarm for 10:30 in Alarm.")
	if ev, ok, err := h.E.GameNext(h.S, "alarm"); err != nil || !ok || ev.Key != "set" {
		t.Fatalf("inside the transaction the next event is %v %v %v, want the alarm", ev, ok, err)
	}
	tx.Undo()
	h.Advance("2026-12-01T11:00:00Z")
	if got := rings(h); len(got) != 0 {
		t.Errorf("rings after the alarm's setting was undone: %v, want none", got)
	}
}

// stuck is a game whose event stays where it is after it ran.
type stuck struct{ ticker }

func (g *stuck) Spec() contract.Spec {
	return contract.Spec{ID: "stuck", Title: "Stuck", Aliases: []string{"stuck"}, Guide: "A stuck clock.\n"}
}
func (g *stuck) Next(c *contract.Ctx) (contract.Event, bool) {
	return contract.Event{At: tickFrom, Name: "tick"}, true
}
func (g *stuck) Run(c *contract.Ctx, e contract.Event) error { return nil }

// TestStuckEventIsAFault: a game whose event, run, is still its next (its
// Run did not move it on) stops the events with a fault naming the game
// and the event, the first game of the list as any other, not after
// 100,000 runs of it.
func TestStuckEventIsAFault(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &stuck{})
	_, err := h.E.Advance(h.S, tickFrom.Add(time.Hour))
	if err == nil || !strings.Contains(err.Error(), "advance: stuck event tick at 2026-12-01T11:00:00Z did not move on") {
		t.Errorf("Advance past a stuck event: %v, want the event named as not moving on", err)
	}
}

// TestChatterAsksNoGame: a message that changes nothing a game's Next
// read (chatter) asks no game for its next event, nor does the status
// page asking twice with nothing changed between: the answers kept are
// given again. Without the undo checks, whose runs undone ask again.
func TestChatterAsksNoGame(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	for _, mode := range []string{"", "noon"} {
		g := &alarm{mode: mode}
		h := contracttest.New(t, "2026-12-01T09:00:00Z", g)
		h.Public("2026-12-01T09:30:00Z", alice, "Good morning.")
		h.Public("2026-12-01T09:30:00Z", alice, "I note the morning in Alarm.") // its section saved, its ring rung
		if got := rings(h); len(got) != 1 {
			t.Fatalf("mode %q: rings after a note: %v, want one", mode, got)
		}
		asked := g.asked
		h.Public("2026-12-01T09:30:00Z", alice, "Good morning again.")
		if g.asked != asked {
			t.Errorf("mode %q: chatter asked the game's Next %d times, want none", mode, g.asked-asked)
		}
		if _, _, err := h.E.GameNext(h.S, "alarm"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := h.E.GameNext(h.S, "alarm"); err != nil {
			t.Fatal(err)
		}
		if g.asked != asked {
			t.Errorf("mode %q: the next event asked twice of an unchanged state asked Next %d times, want none", mode, g.asked-asked)
		}
	}
}
