package contract_test

import (
	"strconv"
	"strings"
	"time"

	"referee/contract"
	"referee/contract/text"
)

// toy is a small game that exercises every part of the interpreter: a currency
// with an ownership rule, a verb with arguments, a dependent action, a weekly
// event and a report.
type toy struct{}

type toyState struct {
	Rulings   []string  `yaml:"rulings,omitempty"`
	Rounds    int       `yaml:"rounds"`
	LastRound time.Time `yaml:"last_round,omitempty"`
	Ended     bool      `yaml:"ended,omitempty"`
	// Restarts counts the games begun after the first (T17): the game
	// going on is game Restarts+1.
	Restarts int `yaml:"restarts,omitempty"`
}

func (g *toy) Spec() contract.Spec {
	return contract.Spec{ID: "toy", Title: "Toy", Aliases: []string{"toy"},
		Params: []contract.Param{{Name: "START", Type: "int", Default: "5", Min: 0, Max: 100, Rule: "T1"}},
		Currencies: []contract.Currency{{ID: "toy/coin", Singular: "coin", Plural: "coins", Transferable: true, Rule: "T2",
			CanOwn: func(s *contract.State, owner string) bool {
				if owner == contract.ContestEntity("toy") {
					return true
				}
				p := s.PlayerByName(owner)
				return p != nil && p.In("toy")
			}}},
		Guide: "The toy game.\n"}
}
func (g *toy) NewState() any              { return &toyState{} }
func (g *toy) Init(c *contract.Ctx) error { return nil }
func (g *toy) Report(c *contract.Ctx) (*contract.Notice, error) {
	st := c.Data().(*toyState)
	return &contract.Notice{ID: "toy/report/" + c.Week(), Kind: "report", Channel: contract.ChanOfficial,
		Subject: "[Toy] Weekly Report", Body: text.Banner("Toy", '=') + strings.Repeat("x", st.Rounds) + "\n" + c.RecentEvents()}, nil
}
func (g *toy) Next(c *contract.Ctx) (contract.Event, bool) {
	st := c.Data().(*toyState)
	from := st.LastRound
	if from.IsZero() {
		from = c.Now()
	}
	if len(c.Players()) == 0 {
		return contract.Event{}, false
	}
	return contract.Event{At: contract.NextWeekStart(from), Name: "round"}, true
}
func (g *toy) Run(c *contract.Ctx, e contract.Event) error {
	st := c.Data().(*toyState)
	st.Rounds++
	st.LastRound = e.At
	j := c.Intn("round/J", 6) + 1
	for _, p := range c.Players() {
		if err := c.State().Ledger.Mint("toy/coin", p.Name, int64(j)); err != nil {
			return err
		}
	}
	c.Record("Toy", "round %d: J = %d", st.Rounds, j)
	n, err := g.Report(c)
	if err != nil {
		return err
	}
	c.Notify(n)
	c.ReportSent()
	return nil
}

