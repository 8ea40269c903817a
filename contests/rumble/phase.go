package rumble

import (
	"fmt"
	"strings"

	"referee/contract"
	"referee/contract/text"
)

// open starts a private phase with its deadline (U3).
func (s *State) open(c *contract.Ctx, phase string) {
	s.Phase = phase
	s.Opened = c.Now()
	s.Deadline = c.Now().Add(c.DurationParam("Deadline"))
	s.Reminded = false
	s.CloseAt = zeroTime
	s.Subs = nil
	s.checkAllIn(c)
}

// Next implements contract.Game: the phase's early close, its reminder, its
// deadline (U3), and the weekly report while a game runs.
func (g *Game) Next(c *contract.Ctx) (contract.Event, bool) {
	s := data(c)
	if s.Phase == PhaseNone {
		return contract.Event{}, false
	}
	var best contract.Event
	ok := false
	consider := func(e contract.Event) {
		if !ok || e.At.Before(best.At) {
			best, ok = e, true
		}
	}
	key := fmt.Sprintf("%d/%s", s.Game, s.phaseLabel())
	if s.Phase != PhaseRulings {
		switch remind := s.Deadline.Add(-c.DurationParam("Reminder")); {
		case !s.CloseAt.IsZero():
			consider(contract.Event{At: s.CloseAt, Name: "close", Key: key})
		case !s.Reminded && remind.After(s.Opened):
			consider(contract.Event{At: remind, Name: "reminder", Key: key})
		default:
			consider(contract.Event{At: s.Deadline, Name: "deadline", Key: key})
		}
	}
	if !s.NextReport.IsZero() {
		consider(contract.Event{At: s.NextReport, Name: "report", Key: contract.WeekLabel(s.NextReport)})
	}
	return best, ok
}

// Run implements contract.Game.
func (g *Game) Run(c *contract.Ctx, e contract.Event) error {
	s := data(c)
	switch e.Name {
	case "report":
		s.NextReport = contract.NextWeekStart(c.Now())
		return g.sendReport(c)
	case "reminder":
		s.Reminded = true
		s.remind(c)
		return nil
	case "close", "deadline":
		return s.close(c)
	}
	return fmt.Errorf("rumble: unknown event %q", e.Name)
}

// remind sends private reminders to the contestants the phase waits for (U3).
func (s *State) remind(c *contract.Ctx) {
	for _, f := range s.missing() {
		p := c.State().PlayerByName(f.Name)
		if p == nil {
			continue
		}
		var b strings.Builder
		b.WriteString(wrapPara(fmt.Sprintf("Game %d of Rumble is in its %s phase, and the referee has no %s from you yet. Send %s privately to %s before %s UTC.",
			s.Game, phaseName(s), phaseWhat(s.Phase), themIt(s.Phase), c.Referee(), contract.Stamp(s.Deadline))))
		b.WriteString("\n")
		b.WriteString(wrapPara("Without them: " + silence(s) + " (U3)."))
		b.WriteString("\n")
		b.WriteString(signature())
		c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/%s/reminder/%s", s.Game, s.phaseLabel(), f.Name), Kind: "reminder",
			Channel: contract.ChanPrivate, To: []string{p.Address()},
			Subject: fmt.Sprintf("Rumble game %d: your %s %s due %s", s.Game, phaseWhat(s.Phase), isAre(s.Phase), contract.Stamp(s.Deadline)), Body: b.String()})
	}
	if s.Phase == PhasePowers && s.Q > 0 && !s.cmSubmitted() && c.Contestmaster() != "" {
		c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/powers/reminder/contestmaster", s.Game), Kind: "reminder",
			Channel: contract.ChanPrivate, To: []string{c.Contestmaster()},
			Subject: fmt.Sprintf("Rumble game %d: your %d powers are due %s", s.Game, s.Q, contract.Stamp(s.Deadline)),
			Body:    wrapBody(fmt.Sprintf("As contestmaster, send up to %d powers privately before %s UTC, one per line as \"Name: what it does\". The powers you do not send are drawn from the built-in pool (U2).", s.Q, contract.Stamp(s.Deadline))) + "\n" + signature()})
	}
	c.Record("referee", "reminds %s of the %s deadline", text.Count(len(s.missing()), "contestant", "contestants"), phaseWhat(s.Phase))
}

