package contract

import (
	"fmt"
	"referee/contract/text"
	"strings"
	"time"
	"unsafe"
)

// Ctx is what a game sees while it handles an action or an event: the state, the
// time, the message, and the means to draw, notify and record. Games reach their
// own state with Data.
type Ctx struct {
	e      *Engine
	s      *State
	game   string
	gs     *GameState
	now    time.Time
	msg    *Message
	ro     bool // reading only (Next, Extract, Report): nothing is saved for undo
	actor  *Player
	did    []string
	detail map[string]any
	draws  []Draw
	notes  []*Notice
	// ignored is why an action that changed the state is still not done (a
	// rules violation the game must remember); "" when it is done.
	ignored string
	// reads is what the game read beyond its own section (Next's answer
	// is kept while its section and what it read are the same).
	reads readSet
	// concerns is the game an action of no game's (a transfer) concerns
	// once it knows it, refused or not, where game is set when it is done:
	// its receipt's game (State.Receipted).
	concerns string
}

// readSet is what a context's game read beyond its own section, the
// engine's configuration and its message.
type readSet uint8

const (
	readClock  readSet = 1 << iota // the time (Now, Week)
	readBeyond                     // anything else of the state (State, Players, ...)
)

// Now is the time of the action (its message's arrival) or of the event.
func (c *Ctx) Now() time.Time {
	c.reads |= readClock
	return c.now
}

// State is the whole state (players, ledger, other games).
func (c *Ctx) State() *State {
	c.reads |= readBeyond
	return c.s
}

// Game is the id of the game being served.
func (c *Ctx) Game() string { return c.game }

// Title is the game's title.
func (c *Ctx) Title() string { return c.e.games[c.game].Spec().Title }

// Data is the game's own state, the value its NewState returned.
func (c *Ctx) Data() any {
	if !c.ro {
		c.s.touchData(c.gs)
	}
	return c.gs.Data
}

// Section is the interpreter's part of the game's state (parameters, recent events).
func (c *Ctx) Section() *GameState {
	if !c.ro {
		c.s.touchSection(c.gs)
		c.s.touchData(c.gs)
	}
	return c.gs
}

// Msg is the message being handled, nil during an event.
func (c *Ctx) Msg() *Message { return c.msg }

// Referee is the referee's own address.
func (c *Ctx) Referee() string { return c.e.cfg.Referee }

// Actor is the player who sent the message, registered on first use.
func (c *Ctx) Actor() *Player {
	c.reads |= readBeyond
	if c.actor == nil && c.msg != nil {
		c.actor = c.s.Register(c.msg.From, c.msg.Name)
	}
	return c.actor
}

// Contestmaster is the game's current contestmaster's address (G8).
func (c *Ctx) Contestmaster() string { return c.gs.Contestmaster }

// SetContestmaster changes the game's contestmaster (Life R1, Rumble 16).
func (c *Ctx) SetContestmaster(addr string) {
	c.s.touchSection(c.gs)
	c.gs.Contestmaster = strings.ToLower(addr)
	c.Detail("contestmaster", c.gs.Contestmaster)
}

// FromContestmaster reports whether the message comes from the contestmaster.
func (c *Ctx) FromContestmaster() bool {
	return c.msg != nil && c.gs.Contestmaster != "" && strings.EqualFold(c.msg.From, c.gs.Contestmaster)
}

// Did adds a line to the receipt saying what the action changed.
func (c *Ctx) Did(format string, args ...any) {
	c.did = append(c.did, fmt.Sprintf(format, args...))
}

// Ignored marks the action not done although what the game changed stays: a
// rules violation that must be remembered (Steemfield ruling S10) is not an
// action performed. The receipt says "Not done" with the reason.
func (c *Ctx) Ignored(format string, args ...any) {
	c.ignored = fmt.Sprintf(format, args...)
}

// Detail records a value in the journal entry of this action or event. The
// journal is as private as the state: sealed values may go here.
func (c *Ctx) Detail(key string, v any) {
	if c.detail == nil {
		c.detail = map[string]any{}
	}
	c.detail[key] = v
}

// Record adds a line to the game's "Recent events" (public: never a secret).
func (c *Ctx) Record(who, format string, args ...any) {
	c.s.touchSection(c.gs)
	c.gs.Recent = append(c.gs.Recent, Happening{Time: c.now, Who: who, What: fmt.Sprintf(format, args...)})
}

