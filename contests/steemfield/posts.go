package steemfield

import (
	"fmt"
	"sort"
	"strings"

	"referee/contract"
	"referee/contract/text"
)

const office = "The Steemfield Totem (referee)"

// resultsBody is the results post in the totem's style (Meta 7): the vote,
// the LAND movements, the distribution with letters and changes, the map, the
// next phase's timing, clarifications, then the full current rule set.
func (g *Game) resultsBody(c *contract.Ctx, st *State, res *roundResult) string {
	var b strings.Builder
	if res == nil {
		b.WriteString(text.Banner("Steemfield: the game begins", '='))
		b.WriteString("\n")
		b.WriteString(text.Wrap(fmt.Sprintf("Steemfield has %d players, so the game starts (Meta 10). This post opens round 1; the totem has %d LAND to give away (Gameplay 3).", len(st.Players), balance(c, Totem)), 0))
	} else {
		b.WriteString(text.Banner(fmt.Sprintf("Steemfield: results of round %d", res.Round), '='))
		b.WriteString("\n")
		b.WriteString(voteSection(st, res))
		if len(res.Movements) > 0 {
			b.WriteString("\n")
			b.WriteString(movements(res))
		}
	}
	b.WriteString("\n")
	b.WriteString(standing(c, st))
	b.WriteString("\n")
	b.WriteString(text.Heading(fmt.Sprintf("Round %d: what happens next", st.Round)))
	roll := ", and {ROLL} if you want to roll your own 1d6"
	if !st.has("returns") { // S11: the 1d6 returns were removed, and rolls with them
		roll = ""
	}
	b.WriteString(text.Wrap(fmt.Sprintf("The proposal period runs from %s to %s UTC: comment under this post with a proposal (between lines of three or more dashes), a placement {PLACE: L(x, y)} or unplacement%s. The proposal post follows at %s; the voting period ends at %s; the next results post comes at %s UTC.",
		contract.Stamp(st.RoundStart), contract.Stamp(st.ProposalEnd), roll, contract.Stamp(st.ProposalEnd), contract.Stamp(st.VoteEnd), contract.Stamp(st.RoundEnd)), 0))
	if len(st.Notes) > 0 || len(st.Pending) > 0 {
		b.WriteString("\n")
		b.WriteString(text.Heading("Clarifications (Totem Behavior 3)"))
		for _, n := range st.Notes {
			b.WriteString(text.WrapIndent(n, 0, "- ", "  "))
		}
		if len(st.Pending) > 0 {
			b.WriteString(text.WrapIndent("A passed rule awaits the totem controller's ruling on how it applies (G9); until then the referee applies nothing of it.", 0, "- ", "  "))
		}
	}
	b.WriteString("\n")
	b.WriteString(text.Heading("The current rule set (numbered as ruling S3)"))
	b.WriteString(ruleSet(st.Rules))
	b.WriteString("\n")
	b.WriteString(text.Signature(office))
	return b.String()
}

// voteSection reports the vote ("The final vote (by weight): in favor: 1.000
// against: 1.000") and the rule change.
func voteSection(st *State, res *roundResult) string {
	var b strings.Builder
	if res.Proposal == nil {
		b.WriteString(text.Wrap(fmt.Sprintf("No proposal was made in round %d, so nothing was put to the vote.", res.Round), 0))
		return b.String()
	}
	p := res.Proposal
	b.WriteString(text.Wrap(fmt.Sprintf("The proposal of %s: %s", p.Player, p.describe()), 0))
	fmt.Fprintf(&b, "The final vote (by weight): in favor: %s against: %s\n", micro(res.For), micro(res.Against))
	if res.Passed {
		b.WriteString(text.Wrap("The proposal passes: more weight in favor than against"+paren(st.citeText(passRule))+". "+res.Change, 0))
	} else if res.For == res.Against {
		b.WriteString(text.Wrap("The proposal fails: a tie is not a pass"+paren(cites(st.citeText(passRule), "ruling S5"))+".", 0))
	} else {
		b.WriteString(text.Wrap("The proposal fails"+paren(st.citeText(passRule))+".", 0))
	}
	if len(res.Votes) > 0 {
		t := &text.Table{Header: []string{"Voter", "Vote", "Weight"}}
		for _, v := range res.Votes {
			t.Add(v.Player, v.Word(), micro(v.Weight))
		}
		b.WriteString("\n")
		b.WriteString(t.String())
	}
	return b.String()
}