func silence(s *State) string {
	switch s.Phase {
	case PhasePowers:
		return "your powers are drawn from the referee's built-in pool"
	case PhaseBids:
		return "you bid on nothing"
	case PhaseDiscard:
		return "you discard nothing"
	}
	return "you Defend with half your energy, rounded down, and do nothing else"
}

// close ends the open phase, at its deadline or early when all are in.
func (s *State) close(c *contract.Ctx) error {
	switch s.Phase {
	case PhasePowers:
		return s.closePowers(c)
	case PhaseBids:
		return s.closeBids(c)
	case PhaseDiscard:
		return s.closeDiscard(c)
	case PhaseRound:
		return s.closeRound(c)
	}
	return fmt.Errorf("rumble: close in phase %q", s.Phase)
}

// closePowers builds the list of powers (Rumble 3): the contestants', the
// contestmaster's, and draws from the pool for what is missing (U2, G5).
func (s *State) closePowers(c *contract.Ctx) error {
	_, revealed := reveals(c, s)
	used := map[string]bool{}
	var labels, spares []string
	var list []*Power
	for _, x := range s.Subs {
		for _, d := range x.Powers {
			used[strings.ToLower(d.Name)] = true
		}
	}
	draw := func(forWhom string, k int) PowerDef {
		var cands []PowerDef
		for _, p := range pool {
			if !used[strings.ToLower(p.Name)] {
				cands = append(cands, p)
			}
		}
		if len(cands) == 0 {
			// The pool is spent: each spare is named by its number in the
			// list, or the next number whose name is free, so that no two
			// powers share a name (U2) and a bid reaches one power (Rumble 5).
			n := len(list) + 1
			for used[strings.ToLower(spareName(n))] {
				n++
			}
			d := PowerDef{Name: spareName(n), Text: "A power with no description."}
			used[strings.ToLower(d.Name)] = true
			spares = append(spares, d.Name)
			return d
		}
		// G5: the label names the purpose.
		label := fmt.Sprintf("game/%d/pool/%s/%d", s.Game, forWhom, k)
		d := cands[c.Intn(label, len(cands))]
		labels = append(labels, fmt.Sprintf("%s: %s/%s/%s (%d candidates)", d.Name, c.Game(), c.Week(), label, len(cands)))
		used[strings.ToLower(d.Name)] = true
		return d
	}
	var drawn []string
	subs := s.subsByWho()
	for _, f := range s.alive() {
		x := subs[f.Name]
		if x == nil {
			for k := 1; k <= s.P; k++ {
				d := draw(f.Name, k)
				list = append(list, &Power{Name: d.Name, Text: d.Text, Effect: d.Effect, By: "pool, for " + f.Name})
				drawn = append(drawn, d.Name)
			}
			continue
		}
		for _, d := range x.Powers {
			list = append(list, &Power{Name: d.Name, Text: d.Text, Effect: d.Effect, By: f.Name})
		}
	}
	cm := 0
	fighters := s.fightersByName()
	for _, x := range s.Subs {
		if fighters[x.Who] != nil {
			continue
		}
		for _, d := range x.Powers {
			list = append(list, &Power{Name: d.Name, Text: d.Text, Effect: d.Effect, By: "contestmaster"})
			cm++
		}
	}
	for k := cm + 1; k <= s.Q; k++ {
		d := draw("contestmaster", k)
		list = append(list, &Power{Name: d.Name, Text: d.Text, Effect: d.Effect, By: "contestmaster (pool)"})
		drawn = append(drawn, d.Name)
	}
	s.Powers = list
	// Rumble 4: stamina is set when the list is announced for the first time.
	for _, f := range s.alive() {
		saveFighter(c, f)
		f.Stamina = c.IntParam("Stamina")
	}
	c.Detail("powers", len(list))
	if len(drawn) > 0 {
		c.Detail("drawn", drawn)
	}
	c.Record("referee", "announces the %d powers of game %d", len(list), s.Game)
	s.open(c, PhaseBids)
	c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/powers", s.Game), Channel: contract.ChanPublic,
		Subject: fmt.Sprintf("Rumble game %d: the powers", s.Game), Body: powersBody(c, s, revealed, labels, spares)})
	return nil
}

