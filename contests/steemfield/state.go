package steemfield

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"referee/contract"
)

// Phases of the game (ruling S2).
const (
	PhaseGathering = ""         // before the game starts (Meta 10)
	PhaseProposal  = "proposal" // after a results post
	PhaseVoting    = "voting"   // after a proposal post
	PhaseOver      = "over"     // someone won (Gameplay 5)
)

// State is the game's own state.
type State struct {
	Phase    string    `yaml:"phase"`
	StartDue time.Time `yaml:"start_due,omitempty"`
	// Round is the current round; round 1 opens with the first results post.
	Round       int       `yaml:"round"`
	RoundStart  time.Time `yaml:"round_start,omitempty"`
	ProposalEnd time.Time `yaml:"proposal_end,omitempty"`
	VoteEnd     time.Time `yaml:"vote_end,omitempty"`
	RoundEnd    time.Time `yaml:"round_end,omitempty"`
	Players     []*Member `yaml:"players"`
	Cells       []Cell    `yaml:"cells"`
	NextSeq     int       `yaml:"next_seq"`
	// Proposals are this round's, in arrival order; Chosen is the index + 1 of
	// the one put to the vote (0: none).
	Proposals []*Proposal `yaml:"proposals"`
	Chosen    int         `yaml:"chosen"`
	Votes     []Vote      `yaml:"votes"`
	Rules     []Rule      `yaml:"rules"`
	// Notes are the clarifications of the next results post (Totem Behavior 3).
	Notes  []string `yaml:"notes"`
	Winner string   `yaml:"winner,omitempty"`
	// Pending is a passed rule whose effect waits for the totem controller's
	// ruling (G9): its ruling key.
	Pending []string `yaml:"pending,omitempty"`
	// followed is set by sync, and names is the contract.NameEpoch it
	// followed; kept by SaveTop, never saved in a file (data loaded has
	// followed no names).
	followed bool
	names    uint64
}

// Member is a player of the game.
type Member struct {
	Name   string `yaml:"name"`
	Addr   string `yaml:"addr"`
	Letter string `yaml:"letter"`
	// Power is the declared delegated power in thousandths (ruling S1).
	Power  int64     `yaml:"power"`
	Joined time.Time `yaml:"joined"`
	Passed int       `yaml:"passed"` // proposals of eirs that passed (S4)
	Burnt  int       `yaml:"burnt"`  // LAND e has burnt (S4)
	// Referred is set once the player named who referred em (S9); Periods
	// counts the proposal periods ended since e joined.
	Referred bool `yaml:"referred,omitempty"`
	Periods  int  `yaml:"periods"`
	// This round's actions.
	Proposed bool `yaml:"proposed,omitempty"`
	Voted    bool `yaml:"voted,omitempty"`
	Placed   bool `yaml:"placed,omitempty"`
	OwnRoll  int  `yaml:"own_roll,omitempty"` // eir own 1d6 ({ROLL}), S8
	Roll     int  `yaml:"roll,omitempty"`     // the 1d6 that counts this round
	// Violations this round (S10): no end-of-round LAND.
	Violations []string `yaml:"violations,omitempty"`
	// LastLAND is eir LAND at the last results post (the "change" column).
	LastLAND int `yaml:"last_land"`
}

// Cell is one placed (or grown) LAND on the map.
type Cell struct {
	X     int    `yaml:"x"`
	Y     int    `yaml:"y"`
	Owner string `yaml:"owner"`
	Seq   int    `yaml:"seq"` // placement order: higher is more recent (S8)
}

// Proposal is a rule change proposed in the proposal period (Implementation
// Details, Proposals).
type Proposal struct {
	Player  string    `yaml:"player"`
	Type    string    `yaml:"type"` // ADDITION, SUBTRACTION, REPLACEMENT
	Section string    `yaml:"section,omitempty"`
	Number  int       `yaml:"number,omitempty"`
	Text    string    `yaml:"text,omitempty"`
	At      time.Time `yaml:"at"`
}

// Vote is a vote of the voting period.
type Vote struct {
	Player string `yaml:"player"`
	Yes    bool   `yaml:"yes"`
	Weight int64  `yaml:"weight"` // millionths: min(power, 1)^2 (S1, S5)
}

