package contract

import (
	"fmt"
	"maps"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	"referee/internal/lazyre"
	"referee/internal/yamlerr"
)

// Config is what the interpreter needs to know of the installation.
type Config struct {
	Referee     string        // the referee's own address
	RateLimit   int           // receipts per sender per hour; 0 = 30
	RequireAuth bool          // private actions need an authenticated sender (policy not "none")
	SeenHorizon time.Duration // processed-message memory; 0 = 30 days
	// Contestmaster is every game's initial contestmaster (G8), until the state
	// holds each game's own.
	Contestmaster string
	// RulingWait is how long a game waits for its contestmaster's ruling; 0 = 48h.
	RulingWait time.Duration
	// ListWait is how long a direct copy of a public message waits for the
	// list's copy, which is the one that counts (G4); after it the sender is
	// told that the list never carried it and nothing was performed. 0: a
	// direct copy counts at once, the older and weaker reading, for a referee
	// that does not receive the list.
	ListWait time.Duration
}

// Engine is the interpreter: the games and the compiled verb tables.
type Engine struct {
	cfg     Config
	list    []Game
	ids     []string // the games' IDs, in list's order
	games   map[string]Game
	aliases map[string][]alias
	verbs   []compiledVerb
	curs    []Currency // every game's currencies, in the games' order
	hashes  hashText   // the state hashes' kept text (cite)
}

// compiledVerb is a verb with its pattern read: the bytes a match begins
// with, and the expression, compiled at its first use (re). A replay
// tries only the verbs an action's first byte allows, and an archive may
// use a few of them: compiling every verb of every game cost each run 1
// to 2 ms before its first message.
type compiledVerb struct {
	game  string
	verb  *Verb
	re    func() *regexp.Regexp
	first *firstBytes // what a match of re begins with
	head  string      // syntaxHead of the verb's form (verbHead)
}

// compileVerb reads a verb's pattern, anchored and case-blind: a pattern
// that does not parse is an error here, not at its first use.
func compileVerb(game string, v *Verb) (compiledVerb, error) {
	expr := `(?i)^(?:` + v.Pattern + `)$`
	first, err := firstBytesOf(expr)
	if err != nil {
		return compiledVerb{}, err
	}
	return compiledVerb{game: game, verb: v, re: lazyre.MustCompile(expr), first: first, head: syntaxHead(v.Syntax)}, nil
}

// NewEngine reads the games' verb tables: each pattern is parsed now (one
// that does not parse is refused, naming the game and the verb) and
// compiled at its first use. Games are listed explicitly by the caller (no
// init registration).
func NewEngine(cfg Config, games ...Game) (*Engine, error) {
	if cfg.RateLimit == 0 {
		cfg.RateLimit = 30
	}
	if cfg.SeenHorizon == 0 {
		cfg.SeenHorizon = 30 * 24 * time.Hour
	}
	if cfg.RulingWait == 0 {
		cfg.RulingWait = 48 * time.Hour
	}
	cfg.Referee = strings.ToLower(cfg.Referee)
	cfg.Contestmaster = strings.ToLower(cfg.Contestmaster)
	e := &Engine{cfg: cfg, list: games, games: map[string]Game{}, aliases: map[string][]alias{}}
	for _, g := range games {
		if _, dup := e.games[g.Spec().ID]; dup {
			return nil, fmt.Errorf("engine: game %s listed twice", g.Spec().ID)
		}
		e.games[g.Spec().ID] = g
		e.ids = append(e.ids, g.Spec().ID)
		e.curs = append(e.curs, g.Spec().Currencies...)
		for _, a := range g.Spec().Aliases {
			if ambiguousAlias(games, g, a) {
				continue
			}
			e.aliases[g.Spec().ID] = append(e.aliases[g.Spec().ID], compileAlias(a))
		}
		for _, v := range g.Verbs() {
			if v.Extracted {
				continue
			}
			cv, err := compileVerb(g.Spec().ID, v)
			if err != nil {
				return nil, fmt.Errorf("engine: game %s verb %s: %w", g.Spec().ID, v.Name, err)
			}
			e.verbs = append(e.verbs, cv)
		}
	}
	for _, v := range e.coreVerbs() {
		cv, err := compileVerb("", v)
		if err != nil {
			panic(fmt.Sprintf("engine: core verb %s: %v", v.Name, err))
		}
		e.verbs = append(e.verbs, cv)
	}
	return e, nil
}

