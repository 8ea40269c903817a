package life

import (
	"cmp"
	_ "embed"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"referee/contract"
)

// ID is the game's key in the state, the ledger and draw labels.
const ID = "life"

// Vial is the ledger id of Vials of Primordial Ooze (Life R13).
const Vial = "life/vial"

//go:embed guide.md
var guide string

// Game is the Life contest.
type Game struct{}

// New returns the game, for the command line's explicit list.
func New() *Game { return &Game{} }

// The interfaces the game implements, checked when it is built: a
// signature slip in a hook fails the build instead of turning it off.
var (
	_ contract.Game          = (*Game)(nil)
	_ contract.RulingHandler = (*Game)(nil)
	_ contract.NumberKeeper  = (*Game)(nil)
	_ contract.DataSaver     = (*State)(nil)
)

// spec is Life's static description; the players' guide is also the HELP
// reply.
var spec = contract.Spec{
	ID:         ID,
	Title:      "Life",
	Aliases:    []string{"life", "the life contest", "life contest"},
	Params:     params(),
	Currencies: currencies(),
	Guide:      guide,
}

// Spec implements contract.Game.
func (g *Game) Spec() contract.Spec { return spec }

// Variants of Life R21 and R23 (ruling L5): the text before Suggestion #3 and
// the amended text after it, which a new contest starts with.
const (
	Amended  = "amended"
	Original = "original"
)

// params are the game's parameters: Life R6 (ruling L1), the award's PWIN and
// PPP (ruling L7) and the variants of R21 and R23 (ruling L5).
func params() []contract.Param {
	coord := func(name, def, help string) contract.Param {
		return contract.Param{Name: name, Type: "int", Default: def, Min: -4096, Max: 4096, Rule: "Life R6", Help: help}
	}
	return []contract.Param{
		coord("Xmin", "0", "smallest X coordinate"),
		coord("Xmax", "50", "largest X coordinate"),
		coord("Ymin", "0", "smallest Y coordinate"),
		coord("Ymax", "50", "largest Y coordinate"),
		{Name: "VPP", Type: "int", Default: "10", Min: 0, Max: 10000, Rule: "Life R6", Help: "VialsPerPlayer"},
		{Name: "VCFmin", Type: "int", Default: "1", Min: 0, Max: 10000, Rule: "Life R6", Help: "MinVialCreationFactor"},
		{Name: "VCFmax", Type: "int", Default: "5", Min: 0, Max: 10000, Rule: "Life R6", Help: "MaxVialCreationFactor"},
		{Name: "PWIN", Type: "int", Default: "100", Min: 0, Max: 1000000, Rule: "ruling L7", Help: "Points for a win; the award's cap is PWIN/5"},
		{Name: "PPP", Type: "int", Default: "5", Min: 0, Max: 1000000, Rule: "ruling L7", Help: "Points per player of the award (PWIN/20)"},
		{Name: "R21", Type: "choice", Default: Amended, Choices: []string{Amended, Original}, Rule: "ruling L5", Help: "which text of regulation 21 applies"},
		{Name: "R23", Type: "choice", Default: Amended, Choices: []string{Amended, Original}, Rule: "ruling L5", Help: "which text of regulation 23 applies"},
	}
}

// currencies are the game's assets: Vials of Primordial Ooze (Life R13).
func currencies() []contract.Currency {
	return []contract.Currency{{
		ID: Vial, Singular: "Vial", Plural: "Vials",
		Aliases:      []string{"vial of primordial ooze", "vials of primordial ooze", "vial of ooze", "vials of ooze", "vop", "vops"},
		CanOwn:       canOwn,
		Transferable: true,
		Rule:         "Life R13",
	}}
}

// canOwn is Life R13: Vials can only be owned by the contest, the
// contestmaster (the office, which holds them for R23) or contestants.
func canOwn(s *contract.State, owner string) bool {
	if owner == contract.ContestEntity(ID) || owner == contract.ContestmasterEntity(ID) {
		return true
	}
	p := s.PlayerByName(owner)
	return p != nil && p.In(ID)
}

