package rumble

import (
	"time"

	"referee/contract"
)

// Phases of a game (ruling U1). "" is between games.
const (
	PhaseNone    = ""
	PhasePowers  = "powers"  // Rumble 2: private power submissions
	PhaseBids    = "bids"    // Rumble 5: sealed bids
	PhaseDiscard = "discard" // Rumble 6: one discard each, or none
	PhaseRound   = "round"   // Rumble 8: secret action lists
	PhaseRulings = "rulings" // U5: the round waits for the contestmaster's rulings
)

// State is Rumble's own part of the referee state.
type State struct {
	// Game numbers the games of the contest: the current or the last one.
	Game  int    `yaml:"game"`
	Phase string `yaml:"phase"`
	// P and Q are the powers per contestant and the contestmaster's powers
	// announced at the start (Rumble 1).
	P          int       `yaml:"p,omitempty"`
	Q          int       `yaml:"q,omitempty"`
	Started    time.Time `yaml:"started,omitempty"`
	StartCount int       `yaml:"start_count,omitempty"`
	Round      int       `yaml:"round,omitempty"`
	// Opened and Deadline bound the open private phase (U3); CloseAt is set when
	// every submission is in, so the phase closes early as an event.
	Opened   time.Time `yaml:"opened,omitempty"`
	Deadline time.Time `yaml:"deadline,omitempty"`
	Reminded bool      `yaml:"reminded,omitempty"`
	CloseAt  time.Time `yaml:"close_at,omitempty"`
	// NextReport is when the next weekly report is due while a game runs.
	NextReport time.Time    `yaml:"next_report,omitempty"`
	Fighters   []*Fighter   `yaml:"fighters,omitempty"`
	Powers     []*Power     `yaml:"powers,omitempty"`
	Subs       []*Sub       `yaml:"subs,omitempty"`
	Pending    []*Pending   `yaml:"pending,omitempty"`
	Amendments []*Amendment `yaml:"amendments,omitempty"`
	// LastAmendment is the last number a correction kept for an amendment
	// that it left unmade, above every one listed (contract.NumberKeeper):
	// the next is numbered after it; 0 once one is numbered past it.
	LastAmendment int `yaml:"last_amendment,omitempty"`
	// Consent is the player the contestmaster consents to be replaced by (Rumble 16).
	Consent string `yaml:"consent,omitempty"`
	// Last sums up the last finished game for the report.
	Last string `yaml:"last,omitempty"`

	// powerIx and fighterIx index the names of Powers (powers) and of
	// Fighters (fighter); not written.
	powerIx   *powerIndex
	fighterIx *fighterIndex
}

// Fighter is a contestant of the current game.
type Fighter struct {
	Name    string `yaml:"name"`
	Stamina int    `yaml:"stamina"`
	Energy  int    `yaml:"energy"`
	Alive   bool   `yaml:"alive"`
	// Out says how e stopped: "died in round 2", "left", "died bidding".
	Out    string   `yaml:"out,omitempty"`
	Powers []string `yaml:"powers,omitempty"` // powers held (copies included)
}

// Power is one power of the announced list (Rumble 3).
type Power struct {
	Name string `yaml:"name"`
	Text string `yaml:"text"`
	By   string `yaml:"by"` // a contestant, "contestmaster" or "pool"
	// Effect is one of the machine-readable effects (effects.go), "" when the
	// contestmaster adjudicates the power (U5).
	Effect    string   `yaml:"effect,omitempty"`
	Strength  int      `yaml:"strength,omitempty"` // the highest bid (Rumble 5)
	Holders   []string `yaml:"holders,omitempty"`
	Discarded bool     `yaml:"discarded,omitempty"`
}

// Sub is a sealed private submission of the open phase (U3: the latest counts).
type Sub struct {
	Who        string    `yaml:"who"`
	Phase      string    `yaml:"phase"`
	MsgID      string    `yaml:"msgid"`
	At         time.Time `yaml:"at"`
	Canonical  string    `yaml:"canonical"`
	Commitment string    `yaml:"commitment"`
	// Default marks a submission the referee made for a silent contestant (U3).
	Default bool       `yaml:"default,omitempty"`
	Powers  []PowerDef `yaml:"powers,omitempty"`
	Bids    []Bid      `yaml:"bids,omitempty"`
	Discard string     `yaml:"discard,omitempty"`
	Acts    []Alloc    `yaml:"acts,omitempty"`
}

// PowerDef is a submitted power.
type PowerDef struct {
	Name   string `yaml:"name"`
	Text   string `yaml:"text"`
	Effect string `yaml:"effect,omitempty"`
}

// Bid is a sealed bid on a listed power (Rumble 5).
type Bid struct {
	Power string `yaml:"power"`
	N     int    `yaml:"n"`
}

// Alloc is one line of an action list (Rumble 8): attack a target, defend, or
// spend or burn energy on a power.
type Alloc struct {
	Kind   string `yaml:"kind"` // attack, defend, spend, burn
	Target string `yaml:"target,omitempty"`
	Power  string `yaml:"power,omitempty"`
	N      int    `yaml:"n"`
}