// movements lists the round end's LAND movements, numbered, in the order of
// ruling S6.
func movements(res *roundResult) string {
	var b strings.Builder
	b.WriteString(text.Heading("LAND movements at the end of the round (ruling S6)"))
	for i, mv := range res.Movements {
		b.WriteString(text.WrapIndent(mv, 0, fmt.Sprintf("%2d. ", i+1), "    "))
	}
	return b.String()
}

// standing is the LAND distribution (sorted, a letter per player, the change
// since the last results post) and the map.
func standing(c *contract.Ctx, st *State) string {
	var b strings.Builder
	b.WriteString(text.Wrap("Here's the updated current land distribution. Below is the current land placement map showing currently placed or grown LAND. Each player has a letter next to their name corresponding with successful placements on the map.", 0))
	b.WriteString("\n")
	ps := st.oldestFirst()
	sort.SliceStable(ps, func(i, j int) bool { return balance(c, ps[i].Name) > balance(c, ps[j].Name) })
	t := &text.Table{Header: []string{"Player", "LAND", "Change", "Placed", "Unplaced", "Burnt", "Score", "Power"}}
	var notes text.Footnotes
	for _, m := range ps {
		bal := balance(c, m.Name)
		t.Add(fmt.Sprintf("%s (%s)", m.Name, m.Letter), fmt.Sprint(bal), fmt.Sprintf("%+d", bal-m.LastLAND),
			fmt.Sprint(st.placed(m.Name)), fmt.Sprint(st.unplaced(c, m.Name)), fmt.Sprint(m.Burnt), fmt.Sprint(m.Passed-m.Burnt), power(m, &notes))
	}
	alignLeft(t, len(t.Header)-1)
	b.WriteString(t.String())
	b.WriteString(notes.String())
	supply := c.State().Ledger.Supply[LAND]
	fmt.Fprintf(&b, "The totem's pool: %d LAND. LAND in existence: %d (cap %d).\n", balance(c, Totem), supply, c.IntParam(PLandCap))
	b.WriteString("\n")
	b.WriteString(mapText(c, st))
	return b.String()
}

// power is a player's power as the players table shows it: the effective
// power, which orders the proposals and weighs the votes (ruling S1,
// Voting and Proposals 2 and 4), marked with a note giving the declared
// power where the two differ.
func power(m *Member, notes *text.Footnotes) string {
	e := effective(m.Power)
	if e == m.Power {
		return milli(e)
	}
	return milli(e) + notes.Mark(fmt.Sprintf("declared %s; the effective power, at most 1, orders the proposals and weighs the votes (ruling S1).", milli(m.Power)))
}

// alignLeft pads column i of t, its heading too, to its widest cell, so
// that the powers' points line up whether a note marks them or not
// ("1.000", "1.000[1]"): the table aligns a column of numbers right, and
// drops the padding at the end of a line.
func alignLeft(t *text.Table, i int) {
	w := len(t.Header[i])
	for _, r := range t.Rows {
		w = max(w, len(r[i]))
	}
	t.Header[i] += strings.Repeat(" ", w-len(t.Header[i]))
	for _, r := range t.Rows {
		r[i] += strings.Repeat(" ", w-len(r[i]))
	}
}