// Word is the vote as its tag writes it: "YES" or "NO" (S5).
func (v Vote) Word() string {
	if v.Yes {
		return "YES"
	}
	return "NO"
}

// Rule is one rule of the current rule set (ruling S3).
type Rule struct {
	Section string `yaml:"section"`
	Text    string `yaml:"text"`
	// Key names the mechanic the referee performs for this rule ("penalty",
	// "growth", ...): a subtraction switches it off (S11).
	Key string `yaml:"key,omitempty"`
	// NA marks the Steem-only rules (ruling S12).
	NA bool `yaml:"na,omitempty"`
	// Needs marks a passed rule awaiting the totem controller's ruling (G9).
	Needs string `yaml:"needs,omitempty"` // the ruling's key
}

// has reports whether the rule set still holds the rule of a mechanic.
func (st *State) has(key string) bool {
	for _, r := range st.Rules {
		if r.Key == key {
			return true
		}
	}
	return false
}

// cite names the current number of a mechanic's rule (S3: numbers shift when
// rules are added or removed), e.g. "Gameplay 12".
func (st *State) cite(key string) string {
	for i, r := range st.Rules {
		if r.Key == key {
			return fmt.Sprintf("%s %d", r.Section, number(st.Rules, i))
		}
	}
	return "ruling S6"
}

// The starting rules the referee cites but performs no mechanic of (cite),
// found by their text (S3: numbers shift; a replacement rewrites it).
const (
	joinRule      = "In order to become a player in the game"             // Participation 1
	passRule      = "The proposal for a rule change only passes if"       // Voting and Proposals 3
	precedence    = "A player's proposal will then be accepted by"        // Voting and Proposals 6
	occlusionRule = "Game Rules accepted by vote can occlude Meta Rules." // Gameplay 10
)

// citeText cites the rule whose text begins with prefix as the rule set now
// numbers it, "" once it is no longer there as written.
func (st *State) citeText(prefix string) string {
	for i, r := range st.Rules {
		if strings.HasPrefix(r.Text, prefix) {
			return fmt.Sprintf("%s %d", r.Section, number(st.Rules, i))
		}
	}
	return ""
}

// occlusion cites the rule that lets Game Rules occlude Meta Rules (S3;
// Gameplay 10 in the starting set), "" once it is gone.
func (st *State) occlusion() string { return st.citeText(occlusionRule) }

// precedence cites the rules of the order of consideration, the burn (a
// mechanic) and the tie-breaks, as the rule set now numbers them: "Voting
// and Proposals 5 and 6" in the starting set.
func (st *State) precedence() string {
	burn, ties := "", st.citeText(precedence)
	if st.has("burn") {
		burn = st.cite("burn")
	}
	if burn == "" || ties == "" {
		return cites(burn, ties)
	}
	bs, bn := splitCite(burn)
	ts, tn := splitCite(ties)
	if bs == ts {
		return fmt.Sprintf("%s %s and %s", bs, bn, tn)
	}
	return burn + " and " + ties
}

// splitCite splits "Voting and Proposals 5" into its section and number.
func splitCite(c string) (section, n string) {
	i := strings.LastIndex(c, " ")
	return c[:i], c[i+1:]
}

// cites joins the citations that are there: "Voting and Proposals 3,
// ruling S5", "ruling S5" once the rule is gone.
func cites(c ...string) string {
	var out []string
	for _, x := range c {
		if x != "" {
			out = append(out, x)
		}
	}
	return strings.Join(out, ", ")
}

// paren is " (c)", "" for no citation.
func paren(c string) string {
	if c == "" {
		return ""
	}
	return " (" + c + ")"
}

