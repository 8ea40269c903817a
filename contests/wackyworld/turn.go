package wackyworld

import (
	"fmt"
	"strings"
	"time"

	"referee/contract"
	"referee/contract/text"
)

// Event names.
const (
	evTurn   = "turn"
	evReport = "report"
	evStands = "modification stands"
)

// nextTurn is the first Monday or Thursday 00:00 UTC at least 48 hours after
// last (Wacky 4, ruling W2).
func nextTurn(last time.Time) time.Time {
	t := contract.DayStart(last).AddDate(0, 0, 1)
	for {
		if wd := t.Weekday(); (wd == time.Monday || wd == time.Thursday) && t.Sub(last) >= 48*time.Hour {
			return t
		}
		t = t.AddDate(0, 0, 1)
	}
}

// nextReport is the Monday 00:00 after the last report (or after the start).
func nextReport(c *contract.Ctx, st *State) time.Time {
	last := c.Section().LastReport
	if last.Before(st.Began) {
		last = st.Began
	}
	return contract.NextWeekStart(last)
}

// Next implements contract.Game: the next turn, the weekly report (right after
// Monday's turn), and the end of a modification's 24 hours of opposition.
func (g *Game) Next(c *contract.Ctx) (contract.Event, bool) {
	st := data(c)
	var best contract.Event
	ok := false
	consider := func(e contract.Event) {
		if !ok || e.At.Before(best.At) {
			best, ok = e, true
		}
	}
	if !st.Began.IsZero() {
		consider(contract.Event{At: nextTurn(st.TurnStart), Name: evTurn, Key: fmt.Sprint(st.Turn + 1)})
		consider(contract.Event{At: nextReport(c, st), Name: evReport})
	}
	for _, ch := range st.Changes {
		if ch.Kind == kindModification && ch.Status == statusOpen {
			consider(contract.Event{At: ch.At.Add(24 * time.Hour), Name: evStands, Key: fmt.Sprint(ch.ID)})
		}
	}
	return best, ok
}

// Run implements contract.Game.
func (g *Game) Run(c *contract.Ctx, e contract.Event) error {
	switch e.Name {
	case evTurn:
		return beginTurn(c)
	case evReport:
		return weeklyReport(c, g)
	case evStands:
		return modificationStands(c, e.Key)
	}
	return fmt.Errorf("wackyworld: unknown event %q", e.Name)
}

// beginTurn begins a new turn and pollinates in the same message (Wacky 4): for
// each tile Fertile when the turn began (W2: no chains), one adjacent tile is
// drawn (G5), and made Fertile if it is Fallow.
func beginTurn(c *contract.Ctx) error {
	st := data(c)
	st.Turn++
	st.TurnStart = c.Now()
	changed := pollinate(c, st)
	var b strings.Builder
	b.WriteString(text.Banner(fmt.Sprintf("Wacky World: turn %d begins", st.Turn), '='))
	b.WriteString("\n")
	b.WriteString(text.Wrap(fmt.Sprintf("Atlas begins turn %d of Wacky World at %s UTC, ending turn %d (Wacky 4). Each party may perform one Game Action in this turn (Wacky 6).", st.Turn, contract.Stamp(c.Now()), st.Turn-1), 0))
	b.WriteString("\n")
	b.WriteString(text.Heading("Pollination"))
	if len(changed) == 0 {
		b.WriteString(text.Wrap("No tile was Fertile when the turn began, so nothing was pollinated.", 0))
	} else {
		t := &text.Table{Header: []string{"From", "Target", "Result"}}
		for _, p := range changed {
			t.Add(p.from.String(), p.to.String(), p.result)
		}
		b.WriteString(t.String())
	}
	b.WriteString("\n")
	b.WriteString(text.Wrap(fmt.Sprintf("Each target was drawn from the week's committed seed with the label %s/%s/turn/%d/pollen/X,Y over the tiles adjacent to (X, Y) in the order north, east, south, west (ruling G5).", ID, c.Week(), st.Turn), 0))
	b.WriteString("\n")
	b.WriteString(text.Signature("Atlas (referee)"))
	c.Notify(&contract.Notice{ID: fmt.Sprintf("%s/turn/%d", ID, st.Turn), Channel: contract.ChanPublic,
		Subject: fmt.Sprintf("Wacky World: turn %d begins", st.Turn), Body: b.String()})
	n := 0
	for _, p := range changed {
		if p.result == "made Fertile" {
			n++
		}
	}
	c.Record("Atlas", "begins turn %d; pollination makes %s Fertile", st.Turn, text.Count(int(n), "tile", "tiles"))
	return nil
}

type pollen struct {
	from, to Pos
	result   string
}

// pollinate applies Wacky 4's pollination from the Fertile set as it is now.
func pollinate(c *contract.Ctx, st *State) []pollen {
	var fertile []Pos
	for y, row := range st.Terrain {
		for x := 0; x < len(row); x++ {
			if row[x] == Fertile {
				fertile = append(fertile, Pos{x, y})
			}
		}
	}
	var out []pollen
	for _, f := range fertile {
		nb := st.neighbours(f)
		if len(nb) == 0 {
			continue
		}
		t := nb[c.Intn(fmt.Sprintf("turn/%d/pollen/%d,%d", st.Turn, f.X, f.Y), len(nb))]
		res := "already " + terrainName(st.at(t))
		if st.at(t) == Fallow {
			st.set(t, Fertile)
			res = "made Fertile"
		}
		out = append(out, pollen{f, t, res})
	}
	return out
}
