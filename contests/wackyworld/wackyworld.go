// Package wackyworld referees Wacky World, Atlas's tile world (the proto contract,
// sections 1-6, with rulings W1-W6). Its input is the actions the interpreter
// routes to it (joining, leaving, the seven game actions of section 6, medals,
// amendments and Atlas's early modifications) and the passage of time (turns on
// Mondays and Thursdays, the weekly report). Its output is its own state, points
// in the points ledger, x-points in the asset ledger, public notices (turns,
// amendments), private search results and Atlas's weekly report. It does no I/O,
// reads no clock and draws every random tile from the committed weekly seed; it
// does not check who owns things from outside the referee's games (W6).
package wackyworld

import (
	_ "embed"
	"strings"

	"referee/contract"
)

// ID is the game's key in the state and in draw labels.
const ID = "wackyworld"

// XPoint is the ledger currency of spendable x-points (G6, W3).
const XPoint = ID + "/xpoint"

//go:embed guide.md
var guide string

//go:embed contract.txt
var contractText string

// Game is Wacky World.
type Game struct{}

// New returns the game.
func New() *Game { return &Game{} }

// The interfaces the game implements, checked when it is built: a
// signature slip in a hook fails the build instead of turning it off.
var (
	_ contract.Game          = (*Game)(nil)
	_ contract.RulingHandler = (*Game)(nil)
	_ contract.NumberKeeper  = (*Game)(nil)
)

// spec is Wacky World's static description.
var spec = contract.Spec{
	ID:         ID,
	Title:      "Wacky World",
	Aliases:    []string{"wacky world", "wackyworld", "wacky"},
	Params:     params(),
	Currencies: currencies(),
	Guide:      guide,
}

// Spec implements contract.Game.
func (g *Game) Spec() contract.Spec { return spec }

// Parameter names (G9: amendments change them with "SET <name> = <value>").
const (
	ParamWidth  = "Width"
	ParamHeight = "Height"
	ParamDonor  = "DonorYPoints"
	ParamReap   = "ReapXPoints"
	ParamBuild  = "BuildXCost"
)

// params are the game's parameters.
func params() []contract.Param {
	return []contract.Param{
		{Name: ParamWidth, Type: "int", Default: "16", Min: 2, Max: 64, Rule: "Wacky 3", Help: "width of the World in tiles (ruling W1)"},
		{Name: ParamHeight, Type: "int", Default: "16", Min: 2, Max: 64, Rule: "Wacky 3", Help: "height of the World in tiles (ruling W1)"},
		{Name: ParamDonor, Type: "int", Default: "2", Min: 0, Max: 100, Rule: "Wacky 6c", Help: "y-points awarded to the donor of an asset picked up"},
		{Name: ParamReap, Type: "int", Default: "1", Min: 0, Max: 100, Rule: "Wacky 6d", Help: "x-points awarded for reaping"},
		{Name: ParamBuild, Type: "int", Default: "1", Min: 0, Max: 100, Rule: "Wacky 6e", Help: "x-points revoked for building a wall"},
	}
}

// currencies are the game's assets: the spendable x-point balance (W3) is a
// ledger currency that only players hold and nobody transfers.
func currencies() []contract.Currency {
	return []contract.Currency{{
		ID: XPoint, Singular: "x-point", Plural: "x-points",
		Aliases:      []string{"xpoint", "xpoints", "x point", "x points"},
		Transferable: false,
		Rule:         "Wacky 6d",
		CanOwn: func(s *contract.State, owner string) bool {
			return !strings.Contains(owner, ":") && s.PlayerByName(owner) != nil
		},
	}}
}

// NewState implements contract.Game.
func (g *Game) NewState() any { return &State{} }

// Init implements contract.Game: a 16x16 Fallow World (W1) and the contract text.
func (g *Game) Init(c *contract.Ctx) error {
	st := c.Data().(*State)
	st.Text = contractText
	st.resize(c.IntParam(ParamWidth), c.IntParam(ParamHeight))
	return nil
}

func data(c *contract.Ctx) *State { return c.Data().(*State) }
