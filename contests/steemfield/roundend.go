package steemfield

import (
	"fmt"
	"slices"
	"strings"

	"referee/contract"
)

// roundResult is what the results post reports of the round that ended.
type roundResult struct {
	Round     int
	Proposal  *Proposal
	For       int64
	Against   int64
	Votes     []Vote
	Passed    bool
	Change    string   // how the passed rule was applied (S11, G9)
	Movements []string // every LAND movement, in the order of S6
	Winner    string
}

func (r *roundResult) add(format string, args ...any) {
	r.Movements = append(r.Movements, fmt.Sprintf(format, args...))
}

// endRound performs the round end in the order of ruling S6, each step its
// own function, then publishes the results post, or the final post when
// someone won.
func (g *Game) endRound(c *contract.Ctx, st *State) error {
	res := &roundResult{Round: st.Round, Votes: st.Votes}
	for _, step := range []func(*contract.Ctx, *State, *roundResult) error{
		g.tallyVote, // (1)
		growAndDie,  // (2), (3)
		returnLand,  // (4)
		penalty,     // (5)
		roundLand,   // (6)
	} {
		if err := step(c, st, res); err != nil {
			return err
		}
	}
	c.Record("the totem", "ends round %d", st.Round)
	findWinner(c, st, res) // (7)
	if res.Winner != "" {
		st.Winner = res.Winner
		st.Phase = PhaseOver
		c.Record(res.Winner, "wins the game with %d LAND (%s)", balance(c, res.Winner), st.cite("win"))
		c.Notify(&contract.Notice{ID: ID + "/final-post", Kind: "report", Channel: contract.ChanPublic,
			Subject: "[Steemfield] Final results: " + res.Winner + " wins", Body: g.finalBody(c, st, res)})
		c.ReportSent()
		return nil
	}
	g.openRound(c, st, res)
	return nil
}

// tallyVote is step (1) of the round end: the vote result; 1 LAND to the
// proposer if it passed (Voting and Proposals 3 and 9, ruling S5: a tie
// fails).
func (g *Game) tallyVote(c *contract.Ctx, st *State, res *roundResult) error {
	if st.Chosen > 0 {
		p := st.Proposals[st.Chosen-1]
		res.Proposal = p
		for _, v := range st.Votes {
			if v.Yes {
				res.For += v.Weight
			} else {
				res.Against += v.Weight
			}
		}
		res.Passed = res.For > res.Against
		if res.Passed {
			return g.pass(c, st, p, res)
		}
	}
	return nil
}

// growAndDie is steps (2) and (3) of the round end: the snapshot, after the
// placements of the proposal period, which were applied in arrival order as
// they came; (3) growth then death, both from that one snapshot (ruling S7).
func growAndDie(c *contract.Ctx, st *State, res *roundResult) error {
	size := c.IntParam(PGrid)
	snap := NewSnapshot(size, st.Cells)
	unplaced := map[string]int{}
	for _, m := range st.Players {
		unplaced[m.Name] = st.unplaced(c, m.Name)
	}
	var growth []Growth
	if st.has("growth") {
		growth = Grow(snap, balance(c, Totem), unplaced)
	}
	var deaths []Point
	if st.has("death") {
		deaths = Deaths(snap)
	}
	for _, gr := range growth {
		for _, o := range gr.Passed {
			res.add("%s could grow into %s but had no unplaced LAND (%s)", o, cellName(gr.At.X, gr.At.Y), st.cite("growth"))
		}
		if gr.FromTotem {
			if err := c.State().Ledger.Move(LAND, Totem, gr.Owner, 1); err != nil {
				return err
			}
			res.add("growth at %s: 1 LAND from the totem to %s, placed there (%s)", cellName(gr.At.X, gr.At.Y), gr.Owner, st.cite("growth"))
		} else {
			res.add("growth at %s: the totem is empty, so %s places 1 of eir unplaced LAND there (%s)", cellName(gr.At.X, gr.At.Y), gr.Owner, st.cite("growth"))
		}
		st.NextSeq++
		st.Cells = append(st.Cells, Cell{X: gr.At.X, Y: gr.At.Y, Owner: gr.Owner, Seq: st.NextSeq})
	}
	dead := map[Point]bool{}
	for _, d := range deaths {
		owner := st.Cells[st.cellAt(d.X, d.Y)].Owner
		n := len(snap.Neighbours(d))
		why := "loneliness (1 neighbour)"
		if n > 1 {
			why = fmt.Sprintf("starvation (%d neighbours)", n)
		}
		dead[d] = true
		res.add("death at %s of %s: the LAND returns to %s's unplaced pool (%s)", cellName(d.X, d.Y), why, owner, st.cite("death"))
	}
	// The dead cells leave in a new list (SaveTop), which sortCells orders.
	st.Cells = slices.DeleteFunc(slices.Clone(st.Cells), func(cell Cell) bool { return dead[Point{cell.X, cell.Y}] })
	st.sortCells()
	return nil
}

