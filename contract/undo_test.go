package contract_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// chaos is a game whose "stir" changes the state in every way the games do
// (the ledger, the points, players and memberships, parameters, the
// contestmaster, recent events, ruling requests, notices and its own data)
// and is then kept or refused, as its seed says. With mutate false a refused
// stir is refused before it changes anything: the run the undo must match.
// With series a stir also numbers things players would answer by number
// (Ctx.Number, chaosState.Numbered).
type chaos struct{ mutate, series bool }

type chaosState struct {
	N     int            `yaml:"n"`
	Marks map[string]int `yaml:"marks"`
	List  []string       `yaml:"list"`
	Items []*chaosItem   `yaml:"items"`
	Last  time.Time      `yaml:"last,omitempty"`
	// Numbered are numbers a stir gives (a series, Ctx.Number), after
	// the last listed.
	Numbered []int `yaml:"numbered,omitempty"`
}

type chaosItem struct {
	Name string   `yaml:"name"`
	Tags []string `yaml:"tags"`
}

const chaosCoin = "chaos/coin"

func (g *chaos) Spec() contract.Spec {
	return contract.Spec{ID: "chaos", Title: "Chaos", Aliases: []string{"chaos"},
		Params: []contract.Param{{Name: "START", Type: "int", Default: "5", Min: 0, Max: 100, Rule: "C1"}},
		Currencies: []contract.Currency{{ID: chaosCoin, Singular: "chip", Plural: "chips", Transferable: true, Rule: "C2",
			CanOwn: func(s *contract.State, owner string) bool {
				p := s.PlayerByName(owner)
				return owner == contract.ContestEntity("chaos") || p != nil && p.In("chaos")
			}}},
		Guide: "Chaos.\n"}
}
func (g *chaos) NewState() any              { return &chaosState{} }
func (g *chaos) Init(c *contract.Ctx) error { return nil }
func (g *chaos) Report(c *contract.Ctx) (*contract.Notice, error) {
	st := c.Data().(*chaosState)
	return &contract.Notice{ID: "chaos/report/" + c.Week(), Kind: "report", Channel: contract.ChanOfficial,
		Subject: "[Chaos] Report", Body: fmt.Sprintf("n=%d\n%s", st.N, c.RecentEvents())}, nil
}
func (g *chaos) Next(c *contract.Ctx) (contract.Event, bool) {
	st := c.Data().(*chaosState)
	if len(c.Players()) == 0 {
		return contract.Event{}, false
	}
	from := st.Last
	if from.IsZero() {
		from = c.Now()
	}
	return contract.Event{At: contract.NextWeekStart(from), Name: "week"}, true
}
func (g *chaos) Run(c *contract.Ctx, e contract.Event) error {
	st := c.Data().(*chaosState)
	st.Last = e.At
	st.N++
	for _, p := range c.Players() {
		if err := c.State().Ledger.Mint(chaosCoin, p.Name, int64(c.Intn("week/"+p.Name, 3))); err != nil {
			return err
		}
	}
	c.Record("Chaos", "week %d", st.N)
	n, err := g.Report(c)
	if err != nil {
		return err
	}
	c.Notify(n)
	c.ReportSent()
	return nil
}
func (g *chaos) OnRuling(c *contract.Ctx, r *contract.Ruling, timedOut bool) error {
	st := c.Data().(*chaosState)
	st.List = append(st.List, "ruling "+r.Key)
	return nil
}