// State is the game's own part of the state.
type State struct {
	// Since is when the contest's state was made (the first Round is the first
	// Monday after it).
	Since time.Time `yaml:"since,omitempty"`
	// LastWeek is when the last weekly duty ran (Monday 00:00 UTC, ruling L6).
	LastWeek time.Time `yaml:"last_week,omitempty"`
	// Cells maps each Controller's address to its living Cells, "x,y" in row
	// order (Life R8, R10): a Cell not listed is Dead, Controlled by the contest.
	Cells map[string]string `yaml:"cells"`
	// Rounds and Generations count what has been run.
	Rounds      int `yaml:"rounds"`
	Generations int `yaml:"generations"`
	// LastRound summarises the last Round for the report.
	LastRound *RoundLog `yaml:"last_round,omitempty"`
	// Suggestions are the regulation changes suggested (ruling L9), open and
	// adopted; NextSuggestion numbers them.
	Suggestions    []*Suggestion `yaml:"suggestions"`
	NextSuggestion int           `yaml:"next_suggestion"`
	// Handover is the pending change of contestmaster by mutual consent (R1).
	Handover Handover `yaml:"handover"`
	// index is the Controller of each Cell in Cells, kept beside them
	// (cellIndex); nil until one is needed.
	index *cellIndex
}

// SaveTop implements contract.DataSaver: the fields by value. The rest is
// saved where it changes: a Controller's Cells (contract.SaveEntry), a
// Suggestion (contract.SaveValue). Otherwise the Cells map is replaced whole
// (setCells), the lists are only appended to or replaced, and the last
// Round's summary is a new one each Round (Run completes the one runRound
// has just made).
func (st *State) SaveTop() func() {
	cp := *st
	return func() { *st = cp }
}

// Handover records the two halves of Life R1's mutual consent.
type Handover struct {
	// Offer is the address of the player the contestmaster consented to.
	Offer string `yaml:"offer,omitempty"`
	// Volunteers are the addresses of players who consented to become it.
	Volunteers []string `yaml:"volunteers,omitempty"`
}

// RoundLog is what the last Round did, for the report.
type RoundLog struct {
	At          time.Time `yaml:"at"`
	Generations int       `yaml:"generations"`
	Contest     int64     `yaml:"contest_vials"` // the contest's Vials at the start (N's numerator)
	J           int       `yaml:"j"`
	Variant     string    `yaml:"variant"` // R21 variant used
	Shares      string    `yaml:"shares"`  // how the contest's Vials were shared
	Award       bool      `yaml:"award,omitempty"`
}

// NewState implements contract.Game.
func (g *Game) NewState() any { return &State{} }

// Init implements contract.Game.
func (g *Game) Init(c *contract.Ctx) error {
	st := data(c)
	st.Since = c.Now()
	st.Cells = map[string]string{}
	st.index = newCellIndex(st.Cells)
	return nil
}

func data(c *contract.Ctx) *State {
	st := c.Data().(*State)
	if st.Cells == nil {
		st.Cells = map[string]string{}
	}
	return st
}

// Limits are the coordinate limits of Life R6/R7.
type Limits struct{ Xmin, Xmax, Ymin, Ymax int }

func limits(c *contract.Ctx) Limits {
	return Limits{c.IntParam("Xmin"), c.IntParam("Xmax"), c.IntParam("Ymin"), c.IntParam("Ymax")}
}

// In reports whether (x, y) is an existent Cell (Life R5, R7).
func (l Limits) In(x, y int) bool { return x >= l.Xmin && x <= l.Xmax && y >= l.Ymin && y <= l.Ymax }

// Pt is a Cell's coordinates.
type Pt struct{ X, Y int }

func (p Pt) String() string { return fmt.Sprintf("(%d, %d)", p.X, p.Y) }

// cellMap reads the state's Cells: coordinates to Controller address.
func (st *State) cellMap() (map[Pt]string, error) {
	out := map[Pt]string{}
	for who, list := range st.Cells {
		for _, f := range strings.Fields(list) {
			xs, ys, ok := strings.Cut(f, ",")
			x, err1 := strconv.Atoi(xs)
			y, err2 := strconv.Atoi(ys)
			if !ok || err1 != nil || err2 != nil {
				return nil, fmt.Errorf("life state: bad cell %q of %s", f, who)
			}
			out[Pt{x, y}] = who
		}
	}
	return out, nil
}

