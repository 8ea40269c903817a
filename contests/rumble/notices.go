package rumble

import (
	"fmt"
	"sort"
	"strings"

	"referee/contract"
	"referee/contract/text"
)

func signature() string { return text.Signature("The Rumble Contestmaster (referee)") }

func wrapPara(s string) string { return text.Wrap(s, 0) }

func wrapBody(s string) string { return text.Wrap(s, 0) + "\n" + signature() }

func sectionHead(title string) string { return text.Banner(title, '=') + "\n" }

func startBody(c *contract.Ctx, s *State) string {
	var b strings.Builder
	b.WriteString(sectionHead(fmt.Sprintf("Rumble game %d begins", s.Game)))
	b.WriteString(wrapPara(fmt.Sprintf("The contestmaster has announced game %d of Rumble (Rumble 1). Each contestant submits %s; the contestmaster submits %d.", s.Game, text.Count(s.P, "power", "powers"), s.Q)))
	b.WriteString("\n")
	b.WriteString(text.Heading("Contestants"))
	for _, f := range s.Fighters {
		b.WriteString("  " + f.Name + "\n")
	}
	b.WriteString("\n")
	b.WriteString(wrapPara(fmt.Sprintf("Send your %s privately to %s before %s UTC, one per line as \"Name: what it does\" (Rumble 2). A power already submitted by someone else this game is rejected. The referee publishes a SHA-256 commitment to each submission at once and reveals it, with its nonce, when the powers are announced. Without a submission by the deadline, your powers are drawn from the referee's built-in pool (U3).",
		text.Count(s.P, "power", "powers"), c.Referee(), contract.Stamp(s.Deadline))))
	b.WriteString("\n")
	b.WriteString(signature())
	return b.String()
}

// commitBody is the public notice of an accepted sealed submission: who, which
// phase, the commitment, and nothing else.
func commitBody(s *State, x *Sub) string {
	var b strings.Builder
	b.WriteString(wrapPara(fmt.Sprintf("The referee has received a sealed submission for Rumble game %d.", s.Game)))
	b.WriteString("\n")
	t := &text.Table{Header: []string{"Contestant", "Phase", "Received"}}
	t.Add(x.Who, x.Phase, contract.Stamp(x.At))
	b.WriteString(t.String())
	b.WriteString("\nCommitment (SHA-256):\n  " + x.Commitment + "\n\n")
	b.WriteString(wrapPara("A later submission in the same phase replaces this one. The submission and its nonce are revealed when the phase closes, so anyone can check that SHA-256(nonce + newline + submission) equals this commitment."))
	b.WriteString("\n")
	b.WriteString(signature())
	return b.String()
}

func powersBody(c *contract.Ctx, s *State, revealed string, labels, spares []string) string {
	var b strings.Builder
	b.WriteString(sectionHead(fmt.Sprintf("Rumble game %d: the powers", s.Game)))
	b.WriteString(wrapPara(fmt.Sprintf("The power submissions are closed, and these are the %d powers of game %d (Rumble 3). Every contestant's stamina is now %d (Rumble 4).", len(s.Powers), s.Game, c.IntParam("Stamina"))))
	b.WriteString("\n")
	t := &text.Table{Header: []string{"#", "Power", "Effect", "From"}}
	for i, p := range s.Powers {
		eff := p.Effect
		if eff == "" {
			eff = "ruled"
		}
		t.Add(itoa(i+1), p.Name, eff, p.By)
	}
	b.WriteString(t.String())
	b.WriteString("\n")
	for i, p := range s.Powers {
		b.WriteString(text.WrapIndent(fmt.Sprintf("%d. %s: %s", i+1, p.Name, p.Text), 0, "", "   "))
	}
	b.WriteString("\n")
	b.WriteString(wrapPara("Effects: ward, fury, mend, thorns and blood work by themselves (send \"help rumble\"); \"ruled\" powers are adjudicated by the contestmaster when used (U5). S is a power's strength, its highest bid."))
	b.WriteString("\n")
	if len(labels) > 0 {
		b.WriteString(text.Heading("Drawn from the built-in pool (U2, G5)"))
		b.WriteString(wrapPara("Each draw picks among the pool's powers not yet in the game, in the pool's order, with the label shown:"))
		for _, l := range labels {
			b.WriteString(text.WrapIndent(l, 0, "  ", "    "))
		}
		b.WriteString("\n")
	}
	if len(spares) > 0 {
		b.WriteString(wrapPara(fmt.Sprintf("The pool was spent, so the referee made %s without a description: %s. Each is a power of its own, won by the bids on its name or number alone (U2, Rumble 5).",
			text.Count(len(spares), "spare power", "spare powers"), strings.Join(spares, ", "))))
		b.WriteString("\n")
	}
	b.WriteString(text.Heading("Sealed power submissions, revealed"))
	b.WriteString(revealed)
	b.WriteString("\n")
	b.WriteString(wrapPara(fmt.Sprintf("Now send your bids privately to %s before %s UTC: one line per power, \"Power: amount\" (or \"I bid 30 on Power\"), whole numbers of 1 or more, at most %d in all (Rumble 5, U4). The highest bid on a power wins it and costs that much stamina; tied highest bidders each get a copy and each pay. Send \"no bids\" to bid on nothing.",
		c.Referee(), contract.Stamp(s.Deadline), c.IntParam("BidLimit"))))
	b.WriteString("\n")
	b.WriteString(signature())
	return b.String()
}

