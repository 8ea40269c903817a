package life

import (
	"fmt"
	"strings"
	"time"

	"referee/contract"
	"referee/contract/text"
)

// Award is the arithmetic of a Notice of Award (Life R23, ruling L7).
type Award struct {
	Contestants int
	Winners     []string // names
	Measure     string   // "Controlled Cells" or "Vials of Primordial Ooze"
	Wins        string   // who wins, as the notice words it
	Best        int64
	PPP, PWIN   int
	N           int // PPP x contestants
	Each        int // N / winners, rounded down
	Cap         int // PWIN / 5
	Points      int // min(Each, Cap)
}

// computeAward is ruling L7: N = PPP x contestants, divided evenly among the
// winners rounding down, each capped at PWIN/5.
func computeAward(contestants, winners, ppp, pwin int) (n, each, limit, points int) {
	n = ppp * contestants
	if winners > 0 {
		each = n / winners
	}
	limit = pwin / 5
	points = min(each, limit)
	return
}

// award is the Notice of Award of Life R23, in either text (ruling L5): the
// amended text's winners Control the most Cells (everyone, when nobody
// Controls any); the original's own the most Vials.
func award(c *contract.Ctx) error {
	st := data(c)
	members := c.Players()
	a := Award{Contestants: len(members), PPP: c.IntParam("PPP"), PWIN: c.IntParam("PWIN")}
	score := func(m *contract.Player) int64 { return int64(st.count(m.Address())) }
	a.Measure = "Controlled Cells"
	a.Wins = "whose number of Controlled Cells is greater than or equal to that of every other contestant"
	if c.Param("R23") == Original {
		score = func(m *contract.Player) int64 { return vials(c, m.Name) }
		a.Measure = "Vials of Primordial Ooze"
		a.Wins = "who own the most Vials of Primordial Ooze"
	}
	var winners []*contract.Player
	for i, m := range members {
		v := score(m)
		switch {
		case i == 0 || v > a.Best:
			a.Best, winners = v, []*contract.Player{m}
		case v == a.Best:
			winners = append(winners, m)
		}
	}
	for _, w := range winners {
		a.Winners = append(a.Winners, w.Name)
	}
	a.N, a.Each, a.Cap, a.Points = computeAward(a.Contestants, len(winners), a.PPP, a.PWIN)
	for _, w := range winners {
		c.Award(w.Name, a.Points, "Life Notice of Award, "+month(c.Now()))
	}
	c.Record("Life", "Notice of Award: %d Points to %s (R23)", a.Points, strings.Join(a.Winners, ", "))
	c.Notify(&contract.Notice{ID: "life/award/" + c.Now().Format("2006-01"), Channel: contract.ChanPublic,
		Subject: "Life Contest: Notice of Award", Body: awardNotice(c, a, members, score)})
	return nil
}

func awardNotice(c *contract.Ctx, a Award, members []*contract.Player, score func(*contract.Player) int64) string {
	var b strings.Builder
	b.WriteString(text.Banner("Life Contest: Notice of Award", '='))
	b.WriteString("\n")
	b.WriteString(text.Wrap(fmt.Sprintf("At the beginning of the first full Agoran week of %s (%s), after the Round, the contestmaster publishes this Notice of Award (Life R23, as %s).",
		month(c.Now()), contract.Date(c.Now()), map[string]string{Amended: "amended by Suggestion #3", Original: "before Suggestion #3"}[c.Param("R23")]), 0))
	b.WriteString("\n")
	b.WriteString(text.Heading("The facts"))
	t := &text.Table{Header: []string{"Contestant", a.Measure}}
	for _, m := range members {
		t.Add(m.Name, fmt.Sprint(score(m)))
	}
	b.WriteString(t.String())
	b.WriteString("\n")
	b.WriteString(text.Wrap(fmt.Sprintf("The winning contestants, those %s (%d): %s.", a.Wins, a.Best, strings.Join(a.Winners, ", ")), 0))
	b.WriteString("\n")
	b.WriteString(text.Heading("The arithmetic"))
	fmt.Fprintf(&b, "N = PPP x contestants = %d x %d = %d\n", a.PPP, a.Contestants, a.N)
	fmt.Fprintf(&b, "Each winner: %d / %d, rounded down = %d\n", a.N, len(a.Winners), a.Each)
	fmt.Fprintf(&b, "Cap: PWIN / 5 = %d / 5 = %d", a.PWIN, a.Cap)
	if a.Each > a.Cap {
		fmt.Fprintf(&b, "; %d is more, so %d\n", a.Each, a.Cap)
	} else {
		b.WriteString("; not reached\n")
	}
	b.WriteString("\n")
	for _, w := range a.Winners {
		fmt.Fprintf(&b, "Life awards %d Points to %s.\n", a.Points, w)
	}
	b.WriteString("\n")
	b.WriteString(text.Wrap(fmt.Sprintf("Then every Vial owned by the contestants and the contest goes to the contestmaster, who destroys them, and mints %s to each contestant (R23).", plural(int64(c.IntParam("VPP")), "Vial", "Vials")), 0))
	b.WriteString("\n")
	b.WriteString(text.Signature("The Life Contestmaster (referee)"))
	return b.String()
}

// month names the Agoran month of an award.
func month(t time.Time) string { return t.UTC().Format("January 2006") }