// Games lists the games in the order given.
func (e *Engine) Games() []Game { return e.list }

// Game returns a game by id.
func (e *Engine) Game(id string) Game { return e.games[id] }

// Config returns the engine's configuration.
func (e *Engine) Config() Config { return e.cfg }

// Entry is one line of the journal (DESIGN "Interfaces other tools rely on").
type Entry struct {
	Seq     int64          `json:"seq"`
	Time    time.Time      `json:"time"`
	MsgID   string         `json:"msgid"`
	Game    string         `json:"game"`
	Player  string         `json:"player"`
	Verb    string         `json:"verb"`
	Outcome string         `json:"outcome"` // applied, rejected, event, held (G4)
	Reason  string         `json:"reason,omitempty"`
	Detail  map[string]any `json:"detail,omitempty"`
}

// NewState makes a fresh state for the engine's games with their default
// parameters. With a nil secret it is the committed starting state (no secret,
// no clock); Start later draws the secret.
func (e *Engine) NewState(secret []byte, now time.Time) (*State, []Entry, error) {
	s := &State{Version: Version, Games: map[string]*GameState{}}
	for _, g := range e.list {
		gs := &GameState{Contestmaster: e.cfg.Contestmaster, Params: map[string]string{}, Data: g.NewState()}
		for _, p := range g.Spec().Params {
			gs.Params[p.Name] = p.Default
		}
		s.Games[g.Spec().ID] = gs
		c := e.ctx(s, g.Spec().ID, now, nil)
		if err := g.Init(c); err != nil {
			return nil, nil, fmt.Errorf("init %s: %w", g.Spec().ID, err)
		}
	}
	if secret == nil {
		return s, nil, nil
	}
	entries, err := e.Start(s, secret, now)
	return s, entries, err
}

// Start turns a starting state into a working one: it records the master secret
// and the creation time and sends the first Randomness notice. It does nothing to
// a state that already has a secret. The creation time is taken to the whole
// second, as mail's arrival times are (an IMAP INTERNALDATE, an mbox's From_
// line): the notice's ID names that second, and a replay of the referee's
// store of mail, which reads it there, makes the same state.
func (e *Engine) Start(s *State, secret []byte, now time.Time) ([]Entry, error) {
	if s.Secret != "" {
		return nil, nil
	}
	now = now.UTC().Truncate(time.Second)
	if len(secret) != 32 {
		return nil, fmt.Errorf("start: the master secret must be 32 bytes, got %d", len(secret))
	}
	s.Secret = fmt.Sprintf("%x", secret)
	s.Created = now.UTC()
	s.Clock = now.UTC()
	for _, gs := range s.Games {
		if gs.Contestmaster == "" {
			s.touchSection(gs)
			gs.Contestmaster = e.cfg.Contestmaster
		}
	}
	ent, err := e.randomnessNotice(s, now)
	if err != nil {
		return nil, err
	}
	return []Entry{ent}, nil
}

