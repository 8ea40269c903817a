package life

import (
	"slices"
	"strconv"
	"strings"

	"referee/contract"
)

// parseCells reads "(12, 34)", "(1,2) and (3, 4)", "12,34": one or more Cells
// written as (X, Y) and nothing else. ok is false when there is none or any
// part is not a Cell ("(5,5,5)", "(1, 2" or "(x, 3)"), so a malformed
// coordinate is never read as another. A Cell is what
// ^\s*(?:\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)|(-?\d+)\s*,\s*(-?\d+)\b) matches, and what
// parts two is what ^\s*(?:,\s*and\b|,|and\b|&)?\s* does, read by hand (cellAt,
// cellSep): a claim is read on every claim action, and the expressions
// were most of its time.
func parseCells(s string) (pts []Pt, ok bool) {
	rest := strings.TrimSpace(s)
	for {
		xs, ys, n := cellAt(rest)
		if n < 0 {
			return nil, false
		}
		x, err1 := strconv.Atoi(xs)
		y, err2 := strconv.Atoi(ys)
		if err1 != nil || err2 != nil {
			return nil, false
		}
		pts = append(pts, Pt{x, y})
		rest = rest[n:]
		if n := cellSep(rest); n > 0 {
			rest = rest[n:]
		} else if rest != "" {
			return nil, false
		}
		if rest == "" {
			return pts, true
		}
	}
}

// cellAt reads a Cell at the start of s: its coordinates as written and
// the length read, -1 when there is none.
func cellAt(s string) (xs, ys string, n int) {
	i := skipRESpace(s, 0)
	paren := i < len(s) && s[i] == '('
	if paren {
		i = skipRESpace(s, i+1)
	}
	j := reNumber(s, i)
	if j < 0 {
		return "", "", -1
	}
	xs, i = s[i:j], skipRESpace(s, j)
	if i == len(s) || s[i] != ',' {
		return "", "", -1
	}
	i = skipRESpace(s, i+1)
	if j = reNumber(s, i); j < 0 {
		return "", "", -1
	}
	ys, i = s[i:j], j
	if paren {
		if i = skipRESpace(s, i); i == len(s) || s[i] != ')' {
			return "", "", -1
		}
		return xs, ys, i + 1
	}
	if i < len(s) && isREWord(s[i]) { // no \b: the digits run on into a word
		return "", "", -1
	}
	return xs, ys, i
}

// cellSep is the length of what parts two Cells at the start of s: 0
// when nothing does, or only white space.
func cellSep(s string) int {
	i := skipRESpace(s, 0)
	switch {
	case i < len(s) && s[i] == ',':
		i++
		if j := skipRESpace(s, i); strings.HasPrefix(s[j:], "and") && (j+3 == len(s) || !isREWord(s[j+3])) {
			i = j + 3
		}
	case strings.HasPrefix(s[i:], "and") && (i+3 == len(s) || !isREWord(s[i+3])):
		i += 3
	case i < len(s) && s[i] == '&':
		i++
	}
	return skipRESpace(s, i)
}

// skipRESpace is the end of the run of \s (ASCII white space but \v) at
// s[i:].
func skipRESpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r') {
		i++
	}
	return i
}

// reNumber is the end of -?\d+ at s[i:], -1 when there is none.
func reNumber(s string, i int) int {
	if i < len(s) && s[i] == '-' {
		i++
	}
	j := i
	for j < len(s) && '0' <= s[j] && s[j] <= '9' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// isREWord reports whether c is a byte of \w, as \b reads words.
func isREWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
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