func (g *chaos) Verbs() []*contract.Verb {
	return []*contract.Verb{
		{Name: "join", Pattern: `join chaos`, Syntax: "I join chaos", Rule: "C3",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				p := c.Actor()
				if p.In("chaos") {
					return contract.Reject("C3", "already in")
				}
				c.State().Join(p, "chaos", c.Now())
				return c.State().Ledger.Mint(chaosCoin, p.Name, int64(c.IntParam("START")))
			}},
		{Name: "stir", Pattern: `stir (?P<seed>\d+)`, Syntax: "I stir N", Rule: "C4", Scope: contract.Anywhere,
			Do: func(c *contract.Ctx, a *contract.Action) error {
				seed, _ := strconv.ParseUint(a.Arg("seed"), 10, 64)
				fail := seed%3 == 0
				if fail && !g.mutate {
					return contract.Reject("C4", "stir %d refused", seed)
				}
				if err := stir(c, seed, g.series); err != nil {
					return err
				}
				if fail {
					return contract.Reject("C4", "stir %d refused", seed)
				}
				c.Did("stirred %d", seed)
				return nil
			}},
		{Name: "end", Pattern: `end chaos`, Syntax: "I end chaos", Rule: "C5",
			Dependent: &contract.Method{Kind: "objection", N: 1, Who: "players"},
			Do: func(c *contract.Ctx, a *contract.Action) error {
				c.Data().(*chaosState).N += 100
				return nil
			}},
	}
}

// stir makes a few changes drawn from seed.
func stir(c *contract.Ctx, seed uint64, series bool) error {
	r := rand.New(rand.NewPCG(seed, 7))
	s := c.State()
	st := c.Data().(*chaosState)
	members := c.Players()
	pick := func() *contract.Player {
		if len(members) == 0 {
			return nil
		}
		return members[r.IntN(len(members))]
	}
	for k := 1 + r.IntN(6); k > 0; k-- {
		switch r.IntN(12) {
		case 0:
			if p := pick(); p != nil {
				if err := s.Ledger.Mint(chaosCoin, p.Name, int64(1+r.IntN(5))); err != nil {
					return err
				}
			}
		case 1:
			if p, q := pick(), pick(); p != nil && s.Ledger.Balance(chaosCoin, p.Name) > 0 {
				if err := s.Ledger.Move(chaosCoin, p.Name, q.Name, 1); err != nil {
					return err
				}
			}
		case 2:
			if p := pick(); p != nil && s.Ledger.Balance(chaosCoin, p.Name) > 0 {
				if err := s.Ledger.Destroy(chaosCoin, p.Name, s.Ledger.Balance(chaosCoin, p.Name)); err != nil {
					return err
				}
			}
		case 3:
			if p := pick(); p != nil {
				c.Award(p.Name, 1+r.IntN(3), "stir")
			}
		case 4:
			p := s.Register(fmt.Sprintf("new%d@example.test", r.IntN(1000)), "")
			s.Join(p, "chaos", c.Now())
			members = c.Players()
		case 5:
			if p := pick(); p != nil && s.Ledger.Balance(chaosCoin, p.Name) == 0 {
				s.Leave(p, "chaos", c.Now())
				members = c.Players()
			}
		case 6:
			c.Record("Chaos", "stir %d", seed)
		case 7:
			st.N++
			if st.Marks == nil {
				st.Marks = map[string]int{}
			}
			st.Marks[fmt.Sprint(r.IntN(5))]++
			delete(st.Marks, fmt.Sprint(r.IntN(5)))
		case 8:
			if series {
				st.Numbered = append(st.Numbered, c.Number("numbered", "", slices.Max(append([]int{0}, st.Numbered...))+1))
			}
			st.List = append(st.List, fmt.Sprint(seed))
			if len(st.List) > 1 {
				st.List[r.IntN(len(st.List))] = "x"
			}
			if len(st.Items) > 0 {
				it := st.Items[r.IntN(len(st.Items))]
				it.Tags = append(it.Tags, "t")
				it.Name += "!"
			} else {
				st.Items = append(st.Items, &chaosItem{Name: "i"})
			}
		case 9:
			if err := c.SetParam("START", fmt.Sprint(r.IntN(10))); err != nil {
				return err
			}
		case 10:
			c.AskRuling(fmt.Sprint("k", r.IntN(4)), "a question", "no")
		case 11:
			c.SetContestmaster(fmt.Sprintf("cm%d@example.test", r.IntN(3)))
			c.Notify(&contract.Notice{ID: fmt.Sprintf("chaos/n/%d", seed), Channel: contract.ChanPublic, Subject: "n", Body: "b"})
		}
	}
	return nil
}