// spareName names the nth power of a game made when the pool is spent (U2).
func spareName(n int) string { return fmt.Sprintf("Spare Power %d", n) }

// closeBids reveals the bids and awards the powers (Rumble 5, U4).
func (s *State) closeBids(c *contract.Ctx) error {
	_, revealed := reveals(c, s)
	paid := map[string]int{}
	// The bidders: who is alive does not change until every power is awarded.
	alive, subs, fighters := s.alive(), s.subsByWho(), s.fightersByName()
	for _, p := range s.Powers {
		best := 0
		var holders []string
		for _, f := range alive {
			x := subs[f.Name]
			if x == nil {
				continue
			}
			for _, b := range x.Bids {
				if b.Power != p.Name {
					continue
				}
				switch {
				case b.N > best:
					best, holders = b.N, []string{f.Name}
				case b.N == best:
					holders = append(holders, f.Name)
				}
			}
		}
		savePower(c, p)
		p.Strength, p.Holders = best, holders
		if best == 0 {
			p.Discarded = true // Rumble 5: no bid, discarded
			continue
		}
		// Rumble 5: each highest bidder gets a copy and pays eir bid.
		for _, h := range holders {
			f := fighters[h]
			saveFighter(c, f)
			f.Stamina -= best
			f.Powers = append(f.Powers, p.Name)
			paid[h] += best
		}
	}
	var died []string
	for _, f := range s.alive() {
		if f.Stamina < 1 { // Rumble 4, U4 (a bidder saved when e paid)
			f.Alive, f.Out = false, "died bidding"
			died = append(died, f.Name)
		}
	}
	c.Record("referee", "reveals the bids of game %d", s.Game)
	for _, d := range died {
		c.Record(d, "dies of eir own bids (stamina below 1)")
	}
	body := bidsBody(c, s, revealed, paid, died)
	if len(s.alive()) <= 1 {
		c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/bids", s.Game), Channel: contract.ChanPublic,
			Subject: fmt.Sprintf("Rumble game %d: the bids", s.Game), Body: body + signature()})
		endGame(c, s, "only one contestant or none survived the bidding", false)
		return nil
	}
	s.open(c, PhaseDiscard)
	c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/bids", s.Game), Channel: contract.ChanPublic,
		Subject: fmt.Sprintf("Rumble game %d: the bids", s.Game), Body: body + discardOpening(c, s) + signature()})
	return nil
}

// closeDiscard removes the discarded powers and begins round 1 (Rumble 6, 7).
func (s *State) closeDiscard(c *contract.Ctx) error {
	_, revealed := reveals(c, s)
	var lines []string
	subs := s.subsByWho()
	for _, f := range s.alive() {
		x := subs[f.Name]
		if x == nil {
			if len(f.Powers) > 0 {
				lines = append(lines, f.Name+": no discard (none sent, U3)")
			}
			continue
		}
		if x.Discard == "" {
			lines = append(lines, f.Name+": no discard")
			continue
		}
		for i, p := range f.Powers {
			if p == x.Discard {
				saveFighter(c, f)
				f.Powers = append(f.Powers[:i:i], f.Powers[i+1:]...)
				break
			}
		}
		lines = append(lines, f.Name+" discards "+x.Discard)
		c.Record(f.Name, "discards %s", x.Discard)
	}
	if len(lines) == 0 {
		lines = append(lines, "Nobody held a power to discard.")
	}
	head := sectionHead(fmt.Sprintf("Rumble game %d: discards", s.Game)) + text.Heading("Discards (Rumble 6)") +
		strings.Join(lines, "\n") + "\n\n" + text.Heading("Sealed discards, revealed") + revealed + "\n"
	s.beginRound(c, head)
	return nil
}

// beginRound sets energy to stamina (Rumble 7) and opens the action lists
// (Rumble 8), announcing them after head.
func (s *State) beginRound(c *contract.Ctx, head string) {
	s.Round++
	for _, f := range s.alive() {
		saveFighter(c, f)
		f.Energy = f.Stamina
	}
	s.Pending = nil
	s.open(c, PhaseRound)
	c.Record("referee", "begins round %d of game %d", s.Round, s.Game)
	c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/round/%d/begin", s.Game, s.Round), Channel: contract.ChanPublic,
		Subject: fmt.Sprintf("Rumble game %d: round %d begins", s.Game, s.Round), Body: head + roundOpening(c, s) + signature()})
}

