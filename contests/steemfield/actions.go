package steemfield

import (
	"fmt"
	"strconv"
	"strings"

	"referee/contract"
	"referee/contract/text"
)

// begin syncs names and finds the actor's membership.
func begin(c *contract.Ctx) (*State, *Member) {
	st := data(c)
	st.sync(c)
	p := c.Actor()
	if p == nil {
		return st, nil
	}
	return st, st.member(p.Name)
}

func needMember(st *State, m *Member) error {
	if m == nil {
		return contract.Reject(cites(st.citeText(joinRule), "S1"), "you are not a player; join first with {DELEGATE: N}")
	}
	return nil
}

// needRule rejects an action whose rule a passed subtraction removed (S11).
func needRule(st *State, key, what string) error {
	if !st.has(key) {
		return contract.Reject("S11", "the rule that allowed %s was removed from the rule set", what)
	}
	return nil
}

// needPlayer rejects an action of someone who is not a player, or made
// before the game started or after it ended.
func needPlayer(st *State, m *Member) error {
	if err := needMember(st, m); err != nil {
		return err
	}
	return needPlaying(st)
}

func needPlaying(st *State) error {
	switch st.Phase {
	case PhaseGathering:
		return contract.Reject("Meta 10", "the game has not started: it needs 3 or more players")
	case PhaseOver:
		return gameOver(st)
	}
	return nil
}

// gameOver refuses an action once someone won, citing the winning rule as
// the rule set now numbers it (S3; Gameplay 5 in the starting set).
func gameOver(st *State) error {
	return contract.Reject(st.cite("win"), "the game is over")
}

// beginPlay is begin for an action of a mechanic's rule (S11) by a player of
// a game in progress.
func beginPlay(c *contract.Ctx, key, what string) (*State, *Member, error) {
	st, m := begin(c)
	if err := needRule(st, key, what); err != nil {
		return nil, nil, err
	}
	if err := needPlayer(st, m); err != nil {
		return nil, nil, err
	}
	return st, m, nil
}

// amount reads a tag's LAND amount, a whole number above 0, digits or with
// commas between thousands (contract.WholeNumber).
func amount(a *contract.Action, syn string) (int, error) {
	n, ok := contract.ParseWhole(a.Arg("n"))
	if !ok || n <= 0 {
		return 0, contract.Reject("syntax", "the amount must be a whole number above 0: %s", syn)
	}
	return int(n), nil
}

// violation records a rules violation (S10): the action is ignored and the
// player will not receive the end-of-round LAND. It is not a rejection, since
// the violation itself must be remembered.
func violation(c *contract.Ctx, m *Member, what string) error {
	saveMember(c, m)
	m.Violations = append(m.Violations, what)
	if st := data(c); st.has("denial") {
		c.Ignored("%s is a rules violation, so it is ignored, and you will not receive the end-of-round LAND (ruling S10, %s)", capitalFirst(what), st.cite("denial"))
	} else {
		// The denial rule was removed (S11): the round end denies nothing.
		c.Ignored("%s is a rules violation, so it is ignored (ruling S10)", capitalFirst(what))
	}
	c.Record(m.Name, "commits a rules violation: %s", what)
	return nil
}

// capitalFirst writes s with its first letter upper-case.
func capitalFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// postID is the notice ID of the totem's post opening (results) or closing
// (proposal) the proposal period of round r.
func postID(kind string, r int) string { return fmt.Sprintf("%s/round/%d/%s-post", ID, r, kind) }

// under checks that a comment is "under a post" of the totem (ruling S2): a
// reply whose In-Reply-To or References name one of the posts allowed, or a
// public message that references nothing (decision: accepted as a comment on
// the latest post). current limits the posts to the current round's.
func under(c *contract.Ctx, st *State, current bool, what string) error {
	m := c.Msg()
	if len(m.InReplyTo) == 0 && len(m.References) == 0 {
		return nil
	}
	first := 1
	if current {
		first = st.Round
	}
	for r := first; r <= st.Round; r++ {
		for _, k := range []string{"results", "proposal"} {
			if m.RepliesTo(c.MessageID(postID(k, r))) {
				return nil
			}
		}
	}
	if current {
		return contract.Reject("S2", "%s must be a comment under the totem's post of the current round %d (a reply to it)", what, st.Round)
	}
	return contract.Reject("S2", "%s must be a comment under a post of the totem (a reply to it)", what)
}

