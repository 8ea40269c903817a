package contract

import "time"

// Spec is a game's static description: what never changes while the referee
// runs. Callers read it and never change it.
type Spec struct {
	// ID is the game's key in the state and in draw labels: "life".
	ID string
	// Title is the name players read: "Life".
	Title string
	// Aliases are the words that name the game in a sentence, lower case:
	// "life", "the life contest".
	Aliases []string
	// Params are the game's declared parameters (Life R6, ...).
	Params []Param
	// Currencies are the assets the game keeps in the ledger (Vials, LAND, ...).
	Currencies []Currency
	// Guide is the players' guide, plain text (Markdown), also the HELP reply.
	Guide string
	// NotRatifying names the parts of the game's reports that its text says
	// do not self-ratify, each with its rule; every report lists them.
	NotRatifying []string
}

// Game is what a contest implements. The games are listed explicitly in cmd/referee.
type Game interface {
	// Spec is the game's static description.
	Spec() Spec
	// NewState returns a pointer to the zero value of the game's own state, into
	// which the store decodes the game's section.
	NewState() any
	// Init fills a fresh game state (c.Data() is the NewState value).
	Init(c *Ctx) error
	// Verbs is the game's verb table: the parser, HELP and the players' guide all
	// come from it.
	Verbs() []*Verb
	// Next returns the game's next scheduled event, computed from the state
	// alone, read through c. The engine keeps the answer while nothing Next
	// read has changed: the game's section (changed only after Ctx.Data or
	// Ctx.Section, as the undo log requires), the clock if it read c.Now or
	// c.Week, anything else if it read c.State, c.Players or c.Rulings.
	Next(c *Ctx) (Event, bool)
	// Run performs a due event at e.At (c.Now() == e.At, even when run late). It
	// must change the state so that Next moves past e.
	Run(c *Ctx, e Event) error
	// Report is the game's current report (the weekly one), as a notice.
	Report(c *Ctx) (*Notice, error)
}

// The optional interfaces below are found by a type assertion at run time;
// every game that implements one says so with a `var _ contract.Extractor =
// (*Game)(nil)` line, so that a signature slip fails the build instead of
// silently turning the hook off.

// Republisher is implemented by games with public notices a correction
// publishes again when it changes them (Rumble: a sealed submission's
// commitment, which its reveal is checked against): the corrected notice
// goes to its list once more, marked "Corrected:", with the revision
// (PublishRevision), so that the commitment of a corrected submission is
// published whole before its reveal. The revision lists every change.
type Republisher interface {
	Republish(n *Notice) bool
}

// Extractor is implemented by games whose actions are not "I ..." sentences
// (Steemfield's {TAGS}, Rumble's private lists). Extract returns the actions it
// found in the message's unquoted text, each with its byte Offset in the text so
// that actions from all games are performed in the order written.
type Extractor interface {
	Extract(c *Ctx, m *Message) []*Action
}

// RulingHandler is implemented by games that ask their contestmaster for rulings
// (G8). OnRuling runs when the answer arrives or the deadline passes (answer "",
// timedOut true).
type RulingHandler interface {
	OnRuling(c *Ctx, r *Ruling, timedOut bool) error
}

// NameKeeper is implemented by games that keep players' names where a change
// of name cannot follow them (Rumble: a sealed submission's published
// commitment covers a text that names the contestant). Renamable returns a
// rejection saying why p may not change eir name now and when e may, or nil
// when e may now. It only reads the state; the change of name is refused
// at once when any game refuses it.
type NameKeeper interface {
	Renamable(c *Ctx, p *Player) error
}

// ParamShower is implemented by games whose report shows a parameter's value
// otherwise than as set (Rumble: a game going on keeps the numbers of powers
// it was announced with). ParamShown returns value, the parameter's, as the
// report shows it; the status page shows it so too. It only reads the state.
type ParamShower interface {
	ParamShown(gs *GameState, name, value string) string
}

// Event is a scheduled duty of a game: a weekly round, a deadline, a reminder.
type Event struct {
	At   time.Time `yaml:"at" json:"at"`
	Name string    `yaml:"name" json:"name"`
	// Key distinguishes events of the same name (a phase, a contestant).
	Key string `yaml:"key,omitempty" json:"key,omitempty"`
}

// Scope says which channels an action counts from (ruling G4).
type Scope int

const (
	// PublicOnly actions count only from public (or official) list mail.
	PublicOnly Scope = iota
	// PrivateOnly actions count only from private mail to the referee.
	PrivateOnly
	// Anywhere actions count from public or private mail.
	Anywhere
)

// Verb is one row of a game's verb table.
type Verb struct {
	// Name is the verb's short name, recorded in the journal: "claim".
	Name string
	// Pattern is a regular expression matched, case-insensitively and anchored at
	// both ends, against the action with its performative ("I", "I hereby") and
	// trailing punctuation removed: `claim cell \((?P<x>-?\d+), ?(?P<y>-?\d+)\)`.
	// Named groups become Action.Args. A pattern may leave out the game's name
	// and the parser accepts a trailing "in Life" / "for the Life contest".
	Pattern string
	// Syntax is the form shown to players: "I claim cell (X, Y) in Life".
	Syntax string
	// Help is one line for the HELP reply and the guide.
	Help string
	// Rule cites the game's rule: "R16".
	Rule string
	// Scope says where the action counts from.
	Scope Scope
	// Dependent, when set, makes the verb a dependent action (G7): it is performed
	// only by resolving an intent tabled earlier with this method.
	Dependent *Method
	// Do performs the action. It returns nil when done, a *Rejection when the
	// player's action fails (the state must then be unchanged), or any other
	// error for a fault of ours (the message is then not acknowledged).
	Do func(c *Ctx, a *Action) error
	// Extracted marks verbs that only an Extractor produces (no sentence pattern).
	Extracted bool
	// Text marks verbs whose pattern ends in a text the player writes (a
	// suggestion's, an amendment's): an "if ..." at the sentence's end is
	// that text's, not a condition of the action (G3).
	Text bool
}

// Action is one attempted action in a message.
type Action struct {
	Line   string            // the text as read, for the receipt
	Offset int               // byte offset in the message text
	Game   string            // the game that owns the verb ("" for the interpreter's own)
	Verb   *Verb             // the verb
	Args   map[string]string // named groups of the verb's pattern, or an extractor's values
	Cond   string            // the condition of a conditional action (G3), "" if none
	Body   string            // a multi-line payload (a proposal's text, a list of actions)
	// Reject, when set by an extractor, makes the action fail with this rejection
	// without calling Verb.Do (broken tag syntax, for example).
	Reject *Rejection
	// later is the time phrase the action was put off by ("Tomorrow,
	// I ..."): it is performed only on the day the phrase names (notNow).
	later string
}

// Arg returns a named argument, "" when absent.
func (a *Action) Arg(name string) string { return a.Args[name] }