// Pending is a use of an adjudicated power waiting for the contestmaster's
// ruling (U5).
type Pending struct {
	Ruling int    `yaml:"ruling"`
	Who    string `yaml:"who"`
	Power  string `yaml:"power"`
	Done   bool   `yaml:"done,omitempty"`
	Answer string `yaml:"answer,omitempty"`
	// Effect is the ruling read as an effect ("ward 10"), "" for no effect.
	Effect string `yaml:"effect,omitempty"`
}

// Amendment is a passed amendment of the contract (Rumble 15, G9).
type Amendment struct {
	N      int       `yaml:"n"`
	Text   string    `yaml:"text"`
	At     time.Time `yaml:"at"`
	Status string    `yaml:"status"` // applied, needs the contestmaster's ruling, recorded
	Ruling int       `yaml:"ruling,omitempty"`
}

// SaveTop implements contract.DataSaver: the fields by value. The rest is
// saved where it changes, before one of its fields is written: a fighter
// (saveFighter), a power (savePower), a use of a power waiting for a ruling
// (savePending) and an amendment (saveAmendment). The lists (the fighters,
// the powers, the submissions, the pending uses, the amendments, and a
// fighter's powers) are only appended to or replaced, never changed in
// place; a submission is never changed once it is in the list.
//
// An index of names (powers, fighter) built since is kept when it indexes
// the list put back, the same array and length: an action refused after
// another does not build it again. One of a longer list is not kept, so
// that an append over what the undo took back is not read from it.
func (s *State) SaveTop() func() {
	cp := *s
	return func() {
		pix, fix := s.powerIx, s.fighterIx
		*s = cp
		if pix != nil && pix.is(s.Powers) {
			s.powerIx = pix
		}
		if fix != nil && fix.is(s.Fighters) {
			s.fighterIx = fix
		}
	}
}

// saveFighter saves f before an action or event changes it (DataSaver).
func saveFighter(c *contract.Ctx, f *Fighter) { contract.SaveValue(c, f) }

// savePower saves p before an event changes it (DataSaver).
func savePower(c *contract.Ctx, p *Power) { contract.SaveValue(c, p) }

// savePending saves p before a ruling changes it (DataSaver).
func savePending(c *contract.Ctx, p *Pending) { contract.SaveValue(c, p) }

// saveAmendment saves am before a ruling changes it (DataSaver).
func saveAmendment(c *contract.Ctx, am *Amendment) { contract.SaveValue(c, am) }

// fighter is the contestant of that name (the first), from the list's
// index (fighterIndex): every message of a contestant asks.
func (s *State) fighter(name string) (f *Fighter) {
	if lookupCheck != nil {
		defer func() { lookupCheck.fighter(s, name, f) }()
	}
	ix := s.fighterIx
	if ix == nil || !ix.is(s.Fighters) {
		ix = newFighterIndex(s.Fighters)
		s.fighterIx = ix
	}
	i, ok := ix.byName[name]
	if ok && s.Fighters[i].Name != name { // a list changed: index it again
		s.fighterIx = newFighterIndex(s.Fighters)
		i, ok = s.fighterIx.byName[name]
	}
	if !ok {
		return nil
	}
	return s.Fighters[i]
}

func (s *State) alive() []*Fighter {
	var out []*Fighter
	for _, f := range s.Fighters {
		if f.Alive {
			out = append(out, f)
		}
	}
	return out
}

// power is the first listed power whose name equals name in any case,
// the spaces around either aside, from the list's index (powerIndex).
func (s *State) power(name string) (p *Power) {
	if lookupCheck != nil {
		defer func() { lookupCheck.power(s, name, p) }()
	}
	p, ok := s.powers().first(name)
	if !ok {
		p, _ = s.reindexPowers().first(name)
	}
	return p
}

// subsByWho indexes the submissions by contestant, the first of each as
// sub finds it, for a close or a report that looks up every contestant's
// (a search of the list for each would cost the square of the contestants).
func (s *State) subsByWho() map[string]*Sub {
	m := make(map[string]*Sub, len(s.Subs))
	for _, x := range s.Subs {
		if _, ok := m[x.Who]; !ok {
			m[x.Who] = x
		}
	}
	return m
}

// fightersByName indexes the fighters by name, the first of each as fighter
// finds it.
func (s *State) fightersByName() map[string]*Fighter {
	m := make(map[string]*Fighter, len(s.Fighters))
	for _, f := range s.Fighters {
		if _, ok := m[f.Name]; !ok {
			m[f.Name] = f
		}
	}
	return m
}

// orderOf returns a contestant's place in the list of fighters (after the
// last for a name not in it), for a sort of many names: the places are
// found once.
func (s *State) orderOf() func(name string) int {
	m := make(map[string]int, len(s.Fighters))
	for i, f := range s.Fighters {
		if _, ok := m[f.Name]; !ok {
			m[f.Name] = i
		}
	}
	return func(name string) int {
		if i, ok := m[name]; ok {
			return i
		}
		return len(s.Fighters)
	}
}

func (s *State) sub(who string) *Sub {
	for _, x := range s.Subs {
		if x.Who == who {
			return x
		}
	}
	return nil
}

// phaseLabel names the open phase in commitments: "bids", "round-2".
func (s *State) phaseLabel() string {
	if s.Phase == PhaseRound {
		return "round-" + itoa(s.Round)
	}
	return s.Phase
}
