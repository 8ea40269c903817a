package life

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"referee/contract"
)

// Next implements contract.Game: the weekly duty at the start of the next
// Agoran week (Monday 00:00 UTC, rulings G1, L6).
func (g *Game) Next(c *contract.Ctx) (contract.Event, bool) {
	st := data(c)
	base := st.LastWeek
	if base.IsZero() {
		base = st.Since
	}
	if base.IsZero() {
		base = c.Now()
	}
	if base.IsZero() {
		return contract.Event{}, false
	}
	at := contract.NextWeekStart(base)
	return contract.Event{At: at, Name: "week", Key: contract.WeekLabel(at)}, true
}

// Run implements contract.Game. At the beginning of every Agoran week a Round
// is run if there is at least one contestant (Life R22); in the first full
// week of a month it is followed by the Notice of Award, the collection and
// destruction of the Vials and the VPP mint (R23, ruling L6). Then the weekly
// report goes out.
func (g *Game) Run(c *contract.Ctx, e contract.Event) error {
	if e.Name != "week" {
		return fmt.Errorf("life: unknown event %q", e.Name)
	}
	st := data(c)
	st.LastWeek = e.At
	if len(c.Players()) > 0 {
		if err := runRound(c); err != nil {
			return err
		}
		if contract.FirstFullWeek(e.At) {
			if err := award(c); err != nil {
				return err
			}
			if err := resetVials(c); err != nil {
				return err
			}
			st.LastRound.Award = true
		}
	}
	n, err := g.Report(c)
	if err != nil {
		return err
	}
	c.Notify(n)
	c.ReportSent()
	return nil
}

// controllers lists the contestants Controlling Cells, sorted by name (byte
// order: capitals before small letters), then address: their index (from 1)
// on the Board is the order of the tie draws (ruling L3).
func controllers(c *contract.Ctx, st *State) []string {
	addrs := make([]string, 0, len(st.Cells))
	name := make(map[string]string, len(st.Cells))
	for a := range st.Cells {
		addrs = append(addrs, a)
		name[a] = c.State().NameOf(a)
	}
	slices.SortFunc(addrs, func(a, b string) int {
		return cmp.Or(cmp.Compare(name[a], name[b]), cmp.Compare(a, b))
	})
	return addrs
}

// runGenerations runs n Generations (Life R20) on the state's Cells.
func runGenerations(c *contract.Ctx, n int, tie TieBreaker) error {
	st := data(c)
	lim := limits(c)
	who := controllers(c, st)
	index := make(map[string]Owner, len(who))
	for i, a := range who {
		index[a] = Owner(i + 1)
	}
	cells, err := st.cellMap()
	if err != nil {
		return err
	}
	b := NewBoard(lim.Xmax-lim.Xmin+1, lim.Ymax-lim.Ymin+1)
	b.X0, b.Y0, b.Tie = lim.Xmin, lim.Ymin, tie
	member := map[string]bool{}
	for _, m := range c.Players() {
		member[m.Address()] = true
	}
	for p, a := range cells {
		// Life R9: only contestants Control Cells; any other's go to the
		// contest (leaving already does this; this keeps the Round safe).
		if member[a] && lim.In(p.X, p.Y) {
			b.Set(p.X-lim.Xmin, p.Y-lim.Ymin, index[a])
		}
	}
	for i := 0; i < n; i++ {
		b.Step()
	}
	out := map[Pt]string{}
	b.Each(func(x, y int, o Owner) { out[Pt{x + lim.Xmin, y + lim.Ymin}] = who[o-1] })
	st.setCells(out)
	st.Generations += n
	return nil
}

// runRound is Life R21 (ruling L5 for its two texts).
func runRound(c *contract.Ctx) error {
	st := data(c)
	members := c.Players()
	led := &c.State().Ledger
	// R21: N = contest's Vials / contestants, rounded up, at least 1.
	pool := vials(c, contest())
	k := int64(len(members))
	n := max(int((pool+k-1)/k), 1)
	tie := NewTieBreaker(c.Key("round/parent"))
	if err := runGenerations(c, n, tie); err != nil {
		return err
	}
	st.Rounds++
	log := &RoundLog{At: c.Now(), Generations: n, Contest: pool, Variant: c.Param("R21")}
	// R21 distribution of the contest's Vials.
	var to []*contract.Player
	if c.Param("R21") == Original {
		// Original R21: to the entity Controlling the most Cells; ties share;
		// skipped when nobody Controls a Cell.
		best := 0
		for _, m := range members {
			if cnt := st.count(m.Address()); cnt > best {
				best = cnt
				to = []*contract.Player{m}
			} else if cnt == best && cnt > 0 {
				to = append(to, m)
			}
		}
	} else {
		// Amended R21 (Suggestion #3): evenly among all contestants.
		to = members
	}
	pool = vials(c, contest())
	if len(to) == 0 || pool == 0 {
		log.Shares = "none (R21: nothing to share)"
		if len(to) == 0 {
			log.Shares = "none: no contestant Controls a Cell (R21)"
		}
	} else {
		share := pool / int64(len(to))
		var names []string
		for _, m := range to {
			if err := led.Move(Vial, contest(), m.Name, share); err != nil {
				return err
			}
			names = append(names, m.Name)
		}
		rest := pool - share*int64(len(to))
		each := " each"
		if len(to) == 1 {
			each = ""
		}
		log.Shares = fmt.Sprintf("%s%s to %s; %s with the contest", plural(share, "Vial", "Vials"), each,
			strings.Join(names, ", "), plural(rest, "Vial stays", "Vials stay"))
	}
	// R21: J between VCFmin and VCFmax, minted per contestant.
	lo, hi := c.IntParam("VCFmin"), c.IntParam("VCFmax")
	log.J = lo + c.Intn("round/J", hi-lo+1)
	for _, m := range members {
		if err := led.Mint(Vial, m.Name, int64(log.J)); err != nil {
			return err
		}
	}
	st.LastRound = log
	c.Record("Life", "Round %d: %s; the contest's Vials: %s; J = %d, %s minted to each contestant (R21)",
		st.Rounds, plural(int64(n), "Generation", "Generations"), log.Shares, log.J, plural(int64(log.J), "Vial", "Vials"))
	c.Detail("round", map[string]any{"generations": n, "j": log.J, "shares": log.Shares})
	return nil
}

// resetVials is the end of Life R23: every Vial of the contestants and the
// contest goes to the contestmaster, who moves the contestants' as their
// Limited Executor (R14), destroys all e owns and mints VPP to each
// contestant.
func resetVials(c *contract.Ctx) error {
	led := &c.State().Ledger
	cm := contract.ContestmasterEntity(ID)
	for _, o := range led.Owners(Vial) {
		if o == cm {
			continue
		}
		if err := led.Move(Vial, o, cm, led.Balance(Vial, o)); err != nil {
			return err
		}
	}
	destroyed := led.Balance(Vial, cm)
	if err := led.Destroy(Vial, cm, destroyed); err != nil {
		return err
	}
	vpp := int64(c.IntParam("VPP"))
	for _, m := range c.Players() {
		if err := led.Mint(Vial, m.Name, vpp); err != nil {
			return err
		}
	}
	c.Record("Life", "%s collected and destroyed; %s minted to each contestant (R23)",
		plural(destroyed, "Vial", "Vials"), plural(vpp, "Vial", "Vials"))
	return nil
}