// returnLand is step (4) of the round end: each player returns 1d6 unplaced
// LAND to the totem (Gameplay 15, ruling S6 (4)); placed LAND is safe.
func returnLand(c *contract.Ctx, st *State, res *roundResult) error {
	for _, m := range st.Players {
		if !st.has("returns") {
			break
		}
		if m.Roll == 0 { // joined during the voting period
			saveMember(c, m)
			m.Roll = c.Intn(fmt.Sprintf("round/%d/roll/%s", st.Round, m.Name), 6) + 1
		}
		n := m.Roll
		if u := st.unplaced(c, m.Name); u < n {
			n = u
		}
		if n > 0 {
			if err := c.State().Ledger.Move(LAND, m.Name, Totem, int64(n)); err != nil {
				return err
			}
		}
		res.add("%s rolled %d and returns %d unplaced LAND to the totem (%s)", m.Name, m.Roll, n, st.cite("returns"))
	}
	return nil
}

// penalty is step (5) of the round end: non-proposers give half their LAND,
// rounded down, to the proposers, one by one, oldest proposer first (Gameplay
// 8, ruling S8 for which LAND).
func penalty(c *contract.Ctx, st *State, res *roundResult) error {
	var proposers []*Member
	for _, m := range st.Players {
		if m.Proposed {
			proposers = append(proposers, m)
		}
	}
	if len(proposers) > 0 && st.has("penalty") {
		k := 0
		for _, m := range st.Players {
			if m.Proposed {
				continue
			}
			half := balance(c, m.Name) / 2
			if half == 0 {
				continue
			}
			got := map[string]int{}
			var cells []string
			for i := 0; i < half; i++ {
				to := proposers[k%len(proposers)].Name
				k++
				where, err := st.moveOne(c, m.Name, to)
				if err != nil {
					return err
				}
				if where != "" {
					cells = append(cells, where+" to "+to)
				}
				got[to]++
			}
			var parts []string
			for _, p := range proposers {
				if got[p.Name] > 0 {
					parts = append(parts, fmt.Sprintf("%d to %s", got[p.Name], p.Name))
				}
			}
			extra := ""
			if len(cells) > 0 {
				extra = "; cells change owner: " + strings.Join(cells, ", ")
			}
			res.add("%s made no proposal and gives half eir LAND, %d: %s (%s)%s", m.Name, half, strings.Join(parts, ", "), st.cite("penalty"), extra)
		}
	}
	return nil
}