// setCells writes the Cells back, each Controller's in row order.
func (st *State) setCells(m map[Pt]string) {
	by := map[string][]Pt{}
	for p, who := range m {
		by[who] = append(by[who], p)
	}
	st.Cells = map[string]string{}
	for who, ps := range by {
		st.Cells[who] = cellList(ps)
	}
	st.index = newCellIndex(st.Cells)
}

// cellList is a Controller's Cells as the state keeps them: in row order,
// "x,y" each, separated by a space.
func cellList(ps []Pt) string {
	slices.SortFunc(ps, func(a, b Pt) int { return cmp.Or(cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X)) })
	b := make([]byte, 0, len(ps)*6)
	for i, p := range ps {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(p.X), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(p.Y), 10)
	}
	return string(b)
}

// controllerOf is the Controller of the Cell at p ("" for the contest):
// the Controller whose list holds p's text "x,y" between spaces or the
// list's ends, found in the Cells' index (cellIndex).
func (st *State) controllerOf(p Pt) string {
	return st.cellIndex().at[strconv.Itoa(p.X)+","+strconv.Itoa(p.Y)]
}

// cellIndex maps the text of each Cell in the Cells lists ("x,y", as the
// lists are cut at each space) to its Controller, so that a claim looks up
// the Cells it claims without reading every Controller's list. It is a
// field of the State, so that the State's top level saved and put back by
// undo (SaveTop) puts back the index that went with the Cells; a claim
// adds its Cells to it entry by entry, each saved (contract.SaveEntry) as
// the claimant's list is. Any other change of the Cells drops it (a
// Controller leaving) or makes a new one (setCells), and the next claim
// that finds none makes one. A copy of the State (contract.Snapshot)
// shares the index of the one it copies, and has Cells of its own: of
// tells them apart, and the copy makes its own index when it needs one
// rather than change a shared one.
type cellIndex struct {
	of map[string]string // the Cells map indexed
	at map[string]string // a Cell's text -> its Controller's address
}

// newCellIndex indexes cells. A text in two lists (a state written by
// hand) is indexed to one of them, as the scan it replaces found one.
func newCellIndex(cells map[string]string) *cellIndex {
	x := &cellIndex{of: cells, at: map[string]string{}}
	for who, list := range cells {
		for _, t := range strings.Split(list, " ") {
			if t != "" {
				x.at[t] = who
			}
		}
	}
	return x
}

// cellIndex is the index of st.Cells, made if st has none of its own (a
// state read from its file, a copy, a Controller gone).
func (st *State) cellIndex() *cellIndex {
	if st.index == nil || !sameMap(st.index.of, st.Cells) {
		st.index = newCellIndex(st.Cells)
	}
	return st.index
}

// sameMap says whether a and b are the same map, not equal ones.
func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// claimed records that who claimed added, eir list old (before the claim)
// being in the form cellList writes (inForm): every text of it is then in
// the list cellList wrote after the claim, so only the added are indexed.
// Otherwise (a state written by hand) the index is dropped.
func (st *State) claimed(c *contract.Ctx, who string, inForm bool, added []Pt) {
	if !inForm {
		st.index = nil
		return
	}
	x := st.cellIndex()
	for _, p := range added {
		t := strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y)
		contract.SaveEntry(c, x.at, t)
		x.at[t] = who
	}
}

// cellsOf reads one Controller's Cells.
func (st *State) cellsOf(who string) ([]Pt, error) {
	var out []Pt
	for _, f := range strings.Fields(st.Cells[who]) {
		xs, ys, ok := strings.Cut(f, ",")
		x, err1 := strconv.Atoi(xs)
		y, err2 := strconv.Atoi(ys)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("life state: bad cell %q of %s", f, who)
		}
		out = append(out, Pt{x, y})
	}
	return out, nil
}

// count is the number of Cells a Controller Controls.
func (st *State) count(addr string) int { return len(strings.Fields(st.Cells[addr])) }

// vials is an owner's balance.
func vials(c *contract.Ctx, owner string) int64 { return c.State().Ledger.Balance(Vial, owner) }

func contest() string { return contract.ContestEntity(ID) }

func plural(n int64, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