// underProposal checks that a vote is a comment under the current round's
// proposal post (Implementation Details, Voting: "comment below a
// proposal"; ruling S2): a reply whose In-Reply-To or References name it,
// or a public message that references nothing (a comment on the latest
// post, which in the voting period is the proposal post). A reply to the
// round's results post is a comment under the results post, where
// proposals and placements go, and is no vote.
func underProposal(c *contract.Ctx, st *State) error {
	m := c.Msg()
	if len(m.InReplyTo) == 0 && len(m.References) == 0 {
		return nil
	}
	if m.RepliesTo(c.MessageID(postID("proposal", st.Round))) {
		return nil
	}
	if m.RepliesTo(c.MessageID(postID("results", st.Round))) {
		return contract.Reject("Implementation Details, Voting, S2", "a vote is a comment under the proposal post of round %d (a reply to it); this replies to the results post, so it was not counted: send {YES} or {NO} again in reply to the proposal post", st.Round)
	}
	return contract.Reject("Implementation Details, Voting, S2", "a vote must be a comment under the proposal post of the current round %d (a reply to it)", st.Round)
}

// doDelegate: Participation 1 and ruling S1: a declared power joins the game
// or changes the power; Meta 10: the game starts with the third player.
func doDelegate(c *contract.Ctx, a *contract.Action) error {
	st, m := begin(c)
	if st.Phase == PhaseOver {
		return gameOver(st)
	}
	pw, ok := parsePower(a.Arg("n"))
	if !ok || pw <= 0 {
		return contract.Reject("S1", "the delegated power must be more than 0, as in {DELEGATE: 0.5}")
	}
	if m != nil {
		saveMember(c, m)
		m.Power = pw
		c.Did("your declared power is now %s (effective %s, voting weight %s)", milli(pw), milli(effective(pw)), micro(weight(pw)))
		c.Record(m.Name, "declares a delegated power of %s", milli(pw))
		return nil
	}
	p := c.Actor()
	c.State().Join(p, ID, c.Now())
	m = &Member{Name: p.Name, Addr: strings.ToLower(c.Msg().From), Letter: st.letterFor(p.Name), Power: pw, Joined: c.Now()}
	st.Players = append(st.Players, m)
	c.Did("you joined Steemfield as %s (%s) with a declared power of %s (effective %s, voting weight %s)", m.Name, m.Letter, milli(pw), milli(effective(pw)), micro(weight(pw)))
	c.Record(m.Name, "joins with a declared power of %s", milli(pw))
	if st.Phase == PhaseGathering && st.StartDue.IsZero() && len(st.Players) >= c.IntParam(PMinPlayers) {
		// Meta 10, ruling S1: the game starts once 3 players have joined.
		st.StartDue = c.Now()
		c.Did("the game now has %d players and starts (Meta 10)", len(st.Players))
	}
	return nil
}

// letterFor picks the player's map letter: the first letter of eir name not
// yet used, else the first free letter A-Z (Results post: "a letter next to
// their name").
func (st *State) letterFor(name string) string {
	used := map[string]bool{}
	for _, m := range st.Players {
		used[m.Letter] = true
	}
	for _, r := range strings.ToUpper(name) {
		if r >= 'A' && r <= 'Z' && !used[string(r)] {
			return string(r)
		}
	}
	for r := 'A'; r <= 'Z'; r++ {
		if !used[string(r)] {
			return string(r)
		}
	}
	for r := 'a'; r <= 'z'; r++ {
		if !used[string(r)] {
			return string(r)
		}
	}
	return "?"
}

// doUndelegate: Participation 2 and 3, ruling S1.
func doUndelegate(c *contract.Ctx, a *contract.Action) error {
	st, m := begin(c)
	if err := needMember(st, m); err != nil {
		return err
	}
	var vote *Vote
	for i := range st.Votes {
		if st.Votes[i].Player == m.Name {
			v := st.Votes[i]
			vote = &v
		}
	}
	moves, err := st.leave(c, m)
	if err != nil {
		return err
	}
	if moves == "" {
		c.Did("you left Steemfield; you held no LAND to hand out")
	} else {
		c.Did("you left Steemfield; your LAND went to %s", moves)
	}
	if vote != nil {
		// Guide, decisions: a player who leaves has eir vote withdrawn.
		c.Did("your vote %s of round %d is withdrawn: it no longer counts", vote.Word(), st.Round)
	}
	if moves == "" {
		c.Record(m.Name, "leaves the game, holding no LAND")
	} else {
		c.Record(m.Name, "leaves the game; eir LAND goes to %s", moves)
	}
	return nil
}

