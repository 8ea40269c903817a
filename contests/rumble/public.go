package rumble

import (
	"fmt"
	"strconv"
	"strings"

	"referee/contract"
	"referee/contract/text"
	"referee/internal/lazyre"
)

func doJoin(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	p := c.Actor()
	// Rumble 13: joining only when no game is going on.
	if st.Phase != PhaseNone {
		return contract.Reject("Rumble 13", "game %d of Rumble is going on; you can join once it is over", st.Game)
	}
	if p.In("rumble") {
		return contract.Reject("Rumble 13", "you are already a contestant")
	}
	if c.FromContestmaster() {
		return contract.Reject("Rumble 1", "the contestmaster runs the games and is not a contestant")
	}
	c.State().Join(p, "rumble", c.Now())
	c.Did("%s joined Rumble; %s", p.Name, text.Count(len(c.Players()), "contestant", "contestants"))
	c.Record(p.Name, "joins Rumble")
	return nil
}

func doLeave(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	p := c.Actor()
	if !p.In("rumble") {
		return contract.Reject("Rumble 14", "you are not a contestant")
	}
	c.State().Leave(p, "rumble", c.Now())
	c.Did("%s left Rumble", p.Name)
	c.Record(p.Name, "leaves Rumble")
	// U7: a contestant who leaves during a game is dead from that moment.
	if f := st.fighter(p.Name); f != nil && f.Alive && st.Phase != PhaseNone {
		saveFighter(c, f)
		f.Alive, f.Out, f.Stamina = false, "left", 0
		st.dropSub(p.Name)
		c.Did("you were in game %d, so you are dead from now on, with no points (U7)", st.Game)
		c.Record(p.Name, "is out of game %d by leaving", st.Game)
		if len(st.alive()) <= 1 {
			c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/left/%s", st.Game, c.Msg().ID), Channel: contract.ChanPublic,
				Subject: fmt.Sprintf("Rumble game %d: %s left", st.Game, p.Name),
				Body:    wrapBody(fmt.Sprintf("%s left the contest during game %d and is dead from that moment (U7).", p.Name, st.Game))})
			endGame(c, st, "only one contestant or none has stamina left after "+p.Name+" left", false)
			return nil
		}
		st.checkAllIn(c)
	}
	return nil
}

var (
	startP = lazyre.MustCompile(`(?i)(\d+)\s+powers?\s+(?:(?:per|for\s+each|each|for\s+every|for)\s+(?:contestant|player|person)|each\b|apiece\b)`)
	startQ = lazyre.MustCompile(`(?i)(?:(\d+|no)\s+(?:contestmaster|cm|mod)\s+powers?|(\d+|no)\s+(?:powers?\s+)?for\s+(?:the\s+)?(?:contestmaster|cm|mod|me)\b)`)
	digit  = lazyre.MustCompile(`\d`)
)

func doStart(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	// Rumble 1: the contestmaster, with no game going on.
	if !c.FromContestmaster() {
		return contract.Reject("Rumble 1", "only the contestmaster (%s) can announce a new game", c.Contestmaster())
	}
	if st.Phase != PhaseNone {
		return contract.Reject("Rumble 1", "game %d is still going on", st.Game)
	}
	p, q := c.IntParam("Powers"), c.IntParam("ContestmasterPowers")
	// Numbers in words count as in figures ("with two powers per
	// contestant and three contestmaster powers"); a number read as
	// neither P nor Q is refused, not replaced by the parameter's default.
	rest := contract.NumberDigits(a.Arg("rest"))
	if m := startP().FindStringSubmatch(rest); m != nil {
		p, _ = strconv.Atoi(m[1])
	}
	if m := startQ().FindStringSubmatch(rest); m != nil {
		v := m[1]
		if v == "" {
			v = m[2]
		}
		if q, _ = strconv.Atoi(v); strings.EqualFold(v, "no") {
			q = 0
		}
	}
	if left := startQ().ReplaceAllString(startP().ReplaceAllString(rest, ""), ""); digit().MatchString(left) {
		return contract.Reject("Rumble 1", "the numbers of %q are not read as powers per contestant or for the contestmaster; write \"I announce a new game of Rumble with P powers per contestant and Q contestmaster powers\"", strings.TrimSpace(a.Arg("rest")))
	}
	if p < 1 || p > 10 || q < 0 || q > 40 {
		return contract.Reject("Rumble 1", "announce 1 to 10 powers per contestant and 0 to 40 contestmaster powers")
	}
	var names []string
	for _, pl := range c.Players() {
		if strings.EqualFold(pl.Address(), c.Contestmaster()) {
			continue
		}
		names = append(names, pl.Name)
	}
	if min := c.IntParam("MinContestants"); len(names) < min {
		return contract.Reject("Rumble 1", "a game needs at least %d contestants; Rumble has %d", min, len(names))
	}
	st.Game++
	st.P, st.Q, st.Started, st.StartCount, st.Round = p, q, c.Now(), len(names), 0
	st.Fighters, st.Powers, st.Pending, st.Consent = nil, nil, nil, ""
	for _, n := range names {
		st.Fighters = append(st.Fighters, &Fighter{Name: n, Alive: true})
	}
	st.NextReport = contract.NextWeekStart(c.Now())
	st.open(c, PhasePowers)
	c.Did("game %d of Rumble begins with %s; %s per contestant, %d for the contestmaster; powers are due by %s UTC",
		st.Game, strings.Join(names, ", "), text.Count(p, "power", "powers"), q, contract.Stamp(st.Deadline))
	c.Record(c.Actor().Name, "announces game %d: %s per contestant, %d for the contestmaster", st.Game, text.Count(p, "power", "powers"), q)
	c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/start", st.Game), Channel: contract.ChanPublic,
		Subject: fmt.Sprintf("Rumble game %d begins", st.Game), Body: startBody(c, st)})
	return nil
}

