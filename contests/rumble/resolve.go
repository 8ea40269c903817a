package rumble

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"referee/contract"
	"referee/contract/text"
)

var zeroTime time.Time

// rulingDeadline is when the last open ruling of the round times out.
func (s *State) rulingDeadline(c *contract.Ctx) time.Time {
	var t time.Time
	for _, r := range c.Rulings() {
		for _, p := range s.Pending {
			if p.Ruling == r.ID && r.Deadline.After(t) {
				t = r.Deadline
			}
		}
	}
	return t
}

// outcome is one contestant's round, for the results table.
type outcome struct {
	before, incoming, defense, damage, burn, other, heal, after int
	attackers                                                   []string
}

// resolveRound applies Rumble 9-11 and U6: each contestant loses the Attacks
// against em minus eir Defense (at least 0), Burn costs stamina, the effects of
// powers apply, stamina below 1 is death, and every attacker of a contestant who
// died gains the kill points. Each step is its own function, in that order.
func (s *State) resolveRound(c *contract.Ctx, actions string) error {
	r := s.newResolution()
	s.submissions(r)
	r.deliver()
	s.damage(c, r)
	s.awardKills(c, r)
	results := s.resultsText(r, actions)
	s.Pending = nil
	s.Subs = nil
	c.Record("referee", "announces the results of round %d", s.Round)
	round := s.Round
	if len(s.alive()) <= 1 {
		c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/round/%d/results", s.Game, round), Channel: contract.ChanPublic,
			Subject: fmt.Sprintf("Rumble game %d: round %d results", s.Game, round), Body: results + "\n" + signature()})
		endGame(c, s, fmt.Sprintf("at most one contestant has stamina left after round %d", round), false)
		return nil
	}
	// Rumble 9: then a new round.
	s.beginRound(c, results+"\n")
	return nil
}

// resolution is a round being resolved: who fights, what each one's round
// comes to, and who attacks whom.
type resolution struct {
	alive   []*Fighter
	out     map[string]*outcome
	attacks map[string]map[string]int // attacker -> target -> energy
	thorns  map[string]int
	died    []string
	awards  []string
}

func (s *State) newResolution() *resolution {
	r := &resolution{alive: s.alive(), out: map[string]*outcome{}, attacks: map[string]map[string]int{}, thorns: map[string]int{}}
	for _, f := range r.alive {
		r.out[f.Name] = &outcome{before: f.Stamina}
		r.attacks[f.Name] = map[string]int{}
	}
	return r
}

// ruledEffect is the contestmaster's ruling on the effect of who's power
// (U5), if there is one.
func (s *State) ruledEffect(who, power string) (ruled, bool) {
	for _, p := range s.Pending {
		if p.Who == who && p.Power == power && p.Effect != "" {
			r, ok := readRuling(p.Effect)
			return r, ok
		}
	}
	return ruled{}, false
}

// submissions reads each contestant's submission: Defense and Burn (Rumble
// 8), the effects of powers (ward, fury, mend, thorns, blood, strike; U5 for
// a power whose effect was ruled) and the Attacks, fury added.
func (s *State) submissions(r *resolution) {
	subs := s.subsByWho()
	for _, f := range r.alive {
		x := subs[f.Name]
		o := r.out[f.Name]
		if x == nil {
			continue
		}
		fury := 0
		for _, a := range x.Acts {
			switch a.Kind {
			case "defend":
				o.defense += a.N
			case "burn":
				o.burn += a.N // Rumble 8: Burn costs stamina too
			}
			if a.Power == "" || a.N < 1 {
				continue
			}
			p := s.power(a.Power)
			eff, n := p.Effect, p.Strength
			var target string
			if eff == "" {
				ru, ok := s.ruledEffect(f.Name, p.Name)
				if !ok {
					continue // U5: no ruling, no effect
				}
				eff, n, target = ru.Effect, ru.N, ru.Target
			}
			switch eff {
			case "ward":
				o.defense += n
			case "fury":
				fury += n
			case "mend":
				o.heal += n
			case "thorns":
				r.thorns[f.Name] += n / 2
			case "blood":
				o.defense += 2 * a.N
			case "strike":
				if _, ok := r.out[target]; ok {
					r.attacks[f.Name][target] += n
				}
			}
		}
		for _, a := range x.Acts {
			if a.Kind == "attack" && a.N > 0 {
				if _, ok := r.out[a.Target]; ok {
					r.attacks[f.Name][a.Target] += a.N + fury
				}
			}
		}
	}
}

// deliver adds up the Attacks against each contestant, and the thorns an
// attacker runs into.
func (r *resolution) deliver() {
	for _, f := range r.alive {
		for t, n := range r.attacks[f.Name] {
			if n < 1 {
				continue
			}
			r.out[t].incoming += n
			r.out[t].attackers = append(r.out[t].attackers, f.Name)
			if th := r.thorns[t]; th > 0 {
				r.out[f.Name].other += th
			}
		}
	}
}

// damage applies Rumble 9 (Attacks minus Defense, at least 0) and Burn,
// thorns and mend to stamina; stamina below 1 is death (Rumble 4).
func (s *State) damage(c *contract.Ctx, r *resolution) {
	for _, f := range r.alive {
		o := r.out[f.Name]
		sort.Strings(o.attackers)
		// Rumble 9: attacks minus Defense, at least 0.
		if d := o.incoming - o.defense; d > 0 {
			o.damage = d
		}
		o.after = o.before - o.damage - o.burn - o.other + o.heal
		saveFighter(c, f)
		f.Stamina = o.after
		if f.Stamina < 1 { // Rumble 4
			f.Alive, f.Out = false, fmt.Sprintf("died in round %d", s.Round)
			r.died = append(r.died, f.Name)
		}
	}
}