// closeRound fills in the silent contestants' default (Rumble 8) and asks the
// contestmaster about adjudicated powers (U5), or resolves at once.
func (s *State) closeRound(c *contract.Ctx) error {
	subs := s.subsByWho()
	for _, f := range s.alive() {
		if subs[f.Name] == nil {
			x := &Sub{Who: f.Name, At: c.Now(), Default: true, Acts: []Alloc{{Kind: "defend", N: f.Energy / 2}}}
			x.Phase = s.phaseLabel()
			s.Subs = append(s.Subs, x)
		}
	}
	_, revealed := reveals(c, s)
	for _, x := range s.Subs {
		for _, a := range x.Acts {
			if a.Power == "" || a.N < 1 {
				continue
			}
			p := s.power(a.Power)
			if p == nil || p.Effect != "" {
				continue
			}
			q := fmt.Sprintf("In round %d of Rumble game %d, %s %ss %d energy on the power %q (strength %d): %q. What does it do this round? Answer one of: \"none\"; \"ward N\" (add N to eir Defense); \"fury N\" (add N to each of eir Attacks); \"mend N\" (e regains N stamina); \"thorns N\" (each attacker of eirs loses N/2); \"strike <player> N\" (that contestant loses N stamina, as an Attack of eirs).",
				s.Round, s.Game, x.Who, a.Kind, a.N, p.Name, p.Strength, p.Text)
			r := c.AskRuling(fmt.Sprintf("%d/round-%d/%s/%s", s.Game, s.Round, x.Who, p.Name), q, "the power has no effect this round (U5)")
			s.Pending = append(s.Pending, &Pending{Ruling: r.ID, Who: x.Who, Power: p.Name})
		}
	}
	s.CloseAt = zeroTime
	if len(s.Pending) > 0 {
		s.Phase = PhaseRulings
		c.Record("referee", "reveals the actions of round %d; results wait for %s", s.Round, text.Count(len(s.Pending), "ruling", "rulings"))
		c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/round/%d/actions", s.Game, s.Round), Channel: contract.ChanPublic,
			Subject: fmt.Sprintf("Rumble game %d: round %d actions", s.Game, s.Round),
			Body:    actionsBody(c, s, revealed) + "\n" + wrapPara(fmt.Sprintf("The results wait for the contestmaster's ruling on %s of powers that the referee does not implement; without a ruling by %s UTC such a power has no effect this round (U5).", text.Count(len(s.Pending), "use", "uses"), contract.Stamp(s.rulingDeadline(c)))) + "\n" + signature()})
		return nil
	}
	return s.resolveRound(c, actionsBody(c, s, revealed))
}

// onPowerRuling records a ruling on a use of a power; the round resolves once
// every ruling is in (U5).
func (s *State) onPowerRuling(c *contract.Ctx, r *contract.Ruling, timedOut bool) error {
	var pd *Pending
	for _, p := range s.Pending {
		if p.Ruling == r.ID {
			pd = p
		}
	}
	if pd == nil || pd.Done {
		return nil // the game moved on (ended) before the ruling
	}
	savePending(c, pd)
	if !timedOut {
		rd, ok := readRuling(r.Answer)
		if !ok {
			return contract.Reject("U5", "the ruling %q is not one of: none; ward N; fury N; mend N; thorns N; strike <player> N", r.Answer)
		}
		if rd.Effect == "strike" {
			t, err := s.target(c, rd.Target)
			if err != nil {
				return err
			}
			rd.Target = t
		}
		pd.Answer, pd.Effect = r.Answer, rd.String()
	} else {
		pd.Answer, pd.Effect = "(no ruling by the deadline)", ""
	}
	pd.Done = true
	c.Record("contestmaster", "rules on %s's use of %s: %s", pd.Who, pd.Power, effectOrNone(pd.Effect))
	for _, p := range s.Pending {
		if !p.Done {
			return nil
		}
	}
	if s.Phase == PhaseRulings {
		return s.resolveRound(c, "")
	}
	return nil
}

func effectOrNone(e string) string {
	if e == "" {
		return "no effect"
	}
	return e
}
