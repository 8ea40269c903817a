package wackyworld

import (
	"fmt"
	"strings"

	"referee/contract"
	"referee/contract/text"
)

// Report implements contract.Game: Atlas's weekly report (Wacky 4, ruling W5):
// the size of the World, the terrain with the parties on it, each party's
// location and points, the assets whose location is public, the changes to the
// contract and the recent events. It never shows a location that is not public
// (Wacky 3): medals on secret tiles are only counted.
func (g *Game) Report(c *contract.Ctx) (*contract.Notice, error) {
	st := data(c)
	gs := c.Section()
	var b strings.Builder
	b.WriteString(text.ReportHead("Wacky World: Atlas's Weekly Report", gs.LastReport, c.Now()))
	size := fmt.Sprintf("The World is %d by %d tiles, (0,0) at the upper left (Wacky 3).", st.width(), st.height())
	if st.Began.IsZero() {
		size += " Nobody has joined yet."
	} else {
		size += fmt.Sprintf(" Turn %d began %s UTC; the next turn begins %s UTC (Wacky 4).", st.Turn, contract.Stamp(st.TurnStart), contract.Stamp(nextTurn(st.TurnStart)))
	}
	b.WriteString(text.Wrap(size, 0))
	b.WriteString("\n")

	marks := initials(c, st)
	cells := map[Pos]rune{}
	legend := map[rune]string{Fallow: "Fallow", Fertile: "Fertile", Wall: "Wall"}
	for _, p := range st.members() {
		r := marks[p.Addr]
		if _, ok := legend[r]; ok && r == '?' {
			// Parties past the 26 letters and 10 digits share '?'
			// (initials): with two of them, the legend names none.
			legend[r] = "any party past the first 36 (the Parties table gives each one's location)"
		} else {
			legend[r] = name(c, p.Addr)
		}
		if _, taken := cells[*p.At]; taken {
			cells[*p.At] = '*'
			legend['*'] = "several parties"
		} else {
			cells[*p.At] = r
		}
	}
	grid := &text.Grid{X0: 0, X1: st.width() - 1, Y0: 0, Y1: st.height() - 1, TopY: 0, Legend: legend,
		Cell: func(x, y int) rune {
			if r, ok := cells[Pos{x, y}]; ok {
				return r
			}
			return rune(st.at(Pos{x, y}))
		}}
	b.WriteString(text.Heading("Terrain"))
	b.WriteString(grid.String())
	b.WriteString("\n")

	b.WriteString(text.Heading("Parties"))
	if len(st.members()) == 0 {
		b.WriteString("(none)\n")
	} else {
		t := &text.Table{Header: []string{"Party", "Map", "Location", "x-points held", "y-points", "Score"}}
		for _, p := range st.members() {
			n := name(c, p.Addr)
			t.Add(n, string(marks[p.Addr]), p.At.String(),
				fmt.Sprint(c.State().Ledger.Balance(XPoint, n)), fmt.Sprint(p.YEarned), fmt.Sprint(c.State().Score(n, ID)))
		}
		b.WriteString(t.String())
	}
	b.WriteString("\n")

	b.WriteString(text.Heading("Assets in the World"))
	t := &text.Table{Header: []string{"Asset", "Donor", "Tile"}}
	hidden := 0
	for _, a := range sortedAssets(st.Assets) {
		if !a.Public {
			hidden++
			continue
		}
		t.Add(a.Label(), name(c, a.Donor), a.At.String())
	}
	if len(t.Rows) == 0 {
		b.WriteString("(none at a public location)\n")
	} else {
		b.WriteString(t.String())
	}
	if hidden > 0 {
		b.WriteString(text.Wrap(fmt.Sprintf("%s at locations that are not public (Wacky 3, W5).", text.Count(int(hidden), "more asset lies", "more assets lie")), 0))
	}
	b.WriteString("\n")

	if len(st.Changes) > 0 {
		b.WriteString(text.Heading("Changes to the contract"))
		ct := &text.Table{Header: []string{"#", "Kind", "By", "Made", "Status"}}
		for _, ch := range st.Changes {
			status := ch.Status
			if ch.Param == "" && ch.Status != statusOpposed {
				if ch.Ruling == "" {
					status += ", needs the contestmaster's ruling"
				} else {
					status += ", ruled"
				}
			}
			ct.Add(fmt.Sprint(ch.ID), ch.Kind, ch.By, contract.Stamp(ch.At), status)
		}
		b.WriteString(ct.String())
		b.WriteString("\n")
	}

	b.WriteString(text.Heading("Recent events"))
	b.WriteString(c.RecentEvents())
	b.WriteString("\n")
	b.WriteString(text.Signature("Atlas (referee)"))
	return &contract.Notice{ID: fmt.Sprintf("%s/report/%s", ID, contract.WeekLabel(c.Now())), Kind: "report",
		Channel: contract.ChanOfficial, Subject: "[Atlas] Weekly Report", Body: b.String()}, nil
}

// weeklyReport sends the report and keeps "Recent events" to those since the
// report before last.
func weeklyReport(c *contract.Ctx, g *Game) error {
	n, err := g.Report(c)
	if err != nil {
		return fmt.Errorf("weekly report: %w", err)
	}
	c.Notify(n)
	c.ReportSent()
	return nil
}