func (g *toy) Verbs() []*contract.Verb {
	return []*contract.Verb{
		{Name: "join", Pattern: `join|become a player`, Syntax: "I join the Toy game", Rule: "T3",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				p := c.Actor()
				if p.In("toy") {
					return contract.Reject("T3", "you are already a player")
				}
				c.State().Join(p, "toy", c.Now())
				if err := c.State().Ledger.Mint("toy/coin", p.Name, int64(c.IntParam("START"))); err != nil {
					return err
				}
				c.Did("you joined Toy with %d coins", c.IntParam("START"))
				return nil
			}},
		{Name: "poke", Pattern: `poke (?P<who>.+)`, Syntax: "I poke <player> in Toy", Rule: "T4",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				p, err := c.State().Resolve(a.Arg("who"))
				if err != nil {
					return err
				}
				// Mutate, then reject: the interpreter must restore the state.
				c.State().Ledger.Mint("toy/coin", c.Actor().Name, 100)
				return contract.Reject("T4", "%s cannot be poked", p.Name)
			}},
		{Name: "cheat", Pattern: `cheat`, Syntax: "I cheat in Toy", Rule: "T5",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				// A bug: coins go to an entity that cannot own them (T2).
				return c.State().Ledger.Mint("toy/coin", contract.ContestmasterEntity("toy"), 3)
			}},
		{Name: "forge", Pattern: `forge`, Syntax: "I forge in Toy", Rule: "T5",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				// A bug: a player changed behind the undo log, then a refusal.
				p := c.Actor()
				p.Nicknames = append(p.Nicknames, "Forger")
				return contract.Reject("T5", "no forging")
			}},
		{Name: "smuggle", Pattern: `smuggle`, Syntax: "I smuggle in Toy", Rule: "T5",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				// A bug: coins appear without the supply, or the undo log, knowing.
				c.State().Ledger.Balances["toy/coin"][c.Actor().Name] += 3
				return nil
			}},
		{Name: "crash", Pattern: `crash`, Syntax: "I crash Toy", Rule: "T6",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				panic("toy: a bug in the game")
			}},
		{Name: "ask", Pattern: `ask the contestmaster (?P<q>.+)`, Syntax: "I ask the contestmaster <question>", Rule: "T9",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				r := c.AskRuling("q/"+a.Arg("q"), a.Arg("q"), "the answer is no")
				c.Did("asked as ruling #%d", r.ID)
				return nil
			}},
		{Name: "seal", Pattern: `seal (?P<n>\d+)`, Syntax: "I seal N", Rule: "T7", Scope: contract.PrivateOnly,
			Do: func(c *contract.Ctx, a *contract.Action) error { c.Did("sealed"); return nil }},
		{Name: "shred", Pattern: `shred a coin`, Syntax: "I shred a coin in Toy", Rule: "T10",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				// A bug: a coin vanishes without the supply knowing.
				c.State().Ledger.Balances["toy/coin"][c.Actor().Name]--
				return nil
			}},
		{Name: "reset", Pattern: `reset the (?:toy )?rounds`, Syntax: "I reset the Toy rounds", Rule: "T11",
			Dependent: &contract.Method{Kind: "consent"},
			Do: func(c *contract.Ctx, a *contract.Action) error {
				c.Data().(*toyState).Rounds = 0
				c.Did("the Toy rounds are reset")
				return nil
			}},
		{Name: "crown", Pattern: `crown (?P<who>\w+)`, Syntax: "I crown <player> in Toy", Rule: "T12",
			Dependent: &contract.Method{Kind: "support", N: 2},
			Do: func(c *contract.Ctx, a *contract.Action) error {
				c.Did("%s is crowned", a.Arg("who"))
				return nil
			}},
		{Name: "rename", Pattern: `rename the game to (?P<name>\w+)`, Syntax: "I rename the game to <name> in Toy", Rule: "T13",
			Dependent: &contract.Method{Kind: "notice", Notice: 2 * 24 * time.Hour},
			Do: func(c *contract.Ctx, a *contract.Action) error {
				c.Did("Toy is now called %s", a.Arg("name"))
				return nil
			}},
		{Name: "score", Pattern: `score (?P<n>\d+) points?`, Syntax: "I score N points in Toy", Rule: "T14",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				n, _ := strconv.Atoi(a.Arg("n"))
				c.Award(c.Actor().Name, n, "scored")
				c.Did("you score %d points", n)
				return nil
			}},
		{Name: "burn", Pattern: `burn (?P<n>\d+) coins?`, Syntax: "I burn N coins in Toy", Rule: "T15",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				n, _ := strconv.Atoi(a.Arg("n"))
				if err := c.State().Ledger.Destroy("toy/coin", c.Actor().Name, int64(n)); err != nil {
					return contract.Reject("T15", "you cannot burn %d coins: %v", n, err)
				}
				c.Did("you burn %d coins", n)
				return nil
			}},
		{Name: "walkout", Pattern: `walk out`, Syntax: "I walk out of Toy", Rule: "T16",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				// A bug: the player leaves Toy and keeps eir coins, which
				// only players of Toy may own (T2).
				c.State().Leave(c.Actor(), "toy", c.Now())
				return nil
			}},
		{Name: "end", Pattern: `end the (?:current )?game`, Syntax: "I end the game of Toy", Rule: "T8",
			Dependent: &contract.Method{Kind: "objection", N: 1, Who: "players",
				Eligible: func(c *contract.Ctx, p *contract.Player) bool { return p.In("toy") },
				Intendable: func(c *contract.Ctx, a *contract.Action) error {
					if c.Data().(*toyState).Ended {
						return contract.Reject("T8", "the game of Toy is over already")
					}
					return nil
				},
				// The game an intent to end it is about; no Gone: the
				// interpreter's own sentence says why.
				Object: func(c *contract.Ctx, a *contract.Action) string {
					if st := c.Data().(*toyState); !st.Ended {
						return "game " + strconv.Itoa(st.Restarts+1)
					}
					return ""
				}},
			Do: func(c *contract.Ctx, a *contract.Action) error {
				c.Data().(*toyState).Ended = true
				c.Did("the game of Toy is over")
				return nil
			}},
		{Name: "restart", Pattern: `restart the game`, Syntax: "I restart the game of Toy", Rule: "T17",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				st := c.Data().(*toyState)
				if !st.Ended {
					return contract.Reject("T17", "the game of Toy is going on")
				}
				st.Ended = false
				st.Restarts++
				c.Did("game %d of Toy begins", st.Restarts+1)
				return nil
			}},
	}
}

func (g *toy) OnRuling(c *contract.Ctx, r *contract.Ruling, timedOut bool) error {
	st := c.Data().(*toyState)
	if timedOut {
		st.Rulings = append(st.Rulings, r.Key+": (silence) "+r.Default)
	} else {
		st.Rulings = append(st.Rulings, r.Key+": "+r.Answer)
	}
	return nil
}