// bind decodes each game's section into the game's own type (strictly). A
// game of the engine missing from the state, a game the engine does not
// know, an unknown parameter, a section that does not decode: each is one
// problem, all of them listed (Decode returns them as a *DecodeError).
func (e *Engine) bind(s *State) []yamlerr.Problem {
	var p []yamlerr.Problem
	if s.Games == nil {
		s.Games = map[string]*GameState{}
	}
	for _, id := range slices.Sorted(maps.Keys(s.Games)) {
		if e.games[id] == nil {
			p = append(p, yamlerr.Problem{Key: "games." + id, Msg: "no such game in this build"})
		}
	}
	for _, g := range e.list {
		gs := s.Games[g.Spec().ID]
		if gs == nil {
			p = append(p, yamlerr.Problem{Key: "games." + g.Spec().ID, Msg: "missing from the state"})
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(gs.Params)) {
			if _, ok := e.param(g.Spec().ID, name); !ok {
				p = append(p, yamlerr.Problem{Key: "games." + g.Spec().ID + ".params." + name, Msg: "no such parameter"})
			}
		}
		if gs.Data != nil {
			continue
		}
		d := g.NewState()
		if gs.raw != nil {
			if err := decodeStrict(gs.raw, d); err != nil {
				// decodeStrict decodes the section on its own: its lines
				// count from the section's first.
				p = append(p, yamlerr.Explain(err, gs.raw, gs.raw.Line-1, "games."+g.Spec().ID+".state")...)
				continue
			}
		}
		gs.Data = d
		gs.raw = nil
	}
	return p
}

func (e *Engine) ctx(s *State, game string, now time.Time, m *Message) *Ctx {
	var actor *Player
	if m != nil {
		actor = s.PlayerByAddress(m.From)
	}
	return e.ctxOf(s, game, now, m, actor)
}

// ctxOf is ctx with the message's sender already looked up (nil: not a
// player).
func (e *Engine) ctxOf(s *State, game string, now time.Time, m *Message, actor *Player) *Ctx {
	c := &Ctx{e: e, s: s, game: game, now: now, msg: m, actor: actor}
	if game != "" {
		c.gs = s.Games[game]
	}
	return c
}

// run calls f, turning a panic into an error with the stack.
func run(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Value: r, Stack: string(debug.Stack())}
		}
	}()
	return f()
}

// PanicError is a game's panic, recovered: the message is left unacknowledged.
type PanicError struct {
	Value any
	Stack string
}

func (p *PanicError) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// IsFault reports whether err is ours (not a player's mistake).
func IsFault(err error) bool {
	_, ok := AsRejection(err)
	return err != nil && !ok
}

// Advance runs every scheduled event due up to and including `to`, in time order,
// each at its own time (late, once, after a restart that missed it). It returns
// the journal entries; on a fault the state may be partly changed and the caller
// must discard it.
//
// Like Apply, it changes only what the events touch, and can be undone within
// a transaction the caller opened.
func (e *Engine) Advance(s *State, to time.Time) ([]Entry, error) {
	if verifyUndo.Load() {
		tx := s.Begin()
		_, _ = e.advance(s, to)
		tx.Undo()
	}
	return e.advance(s, to)
}

// maxEvents bounds the events one Advance runs: a game whose Next keeps
// coming back is a fault, not an endless loop.
var maxEvents = 100000

func (e *Engine) advance(s *State, to time.Time) ([]Entry, error) {
	to = to.UTC()
	var out []Entry
	for i := 0; ; i++ {
		if i > maxEvents {
			return out, fmt.Errorf("advance: more than %d events; a game's Next does not move", maxEvents)
		}
		game, ev, ok, err := e.earliest(s)
		if err != nil {
			return out, err
		}
		if !ok || ev.At.After(to) {
			break
		}
		at := ev.At
		if at.Before(s.Clock) {
			at = s.Clock
		}
		s.Clock = at
		id := ""
		if game >= 0 {
			id = e.ids[game]
		}
		ent, err := e.runEvent(s, id, ev, at)
		if err != nil {
			return out, err
		}
		out = append(out, ent...)
		// Guard: the same event must not come back.
		if game >= 0 {
			next, ok, err := e.gameNext(s, game)
			if err != nil {
				return out, err
			}
			if ok && next == ev {
				return out, fmt.Errorf("advance: %s event %s at %s did not move on", id, ev.Name, ev.At.Format(time.RFC3339))
			}
		}
	}
	if to.After(s.Clock) {
		s.Clock = to
	}
	return out, nil
}