// awardKills gives the kill points to every attacker of a contestant who died
// this round (Rumble 10, U6).
func (s *State) awardKills(c *contract.Ctx, r *resolution) {
	kill := c.IntParam("KillPoints")
	for _, d := range r.died {
		for _, a := range r.out[d].attackers {
			c.Award(a, kill, fmt.Sprintf("Rumble 10: attacked %s, who died in round %d of game %d", d, s.Round, s.Game))
			r.awards = append(r.awards, fmt.Sprintf("%s gains %d points for attacking %s (Rumble 10)", a, kill, d))
			c.Record(a, "gains %d points for attacking %s, who died", kill, d)
		}
		c.Record(d, "dies in round %d", s.Round)
	}
}

// resultsText is the results post: the actions, the rulings (U5) and the
// table of Rumble 9.
func (s *State) resultsText(r *resolution, actions string) string {
	t := &text.Table{Header: []string{"Contestant", "Before", "Attacked", "Defense", "Damage", "Burn", "Other", "After", "Status"}}
	for _, f := range r.alive {
		o := r.out[f.Name]
		other := ""
		if o.other != 0 || o.heal != 0 {
			other = fmt.Sprintf("%+d", o.heal-o.other)
		}
		status := "alive"
		if !f.Alive {
			status = "dead"
		}
		t.Add(f.Name, itoa(o.before), itoa(o.incoming), itoa(o.defense), itoa(o.damage), itoa(o.burn), other, itoa(o.after), status)
	}
	var b strings.Builder
	if actions != "" {
		b.WriteString(actions)
		b.WriteString("\n")
	} else {
		b.WriteString(sectionHead(fmt.Sprintf("Rumble game %d: round %d results", s.Game, s.Round)))
	}
	if len(s.Pending) > 0 {
		b.WriteString(text.Heading("Rulings (U5)"))
		for _, p := range s.Pending {
			b.WriteString(text.WrapIndent(fmt.Sprintf("%s's %s: %s", p.Who, p.Power, effectOrNone(p.Effect)), 0, "  ", "    "))
		}
		b.WriteString("\n")
	}
	b.WriteString(text.Heading("Results (Rumble 9)"))
	b.WriteString(t.String())
	b.WriteString(wrapPara("Attacked is the energy of all Attacks against the contestant (with fury and strikes); Damage is Attacked minus Defense, at least 0; Other is stamina regained (mend) less stamina lost to thorns."))
	if len(r.died) > 0 {
		b.WriteString("\n")
		b.WriteString(wrapPara("Dead this round: " + strings.Join(r.died, ", ") + "."))
	}
	for _, a := range r.awards {
		b.WriteString(wrapPara(a + "."))
	}
	return b.String()
}

// endGame ends the game: the last contestant standing gains WinFactor times the
// contestants at the start (Rumble 11, U6); with none, there is no winner (U1).
// A game ended by Rumble 12 (ended is true) has no winner either.
func endGame(c *contract.Ctx, s *State, why string, ended bool) {
	alive := s.alive()
	var b strings.Builder
	b.WriteString(sectionHead(fmt.Sprintf("Rumble game %d is over", s.Game)))
	b.WriteString(wrapPara("The game has ended: " + why + "."))
	b.WriteString("\n")
	winner := ""
	if len(alive) == 1 && !ended {
		winner = alive[0].Name
		pts := c.IntParam("WinFactor") * s.StartCount
		c.Award(winner, pts, fmt.Sprintf("Rumble 11: won game %d of %d contestants", s.Game, s.StartCount))
		b.WriteString(wrapPara(fmt.Sprintf("%s is the only contestant with positive stamina and wins game %d. Rumble awards %d points to %s (Rumble 11: %d contestants at the start, times %d).",
			winner, s.Game, pts, winner, s.StartCount, c.IntParam("WinFactor"))))
		c.Record(winner, "wins game %d and gains %d points", s.Game, pts)
	} else {
		b.WriteString(wrapPara(fmt.Sprintf("Game %d has no winner (U1).", s.Game)))
		c.Record("referee", "game %d ends with no winner", s.Game)
	}
	b.WriteString("\n")
	t := &text.Table{Header: []string{"Contestant", "Stamina", "Status", "Points from Rumble"}}
	for _, f := range s.Fighters {
		st := "alive"
		if !f.Alive {
			st = f.Out
		}
		t.Add(f.Name, itoa(f.Stamina), st, itoa(c.State().Score(f.Name, "rumble")))
	}
	b.WriteString(t.String())
	b.WriteString("\n")
	b.WriteString(wrapPara("Players may now join Rumble, and the contestmaster may announce a new game (Rumble 1, 13)."))
	b.WriteString("\n")
	b.WriteString(signature())
	c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/over", s.Game), Channel: contract.ChanPublic,
		Subject: fmt.Sprintf("Rumble game %d is over", s.Game), Body: b.String()})
	if winner != "" {
		s.Last = fmt.Sprintf("Game %d (started %s, %d contestants) was won by %s.", s.Game, contract.Date(s.Started), s.StartCount, winner)
	} else {
		s.Last = fmt.Sprintf("Game %d (started %s, %d contestants) ended with no winner.", s.Game, contract.Date(s.Started), s.StartCount)
	}
	s.Phase, s.Round, s.Subs, s.Pending = PhaseNone, 0, nil, nil
	s.Opened, s.Deadline, s.CloseAt, s.NextReport, s.Reminded = zeroTime, zeroTime, zeroTime, zeroTime, false
	s.Fighters, s.Powers = nil, nil
}