// chaosMail draws a message of one to three actions.
func chaosMail(r *rand.Rand, n int, at time.Time) *contract.Message {
	players := []string{"ann", "ben", "cal", "dot", "eve"}
	who := players[r.IntN(len(players))]
	var text string
	for k := 1 + r.IntN(3); k > 0; k-- {
		switch r.IntN(10) {
		case 0, 1:
			text += "I join chaos. "
		case 2:
			text += fmt.Sprintf("I change my name to %s%d. ", who, r.IntN(3))
		case 3:
			text += fmt.Sprintf("I transfer %d chips to %s. ", r.IntN(4), players[r.IntN(len(players))])
		case 4:
			text += "I intend, without objection, to end chaos. "
		case 5:
			text += fmt.Sprintf("I %s intent #%d. ", []string{"support", "object to", "withdraw my objection to"}[r.IntN(3)], 1+r.IntN(3))
		default:
			text += fmt.Sprintf("I stir %d. ", r.IntN(1000))
		}
	}
	id := fmt.Sprintf("c%d@example.test", n)
	if n > 5 && r.IntN(10) == 0 {
		id = fmt.Sprintf("c%d@example.test", n-1-r.IntN(5)) // sent again
	}
	return &contract.Message{ID: id, From: who + "@example.test", Name: who, Arrived: at, Date: at,
		Subject: "chaos", Channel: contract.ChanPublic, Authenticated: true, Text: text}
}

// Random actions, some refused after they changed the state, and whole
// messages undone as the daemon undoes one whose save failed: the state equals,
// byte for byte, the state of a run where every refused action changed
// nothing and every undone message was applied once.
func TestUndoProperty(t *testing.T) {
	for seed := uint64(1); seed <= uint64(many(3, 1)); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			cfg := contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster, SeenHorizon: 5 * 24 * time.Hour}
			start := contracttest.At(t, "2026-12-01T09:00:00Z")
			mk := func(mutate bool) (*contract.Engine, *contract.State) {
				e, err := contract.NewEngine(cfg, &chaos{mutate: mutate})
				if err != nil {
					t.Fatal(err)
				}
				s, _, err := e.NewState(contracttest.Secret[:], start)
				if err != nil {
					t.Fatal(err)
				}
				return e, s
			}
			ea, sa := mk(true)
			eb, sb := mk(false)
			r := rand.New(rand.NewPCG(seed, 1))
			at := start
			refused, undone := 0, 0
			for n := 0; n < 120; n++ {
				at = at.Add(time.Duration(r.IntN(18*60)) * time.Minute)
				m := chaosMail(r, n, at)
				if r.IntN(8) == 0 {
					// The save failed: the whole message is undone, then tried again.
					tx := sa.Begin()
					cp := *m
					if _, err := ea.Apply(sa, &cp); err != nil {
						t.Fatal(err)
					}
					tx.Undo()
					undone++
				}
				tx := sa.Begin()
				cp := *m
				ent, err := ea.Apply(sa, &cp)
				if err != nil {
					t.Fatal(err)
				}
				tx.End()
				for _, en := range ent {
					if en.Outcome == "rejected" {
						refused++
					}
				}
				if _, err := eb.Apply(sb, m); err != nil {
					t.Fatal(err)
				}
				a, err := contract.Encode(sa)
				if err != nil {
					t.Fatal(err)
				}
				b, err := contract.Encode(sb)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a, b) {
					t.Fatalf("after message %d (%q) the states differ:\n%s", n, m.Text, lineDiff(string(b), string(a)))
				}
				sa.Outbox, sb.Outbox = nil, nil // sent
			}
			if refused < 20 || undone < 5 || len(sa.Players) < 5 || len(sa.Rulings)+len(sa.Intents) == 0 && sa.NextRuling == 0 {
				t.Errorf("too little happened to test: %d refused, %d undone, %d players, %d rulings asked", refused, undone, len(sa.Players), sa.NextRuling)
			}
		})
	}
}