// earliest is the first scheduled event, core or game (the game's index in
// e.list, -1 for the core's); on equal times the core's come first, then
// the games' in the order given. ok is false when nothing is scheduled
// (always, before Start).
func (e *Engine) earliest(s *State) (game int, ev Event, ok bool, err error) {
	game = -1
	if s.Secret == "" {
		return game, Event{}, false, nil
	}
	ev, ok = coreNext(s)
	for i := range e.list {
		gev, due, err := e.gameNext(s, i)
		if err != nil {
			return -1, Event{}, false, err
		}
		if due && (!ok || gev.At.Before(ev.At)) {
			game, ev, ok = i, gev, true
		}
	}
	return game, ev, ok, nil
}

// nextAnswer is a game's last answer to Next and what it was computed
// from: the game's section, as often saved for a change (GameState.saves),
// the state's undos, and the clock if Next read it. The context Next is
// asked with is kept with it and used again.
type nextAnswer struct {
	ctx   Ctx
	e     *Engine
	gs    *GameState
	saves uint64
	undos uint64
	clock time.Time
	reads readSet
	ev    Event
	ok    bool
}

// holds says whether the answer is still the game's: asked of the same
// section, not saved for a change since (every change to a section is,
// for the undo log: Ctx.Data, Ctx.Section, touchSection), no undo since,
// the clock the same if Next read it, and nothing read beyond the
// section and the clock (Ctx.State, Ctx.Players, ...).
func (a *nextAnswer) holds(e *Engine, s *State, gs *GameState) bool {
	return a.e == e && a.gs == gs && gs != nil && a.saves == gs.saves && a.undos == s.ax.undos &&
		a.reads&readBeyond == 0 && (a.reads&readClock == 0 || a.clock.Equal(s.Clock) && a.clock.Location() == s.Clock.Location())
}

// gameNext asks the game e.list[i] for its next event, a panic being a
// fault. A replay asks every game at least twice a message; the answer is
// kept (nextAnswer) and given again while nothing Next read has changed,
// so a message that changes no game's section (chatter, a rejection, a
// duplicate) asks no game again. The context it gives the game is made
// once and used again; it is a fresh one when that is in use (a Next that
// asks again).
func (e *Engine) gameNext(s *State, i int) (ev Event, ok bool, err error) {
	g, id := e.list[i], e.ids[i]
	gs := s.Games[id]
	ax := s.aux()
	if len(ax.next) < len(e.list) {
		ax.next = append(ax.next, make([]*nextAnswer, len(e.list)-len(ax.next))...)
	}
	a := ax.next[i]
	switch {
	case a == nil:
		a = &nextAnswer{}
		ax.next[i] = a
	case a.holds(e, s, gs):
		return a.ev, a.ok, nil
	}
	c := &a.ctx
	if c.e != nil {
		c = &Ctx{}
	}
	*c = Ctx{e: e, s: s, game: id, gs: gs, now: nextNow(s), ro: true}
	defer func() { *c = Ctx{} }()
	if err := run(func() error { ev, ok = g.Next(c); return nil }); err != nil {
		a.e = nil
		return Event{}, false, fmt.Errorf("next event of %s: %w", id, err)
	}
	a.e, a.gs, a.undos, a.clock, a.reads, a.ev, a.ok = e, gs, ax.undos, s.Clock, c.reads, ev, ok
	if gs != nil {
		a.saves = gs.saves
	}
	return ev, ok, nil
}

// nextNow is the time games see in Next: the instant just before the state's
// clock, so that an event due exactly at the clock (a Monday 00:00 round after
// another game's Monday 00:00 event moved the clock there) is not skipped by a
// schedule computed as "the next Monday after now".
func nextNow(s *State) time.Time { return s.Clock.Add(-time.Nanosecond) }