// mapText draws the map with (1,1) at the bottom left (ruling S7).
func mapText(c *contract.Ctx, st *State) string {
	size := c.IntParam(PGrid)
	letter := map[string]rune{}
	legend := map[rune]string{}
	for _, m := range st.Players {
		r := []rune(m.Letter)[0]
		letter[m.Name] = r
	}
	at := map[Point]rune{}
	for _, cell := range st.Cells {
		r := letter[cell.Owner]
		at[Point{cell.X, cell.Y}] = r
		if was, ok := legend[r]; ok && was != cell.Owner && r == '?' {
			// Players who joined after the 52 letters were taken share
			// '?' (letterFor): with two on the map, the legend names none.
			legend[r] = "any player who joined after the 52 letters were taken (several share it)"
			continue
		}
		legend[r] = cell.Owner
	}
	legend['.'] = "empty"
	gr := &text.Grid{X0: 1, X1: size, Y0: 1, Y1: size, TopY: size, Legend: legend,
		Cell: func(x, y int) rune { return at[Point{x, y}] }}
	return gr.String()
}

// proposalBody is the proposal post: the proposal put to the vote, the order
// of the others, the voters' weights and the totem's rolls.
func (g *Game) proposalBody(c *contract.Ctx, st *State, ordered []*Proposal) string {
	var b strings.Builder
	b.WriteString(text.Banner(fmt.Sprintf("Steemfield: proposal of round %d", st.Round), '='))
	b.WriteString("\n")
	if len(ordered) == 0 {
		b.WriteString(text.Wrap("No proposal was made in this round's proposal period, so there is nothing to vote on. The round ends with the next results post.", 0))
	} else {
		p := ordered[0]
		b.WriteString(text.Wrap(fmt.Sprintf("The proposal put to the vote comes from %s:", p.Player), 0))
		b.WriteString("\n---\n")
		fmt.Fprintf(&b, "{PROPOSAL:%s}\n", p.Type)
		switch p.Type {
		case "ADDITION":
			sec := p.Section
			if sec == "" {
				sec = "Gameplay"
			}
			fmt.Fprintf(&b, "Addition: %s\n", sec)
		default:
			fmt.Fprintf(&b, "%s: %s, Rule %d\n", titleCase(p.Type), p.Section, p.Number)
		}
		if p.Text != "" {
			b.WriteString(text.Wrap(p.Text, 0))
		}
		b.WriteString("---\n\n")
		if i := find(st.Rules, p.Section, p.Number); i >= 0 && p.Type != "ADDITION" {
			b.WriteString(text.Wrap(fmt.Sprintf("%s %d currently reads (ruling S3):", p.Section, p.Number), 0))
			b.WriteString(text.WrapIndent(st.Rules[i].Text, 0, "  ", "  "))
			b.WriteString("\n")
		}
		b.WriteString(text.Wrap(fmt.Sprintf("Vote by commenting under this post with {YES} or {NO} before %s UTC, once (Meta 9). It passes only if the weight in favor exceeds the weight against%s.", contract.Stamp(st.VoteEnd), paren(st.citeText(passRule))), 0))
		b.WriteString("\n")
		t := &text.Table{Header: []string{"Order", "Player", "Score", "Power", "Proposal"}}
		for i, q := range ordered {
			m := st.member(q.Player)
			score, power := "", ""
			if m != nil {
				score, power = fmt.Sprint(m.Passed-m.Burnt), milli(effective(m.Power))
			}
			t.Add(fmt.Sprint(i+1), q.Player, score, power, shortDesc(q))
		}
		b.WriteString(text.Wrap("The proposals of this round in the order of consideration: lowest proposal score (passed proposals minus burnt LAND), then higher effective power, then the longest in the game ("+cites(st.precedence(), "ruling S4")+"):", 0))
		b.WriteString(t.String())
	}
	b.WriteString("\n")
	// The rolls of the 1d6 returns (Gameplay 15); none once a passed
	// subtraction removed that rule (S11).
	vt := &text.Table{Header: []string{"Player", "Weight", "1d6"}}
	intro := fmt.Sprintf("Voting weights (effective power squared) and the rolls: each player returns that many unplaced LAND to the totem at the end of the round (%s; own rolls by {ROLL}, the others drawn now from the committed seed, ruling S12):", st.cite("returns"))
	if !st.has("returns") {
		vt.Header = vt.Header[:2]
		intro = "Voting weights (effective power squared); no LAND returns to the totem by 1d6, since that rule was removed from the rule set (S11):"
	}
	for _, m := range st.Players {
		row := []string{m.Name, micro(weight(m.Power)), fmt.Sprint(m.Roll)}
		vt.Add(row[:len(vt.Header)]...)
	}
	b.WriteString(text.Wrap(intro, 0))
	b.WriteString(vt.String())
	b.WriteString("\n")
	b.WriteString(text.Signature(office))
	return b.String()
}

