package life

import (
	"fmt"
	"strings"

	"referee/contract"
	"referee/contract/text"
)

const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// letterOf gives each contestant, in joining order, the letter of eir Cells
// on the drawn grid.
func letterOf(members []*contract.Player) map[string]rune {
	out := map[string]rune{}
	for i, m := range members {
		r := '#'
		if i < len(letters) {
			r = rune(letters[i])
		}
		out[m.Address()] = r
	}
	return out
}

// Report implements contract.Game: the weekly report for the official list.
func (g *Game) Report(c *contract.Ctx) (*contract.Notice, error) {
	st := data(c)
	gs := c.Section()
	members := c.Players()
	var b strings.Builder
	b.WriteString(text.ReportHead("Life Contest: Weekly Report", gs.LastReport, c.Now()))

	b.WriteString(text.Heading("Contestants"))
	letter := letterOf(members)
	if len(members) == 0 {
		b.WriteString("(none)\n")
	} else {
		t := &text.Table{Header: []string{"Contestant", "Mark", "Vials", "Cells", "Joined"}}
		for _, m := range members {
			t.Add(m.Name, string(letter[m.Address()]), fmt.Sprint(vials(c, m.Name)), fmt.Sprint(st.count(m.Address())), contract.Date(m.Joined[ID]))
		}
		b.WriteString(t.String())
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "The contest owns %s.\n", plural(vials(c, contest()), "Vial", "Vials"))
	if v := vials(c, contract.ContestmasterEntity(ID)); v > 0 {
		fmt.Fprintf(&b, "The contestmaster owns %s.\n", plural(v, "Vial", "Vials"))
	}
	fmt.Fprintf(&b, "Contestmaster: %s\n\n", c.State().NameOf(c.Contestmaster()))

	b.WriteString(text.Heading("Parameters and variants"))
	pt := &text.Table{Header: []string{"Name", "Value", "Rule"}}
	for _, p := range spec.Params {
		pt.Add(p.Name, c.Param(p.Name), p.Rule)
	}
	b.WriteString(pt.String())
	b.WriteString(text.Wrap(fmt.Sprintf("R21 and R23 follow the %s text (ruling L5: \"amended\" is the text after Suggestion #3, \"original\" the text before it).", variants(c)), 0))
	b.WriteString("\n")

	if r := st.LastRound; r != nil {
		b.WriteString(text.Heading("Last Round"))
		fmt.Fprintf(&b, "Round %d, %s: %s (N = ceil(%d / %d), at least 1).\n", st.Rounds, contract.Stamp(r.At),
			plural(int64(r.Generations), "Generation", "Generations"), r.Contest, max(len(members), 1))
		b.WriteString(text.Wrap(fmt.Sprintf("The contest's Vials (R21, %s): %s. J = %d.", r.Variant, r.Shares, r.J), 0))
		if r.Award {
			b.WriteString("A Notice of Award followed, and the Vials were reset (R23).\n")
		}
		b.WriteString("\n")
	}

	b.WriteString(text.Heading("The Life Grid"))
	lim := limits(c)
	cells, err := st.cellMap()
	if err != nil {
		return nil, err
	}
	legend := map[rune]string{}
	for _, a := range cells {
		if r, ok := letter[a]; ok {
			legend[r] = c.State().NameOf(a)
			if r == '#' {
				// Several contestants share the mark: name none of them
				// (naming one would depend on the map's order).
				legend[r] = fmt.Sprintf("any contestant after the first %d to join (the table above gives each one's Cells)", len(letters))
			}
		}
	}
	b.WriteString(text.Wrap(fmt.Sprintf("%d x %d Cells, X %d..%d, Y %d..%d, wrapping both ways (R12); %s Alive.",
		lim.Xmax-lim.Xmin+1, lim.Ymax-lim.Ymin+1, lim.Xmin, lim.Xmax, lim.Ymin, lim.Ymax, plural(int64(len(cells)), "Cell", "Cells")), 0))
	grid := &text.Grid{X0: lim.Xmin, X1: lim.Xmax, Y0: lim.Ymin, Y1: lim.Ymax, TopY: lim.Ymax, Legend: legend,
		Cell: func(x, y int) rune {
			if a, ok := cells[Pt{x, y}]; ok {
				if r, ok := letter[a]; ok {
					return r
				}
				return '?'
			}
			return '.'
		}}
	b.WriteString(grid.String())
	b.WriteString("\n")

	var open []string
	for _, s := range st.Suggestions {
		if s.Status == "open" {
			open = append(open, fmt.Sprintf("#%d by %s (%s): %d of %d contestants consent; contestmaster: %s; %s.",
				s.ID, s.By, describeRegs(s), consenting(s, members), len(members), map[bool]string{true: "consents", false: "not yet"}[s.CM], threshold(s)))
		} else if strings.Contains(s.Status, "needs") {
			open = append(open, fmt.Sprintf("#%d by %s: %s.", s.ID, s.By, s.Status))
		}
	}
	if len(open) > 0 {
		b.WriteString(text.Heading("Suggestions"))
		for _, o := range open {
			b.WriteString(text.WrapIndent(o, 0, "", "  "))
		}
		b.WriteString("\n")
	}

	b.WriteString(text.Heading("Recent events"))
	b.WriteString(c.RecentEvents())
	b.WriteString("\n")

	b.WriteString(text.Heading("Randomness (G5)"))
	s := c.State()
	week := c.Week()
	prev := contract.WeekLabel(contract.WeekStart(c.Now()).AddDate(0, 0, -1))
	next := contract.WeekLabel(contract.NextWeekStart(c.Now()))
	any := false
	for _, w := range []struct{ label, what string }{{prev, "last week"}, {week, "this week"}, {next, "next week"}} {
		cm := s.CommitmentFor(w.label)
		if cm == "" {
			continue
		}
		any = true
		fmt.Fprintf(&b, "%s (%s), SHA-256 of the seed:\n  %s\n", w.label, w.what, cm)
		if seed := s.RevealedSeed(w.label); seed != "" {
			fmt.Fprintf(&b, "%s seed, revealed:\n  %s\n", w.label, seed)
		}
	}
	if !any {
		b.WriteString("(no commitment yet)\n")
	}
	b.WriteString(text.Wrap("This week's Round draws \"life/<week>/round/J\" for J and keys its parent-tie draws with \"life/<week>/round/parent\" (see the guide).", 0))
	b.WriteString("\n")
	b.WriteString(text.Signature("The Life Contestmaster (referee)"))
	return &contract.Notice{ID: "life/report/" + week, Kind: "report", Channel: contract.ChanOfficial,
		Subject: "[Life] Weekly Report", Body: b.String()}, nil
}

func variants(c *contract.Ctx) string {
	a, b := c.Param("R21"), c.Param("R23")
	if a == b {
		return a
	}
	return "R21 " + a + ", R23 " + b
}