func (e *Engine) runEvent(s *State, game string, ev Event, at time.Time) ([]Entry, error) {
	if game == "" {
		return e.runCoreEvent(s, ev, at)
	}
	g := e.games[game]
	tx := s.Begin() // to know what the event touched
	defer tx.End()
	c := e.ctx(s, game, at, nil)
	err := run(func() error {
		if err := g.Run(c, ev); err != nil {
			return err
		}
		e.closeGone(c)
		return nil
	})
	if err != nil {
		if r, ok := AsRejection(err); ok {
			err = fmt.Errorf("event %s of %s refused itself: %s", ev.Name, game, r)
		}
		return nil, fmt.Errorf("run %s event %s: %w", game, ev.Name, err)
	}
	if err := s.checkTouched(e.currencies(), tx); err != nil {
		return nil, fmt.Errorf("after %s event %s: %w", game, ev.Name, err)
	}
	ent := e.flush(s, c)
	ent.Verb = ev.Name
	ent.Outcome = "event"
	if ev.Key != "" {
		ent.set("key", ev.Key)
	}
	if !ev.At.Equal(at) {
		ent.set("due", ev.At)
	}
	return []Entry{ent}, nil
}

// set records a value in the entry's detail.
func (en *Entry) set(key string, v any) {
	if en.Detail == nil {
		en.Detail = map[string]any{}
	}
	en.Detail[key] = v
}

// flush moves a context's notices to the outbox and builds its journal entry.
func (e *Engine) flush(s *State, c *Ctx) Entry {
	s.JournalSeq++
	var cited []map[string]any
	for _, n := range c.notes {
		if x := e.enqueue(s, n); x != nil {
			cited = append(cited, map[string]any{"id": x.ID, "hash": x.Hash, "from": x.From, "through": x.Seq})
		}
	}
	c.notes = nil
	ent := Entry{Seq: s.JournalSeq, Time: c.now, Game: c.game, Detail: c.detail}
	if len(cited) > 0 {
		ent.set("cited", cited)
	}
	if c.msg != nil {
		ent.MsgID = c.msg.ID
	}
	if c.actor != nil {
		ent.Player = c.actor.Name
	}
	if len(c.draws) > 0 {
		ent.set("draws", c.draws)
	}
	if len(c.did) > 0 {
		ent.set("changes", c.did)
	}
	c.detail, c.draws = nil, nil
	return ent
}

// enqueue adds a notice to the outbox, making its ID unique within the outbox;
// a citable notice gets its citation, which it returns.
func (e *Engine) enqueue(s *State, n *Notice) *Cited {
	base, id := n.ID, n.ID
	for i := 2; s.hasOutgoing(id); i++ {
		id = fmt.Sprintf("%s/%d", base, i)
	}
	n.ID = id
	n.Time = n.Time.UTC()
	var x *Cited
	if citable(n) {
		var err error
		if x, err = e.cite(s, n); err != nil {
			panic(err) // the secret is present whenever anything is sent
		}
	}
	s.Outbox = append(s.Outbox, &Outgoing{Notice: *n})
	return x
}

func (s *State) hasOutgoing(id string) bool {
	for _, o := range s.Outbox {
		if o.ID == id {
			return true
		}
	}
	return false
}

// currencies are every game's currencies, listed once (a game's Spec never
// changes); callers read the list and never change it.
func (e *Engine) currencies() []Currency { return e.curs }

func (e *Engine) currency(word string) (Currency, string, bool) {
	w := strings.ToLower(strings.TrimSpace(word))
	for _, g := range e.list {
		for _, c := range g.Spec().Currencies {
			names := append([]string{strings.ToLower(c.Singular), strings.ToLower(c.Plural)}, c.Aliases...)
			for _, n := range names {
				if w == n {
					return c, g.Spec().ID, true
				}
			}
		}
	}
	return Currency{}, "", false
}

// NextDue is the time of the earliest scheduled event, core or game, computed
// from the state; ok is false when nothing is scheduled. The daemon sleeps until
// then (or until mail arrives).
func (e *Engine) NextDue(s *State) (time.Time, bool, error) {
	_, ev, ok, err := e.earliest(s)
	return ev.At, ok, err
}