// leave removes a member, handing eir LAND out one by one to the youngest
// player, the next youngest, ... (Participation 3), or to the totem when
// nobody remains; it says who got how much, "" when e held none.
func (st *State) leave(c *contract.Ctx, m *Member) (string, error) {
	var rest []*Member
	for _, o := range st.Players {
		if o != m {
			rest = append(rest, o)
		}
	}
	got := map[string]int{}
	var order []string
	for i := 0; balance(c, m.Name) > 0; i++ {
		to := Totem
		if len(rest) > 0 {
			to = rest[len(rest)-1-i%len(rest)].Name
		}
		if _, err := st.moveOne(c, m.Name, to); err != nil {
			return "", fmt.Errorf("hand out the land of %s: %w", m.Name, err)
		}
		if got[to] == 0 {
			order = append(order, to)
		}
		got[to]++
	}
	var parts []string
	for _, o := range order {
		parts = append(parts, fmt.Sprintf("%s %d", ownerName(o), got[o]))
	}
	var votes []Vote
	for _, v := range st.Votes {
		if v.Player != m.Name {
			votes = append(votes, v)
		}
	}
	st.Votes = votes
	st.Players = rest
	if p := c.State().PlayerByName(m.Name); p != nil {
		c.State().Leave(p, ID, c.Now())
	}
	return strings.Join(parts, ", "), nil
}

func ownerName(o string) string {
	if o == Totem {
		return "the totem"
	}
	return o
}

// doReferral: Gameplay 9 and ruling S9: once per new player, before eir first
// proposal period ends, naming another player; 1 LAND each from the totem
// while it has LAND.
func doReferral(c *contract.Ctx, a *contract.Action) error {
	st, m := begin(c)
	if err := needRule(st, "referral", "referrals"); err != nil {
		return err
	}
	if err := needMember(st, m); err != nil {
		return err
	}
	if st.Phase == PhaseOver {
		return gameOver(st)
	}
	if m.Referred {
		return contract.Reject("S9", "you already named who referred you")
	}
	if m.Periods > 0 {
		return contract.Reject("S9", "a referral must come in your first message or before your first proposal period ends")
	}
	// Gameplay 9 rewards recruiting a new player: one who left the game and
	// joined it again is no new player, and was referred, if at all, when
	// e first joined.
	if p := c.Actor(); p != nil && !p.Left[ID].IsZero() {
		return contract.Reject("S9", "only a new player names who referred em, and you played Steemfield before (you left it on %s)", p.Left[ID].UTC().Format("2006-01-02"))
	}
	if err := under(c, st, false, "a referral"); err != nil && st.Round > 0 {
		return err
	}
	p, err := c.State().Resolve(a.Arg("name"))
	if err != nil {
		return err
	}
	if p.Name == m.Name {
		return contract.Reject("S9", "you cannot refer yourself")
	}
	ref := st.member(p.Name)
	if ref == nil {
		return contract.Reject("S9", "%s is not a player of Steemfield", p.Name)
	}
	saveMember(c, m)
	m.Referred = true
	given := []string{}
	for _, who := range []string{m.Name, ref.Name} {
		if balance(c, Totem) > 0 {
			if err := c.State().Ledger.Move(LAND, Totem, who, 1); err != nil {
				return err
			}
			given = append(given, who)
		}
	}
	switch len(given) {
	case 0:
		c.Did("%s referred you, but the totem has no LAND left to give (%s)", ref.Name, st.cite("referral"))
	default:
		c.Did("%s referred you: the totem gives 1 LAND to %s (%s)", ref.Name, strings.Join(given, " and "), st.cite("referral"))
	}
	c.Record(m.Name, "was referred by %s; 1 LAND from the totem to %s", ref.Name, strings.Join(given, " and "))
	return nil
}

