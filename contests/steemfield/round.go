package steemfield

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"referee/contract"
)

// Next is the game's next event (ruling S2): the start once enough players
// joined, the proposal post at the end of the proposal period, the results
// post when the voting period has ended and the round has lasted its minimum.
func (g *Game) Next(c *contract.Ctx) (contract.Event, bool) {
	st := data(c)
	switch st.Phase {
	case PhaseGathering:
		if !st.StartDue.IsZero() {
			return contract.Event{At: st.StartDue, Name: "start"}, true
		}
	case PhaseProposal:
		return contract.Event{At: st.ProposalEnd, Name: "proposal post", Key: strconv.Itoa(st.Round)}, true
	case PhaseVoting:
		return contract.Event{At: st.RoundEnd, Name: "results post", Key: strconv.Itoa(st.Round)}, true
	}
	return contract.Event{}, false
}

// Run performs an event.
func (g *Game) Run(c *contract.Ctx, e contract.Event) error {
	st := data(c)
	st.sync(c)
	switch e.Name {
	case "start":
		st.StartDue = time.Time{}
		if len(st.Players) < c.IntParam(PMinPlayers) {
			// A player left before the start: wait for the next join.
			return nil
		}
		c.Record("the totem", "the game starts with %d players (Meta 10)", len(st.Players))
		g.openRound(c, st, nil)
		return nil
	case "proposal post":
		return g.proposalPost(c, st)
	case "results post":
		return g.endRound(c, st)
	}
	return fmt.Errorf("run steemfield: unknown event %q", e.Name)
}

// openRound starts round st.Round+1 with its results post (Meta 8: the
// proposal period starts immediately after a results post).
func (g *Game) openRound(c *contract.Ctx, st *State, res *roundResult) {
	st.Round++
	now := c.Now()
	st.Phase = PhaseProposal
	st.RoundStart = now
	st.ProposalEnd = now.Add(c.DurationParam(PProposalPeriod))
	st.VoteEnd = st.ProposalEnd.Add(c.DurationParam(PVotingPeriod))
	st.RoundEnd = st.VoteEnd
	if min := now.Add(c.DurationParam(PRoundMinimum)); min.After(st.RoundEnd) {
		st.RoundEnd = min // Meta 5: each round is a minimum of 72 hours
	}
	st.Proposals, st.Chosen, st.Votes = nil, 0, nil
	for _, m := range st.Players {
		saveMember(c, m)
		m.Proposed, m.Voted, m.Placed, m.OwnRoll, m.Roll, m.Violations = false, false, false, 0, 0, nil
	}
	body := g.resultsBody(c, st, res)
	for _, m := range st.Players { // each saved above, in this transaction
		m.LastLAND = balance(c, m.Name)
	}
	st.Notes = nil
	c.Notify(&contract.Notice{ID: postID("results", st.Round), Kind: "report", Channel: contract.ChanPublic,
		Subject: resultsSubject(st.Round), Body: body})
	c.ReportSent()
}

func resultsSubject(round int) string {
	if round == 1 {
		return "[Steemfield] The game begins: round 1"
	}
	return fmt.Sprintf("[Steemfield] Results of round %d; round %d begins", round-1, round)
}

// order sorts the proposals for consideration (Voting and Proposals 5 and 6,
// ruling S4): lowest proposal score, then higher effective power, then the
// player who joined first.
func (st *State) order() []*Proposal {
	rank := map[string]int{}
	for i, m := range st.Players {
		rank[m.Name] = i
	}
	out := append([]*Proposal(nil), st.Proposals...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := st.member(out[i].Player), st.member(out[j].Player)
		if a == nil || b == nil {
			return b == nil && a != nil
		}
		if sa, sb := a.Passed-a.Burnt, b.Passed-b.Burnt; sa != sb {
			return sa < sb
		}
		if ea, eb := effective(a.Power), effective(b.Power); ea != eb {
			return ea > eb
		}
		return rank[a.Name] < rank[b.Name]
	})
	return out
}

// proposalPost closes the proposal period, chooses the proposal, draws the
// totem's 1d6 for players who did not roll (S8) and opens the voting period.
func (g *Game) proposalPost(c *contract.Ctx, st *State) error {
	st.Phase = PhaseVoting
	ordered := st.order()
	if len(ordered) > 0 {
		for i, p := range st.Proposals {
			if p == ordered[0] {
				st.Chosen = i + 1
			}
		}
	}
	for _, m := range st.Players {
		saveMember(c, m)
		m.Periods++
		switch {
		case !st.has("returns"): // S11: removed, nothing is rolled
			m.Roll = 0
		case m.OwnRoll != 0:
			m.Roll = m.OwnRoll
		default:
			m.Roll = c.Intn(fmt.Sprintf("round/%d/roll/%s", st.Round, m.Name), 6) + 1
		}
	}
	c.Notify(&contract.Notice{ID: postID("proposal", st.Round), Kind: "notice", Channel: contract.ChanPublic,
		Subject: fmt.Sprintf("[Steemfield] Proposal of round %d", st.Round), Body: g.proposalBody(c, st, ordered),
		InReplyTo: c.MessageID(postID("results", st.Round)), References: []string{c.MessageID(postID("results", st.Round))}})
	if st.Chosen > 0 {
		p := st.Proposals[st.Chosen-1]
		c.Record("the totem", "puts the proposal of %s to the vote: %s", p.Player, p.describe())
	} else {
		c.Record("the totem", "has no proposal to put to the vote in round %d", st.Round)
	}
	return nil
}