func doEnd(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	if st.Phase == PhaseNone {
		return contract.Reject("Rumble 12", "no game of Rumble is going on")
	}
	// Rumble 12: the game ends with no winner, whoever has the most stamina.
	endGame(c, st, "ended without objection (Rumble 12)", true)
	return nil
}

// endable refuses at once an intent to end the current game when no game
// is going on (Rumble 12, G7): "the current game" names none, and a game
// started later is not the one the intent spoke of.
func endable(c *contract.Ctx, a *contract.Action) error {
	if data(c).Phase == PhaseNone {
		return contract.Reject("Rumble 12", "no game of Rumble is going on, so there is no current game to end")
	}
	return nil
}

// currentGame is the game "the current game" names as things stand,
// "game 3", or "" between games. An intent to end the current game keeps
// it, and ends that game alone (Rumble 12, G7): see endedGame.
func currentGame(c *contract.Ctx, a *contract.Action) string {
	st := data(c)
	if st.Phase == PhaseNone {
		return ""
	}
	return fmt.Sprintf("game %d", st.Game)
}

// endedGame is why an intent to end the current game cannot be resolved
// once the game it was announced in (was) has ended: ending the game going
// on now (now, or "" for none) is not what anyone announced, and it would
// end without its own intent and its contestants' chance to object
// (Rumble 12, G7).
func endedGame(c *contract.Ctx, was, now string) *contract.Rejection {
	if now == "" {
		return contract.Reject("Rumble 12", "%s of Rumble, the current game when the intent was announced, has ended, and no game is going on", was)
	}
	return contract.Reject("Rumble 12", "%s of Rumble, the current game when the intent was announced, has ended; %s, going on now, is not the game the intent was to end", was, now)
}

// amendable refuses at once an intent to amend the contract with a change
// no amendment could make, a SET of a parameter Rumble does not have or of
// a value it cannot take (G9, G7). Who amends is checked when it is done:
// the sponsor may become the contestmaster before then (Rumble 16).
func amendable(c *contract.Ctx, a *contract.Action) error {
	if kind, name, value, ok := contract.ParseChange(strings.TrimSpace(a.Arg("text"))); ok && kind == "set" {
		return c.CheckParam(name, value)
	}
	return nil
}

// seriesAmendment is the series the amendments are numbered in
// (contract.Ctx.Number): the request of a ruling on one is keyed by its
// number ("amendment/N").
const seriesAmendment = "amendment"

// nextAmendment numbers a new amendment of the text given: after every one
// listed and after the last a correction kept in LastAmendment, or the
// number the recorded history gave it (contract.Ctx.NumberListed).
func nextAmendment(c *contract.Ctx, st *State, text string) int {
	return c.NumberListed(seriesAmendment, text, st.lastAmendment(), &st.LastAmendment)
}

// lastAmendment is the greatest number of the amendments listed.
func (st *State) lastAmendment() int {
	last := 0
	for _, am := range st.Amendments {
		last = max(last, am.N)
	}
	return last
}

// KeepNumber implements contract.NumberKeeper: after a correction, a new
// amendment takes a number after the recorded history's last, kept in
// LastAmendment when the correction left the last unmade.
func (g *Game) KeepNumber(c *contract.Ctx, series string, last int) {
	if st := data(c); series == seriesAmendment {
		contract.KeepListed(&st.LastAmendment, st.lastAmendment(), last)
	}
}