// doGift: Gameplay 6, any player can gift any LAND e possesses to any other
// player; which LAND moves: ruling S8.
func doGift(c *contract.Ctx, a *contract.Action) error {
	st, m, err := beginPlay(c, "gift", "gifts")
	if err != nil {
		return err
	}
	n, err := amount(a, synGift)
	if err != nil {
		return err
	}
	p, err := c.State().Resolve(a.Arg("name"))
	if err != nil {
		return err
	}
	to := st.member(p.Name)
	if to == nil {
		return contract.Reject(st.cite("gift"), "%s is not a player of Steemfield", p.Name)
	}
	if to == m {
		return contract.Reject(st.cite("gift"), "a gift goes to another player")
	}
	if have := balance(c, m.Name); have < n {
		return contract.Reject(st.cite("gift"), "you own %d LAND, fewer than %d", have, n)
	}
	var cells []string
	for i := 0; i < n; i++ {
		where, err := st.moveOne(c, m.Name, to.Name)
		if err != nil {
			return err
		}
		if where != "" {
			cells = append(cells, where)
		}
	}
	extra := ""
	if len(cells) > 0 {
		noun := "cells"
		if len(cells) == 1 {
			noun = "cell"
		}
		extra = fmt.Sprintf(", with the %s %s (ruling S8)", noun, text.And(cells))
	}
	c.Did("you gave %d LAND to %s%s; you now own %d", n, to.Name, extra, balance(c, m.Name))
	c.Record(m.Name, "gifts %d LAND to %s%s", n, to.Name, extra)
	return nil
}

// doBurn: Voting and Proposals 5, burnt LAND leaves play and lowers the
// proposal score (S4); Gameplay 11 and ruling S8: only unplaced LAND burns.
func doBurn(c *contract.Ctx, a *contract.Action) error {
	st, m, err := beginPlay(c, "burn", "burning LAND")
	if err != nil {
		return err
	}
	n, err := amount(a, synBurn)
	if err != nil {
		return err
	}
	if err := under(c, st, false, "a burn"); err != nil {
		return err
	}
	if have := st.unplaced(c, m.Name); have < n {
		return contract.Reject(st.cite("place")+", S8", "only unplaced LAND can be burnt and you have %d unplaced", have)
	}
	if err := c.State().Ledger.Destroy(LAND, m.Name, int64(n)); err != nil {
		return err
	}
	saveMember(c, m)
	m.Burnt += n
	c.Did("you burnt %d LAND (%d in all); your proposal score is now %d (%s)", n, m.Burnt, m.Passed-m.Burnt, st.cite("burn"))
	c.Record(m.Name, "burns %d LAND (proposal score %d)", n, m.Passed-m.Burnt)
	return nil
}

func coords(c *contract.Ctx, st *State, a *contract.Action) (int, int, error) {
	x, _ := strconv.Atoi(a.Arg("x"))
	y, _ := strconv.Atoi(a.Arg("y"))
	size := c.IntParam(PGrid)
	if x < 1 || y < 1 || x > size || y > size {
		return 0, 0, contract.Reject(st.cite("place")+", S7", "L(%d, %d) is outside the map, which runs from L(1, 1) to L(%d, %d); the placement is ignored", x, y, size, size)
	}
	return x, y, nil
}

// placementPrelude checks what a placement and an unplacement share: a
// player, in the proposal period (Gameplay 11 and 13), under the current
// round's post (S2), on the map (S7), while the mechanic's rule stands (S11).
func placementPrelude(c *contract.Ctx, a *contract.Action, key, what string) (*State, *Member, int, int, error) {
	st, m := begin(c)
	if err := needPlayer(st, m); err != nil {
		return nil, nil, 0, 0, err
	}
	if st.Phase != PhaseProposal {
		return nil, nil, 0, 0, contract.Reject(st.cite("place"), "LAND is placed or unplaced only in the proposal period; the next one opens with the next results post")
	}
	if err := under(c, st, true, "a placement"); err != nil {
		return nil, nil, 0, 0, err
	}
	x, y, err := coords(c, st, a)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	if err := needRule(st, key, what); err != nil {
		return nil, nil, 0, 0, err
	}
	return st, m, x, y, nil
}