func shortDesc(p *Proposal) string {
	switch p.Type {
	case "ADDITION":
		return "addition"
	case "SUBTRACTION":
		return fmt.Sprintf("subtraction of %s %d", p.Section, p.Number)
	}
	return fmt.Sprintf("replacement of %s %d", p.Section, p.Number)
}

// finalBody is the last post: the last round's results, the congratulations
// and the final rule set.
func (g *Game) finalBody(c *contract.Ctx, st *State, res *roundResult) string {
	var b strings.Builder
	b.WriteString(text.Banner(fmt.Sprintf("Steemfield: results of round %d, the last", res.Round), '='))
	b.WriteString("\n")
	b.WriteString(voteSection(st, res))
	b.WriteString("\n")
	b.WriteString(movements(res))
	b.WriteString("\n")
	b.WriteString(standing(c, st))
	b.WriteString("\n")
	// The winning rule as the rule set now numbers it (S3), in the words of
	// the original final post ("Rule #5 of Gameplay").
	rule := "the rules"
	for i, r := range st.Rules {
		if r.Key == "win" {
			rule = fmt.Sprintf("Rule #%d of %s", number(st.Rules, i), r.Section)
		}
	}
	b.WriteString(text.Wrap(fmt.Sprintf("Congrats to %s for achieving the victory condition established by %s (%d LAND). Below is the final state of the rules for reference's sake.", res.Winner, rule, balance(c, res.Winner)), 0))
	b.WriteString(ruleSet(st.Rules))
	b.WriteString("\n")
	b.WriteString(text.Signature(office))
	return b.String()
}

// Report is the current state on demand: the distribution, the map, the phase
// and the rule set. The results posts are the game's regular reports.
func (g *Game) Report(c *contract.Ctx) (*contract.Notice, error) {
	st := data(c)
	st.sync(c)
	var b strings.Builder
	b.WriteString(text.ReportHead("Steemfield: current state", c.Section().LastReport, c.Now()))
	switch st.Phase {
	case PhaseGathering:
		b.WriteString(text.Wrap(fmt.Sprintf("The game has not started: %d of the %d players it needs have joined with {DELEGATE: N} (Meta 10).", len(st.Players), c.IntParam(PMinPlayers)), 0))
	case PhaseProposal:
		b.WriteString(text.Wrap(fmt.Sprintf("Round %d: the proposal period runs until %s UTC.", st.Round, contract.Stamp(st.ProposalEnd)), 0))
	case PhaseVoting:
		b.WriteString(text.Wrap(fmt.Sprintf("Round %d: the voting period runs until %s UTC; the results post comes at %s UTC.", st.Round, contract.Stamp(st.VoteEnd), contract.Stamp(st.RoundEnd)), 0))
	case PhaseOver:
		if st.Winner == "" {
			b.WriteString(text.Wrap("The game is over: the totem was dissolved (Meta 3).", 0))
		} else {
			b.WriteString(text.Wrap(fmt.Sprintf("The game is over: %s won.", st.Winner), 0))
		}
	}
	b.WriteString("\n")
	b.WriteString(standing(c, st))
	b.WriteString("\n")
	b.WriteString(text.Heading("Recent events"))
	b.WriteString(c.RecentEvents())
	b.WriteString("\n")
	b.WriteString(text.Heading("The current rule set (numbered as ruling S3)"))
	b.WriteString(ruleSet(st.Rules))
	b.WriteString("\n")
	b.WriteString(text.Signature(office))
	return &contract.Notice{ID: fmt.Sprintf("%s/report/%s", ID, contract.Stamp(c.Now())), Kind: "report", Channel: contract.ChanOfficial,
		Subject: "[Steemfield] Current state", Body: b.String()}, nil
}
