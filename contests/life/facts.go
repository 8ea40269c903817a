package life

import (
	"fmt"
	"strings"

	"referee/contract"
	"referee/internal/lazyre"
)

// Facts implements contract.Facter: what a revision compares of the contest,
// each living Cell's Controller (R8, R10) and the Rounds run. The Vials are
// in the ledger, which every revision compares.
func (g *Game) Facts(c *contract.Ctx) (map[string]string, error) {
	st := c.Data().(*State)
	cells, err := st.cellMap()
	if err != nil {
		return nil, err
	}
	out := map[string]string{"Rounds run": fmt.Sprint(st.Rounds)}
	for p, who := range cells {
		out["Cell "+p.String()] = c.State().NameOf(who)
	}
	return out, nil
}

var adjustCellRE = lazyre.MustCompile(`(?i)^cell\s*(\(\s*-?\d+\s*,\s*-?\d+\s*\))\s+is\s+(?:(dead)|controlled\s+by\s+(.+?))\.?$`)

// Adjust implements contract.Adjuster: a correction's change of the map,
// "Cell (x, y) is Controlled by <player>" or "Cell (x, y) is Dead", made by
// the contestmaster where no message is at fault (the rule it cites is the
// correction's). The Cell must exist (R5, R7) and the player be a
// contestant (R16).
func (g *Game) Adjust(c *contract.Ctx, change string) (bool, error) {
	m := adjustCellRE().FindStringSubmatch(strings.TrimSpace(change))
	if m == nil {
		return false, nil
	}
	pts, ok := parseCells(m[1])
	if !ok || len(pts) != 1 {
		return false, nil
	}
	pt := pts[0]
	if lim := limits(c); !lim.In(pt.X, pt.Y) {
		return true, contract.Reject("Life R7", "Cell %s does not exist: X runs %d..%d and Y %d..%d", pt, lim.Xmin, lim.Xmax, lim.Ymin, lim.Ymax)
	}
	st := data(c)
	cells, err := st.cellMap()
	if err != nil {
		return true, err
	}
	was := "Dead"
	if cells[pt] != "" {
		was = "Controlled by " + c.State().NameOf(cells[pt])
	}
	if m[2] != "" {
		delete(cells, pt)
		c.Did("Cell %s is Dead (was %s)", pt, was)
	} else {
		p, err := c.State().Resolve(m[3])
		if err != nil {
			return true, err
		}
		if !p.In(ID) {
			return true, contract.Reject("Life R16", "%s is not a contestant, so cannot Control a Cell", p.Name)
		}
		cells[pt] = p.Address()
		c.Did("Cell %s is Controlled by %s (was %s)", pt, p.Name, was)
	}
	st.setCells(cells)
	return true, nil
}
