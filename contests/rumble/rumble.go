// Package rumble referees Rumble, the power-auction brawl of Agora's contest
// contract (rumble-contract.txt, paragraphs 1-17, rulings U1-U7).
//
// Input: the interpreter's actions (public announcements, private submissions
// read by the Extractor, the contestmaster's rulings) and the passage of time
// (deadlines, reminders, the weekly report). Output: the game's state, sealed
// commitments published at acceptance and revealed with their nonces, public
// notices, private reminders and receipts, and points in the points ledger.
//
// It keeps every sealed submission secret until the contract reveals it: before
// a reveal, public mail, reports and the "Recent events" show only who has
// submitted and the commitment. It does no I/O and logs nothing; it does not
// send mail (the interpreter's outbox does) and knows nothing of IMAP or SMTP.
package rumble

import (
	_ "embed"

	"referee/contract"
)

//go:embed guide.md
var guide string

// Game is the Rumble contest.
type Game struct{}

// New returns the Rumble game for the interpreter.
func New() *Game { return &Game{} }

// The interfaces the game implements, checked when it is built: a
// signature slip in a hook fails the build instead of turning it off.
var (
	_ contract.Game          = (*Game)(nil)
	_ contract.Extractor     = (*Game)(nil)
	_ contract.RulingHandler = (*Game)(nil)
	_ contract.NameKeeper    = (*Game)(nil)
	_ contract.ParamShower   = (*Game)(nil)
	_ contract.Republisher   = (*Game)(nil)
	_ contract.NumberKeeper  = (*Game)(nil)
	_ contract.DataSaver     = (*State)(nil)
)

// spec is Rumble's static description. Rumble keeps no assets.
var spec = contract.Spec{
	ID:      "rumble",
	Title:   "Rumble",
	Aliases: []string{"rumble", "the rumble contest"},
	Params:  params(),
	Guide:   guide,
}

// Spec implements contract.Game.
func (g *Game) Spec() contract.Spec { return spec }

// params are the game's parameters: every number the contract fixes, so that an
// amendment (Rumble 15, G9) can change it with "SET <name> = <value>".
func params() []contract.Param {
	return []contract.Param{
		{Name: "Deadline", Type: "duration", Default: "72h", Rule: "U3", Help: "time allowed for each private phase"},
		{Name: "Reminder", Type: "duration", Default: "24h", Rule: "U3", Help: "private reminders go this long before a deadline"},
		{Name: "Powers", Type: "int", Default: "2", Min: 1, Max: 10, Rule: "Rumble 1", Help: "powers per contestant when the start announcement names none"},
		{Name: "ContestmasterPowers", Type: "int", Default: "2", Min: 0, Max: 40, Rule: "Rumble 1", Help: "contestmaster powers when the start announcement names none"},
		{Name: "Stamina", Type: "int", Default: "100", Min: 1, Max: 100000, Rule: "Rumble 4", Help: "stamina when the powers are announced"},
		{Name: "BidLimit", Type: "int", Default: "100", Min: 1, Max: 100000, Rule: "Rumble 5", Help: "the most a contestant's bids may total"},
		{Name: "KillPoints", Type: "int", Default: "2", Min: 0, Max: 1000, Rule: "Rumble 10", Help: "points to each attacker of a contestant who dies"},
		{Name: "WinFactor", Type: "int", Default: "2", Min: 0, Max: 1000, Rule: "Rumble 11", Help: "the winner gains this times the contestants at the start"},
		{Name: "MinContestants", Type: "int", Default: "2", Min: 2, Max: 100, Rule: "Rumble 1", Help: "contestants needed to start a game"},
	}
}

// NewState implements contract.Game.
func (g *Game) NewState() any { return &State{} }

// Init implements contract.Game.
func (g *Game) Init(c *contract.Ctx) error { return nil }

func data(c *contract.Ctx) *State { return c.Data().(*State) }