func doAmend(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	if !c.FromContestmaster() {
		return contract.Reject("Rumble 15", "only the contestmaster can amend the contract")
	}
	text := strings.TrimSpace(a.Arg("text"))
	am := &Amendment{N: nextAmendment(c, st, text), Text: text, At: c.Now()}
	st.Amendments = append(st.Amendments, am)
	// G9: apply a machine-readable change, or ask how it applies.
	if err := applyChange(c, am, text); err != nil {
		return err
	}
	c.Did("amendment %d of the Rumble contract passed: %s (%s)", am.N, text, am.Status)
	c.Record(c.Actor().Name, "amends the contract (amendment %d): %s", am.N, text)
	c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/amendment/%d", am.N), Channel: contract.ChanPublic,
		Subject: fmt.Sprintf("Rumble: amendment %d of the contract", am.N), Body: amendBody(am)})
	return nil
}

// applyChange applies "SET X = v" to the parameters, or marks the amendment as
// needing the contestmaster's ruling (G9).
func applyChange(c *contract.Ctx, am *Amendment, text string) error {
	kind, name, value, ok := contract.ParseChange(text)
	if ok && kind == "set" {
		if err := c.SetParam(name, value); err != nil {
			return err
		}
		am.Status = fmt.Sprintf("applied: %s = %s", name, c.Param(name))
		return nil
	}
	r := c.AskRuling(fmt.Sprintf("amendment/%d", am.N),
		fmt.Sprintf("Amendment %d of the Rumble contract passed: %q. How does it apply? Answer \"SET <parameter> = <value>\" for a parameter the referee knows (%s), or \"none\" to record the text only.", am.N, text, paramNames()),
		"the text is recorded and changes no parameter")
	am.Status, am.Ruling = "needs the contestmaster's ruling", r.ID
	return nil
}

func paramNames() string {
	var out []string
	for _, p := range spec.Params {
		out = append(out, p.Name)
	}
	return strings.Join(out, ", ")
}

func doConsent(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	if !c.FromContestmaster() {
		return contract.Reject("Rumble 16", "only the contestmaster can consent to eir replacement")
	}
	p, err := c.State().Resolve(a.Arg("who"))
	if err != nil {
		return err
	}
	st.Consent = p.Name
	c.Did("you consent to %s becoming the Rumble contestmaster", p.Name)
	c.Record(c.Actor().Name, "consents to %s becoming the contestmaster", p.Name)
	return nil
}

func doReplace(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	p, err := c.State().Resolve(a.Arg("who"))
	if err != nil {
		return err
	}
	// Rumble 16: any player, with the contestmaster's consent.
	if !c.FromContestmaster() && st.Consent != p.Name {
		return contract.Reject("Rumble 16", "the contestmaster has not consented to %s replacing em (\"I consent to %s becoming the Rumble contestmaster\")", p.Name, p.Name)
	}
	if f := st.fighter(p.Name); f != nil && f.Alive {
		return contract.Reject("Rumble 16", "%s is a contestant in the running game and cannot also be its contestmaster", p.Name)
	}
	old := c.Contestmaster()
	c.SetContestmaster(p.Address())
	st.Consent = ""
	c.Did("%s is now the Rumble contestmaster (before: %s)", p.Name, old)
	c.Record(c.Actor().Name, "makes %s the Rumble contestmaster", p.Name)
	c.Notify(&contract.Notice{ID: "rumble/contestmaster/" + c.Msg().ID, Channel: contract.ChanPublic,
		Subject: "Rumble: new contestmaster", Body: wrapBody(fmt.Sprintf("%s is now the contestmaster of Rumble, with the consent of the previous contestmaster (Rumble 16).", p.Name))})
	return nil
}

// OnRuling implements contract.RulingHandler: rulings on amendments (G9) and on
// uses of adjudicated powers (U5).
func (g *Game) OnRuling(c *contract.Ctx, r *contract.Ruling, timedOut bool) error {
	st := data(c)
	if strings.HasPrefix(r.Key, "amendment/") {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.Key, "amendment/"))
		for _, am := range st.Amendments {
			if am.N != n {
				continue
			}
			saveAmendment(c, am)
			am.Ruling = 0
			if timedOut {
				am.Status = "recorded (no ruling; no parameter changed)"
				return nil
			}
			kind, name, value, ok := contract.ParseChange(r.Answer)
			if ok && kind == "set" {
				if err := c.SetParam(name, value); err != nil {
					return err
				}
				am.Status = fmt.Sprintf("applied by ruling: %s = %s", name, c.Param(name))
			} else {
				am.Status = "recorded by ruling: " + r.Answer
			}
			c.Record("contestmaster", "rules on amendment %d: %s", am.N, am.Status)
		}
		return nil
	}
	return st.onPowerRuling(c, r, timedOut)
}
