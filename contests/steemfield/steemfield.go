// Package steemfield referees Steemfield, the nomic first played on Steem, by
// email. The referee is the totem: it publishes the results and proposal posts
// as list mail, keeps every player's LAND in the ledger and the LAND map in its
// state, and performs the round-end order of ruling S6.
//
// Input: the players' tags ({PROPOSAL:...} blocks between dash lines, {YES},
// {NO}, {PLACE: L(x, y)}, ...) read by its Extractor from public mail, and its
// scheduled events (the proposal post, the results post). Output: receipts
// (through the interpreter), the totem's posts and the final post. It does not
// read Steem, move Steem Power or pay rewards: the Steem-only rules are listed
// but marked not applicable by email (ruling S12).
package steemfield

import (
	_ "embed"

	"referee/contract"
)

// ID is the game's key.
const ID = "steemfield"

// LAND is the ledger currency (Steemfield Gameplay 2).
const LAND = "steemfield/land"

// Totem is the ledger entity of the totem's LAND pool.
var Totem = contract.ContestEntity(ID)

//go:embed guide.md
var guide string

// Game is Steemfield.
type Game struct{}

// New returns the game.
func New() *Game { return &Game{} }

// The interfaces the game implements, checked when it is built: a
// signature slip in a hook fails the build instead of turning it off.
var (
	_ contract.Game          = (*Game)(nil)
	_ contract.Extractor     = (*Game)(nil)
	_ contract.RulingHandler = (*Game)(nil)
	_ contract.DataSaver     = (*State)(nil)
)

// spec is Steemfield's static description.
var spec = contract.Spec{
	ID:         ID,
	Title:      "Steemfield",
	Aliases:    []string{"steemfield"},
	Params:     params(),
	Currencies: currencies(),
	Guide:      guide,
}

// Spec implements contract.Game.
func (g *Game) Spec() contract.Spec { return spec }

// NewState implements contract.Game.
func (g *Game) NewState() any { return &State{} }

// Parameter names (ruling S11: the parameters a passed proposal may set).
const (
	PLandCap        = "LANDCap"
	PWin            = "WinLAND"
	PGrid           = "GridSize"
	PProposalPeriod = "ProposalPeriod"
	PVotingPeriod   = "VotingPeriod"
	PRoundMinimum   = "RoundMinimum"
	PMinPlayers     = "MinPlayers"
)

// params are the game's parameters.
func params() []contract.Param {
	return []contract.Param{
		{Name: PLandCap, Type: "int", Default: "100", Min: 1, Max: 100000, Rule: "Gameplay 4", Help: "the cap on total LAND"},
		{Name: PWin, Type: "int", Default: "51", Min: 1, Max: 100000, Rule: "Gameplay 5", Help: "LAND a player needs to win"},
		{Name: PGrid, Type: "int", Default: "10", Min: 3, Max: 26, Rule: "Gameplay 11", Help: "the LAND map is GridSize x GridSize"},
		{Name: PProposalPeriod, Type: "duration", Default: "24h", Rule: "Voting and Proposals 7", Help: "length of the proposal period"},
		{Name: PVotingPeriod, Type: "duration", Default: "24h", Rule: "Voting and Proposals 8", Help: "length of the voting period"},
		{Name: PRoundMinimum, Type: "duration", Default: "72h", Rule: "Meta 5", Help: "minimum length of a round"},
		{Name: PMinPlayers, Type: "int", Default: "3", Min: 1, Max: 1000, Rule: "Meta 10", Help: "players needed to start"},
	}
}

// currencies are the game's assets: LAND.
func currencies() []contract.Currency {
	return []contract.Currency{{
		ID: LAND, Singular: "LAND", Plural: "LAND", Aliases: []string{"land"},
		Rule: "Gameplay 6",
		// Gifts go through {GIFT_N_LAND_TO:"name"}, which also moves placed
		// cells (ruling S8); the generic transfer cannot.
		Transferable: false,
		CanOwn: func(s *contract.State, owner string) bool {
			if owner == Totem {
				return true
			}
			p := s.PlayerByName(owner)
			return p != nil && p.In(ID)
		},
	}}
}

// Init gives the totem its LAND to give away (ruling S1, Gameplay 3).
func (g *Game) Init(c *contract.Ctx) error {
	st := data(c)
	st.Rules = initialRules()
	return c.State().Ledger.Mint(LAND, Totem, int64(c.IntParam(PLandCap)))
}

func data(c *contract.Ctx) *State { return c.Data().(*State) }