// roundLand is step (6) of the round end: 1 LAND to each player, oldest first,
// while the totem has LAND, except those who broke the rules (Gameplay 1 and
// 7, ruling S10).
func roundLand(c *contract.Ctx, st *State, res *roundResult) error {
	var got, denied, none []string
	for _, m := range st.Players {
		switch {
		case !st.has("roundland"):
		case len(m.Violations) > 0 && st.has("denial"):
			denied = append(denied, m.Name)
		case balance(c, Totem) > 0:
			if err := c.State().Ledger.Move(LAND, Totem, m.Name, 1); err != nil {
				return err
			}
			got = append(got, m.Name)
		default:
			none = append(none, m.Name)
		}
	}
	if len(got) > 0 {
		to := "to " + got[0]
		if len(got) > 1 {
			to = "to each of " + strings.Join(got, ", ")
		}
		res.add("1 LAND from the totem %s (%s)", to, st.cite("roundland"))
	}
	if len(denied) > 0 {
		res.add("no end-of-round LAND for %s, for breaking the rules (%s)", strings.Join(denied, ", "), st.cite("denial"))
	}
	if len(none) > 0 {
		res.add("the totem ran out of LAND before %s (%s)", strings.Join(none, ", "), st.cite("roundland"))
	}
	for _, m := range st.Players {
		for _, v := range m.Violations {
			st.Notes = append(st.Notes, fmt.Sprintf("%s broke the rules this round (%s) and was denied the end-of-round LAND (%s, ruling S10).", m.Name, v, st.cite("denial")))
		}
	}
	return nil
}

// findWinner is step (7) of the round end: a player with the winning LAND wins
// (Gameplay 5): the most LAND, then the oldest player.
func findWinner(c *contract.Ctx, st *State, res *roundResult) {
	win := c.IntParam(PWin)
	for _, m := range st.Players {
		if !st.has("win") {
			break
		}
		if b := balance(c, m.Name); b >= win && (res.Winner == "" || b > balance(c, res.Winner)) {
			res.Winner = m.Name
		}
	}
}

// pass applies a passed proposal: the LAND to its proposer, the rule set
// changed (S11) and the parameters it sets (G9).
func (g *Game) pass(c *contract.Ctx, st *State, p *Proposal, res *roundResult) error {
	if m := st.member(p.Player); m != nil {
		saveMember(c, m)
		m.Passed++
		if !st.has("passland") {
			// The rule was removed (S11): no LAND for it.
		} else if balance(c, Totem) > 0 {
			if err := c.State().Ledger.Move(LAND, Totem, m.Name, 1); err != nil {
				return err
			}
			res.add("1 LAND from the totem to %s, whose proposal passed (%s)", m.Name, st.cite("passland"))
		} else {
			res.add("%s's proposal passed, but the totem has no LAND to give (%s)", m.Name, st.cite("passland"))
		}
	}
	rules, at, err := applyChange(st.Rules, p)
	if err != nil {
		// The rule it names no longer exists: recorded, nothing changes.
		res.Change = "The rule it names no longer exists, so the rule set is unchanged."
		return nil
	}
	st.Rules = rules
	c.Record("the totem", "changes the rules: %s", p.describe())
	if at < 0 {
		res.Change = fmt.Sprintf("%s %d is removed from the rule set; the rules after it are renumbered (S3).", p.Section, p.Number)
		return nil
	}
	ref := fmt.Sprintf("%s %d", st.Rules[at].Section, number(st.Rules, at))
	param, value, ok := readChange(p.Text)
	if ok {
		old := c.Param(param)
		if err := c.SetParam(param, value); err != nil {
			if r, isRej := contract.AsRejection(err); isRej {
				st.Rules[at].Needs = fmt.Sprintf("rule/%d", st.Round)
				res.Change = fmt.Sprintf("The new rule %s reads as setting %s, but %s; it is recorded and needs the totem controller's ruling (G9).", ref, param, r.Error())
				g.askRuling(c, st, ref, p)
				return nil
			}
			return err
		}
		extra, err := applied(c, st, param)
		if err != nil {
			return err
		}
		res.Change = fmt.Sprintf("The new rule %s sets %s from %s to %s (S11, G9).", ref, param, old, c.Param(param)) + extra
		return nil
	}
	st.Rules[at].Needs = fmt.Sprintf("rule/%d", st.Round)
	res.Change = fmt.Sprintf("The new rule %s carries no change the referee applies by itself; it is recorded and needs the totem controller's ruling (G9).", ref)
	g.askRuling(c, st, ref, p)
	return nil
}