// GameNext is a game's next scheduled event, computed from the state alone
// (what the status page and `referee status` show); ok is false when the game
// has none.
func (e *Engine) GameNext(s *State, game string) (Event, bool, error) {
	if s.Secret == "" {
		return Event{}, false, nil
	}
	for i, id := range e.ids {
		if id == game {
			return e.gameNext(s, i)
		}
	}
	return Event{}, false, nil
}

// Report builds a game's current report without changing the state's outbox.
func (e *Engine) Report(s *State, game string, now time.Time) (*Notice, error) {
	g := e.games[game]
	if g == nil {
		var ids []string
		for _, g := range e.list {
			ids = append(ids, g.Spec().ID)
		}
		sort.Strings(ids)
		return nil, fmt.Errorf("report: no game %q (the games are %s)", game, strings.Join(ids, ", "))
	}
	c := e.ctx(s, game, now, nil)
	c.ro = true
	var n *Notice
	err := run(func() error {
		var err error
		n, err = g.Report(c)
		return err
	})
	return n, err
}

// Check lists the problems of a loaded state: broken ledger invariants, unknown
// games, contestmasters that are not addresses, notices that failed for good.
func (e *Engine) Check(s *State) []string {
	var p []string
	if err := s.checkLedger(e.currencies()); err != nil {
		p = append(p, err.Error())
	}
	for id, gs := range s.Games {
		if e.games[id] == nil {
			p = append(p, fmt.Sprintf("games.%s: no such game", id))
		}
		if gs.Contestmaster != "" && !strings.Contains(gs.Contestmaster, "@") {
			p = append(p, fmt.Sprintf("games.%s.contestmaster: %q is not an address", id, gs.Contestmaster))
		}
	}
	for _, in := range s.Intents {
		if e.games[in.Game] == nil {
			p = append(p, fmt.Sprintf("intents: #%d names no game %q", in.ID, in.Game))
		}
	}
	for _, f := range s.Failed {
		p = append(p, fmt.Sprintf("failed: notice %s (%s) to %s could not be delivered: %s", f.ID, f.Subject, f.Notice.Recipients(), f.LastError))
	}
	return append(p, e.checkGames(s)...)
}

// checkGames runs, on a copy of the state, what the daemon asks of every
// game (its next event, its report), so that a section every scheduled
// event or report would fail on is found before the daemon meets it.
func (e *Engine) checkGames(s *State) []string {
	var p []string
	if s.Secret == "" && s.JournalSeq > 0 {
		p = append(p, fmt.Sprintf("secret: missing from a started state (journal_seq %d): no week's seed can be drawn; restore it from a copy of this state", s.JournalSeq))
		return p
	}
	if _, _, err := e.NextDue(Snapshot(s)); err != nil {
		p = append(p, fmt.Sprintf("games: the next scheduled event cannot be computed: %v", err))
	}
	if s.Secret == "" {
		return p // not started: reports would draw from no seed
	}
	for _, g := range e.list {
		if _, err := e.Report(Snapshot(s), g.Spec().ID, s.Clock); err != nil {
			p = append(p, fmt.Sprintf("games.%s: its report cannot be made: %v", g.Spec().ID, err))
		}
	}
	return p
}

// ambiguousAlias reports whether a short name of game g ("wacky" for Wacky
// World) is also a word of another game's title or names ("Wacky Races",
// "the wacky contest"): such a name means neither game, and the players
// name the game in full.
func ambiguousAlias(games []Game, g Game, alias string) bool {
	re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(alias) + `\b`)
	for _, o := range games {
		if o.Spec().ID == g.Spec().ID {
			continue
		}
		if re.MatchString(o.Spec().Title) || re.MatchString(o.Spec().ID) {
			return true
		}
		for _, a := range o.Spec().Aliases {
			if re.MatchString(a) {
				return true
			}
		}
	}
	return false
}