// member finds a member by name.
func (st *State) member(name string) *Member {
	for _, m := range st.Players {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// sync follows players' name changes (the interpreter renames ledger entries;
// the game's own state follows here) by address; once no name changed since
// it last looked (contract.NameEpoch), it does not look again.
func (st *State) sync(c *contract.Ctx) {
	epoch := contract.NameEpoch()
	if st.followed && st.names == epoch {
		return
	}
	st.followed, st.names = true, epoch
	s := c.State()
	for _, m := range st.Players {
		p := s.PlayerByAddress(m.Addr)
		if p == nil || p.Name == m.Name {
			continue
		}
		old := m.Name
		saveMember(c, m)
		m.Name = p.Name
		st.Cells = slices.Clone(st.Cells)
		for i := range st.Cells {
			if st.Cells[i].Owner == old {
				st.Cells[i].Owner = p.Name
			}
		}
		for _, pr := range st.Proposals {
			if pr.Player == old {
				saveProposal(c, pr)
				pr.Player = p.Name
			}
		}
		st.Votes = slices.Clone(st.Votes)
		for i := range st.Votes {
			if st.Votes[i].Player == old {
				st.Votes[i].Player = p.Name
			}
		}
		if st.Winner == old {
			st.Winner = p.Name
		}
	}
}

// oldestFirst is the members in joining order (the Players slice order).
func (st *State) oldestFirst() []*Member { return append([]*Member(nil), st.Players...) }

// cellAt returns the index of the cell at (x, y), or -1.
func (st *State) cellAt(x, y int) int {
	for i, c := range st.Cells {
		if c.X == x && c.Y == y {
			return i
		}
	}
	return -1
}

// placed counts a player's cells on the map.
func (st *State) placed(name string) int {
	n := 0
	for _, c := range st.Cells {
		if c.Owner == name {
			n++
		}
	}
	return n
}

func balance(c *contract.Ctx, name string) int {
	return int(c.State().Ledger.Balance(LAND, name))
}

// unplaced is the LAND a player holds that is not on the map.
func (st *State) unplaced(c *contract.Ctx, name string) int {
	return balance(c, name) - st.placed(name)
}

// sortCells puts the cells in map order, in a new list (SaveTop).
func (st *State) sortCells() {
	st.Cells = slices.Clone(st.Cells)
	sort.Slice(st.Cells, func(i, j int) bool {
		a, b := st.Cells[i], st.Cells[j]
		if a.Y != b.Y {
			return a.Y < b.Y
		}
		return a.X < b.X
	})
}

// moveOne moves one LAND from a player to another owner (a player or the
// totem): unplaced LAND first, then the most recently placed cell, which
// changes owner and stays on the map (ruling S8). It reports where the unit
// came from ("" unplaced, "(x,y)" a cell). To the totem, a cell is cleared.
func (st *State) moveOne(c *contract.Ctx, from, to string) (string, error) {
	where := ""
	if st.unplaced(c, from) <= 0 {
		best := -1
		for i, cell := range st.Cells {
			if cell.Owner == from && (best < 0 || cell.Seq > st.Cells[best].Seq) {
				best = i
			}
		}
		if best < 0 {
			return "", errNoLand
		}
		where = cellName(st.Cells[best].X, st.Cells[best].Y)
		if to == Totem {
			st.deleteCell(best)
		} else {
			st.Cells = slices.Clone(st.Cells)
			st.Cells[best].Owner = to
		}
	}
	if err := c.State().Ledger.Move(LAND, from, to, 1); err != nil {
		return "", err
	}
	return where, nil
}

// SaveTop implements contract.DataSaver: the fields by value. The rest is
// saved where it changes: a member (saveMember) and a proposal
// (saveProposal) before one of their fields is written. The lists (the
// players, the cells, the proposals, the votes, the rules, the notes, the
// rulings pending, a member's violations) are only appended to or replaced,
// never changed in place.
func (st *State) SaveTop() func() {
	cp := *st
	return func() { *st = cp }
}

// saveMember saves m before an action or event changes it (DataSaver).
func saveMember(c *contract.Ctx, m *Member) { contract.SaveValue(c, m) }

// saveProposal saves p before an action changes it (DataSaver).
func saveProposal(c *contract.Ctx, p *Proposal) { contract.SaveValue(c, p) }

// deleteCell takes cell i off the map, in a new list (SaveTop).
func (st *State) deleteCell(i int) {
	st.Cells = slices.Delete(slices.Clone(st.Cells), i, i+1)
}