// lineDiff shows the first lines where two texts differ.
func lineDiff(want, got string) string {
	w, g := bytes.Split([]byte(want), []byte("\n")), bytes.Split([]byte(got), []byte("\n"))
	for i := 0; i < len(w) && i < len(g); i++ {
		if !bytes.Equal(w[i], g[i]) {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("want %d lines, got %d", len(w), len(g))
}

// The processed-message memory and the receipt limits, kept with queues by
// time, forget exactly what a scan of every entry at every message forgot:
// mail arriving out of order, sent again, from many senders, some asking for
// help (which is answered within the limit).
func TestMemoryExpiresAsAScanDid(t *testing.T) {
	const horizon = 3 * time.Hour
	e, err := contract.NewEngine(contract.Config{Referee: contracttest.Referee, SeenHorizon: horizon, RateLimit: 2}, &toy{})
	if err != nil {
		t.Fatal(err)
	}
	at := contracttest.At(t, "2026-12-01T09:00:00Z")
	s, _, err := e.NewState(contracttest.Secret[:], at)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]time.Time{}
	var seenHorizon, latest time.Time
	receipts := map[string][]time.Time{}
	r := rand.New(rand.NewPCG(5, 5))
	for n := 0; n < many(3000, 1000); n++ {
		at = at.Add(time.Duration(r.IntN(40)) * time.Minute)
		arrived := at.Add(-time.Duration(r.IntN(5)) * time.Hour) // some late
		id := fmt.Sprintf("x%d@example.test", n)
		if n > 0 && r.IntN(6) == 0 {
			id = fmt.Sprintf("x%d@example.test", r.IntN(n)) // sent again
		}
		from := fmt.Sprintf("s%d@example.test", r.IntN(40))
		text := ""
		if r.IntN(3) == 0 {
			text = "help"
		}
		m := &contract.Message{ID: id, From: from, Arrived: arrived, Channel: contract.ChanPrivate, Authenticated: true, Text: text}
		clock := s.Clock
		if _, err := e.Apply(s, m); err != nil {
			t.Fatal(err)
		}
		s.Outbox = nil
		// The memory as a scan kept it.
		_, dup := ids[id]
		old := !seenHorizon.IsZero() && arrived.Before(seenHorizon)
		if !dup && !old {
			ids[id] = arrived
			if arrived.After(latest) {
				latest = arrived
			}
			if cut := latest.Add(-horizon); cut.After(seenHorizon) {
				for k, t := range ids {
					if t.Before(cut) {
						delete(ids, k)
					}
				}
				seenHorizon = cut
			}
			if text != "" {
				when := arrived
				if when.Before(clock) {
					when = clock
				}
				var keep []time.Time
				for _, t := range receipts[from] {
					if when.Sub(t) < time.Hour {
						keep = append(keep, t)
					}
				}
				for a, ts := range receipts {
					if a != from && len(ts) > 0 && when.Sub(ts[len(ts)-1]) >= time.Hour {
						delete(receipts, a)
					}
				}
				if len(keep) >= 2 {
					receipts[from] = keep
				} else {
					receipts[from] = append(keep, when)
				}
			}
		}
		if !reflect.DeepEqual(s.Seen.IDs, ids) || !s.Seen.Horizon.Equal(seenHorizon) {
			t.Fatalf("message %d: the memory holds %d ids to %v, a scan %d to %v", n, len(s.Seen.IDs), s.Seen.Horizon, len(ids), seenHorizon)
		}
		if len(receipts) > 0 && !reflect.DeepEqual(s.Receipts, receipts) {
			t.Fatalf("message %d: the receipt limits hold %v, a scan %v", n, s.Receipts, receipts)
		}
	}
}

// TestSetVerifyUndoGivesBack: turning the undo checks off returns whether
// they were on, so a test that turns them off for a while leaves them as it
// found them, on or off.
func TestSetVerifyUndoGivesBack(t *testing.T) {
	for _, first := range []bool{true, false} {
		was := contract.SetVerifyUndo(first)
		func() {
			defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
			if got := contract.SetVerifyUndo(false); got {
				t.Errorf("the checks read on inside, after turning them off")
			}
		}()
		if got := contract.SetVerifyUndo(was); got != first {
			t.Errorf("turned %v, then off and given back: %v", first, got)
		}
	}
}