// Notify queues a notice. Its ID must be unique and deterministic (derived from
// the game, the event or the message); Game and Time are filled in when empty.
func (c *Ctx) Notify(n *Notice) {
	if n.Game == "" {
		n.Game = c.game
	}
	if n.Time.IsZero() {
		n.Time = c.now
	}
	if n.Kind == "" {
		n.Kind = "notice"
	}
	c.notes = append(c.notes, n)
}

// Week is the label of the current Agoran week.
func (c *Ctx) Week() string {
	c.reads |= readClock
	return WeekLabel(c.now)
}

func (c *Ctx) seed() []byte {
	c.reads |= readBeyond
	sec, err := c.s.secret()
	if err != nil {
		panic(err)
	}
	return SeedFor(sec, c.Week())
}

// Intn draws a number in [0, n) from this week's committed seed (G5). The full
// label is "<game>/<week>/<label>"; labels name the purpose, never a counter of
// calls, and each draw is recorded in the journal.
func (c *Ctx) Intn(label string, n int) int {
	full := c.game + "/" + c.Week() + "/" + label
	v := Intn(c.seed(), full, n)
	c.draws = append(c.draws, Draw{Label: full, N: n, Value: v})
	return v
}

// Key derives a 32-byte key from this week's seed for a fast keyed function
// (ruling L3). The label is recorded in the journal as a draw with N = 0.
func (c *Ctx) Key(label string) []byte {
	full := c.game + "/" + c.Week() + "/" + label
	c.draws = append(c.draws, Draw{Label: full})
	return KeyFor(c.seed(), full)
}

// Secret derives a private value (a commitment nonce) from the master secret and
// label. It is never published until the rules reveal it.
func (c *Ctx) Secret(label string) []byte {
	c.reads |= readBeyond
	sec, err := c.s.secret()
	if err != nil {
		panic(err)
	}
	return KeyFor(sec, "secret/"+c.game+"/"+label)
}

// Players is shorthand for the game's members in joining order.
func (c *Ctx) Players() []*Player {
	c.reads |= readBeyond
	return c.s.Members(c.game)
}

// RecentEvents renders the game's "Recent events" for a report, with the
// time-of-last-report marker (AGORA "Reports and notices").
func (c *Ctx) RecentEvents() string {
	evs := make([]text.Event, 0, len(c.gs.Recent))
	for _, h := range c.gs.Recent {
		evs = append(evs, text.Event{Time: h.Time, Who: h.Who, What: h.What})
	}
	return text.Recent(evs, c.gs.LastReport)
}

// ReportSent records that the game's report went out now, and keeps the recent
// events since the report before it, so the next report shows them above its
// time-of-last-report marker.
func (c *Ctx) ReportSent() {
	c.s.touchSection(c.gs)
	prev := c.gs.LastReport
	c.gs.LastReport = c.now
	var keep []Happening
	for _, h := range c.gs.Recent {
		if h.Time.After(prev) {
			keep = append(keep, h)
		}
	}
	c.gs.Recent = keep
}

// DataSaver is implemented by a game's data that saves itself for undo, so
// that trying an action costs what the action changes rather than a deep
// copy of the whole data. SaveTop is called the first time an action or event
// reaches the data in a transaction (Ctx.Data); it copies the data's top
// level (its fields by value) and returns what puts that copy back. Every
// change below the top level must then be saved by the game before it is
// made: an entry of a map with SaveEntry, a value reached through a pointer
// with SaveValue. A slice below the top level is only appended to or
// replaced, never changed in place. A change made behind these saves is not
// undone; with SetVerifyUndo, as in every test that uses contracttest, it is
// a failing test naming the field.
type DataSaver interface {
	SaveTop() (restore func())
}

// SaveEntry saves the entry m[k] of a game's data (DataSaver) before the game
// writes or deletes it: undoing the action puts the old value back, or
// removes an entry that was not there. It does nothing where nothing is saved
// (Next, Extract, Report, or no transaction open).
func SaveEntry[K comparable, V any](c *Ctx, m map[K]V, k K) {
	if c.ro {
		return
	}
	logKey(c.s.undoLog(), m, k)
}

// SaveValue saves *p, a value of a game's data (DataSaver) reached through a
// pointer, by a copy of its fields, before the game changes it in place; once
// per transaction. What *p holds by reference (maps, pointers, the elements
// of its slices) is not copied, and the rules of DataSaver hold for it.
func SaveValue[T any](c *Ctx, p *T) {
	if c.ro || p == nil {
		return
	}
	c.s.noteChange(unsafe.Pointer(p), unsafe.Sizeof(*p))
	c.s.undoLog().once(p, func() func() {
		cp := *p
		return func() { *p = cp }
	})
}