// doPlace: Gameplay 11 and Implementation Details, Other Actions: one
// placement per proposal period on an empty cell, the first placer winning a
// conflict; a second placement or one without unplaced LAND is a violation
// (ruling S10).
func doPlace(c *contract.Ctx, a *contract.Action) error {
	st, m, x, y, err := placementPrelude(c, a, "place", "placing LAND")
	if err != nil {
		return err
	}
	if m.Placed {
		return violation(c, m, fmt.Sprintf("a second placement, at %s, in one proposal period", cellName(x, y)))
	}
	if i := st.cellAt(x, y); i >= 0 {
		return contract.Reject("Implementation Details, Other Actions", "L(%d, %d) is already taken by %s (placed first); a placement where LAND already is is ignored", x, y, st.Cells[i].Owner)
	}
	if st.unplaced(c, m.Name) <= 0 {
		return violation(c, m, fmt.Sprintf("a placement at %s without unplaced LAND", cellName(x, y)))
	}
	st.NextSeq++
	st.Cells = append(st.Cells, Cell{X: x, Y: y, Owner: m.Name, Seq: st.NextSeq})
	st.sortCells()
	saveMember(c, m)
	m.Placed = true
	c.Did("your LAND is placed at %s; you have %d unplaced LAND left", cellName(x, y), st.unplaced(c, m.Name))
	c.Record(m.Name, "places LAND at %s", cellName(x, y))
	return nil
}

// doUnplace: Gameplay 13 and Implementation Details, Other Actions: it takes
// one LAND off the map (its owner keeps it) and uses the placement action,
// even on an empty cell.
func doUnplace(c *contract.Ctx, a *contract.Action) error {
	st, m, x, y, err := placementPrelude(c, a, "unplace", "unplacing LAND")
	if err != nil {
		return err
	}
	if m.Placed {
		return violation(c, m, fmt.Sprintf("a second placement action, an unplacement at %s, in one proposal period", cellName(x, y)))
	}
	saveMember(c, m)
	m.Placed = true
	i := st.cellAt(x, y)
	if i < 0 {
		c.Did("%s is empty: nothing happens, but this was your placement action of the period (Implementation Details)", cellName(x, y))
		c.Record(m.Name, "unplaces the empty cell %s", cellName(x, y))
		return nil
	}
	owner := st.Cells[i].Owner
	st.deleteCell(i)
	c.Did("the LAND at %s is unplaced; %s keeps it, unplaced (%s)", cellName(x, y), owner, st.cite("unplace"))
	c.Record(m.Name, "unplaces the LAND of %s at %s", owner, cellName(x, y))
	return nil
}

// doRoll: Implementation Details, Die Rolling: a player's own 1d6 for
// Gameplay 15, in the proposal period, the oldest roll counting (ruling S8);
// drawn from the committed seed (G5, S12).
func doRoll(c *contract.Ctx, a *contract.Action) error {
	st, m, err := beginPlay(c, "returns", "rolls")
	if err != nil {
		return err
	}
	if st.Phase != PhaseProposal {
		return contract.Reject("Implementation Details, Die Rolling", "your own roll must come in the proposal period; the totem rolls for everyone else in the voting period")
	}
	if err := under(c, st, true, "a roll"); err != nil {
		return err
	}
	if m.OwnRoll != 0 {
		c.Ignored("you already rolled %d this round, and the oldest roll counts (ruling S8)", m.OwnRoll)
		return nil
	}
	saveMember(c, m)
	m.OwnRoll = c.Intn(fmt.Sprintf("round/%d/roll/%s/own", st.Round, m.Name), 6) + 1
	c.Did("you rolled %d: at the end of round %d you return up to %d unplaced LAND to the totem (%s)", m.OwnRoll, st.Round, m.OwnRoll, st.cite("returns"))
	c.Record(m.Name, "rolls 1d6: %d", m.OwnRoll)
	return nil
}