// Verbs implements contract.Game.
func (g *Game) Verbs() []*contract.Verb {
	return []*contract.Verb{
		{Name: "join", Pattern: `join(?:\s+(?:the\s+)?(?:contest|game))?`, Rule: "Rumble 13",
			Syntax: "I join Rumble", Help: "become a contestant (only between games)", Do: doJoin},
		{Name: "leave", Pattern: `leave(?:\s+(?:the\s+)?(?:contest|game))?`, Rule: "Rumble 14",
			Syntax: "I leave Rumble", Help: "stop being a contestant (during a game you are dead at once, U7)", Do: doLeave},
		{Name: "start", Pattern: `(?:announce|start|begin)\s+(?:a\s+)?new\s+(?:game|rumble|contest)(?P<rest>.*)`, Rule: "Rumble 1",
			Syntax: "I announce a new game of Rumble with P powers per contestant and Q contestmaster powers",
			Help:   "the contestmaster starts a game (no game may be running)", Do: doStart},
		{Name: "end", Pattern: `end\s+(?:the\s+)?(?:current\s+)?(?:game|rumble)(?:\s+of\s+rumble)?`, Rule: "Rumble 12",
			Syntax: "I end the current game of Rumble", Help: "end the running game with no winner (without objection from a contestant)",
			Dependent: &contract.Method{Kind: "objection", N: 1, Eligible: isContestant, Who: "contestants", Intendable: endable,
				Object: currentGame, Gone: endedGame}, Do: doEnd},
		{Name: "amend", Pattern: `amend\s+(?:the\s+)?(?:rumble(?:['’]s)?\s+)?(?:contract|contest)(?:\s+of\s+rumble)?\s*(?:[:,-]|\bto\s+read\b|\bas\s+follows\b|\bby\b|\bwith\b)?\s*(?P<text>.+)`, Rule: "Rumble 15",
			Syntax: "I amend the Rumble contract: SET Deadline = 48h", Help: "the contestmaster amends the contract (without 2 objections from contestants)",
			Dependent: &contract.Method{Kind: "objection", N: 2, Eligible: isContestant, Who: "contestants", Intendable: amendable}, Text: true, Do: doAmend},
		{Name: "consent", Pattern: `consent\s+to\s+(?P<who>.+?)\s+(?:becoming|being|as)\s+(?:the\s+)?(?:rumble\s+)?contestmaster(?:\s+of\s+rumble)?`, Rule: "Rumble 16",
			Syntax: "I consent to <player> becoming the Rumble contestmaster", Help: "the contestmaster consents to eir replacement", Do: doConsent},
		{Name: "replace", Pattern: `replace\s+the\s+(?:rumble\s+)?contestmaster(?:\s+of\s+rumble)?\s+with\s+(?P<who>.+)`, Rule: "Rumble 16",
			Syntax: "I replace the Rumble contestmaster with <player>", Help: "any player, with the contestmaster's consent", Do: doReplace},
		{Name: "sealed", Pattern: `(?:bid\s+\d|submit\s+(?:the\s+|a\s+)?power\b|attack\s|defend\s|spend\s+\d+\s+(?:energy\s+)?on\s|burn\s+\d+\s+(?:energy\s+)?on\s|discard\s).*`, Rule: "G4", Scope: contract.PrivateOnly,
			Syntax: "I bid 30 on <power> / I attack <player> with 30 / I discard <power> (privately)",
			Help:   "sentence forms of the private lists; the whole message is read as one list", Do: doSealedSentence},
		{Name: "submit", Extracted: true, Rule: "Rumble 2, 5, 6, 8", Scope: contract.PrivateOnly,
			Syntax: "(a private list: powers, bids, a discard or actions)",
			Help:   "your private submission for the open phase, sealed by a commitment", Do: doSubmit},
	}
}

// isContestant says who may object to Rumble's dependent actions (U7): the
// contestants of the running game, or the contest's members between games.
func isContestant(c *contract.Ctx, p *contract.Player) bool {
	st := data(c)
	if st.Phase != PhaseNone {
		f := st.fighter(p.Name)
		return f != nil && f.Alive
	}
	return p.In("rumble")
}