func bidsBody(c *contract.Ctx, s *State, revealed string, paid map[string]int, died []string) string {
	var b strings.Builder
	b.WriteString(sectionHead(fmt.Sprintf("Rumble game %d: the bids", s.Game)))
	b.WriteString(wrapPara("The bidding is closed. These are all the bids (Rumble 5)."))
	b.WriteString("\n")
	var names []string
	for _, f := range s.Fighters {
		if f.Alive || f.Out == "died bidding" {
			names = append(names, f.Name)
		}
	}
	t := &text.Table{Header: append(append([]string{"Power"}, names...), "Strength", "Goes to")}
	subs := s.subsByWho()
	for _, p := range s.Powers {
		row := []string{p.Name}
		for _, n := range names {
			v := ""
			if x := subs[n]; x != nil {
				for _, bd := range x.Bids {
					if bd.Power == p.Name {
						v = itoa(bd.N)
					}
				}
			}
			row = append(row, v)
		}
		goes := strings.Join(p.Holders, ", ")
		if p.Discarded {
			goes = "(no bids: discarded)"
		} else if len(p.Holders) > 1 {
			goes += " (tie: a copy each)"
		}
		row = append(row, itoa(p.Strength), goes)
		t.Add(row...)
	}
	b.WriteString(t.String())
	b.WriteString("\n")
	st := &text.Table{Header: []string{"Contestant", "Paid", "Stamina", "Powers"}}
	fighters := s.fightersByName()
	for _, n := range names {
		f := fighters[n]
		st.Add(n, itoa(paid[n]), itoa(f.Stamina), strings.Join(f.Powers, ", "))
	}
	b.WriteString(st.String())
	b.WriteString("\n")
	if len(died) > 0 {
		b.WriteString(wrapPara(fmt.Sprintf("Stamina below 1 after bidding: %s, dead before round 1 (Rumble 4, U4).", strings.Join(died, ", "))))
		b.WriteString("\n")
	}
	b.WriteString(text.Heading("Sealed bids, revealed"))
	b.WriteString(revealed)
	b.WriteString("\n")
	return b.String()
}

func discardOpening(c *contract.Ctx, s *State) string {
	return wrapPara(fmt.Sprintf("Each contestant may now discard one of eir powers (Rumble 6): send \"Discard: <power>\" or \"no discard\" privately to %s before %s UTC. Silence means no discard (U3).",
		c.Referee(), contract.Stamp(s.Deadline))) + "\n"
}

func roundOpening(c *contract.Ctx, s *State) string {
	var b strings.Builder
	b.WriteString(text.Heading(fmt.Sprintf("Round %d", s.Round)))
	t := &text.Table{Header: []string{"Contestant", "Stamina", "Energy", "Powers (strength)"}}
	for _, f := range s.alive() {
		var ps []string
		for _, p := range f.Powers {
			if pw := s.power(p); pw != nil {
				ps = append(ps, fmt.Sprintf("%s (%d)", p, pw.Strength))
			}
		}
		t.Add(f.Name, itoa(f.Stamina), itoa(f.Energy), strings.Join(ps, ", "))
	}
	b.WriteString(t.String())
	b.WriteString("\n")
	b.WriteString(wrapPara(fmt.Sprintf("Round %d begins; energy is set to stamina (Rumble 7). Send your action list privately to %s before %s UTC, for example \"Attack: 30 to Alice; 10 to Bob / Defense: 40 / Flight: 10\", or one item per line. You may not allocate more energy than you have. Without a list you Defend with half your energy, rounded down (Rumble 8, U3).",
		s.Round, c.Referee(), contract.Stamp(s.Deadline))))
	b.WriteString("\n")
	return b.String()
}

// actionsBody announces every action list of the round (Rumble 9) with the
// revealed commitments.
func actionsBody(c *contract.Ctx, s *State, revealed string) string {
	var b strings.Builder
	b.WriteString(sectionHead(fmt.Sprintf("Rumble game %d: round %d", s.Game, s.Round)))
	b.WriteString(text.Heading("Actions (Rumble 8, 9)"))
	t := &text.Table{Header: []string{"Contestant", "Energy", "Attacks", "Defense", "Powers", "Note"}}
	subs := append([]*Sub(nil), s.Subs...)
	order, fighters := s.orderOf(), s.fightersByName()
	sort.SliceStable(subs, func(i, j int) bool { return order(subs[i].Who) < order(subs[j].Who) })
	for _, x := range subs {
		f := fighters[x.Who]
		if f == nil {
			continue
		}
		var att, pw []string
		def := 0
		for _, a := range x.Acts {
			switch a.Kind {
			case "attack":
				att = append(att, fmt.Sprintf("%s %d", a.Target, a.N))
			case "defend":
				def += a.N
			default:
				pw = append(pw, fmt.Sprintf("%s %s %d", capital(a.Kind), a.Power, a.N))
			}
		}
		note := ""
		if x.Default {
			note = "no list: default"
		}
		t.Add(x.Who, itoa(f.Energy), strings.Join(att, ", "), itoa(def), strings.Join(pw, ", "), note)
	}
	b.WriteString(t.String())
	b.WriteString("\n")
	b.WriteString(text.Heading("Sealed action lists, revealed"))
	b.WriteString(revealed)
	return b.String()
}

func amendBody(am *Amendment) string {
	var b strings.Builder
	b.WriteString(sectionHead(fmt.Sprintf("Rumble: amendment %d", am.N)))
	b.WriteString(wrapPara("The contestmaster has amended the Rumble contract without two objections from contestants (Rumble 15, U7). The amendment reads:"))
	b.WriteString("\n")
	b.WriteString(text.WrapIndent(am.Text, 0, "  ", "  "))
	b.WriteString("\n")
	b.WriteString(wrapPara("How it applies (G9): " + am.Status + "."))
	b.WriteString("\n")
	b.WriteString(signature())
	return b.String()
}