// doPropose: Meta 9 and Implementation Details, Proposals: one proposal per
// proposal period, under the results post, citing its rule as ruling S3
// numbers them; "Meta Rules will stay the same throughout the game" (the
// preamble of the rules text).
func doPropose(c *contract.Ctx, a *contract.Action) error {
	st, m := begin(c)
	if err := needPlayer(st, m); err != nil {
		return err
	}
	if st.Phase != PhaseProposal {
		return contract.Reject("Meta 8", "proposals are made in the proposal period, which opens with the next results post")
	}
	if err := under(c, st, true, "a proposal"); err != nil {
		return err
	}
	if m.Proposed {
		return violation(c, m, "a second proposal in one proposal period")
	}
	p := &Proposal{Player: m.Name, Type: a.Arg("type"), Text: a.Arg("text"), At: c.Now()}
	if k := a.Arg("kind_mismatch"); k != "" {
		return contract.Reject("syntax", "the tag says %s but the next line says %s", p.Type, k)
	}
	ref := a.Arg("ref")
	if ref != "" {
		sec, n, ok := parseRef(st.Rules, ref)
		if !ok {
			return contract.Reject("S3", "the affected rule %q is not understood; cite it by section and number, as in \"Gameplay, Rule 4\"", ref)
		}
		p.Section, p.Number = sec, n
	}
	if p.Section == "Meta" {
		why := "Meta Rules stay the same throughout the game; propose a Game Rule instead"
		if r := st.occlusion(); r != "" {
			why += " (" + r + " lets Game Rules occlude Meta Rules)"
		}
		return contract.Reject("Meta", "%s", why)
	}
	switch p.Type {
	case "ADDITION":
		p.Number = 0
		if p.Text == "" {
			return contract.Reject("syntax", "an addition needs the text of the new rule after its type line")
		}
	case "SUBTRACTION", "REPLACEMENT":
		if p.Section == "" || p.Number == 0 {
			return contract.Reject("Implementation Details, Proposals", "a %s must name the affected rule, as in \"%s: Gameplay, Rule 4\"", strings.ToLower(p.Type), titleCase(p.Type))
		}
		if find(st.Rules, p.Section, p.Number) < 0 {
			return contract.Reject("S3", "there is no rule %s %d", p.Section, p.Number)
		}
		if p.Type == "REPLACEMENT" && p.Text == "" {
			return contract.Reject("syntax", "a replacement needs the new text of the rule")
		}
		if p.Type == "SUBTRACTION" {
			p.Text = ""
		}
	}
	st.Proposals = append(st.Proposals, p)
	saveMember(c, m)
	m.Proposed = true
	c.Did("your proposal is recorded: %s", p.describe())
	c.Record(m.Name, "proposes %s", p.describe())
	return nil
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return s[:1] + strings.ToLower(s[1:])
}

// describe names a proposal for the receipts, posts and recent events, its
// text between quotation marks as the player wrote it (a quotation mark or
// backslash in it is not escaped: players read it, not a Go parser).
func (p *Proposal) describe() string {
	switch p.Type {
	case "ADDITION":
		sec := p.Section
		if sec == "" {
			sec = "Gameplay"
		}
		return fmt.Sprintf("ADDITION to %s: \"%s\"", sec, p.Text)
	case "SUBTRACTION":
		return fmt.Sprintf("SUBTRACTION of %s %d", p.Section, p.Number)
	}
	return fmt.Sprintf("REPLACEMENT of %s %d: \"%s\"", p.Section, p.Number, p.Text)
}

// doVote: Meta 9, Voting and Proposals 1 and 4, ruling S5: players vote once
// per voting period, under the proposal post, with the weight of S1.
func doVote(c *contract.Ctx, a *contract.Action) error {
	st, m := begin(c)
	if err := needMember(st, m); err != nil {
		return contract.Reject("Voting and Proposals 1", "only players can vote on rule changes")
	}
	if err := needPlaying(st); err != nil {
		return err
	}
	if st.Phase != PhaseVoting || !c.Now().Before(st.VoteEnd) {
		return contract.Reject("Meta 9, S5", "votes count only in the voting period, which follows the proposal post")
	}
	if st.Chosen == 0 {
		return contract.Reject("S5", "no proposal is up for a vote this round")
	}
	if err := underProposal(c, st); err != nil {
		return err
	}
	if m.Voted {
		return violation(c, m, "a second vote in one voting period")
	}
	v := Vote{Player: m.Name, Yes: a.Arg("vote") == "yes", Weight: weight(m.Power)}
	st.Votes = append(st.Votes, v)
	saveMember(c, m)
	m.Voted = true
	c.Did("your vote %s is recorded with a weight of %s (S5)", v.Word(), micro(v.Weight))
	c.Record(m.Name, "votes")
	return nil
}

// effective is min(power, 1) in thousandths (Voting and Proposals 2).
func effective(p int64) int64 {
	if p > 1000 {
		return 1000
	}
	return p
}

// weight is the square of the effective power, in millionths (Voting and
// Proposals 4).
func weight(p int64) int64 { e := effective(p); return e * e }

func milli(n int64) string { return fmt.Sprintf("%d.%03d", n/1000, n%1000) }
func micro(n int64) string { return milli((n + 500) / 1000) }
