package life

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"referee/contract"
)

var (
	cellRE    = regexp.MustCompile(`^\s*(?:\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)|(-?\d+)\s*,\s*(-?\d+)\b)`)
	cellSepRE = regexp.MustCompile(`^\s*(?:,\s*and\b|,|and\b|&)?\s*`)
)

// parseCells reads "(12, 34)", "(1,2) and (3, 4)", "12,34": one or more Cells
// written as (X, Y) and nothing else. ok is false when there is none or any
// part is not a Cell ("(5,5,5)", "(1, 2" or "(x, 3)"), so a malformed
// coordinate is never read as another.
func parseCells(s string) (pts []Pt, ok bool) {
	rest := strings.TrimSpace(s)
	for {
		m := cellRE.FindStringSubmatch(rest)
		if m == nil {
			return nil, false
		}
		xs, ys := m[1], m[2]
		if xs == "" {
			xs, ys = m[3], m[4]
		}
		x, err1 := strconv.Atoi(xs)
		y, err2 := strconv.Atoi(ys)
		if err1 != nil || err2 != nil {
			return nil, false
		}
		pts = append(pts, Pt{x, y})
		rest = rest[len(m[0]):]
		if sep := cellSepRE.FindString(rest); sep != "" {
			rest = rest[len(sep):]
		} else if rest != "" {
			return nil, false
		}
		if rest == "" {
			return pts, true
		}
	}
}

// doClaim: Life R16 (a contestant becomes the Controller of a Cell Controlled
// by the contest by transferring one Vial to the contest), ruling L2 (several
// Cells are claimed in order while the contestant has Vials). A Cell outside
// the limits does not exist (R5, R7); a Cell Controlled by anyone but the
// contest is Alive and cannot be claimed (R10, R16).
func doClaim(c *contract.Ctx, a *contract.Action) error {
	p := c.Actor()
	if !p.In(ID) {
		return contract.Reject("Life R16", "only contestants may take control of Cells; join first (\"I join the Life contest.\")")
	}
	pts, ok := parseCells(a.Arg("cells"))
	if !ok {
		return contract.Reject("syntax", "%q is not a Cell; name each Cell as (X, Y), for example \"I claim cell (12, 34) in Life\"", strings.TrimSpace(a.Arg("cells")))
	}
	st := data(c)
	// Only the claimant's Cells change: the others' are looked up, not
	// read and written back.
	mine, err := st.cellsOf(p.Address())
	if err != nil {
		return err
	}
	had := len(mine) // the Cells held before, then those claimed
	claimed := map[Pt]bool{}
	lim := limits(c)
	var done []string
	var failed []*contract.Rejection
	for _, pt := range pts {
		var r *contract.Rejection
		owner := ""
		if claimed[pt] {
			owner = p.Address()
		} else if lim.In(pt.X, pt.Y) {
			owner = st.controllerOf(pt)
		}
		switch {
		case !lim.In(pt.X, pt.Y):
			r = contract.Reject("Life R7", "Cell %s does not exist: X runs %d..%d and Y %d..%d", pt, lim.Xmin, lim.Xmax, lim.Ymin, lim.Ymax)
		case owner != "":
			r = contract.Reject("Life R16", "Cell %s is Alive, Controlled by %s; only Cells Controlled by the contest can be claimed", pt, c.State().NameOf(owner))
		case vials(c, p.Name) < 1:
			r = contract.Reject("Life R16", "claiming Cell %s costs one Vial and you own none", pt)
		}
		if r != nil {
			failed = append(failed, r)
			continue
		}
		if err := c.State().Ledger.Move(Vial, p.Name, contest(), 1); err != nil {
			return err
		}
		claimed[pt] = true
		mine = append(mine, pt)
		done = append(done, pt.String())
	}
	if len(done) == 0 {
		return failed[0]
	}
	inForm := st.Cells[p.Address()] == cellList(mine[:had])
	added := slices.Clone(mine[had:])
	contract.SaveEntry(c, st.Cells, p.Address())
	st.Cells[p.Address()] = cellList(mine)
	st.claimed(c, p.Address(), inForm, added)
	c.Did("you Control Cell%s %s, paying %s to the contest; you own %s",
		map[bool]string{true: "s"}[len(done) > 1], strings.Join(done, ", "),
		plural(int64(len(done)), "Vial", "Vials"), plural(vials(c, p.Name), "Vial", "Vials"))
	for _, r := range failed {
		c.Did("not claimed: %s", r.Error())
	}
	c.Record(p.Name, "takes control of Cell%s %s (R16)", map[bool]string{true: "s"}[len(done) > 1], strings.Join(done, ", "))
	return nil
}