// applied follows a parameter change into the state: the totem's pool for the
// LAND cap (Gameplay 4, ruling S1), the map for the grid size (Gameplay 11).
// It returns what it did, as a sentence with a leading space, or "".
func applied(c *contract.Ctx, st *State, param string) (string, error) {
	did := ""
	switch param {
	case PLandCap:
		cap := int64(c.IntParam(PLandCap))
		l := &c.State().Ledger
		supply := l.Supply[LAND]
		switch {
		case cap > supply:
			if err := l.Mint(LAND, Totem, cap-supply); err != nil {
				return "", err
			}
			did = fmt.Sprintf(" The totem's pool grows by %d LAND.", cap-supply)
		case cap < supply:
			n := supply - cap
			if t := l.Balance(LAND, Totem); t < n {
				n = t
			}
			if err := l.Destroy(LAND, Totem, n); err != nil {
				return "", err
			}
			did = fmt.Sprintf(" The totem's pool shrinks by %d LAND (LAND players own stays theirs).", n)
		}
	case PGrid:
		size := c.IntParam(PGrid)
		var keep []Cell
		for _, cell := range st.Cells {
			if cell.X <= size && cell.Y <= size {
				keep = append(keep, cell)
			}
		}
		if n := len(st.Cells) - len(keep); n > 0 {
			did = fmt.Sprintf(" %d cells outside the new map return to their owners' unplaced LAND.", n)
		}
		st.Cells = keep
	}
	return did, nil
}

func (g *Game) askRuling(c *contract.Ctx, st *State, ref string, p *Proposal) {
	key := fmt.Sprintf("rule/%d", st.Round)
	st.Pending = append(st.Pending, key)
	c.AskRuling(key, fmt.Sprintf("Round %d passed %s (now %s). How does it apply? Answer with \"SET <parameter> = <value>\" for a parameter (%s), or any text to confirm it as written.", st.Round, p.describe(), ref, paramNames(g)),
		"the text stays in the rule set, marked as needing a ruling, and the referee applies nothing")
}

func paramNames(g *Game) string {
	var n []string
	for _, p := range spec.Params {
		n = append(n, p.Name)
	}
	return strings.Join(n, ", ")
}

// OnRuling hears the totem controller on a passed rule (G8, G9).
func (g *Game) OnRuling(c *contract.Ctx, r *contract.Ruling, timedOut bool) error {
	st := data(c)
	var keep []string
	for _, k := range st.Pending {
		if k != r.Key {
			keep = append(keep, k)
		}
	}
	st.Pending = keep
	if timedOut {
		st.Notes = append(st.Notes, fmt.Sprintf("The totem controller did not rule on the rule passed in %s; it stays as written and the referee applies nothing (G8).", strings.ReplaceAll(r.Key, "rule/", "round ")))
		return nil
	}
	if kind, name, v, ok := contract.ParseChange(r.Answer); ok && kind == "set" {
		old := c.Param(name)
		if err := c.SetParam(name, v); err != nil {
			return err
		}
		did, err := applied(c, st, name)
		if err != nil {
			return err
		}
		st.Notes = append(st.Notes, fmt.Sprintf("By the totem controller's ruling, %s is now %s (was %s).%s", name, c.Param(name), old, did))
	} else {
		st.Notes = append(st.Notes, fmt.Sprintf("The totem controller ruled on the rule passed in %s: %s", strings.ReplaceAll(r.Key, "rule/", "round "), r.Answer))
	}
	st.Rules = slices.Clone(st.Rules)
	for i := range st.Rules {
		if st.Rules[i].Needs == r.Key {
			st.Rules[i].Needs = ""
		}
	}
	return nil
}
