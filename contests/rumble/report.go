package rumble

import (
	"fmt"
	"sort"
	"strings"

	"referee/contract"
	"referee/contract/text"
)

// Report implements contract.Game: the weekly report. It shows who has
// submitted in the open phase and the commitments, never a sealed value.
func (g *Game) Report(c *contract.Ctx) (*contract.Notice, error) {
	s := data(c)
	gs := c.Section()
	var b strings.Builder
	b.WriteString(text.ReportHead("Rumble Weekly Report", gs.LastReport, c.Now()))
	cm := c.State().NameOf(c.Contestmaster())
	b.WriteString("Contestmaster: " + cm + "\n\n")
	if s.Phase == PhaseNone {
		b.WriteString(wrapPara("No game of Rumble is going on; players may join (Rumble 13)."))
		if s.Last != "" {
			b.WriteString(wrapPara(s.Last))
		}
	} else {
		b.WriteString(wrapPara(fmt.Sprintf("Game %d, started %s with %s, %s each and %d for the contestmaster, is in its %s phase.",
			s.Game, contract.Date(s.Started), text.Count(s.StartCount, "contestant", "contestants"), text.Count(s.P, "power", "powers"), s.Q, phaseName(s))))
		if s.Phase != PhaseRulings {
			b.WriteString(wrapPara(fmt.Sprintf("Deadline for the %s: %s UTC.", phaseWhat(s.Phase), contract.Stamp(s.Deadline))))
		}
		b.WriteString("\n")
		t := &text.Table{Header: []string{"Contestant", "Stamina", "Status", "Powers", "Sealed (commitment)"}}
		subs := s.subsByWho()
		for _, f := range s.Fighters {
			status := "alive"
			if !f.Alive {
				status = f.Out
			}
			sealed := ""
			if x := subs[f.Name]; x != nil && !x.Default {
				sealed = short(x.Commitment)
			} else if f.Alive && s.Phase != PhaseRulings {
				sealed = "(none yet)"
			}
			stamina := ""
			if len(s.Powers) > 0 {
				stamina = itoa(f.Stamina)
			}
			t.Add(f.Name, stamina, status, strings.Join(f.Powers, ", "), sealed)
		}
		b.WriteString(t.String())
		if len(s.Powers) > 0 {
			b.WriteString("\n")
			pt := &text.Table{Header: []string{"#", "Power", "Effect", "Strength", "Holders"}}
			for i, p := range s.Powers {
				eff := p.Effect
				if eff == "" {
					eff = "ruled"
				}
				str, hold := "", ""
				if s.Phase != PhaseBids {
					str, hold = itoa(p.Strength), strings.Join(s.holding(p), ", ")
					if p.Discarded || hold == "" && len(p.Holders) > 0 {
						hold = "(discarded)" // Rumble 5 (no bid) or Rumble 6
					}
				}
				pt.Add(itoa(i+1), p.Name, eff, str, hold)
			}
			b.WriteString(pt.String())
		}
	}
	b.WriteString("\n")
	b.WriteString(text.Heading("Points from Rumble (G6)"))
	type row struct {
		name string
		n    int
	}
	var rows []row
	for name, games := range c.State().Points {
		if n := games["rumble"]; n != 0 {
			rows = append(rows, row{name, n})
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].n != rows[j].n {
			return rows[i].n > rows[j].n
		}
		return rows[i].name < rows[j].name
	})
	if len(rows) == 0 {
		b.WriteString("(none yet)\n")
	} else {
		pt := &text.Table{Header: []string{"Player", "Points"}}
		for _, r := range rows {
			pt.Add(r.name, itoa(r.n))
		}
		b.WriteString(pt.String())
	}
	b.WriteString("\n")
	b.WriteString(text.Heading("Parameters"))
	pt := &text.Table{Header: []string{"Name", "Value", "Rule"}}
	for _, p := range spec.Params {
		pt.Add(p.Name, paramShown(s, p.Name, c.Param(p.Name)), p.Rule)
	}
	b.WriteString(pt.String())
	if len(s.Amendments) > 0 {
		b.WriteString("\n")
		b.WriteString(text.Heading("Amendments (Rumble 15)"))
		for _, am := range s.Amendments {
			b.WriteString(text.WrapIndent(fmt.Sprintf("%d. %s: %s", am.N, am.Text, am.Status), 0, "", "   "))
		}
	}
	b.WriteString("\n")
	b.WriteString(text.Heading("Recent events"))
	b.WriteString(c.RecentEvents())
	b.WriteString("\n")
	b.WriteString(signature())
	return &contract.Notice{ID: "rumble/report/" + c.Week(), Kind: "report", Channel: contract.ChanOfficial,
		Subject: "[Rumble] Weekly Report", Body: b.String()}, nil
}

// sendReport publishes the weekly report and prunes "Recent events" to those
// since the report before this one.
func (g *Game) sendReport(c *contract.Ctx) error {
	n, err := g.Report(c)
	if err != nil {
		return fmt.Errorf("rumble report: %w", err)
	}
	c.Notify(n)
	c.ReportSent()
	return nil
}

// holding is who still holds a power: its winning bidders less those who
// discarded it (Rumble 6).
func (s *State) holding(p *Power) []string {
	var out []string
	for _, h := range p.Holders {
		if f := s.fighter(h); f != nil && holds(f, p.Name) {
			out = append(out, h)
		}
	}
	return out
}

// ParamShown is a parameter's value as the report shows it (paramShown).
func (g *Game) ParamShown(gs *contract.GameState, name, value string) string {
	if s, ok := gs.Data.(*State); ok {
		return paramShown(s, name, value)
	}
	return value
}

// paramShown: a game going on that was announced with its own numbers
// keeps them (Rumble 1), and the parameter is the default for games that
// name none, "1 in game 1 (default 2)".
func paramShown(s *State, name, v string) string {
	switch {
	case s.Phase == PhaseNone:
	case name == "Powers":
		return fmt.Sprintf("%d in game %d (default %s)", s.P, s.Game, v)
	case name == "ContestmasterPowers":
		return fmt.Sprintf("%d in game %d (default %s)", s.Q, s.Game, v)
	}
	return v
}
