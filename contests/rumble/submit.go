package rumble

import (
	"fmt"
	"slices"
	"strings"

	"referee/contract"
	"referee/contract/text"
	"referee/internal/lazyre"
)

// Extract implements contract.Extractor. A private message from a contestant
// (or, during power submission, the contestmaster) is read whole as one
// submission for the open phase. On a public list, a private-looking list from a
// contestant becomes an action that the interpreter refuses with a warning that
// the list has now seen it (G4): it never counts.
func (g *Game) Extract(c *contract.Ctx, m *contract.Message) []*contract.Action {
	st := data(c)
	p := c.State().PlayerByAddress(m.From)
	text := m.Text
	if m.Channel.IsPublic() {
		if p == nil || st.Phase == PhaseNone || st.fighter(p.Name) == nil {
			return nil
		}
		var keep []string
		for _, l := range lines(text) {
			if !iPrefix().MatchString(l) {
				keep = append(keep, l)
			}
		}
		text = strings.Join(keep, "\n")
		if !leaked(st, text) {
			return nil
		}
	} else if m.Channel != contract.ChanPrivate {
		return nil
	} else {
		cm := c.FromContestmaster()
		switch {
		case cm && st.Phase == PhasePowers && st.Q > 0:
		case p != nil && st.fighter(p.Name) != nil:
		case sniff(text) != "" && (st.Phase != PhaseNone || p != nil && p.In("rumble")):
		case !cm && readsAsList(st, dropForeign(text, st)):
			// Someone who is not a contestant sends the open phase's list
			// ("Moss: grows on you", "Iron Skin: 30"): refused (Rumble 2),
			// not left without a reply.
		default:
			return nil
		}
		if cm && st.Phase != PhasePowers {
			return nil // the contestmaster's other private mail: rulings
		}
		text = dropForeign(text, st)
		if strings.TrimSpace(stripRulings(text)) == "" {
			return nil
		}
	}
	return []*contract.Action{{Line: summary(text), Offset: 0, Verb: submitVerb(g), Body: text, Args: map[string]string{}}}
}

func submitVerb(g *Game) *contract.Verb {
	for _, v := range g.Verbs() {
		if v.Name == "submit" {
			return v
		}
	}
	panic("rumble: no submit verb")
}

// readsAsList reports whether text, sent privately, reads as a list for the
// open phase in the forms sniff does not know by a keyword: powers as "Name:
// what it does" while powers are submitted (Rumble 2), and an amount on a
// listed power ("Iron Skin: 30") while bidding or in a round (Rumble 5, 8).
func readsAsList(st *State, text string) bool {
	switch st.Phase {
	case PhasePowers:
		return readsAsPowers(text)
	case PhaseBids, PhaseRound:
		for _, seg := range segments(text) {
			if name, _, ok := amountIn(seg); ok && st.namesPower(name) {
				return true
			}
		}
	}
	return false
}

// readsAsPowers reports whether text, private mail from someone who is not
// a contestant while powers are due, reads as powers (Rumble 2) rather than
// as a letter with a "Word: text" line in it: every line is a power, "Name:
// what it does" (parsePowers; a list's heading may come first), none
// asks a question, and no name is a word that heads a line of a letter
// ("Note: ...", "PS: ...", "Question: ..."; letterHeads). A contestant's
// private mail is eir submission whatever it reads as, and a mail that
// says "Power:" is sniffed as powers before this is asked.
func readsAsPowers(text string) bool {
	defs, err := parsePowers(text)
	if err != nil || len(defs) == 0 {
		return false
	}
	for _, d := range defs {
		if letterHeads[strings.ToLower(d.Name)] || strings.HasSuffix(d.Text, "?") {
			return false
		}
	}
	for _, l := range lines(text) {
		if one, err := parsePowers(l); err != nil || len(one) != 1 && !listIntro(powerLead().FindString(l), l, nil) {
			return false // a line of prose: "Hi,", "Thanks, Frank"
		}
	}
	return true
}

// letterHeads are the words, in lower case, that head a line of a letter
// before a colon or a dash, and name no power.
var letterHeads = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`note notes ps pps nb fyi btw re fwd fw subject question questions answer reply hi hello hey
		dear thanks cheers regards update edit correction reminder warning important aside also ok okay sorry to from cc date sent`) {
		letterHeads[w] = true
	}
}

// rumbleSentence is what an "I ..." sentence of a private list starts with,
// once "I" is removed: a sealed sentence, a power, or "no bids" and the like.
var rumbleSentence = lazyre.MustCompile(`(?i)^(?:bids?|place|attack|defen[cs]e|defend|spend|burn|discard|drop|keep|submit|rule|power|no\b|do\s+not|don't|pass|rest|none|nothing)\b`)

// dropForeign removes from a private message the "I ..." sentences that are
// not Rumble's ("I claim cell (3, 4) in Life."): another game's private action
// is that game's to read, not an item of a Rumble list. A sentence that names
// a power on the list ("I use Iron Skin.") is Rumble's, whatever its verb. A
// message without one comes back as it was.
func dropForeign(text string, st *State) string {
	pieces := strings.Split(sentenceBreak().ReplaceAllString(text, "\n$1"), "\n")
	var keep []string
	dropped := false
	for _, l := range pieces {
		t := strings.TrimSpace(bullet().ReplaceAllString(l, ""))
		if iPrefix().MatchString(t) && !rumbleSentence().MatchString(iPrefix().ReplaceAllString(t, "")) && st.mentionedPower(t, nil) == nil {
			dropped = true
			continue
		}
		keep = append(keep, l)
	}
	if !dropped {
		return text
	}
	return strings.Join(keep, "\n")
}

// stripRulings drops "I rule on #N" lines, which the interpreter reads.
func stripRulings(text string) string {
	var keep []string
	for _, l := range lines(text) {
		if !strings.HasPrefix(strings.ToLower(l), "i rule") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

var leakKeyword = lazyre.MustCompile(`(?i)^(?:attacks?|defen[cs]es?|defend|spend|burn|bids?)\b.*\d`)

// leaked spots, in public mail, items of a private list: "Attack: 30 to Bob",
// "Bids: Flight 30", "Flight: 10" for a listed power, "Discard: Flight". Talk
// that merely mentions attacks or bids, without a number, is not one.
func leaked(st *State, text string) bool {
	for _, seg := range segments(text) {
		if leakKeyword().MatchString(seg) {
			return true
		}
		if name, _, ok := nameAndAmount(seg); ok && st.namesPower(name) {
			return true
		}
		if m := discardLead().FindStringSubmatch(seg); m != nil && st.namesPower(m[1]) {
			return true
		}
		// Rumble 2: a power ("Power: Teleport: I vanish", or one whose text
		// carries an effect tag) while powers are being submitted.
		if st.Phase == PhasePowers && powerLead().MatchString(seg) {
			return true
		}
		if st.Phase == PhasePowers {
			if defs, err := parsePowers(seg); err == nil && len(defs) == 1 && defs[0].Effect != "" {
				return true
			}
		}
	}
	return false
}

// summary is the line the receipt quotes for the submission.
func summary(text string) string {
	s := strings.Join(lines(stripRulings(text)), " / ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// doSealedSentence answers for "I bid 30 on Flight" style sentences: the
// Extractor reads the whole private message as one list, so a sentence only
// says whether that list was accepted.
func doSealedSentence(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	if x := st.sub(c.Actor().Name); x != nil && c.Msg() != nil && x.MsgID == c.Msg().ID {
		c.Did("part of the list sealed above")
		return nil
	}
	return contract.Reject(phaseRule(st.Phase), "not counted: this message's list was not accepted (see above)")
}

// doSubmit seals a private submission for the open phase (U3: the latest valid
// one before the deadline counts).
func doSubmit(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	p := c.Actor()
	cm := c.FromContestmaster()
	text := stripRulings(a.Body)
	f := st.fighter(p.Name)
	if st.Phase == PhaseNone {
		return contract.Reject("Rumble 1", "no game of Rumble is going on, so there is nothing to submit")
	}
	if st.Phase == PhaseRulings {
		return contract.Reject("Rumble 9", "round %d's action lists are closed; its results wait for the contestmaster's rulings", st.Round)
	}
	if !cm && (f == nil || !f.Alive) {
		if f == nil {
			return contract.Reject("Rumble 2", "you are not a contestant in game %d, so nothing was recorded", st.Game)
		}
		return contract.Reject("Rumble 4", "you are dead in game %d (%s)", st.Game, f.Out)
	}
	// wrong explains a list meant for another phase.
	wrong := func(err error) error {
		if k := sniff(text); k != "" && k != st.Phase {
			return contract.Reject(phaseRule(st.Phase), "this looks like %s, but game %d is in the %s phase, which takes %s", phaseWhat(k), st.Game, phaseName(st), phaseWhat(st.Phase))
		}
		return err
	}
	x := &Sub{Who: p.Name, MsgID: c.Msg().ID, At: c.Now()}
	switch st.Phase {
	case PhasePowers:
		defs, err := parsePowers(text)
		if err == nil && len(defs) == 0 {
			err = contract.Reject("Rumble 2", "no power found; write one power per line as \"Name: what it does\"")
		}
		if err != nil {
			return wrong(err)
		}
		if err := st.checkPowers(c, p.Name, cm, defs); err != nil {
			return err
		}
		x.Powers = defs
	case PhaseBids:
		bids, explicit, err := parseBids(text, st)
		if err == nil && len(bids) == 0 && !explicit {
			err = contract.Reject("Rumble 5", "no bid found; write \"Power: amount\" per line, or \"no bids\"")
		}
		if err != nil {
			return wrong(err)
		}
		x.Bids = bids
		// Rumble 5, U4: the total may not exceed 100; the list is rejected whole.
		total := x.total()
		if lim := c.IntParam("BidLimit"); total > lim {
			return contract.Reject("Rumble 5", "your bids total %d, more than %d; the whole list is rejected", total, lim)
		}
		if total >= f.Stamina {
			c.Did("warning: if all these bids win, your stamina falls to %d and you are dead before round 1 (U4)", f.Stamina-total)
		}
	case PhaseDiscard:
		d, found, err := parseDiscard(text, st, f)
		if err == nil && !found {
			err = contract.Reject("Rumble 6", "no discard found; write \"Discard: <power>\" or \"no discard\"")
		}
		if err != nil {
			return wrong(err)
		}
		x.Discard = d
	case PhaseRound:
		acts, explicit, err := parseActions(text, st, f, func(ref string) (string, error) { return st.target(c, ref) })
		if err == nil && len(acts) == 0 && !explicit {
			err = contract.Reject("Rumble 8", "no action found; write \"Attack: 30 to Alice\", \"Defense: 40\", \"Spend 10 on <power>\" or \"none\"")
		}
		if err != nil {
			return wrong(err)
		}
		x.Acts = acts
		// Rumble 8: no more energy than e has.
		if total := x.total(); total > f.Energy {
			return contract.Reject("Rumble 8", "you allocate %d energy but have %d", total, f.Energy)
		}
	}
	seal(c, st, x)
	replaced := st.sub(p.Name) != nil
	if replaced {
		st.dropSub(p.Name)
	}
	st.Subs = append(st.Subs, x)
	who := "your"
	if cm {
		who = "the contestmaster's"
	}
	verb := "sealed"
	if replaced {
		verb = "sealed, replacing your earlier submission"
	}
	c.Did("%s %s for game %d %s %s; commitment %s", who, phaseWhat(st.Phase), st.Game, isAre(st.Phase), verb, x.Commitment)
	c.Did("read as: %s", strings.ReplaceAll(strings.TrimSuffix(x.Canonical, "\n"), "\n", " / "))
	c.Did("the nonce stays secret until the reveal; the list sees only that you submitted and the commitment")
	c.Record(p.Name, "submits sealed %s (commitment %s)", phaseWhat(st.Phase), short(x.Commitment))
	// For `referee verify`: what was published, to match against the reveal.
	c.Detail("sealed", map[string]string{"game": itoa(st.Game), "phase": x.Phase, "contestant": x.Who, "commitment": x.Commitment})
	c.Notify(&contract.Notice{ID: fmt.Sprintf("rumble/%d/commit/%s", st.Game, c.Msg().ID), Channel: contract.ChanPublic,
		Subject: fmt.Sprintf("Rumble game %d: sealed %s from %s", st.Game, phaseWhat(st.Phase), p.Name),
		Body:    commitBody(st, x)})
	st.checkAllIn(c)
	return nil
}

// target resolves an Attack's target to a living contestant (Rumble 4, 9).
func (s *State) target(c *contract.Ctx, ref string) (string, error) {
	p, err := c.State().Resolve(ref)
	if err != nil {
		why := err.Error()
		if r, ok := contract.AsRejection(err); ok {
			why = r.Reason // the refusal cites Rumble 9 alone, not also the name's rule
		}
		return "", contract.Reject("Rumble 9", "%q is not a contestant you can Attack: %s", ref, why)
	}
	f := s.fighter(p.Name)
	if f == nil {
		return "", contract.Reject("Rumble 9", "%s is not a contestant in game %d", p.Name, s.Game)
	}
	if !f.Alive {
		return "", contract.Reject("Rumble 4", "%s is dead and cannot be Attacked", p.Name)
	}
	return p.Name, nil
}

// checkPowers applies Rumble 2 and U2: the announced number, and no power
// already submitted this game by anyone, case-insensitively.
func (s *State) checkPowers(c *contract.Ctx, who string, cm bool, defs []PowerDef) error {
	if cm {
		if s.Q == 0 {
			// Rumble 3: e creates as many as e announced (Rumble 1), here none.
			return contract.Reject("Rumble 3", "game %d was announced with 0 contestmaster powers, so you have no powers to send; its powers are the contestants' alone", s.Game)
		}
		if len(defs) == 0 || len(defs) > s.Q {
			return contract.Reject("Rumble 3", "send 1 to %d contestmaster powers (the rest are drawn from the pool)", s.Q)
		}
	} else if len(defs) != s.P {
		return contract.Reject("Rumble 2", "send exactly %s, as announced; this message has %d", text.Count(s.P, "power", "powers"), len(defs))
	}
	for _, d := range defs {
		for _, x := range s.Subs {
			if x.Who == who {
				continue
			}
			for _, o := range x.Powers {
				if equalFold(o.Name, d.Name) {
					return contract.Reject("Rumble 2", "the power %q has already been submitted this game; choose another name", d.Name)
				}
			}
		}
	}
	return nil
}

// total is what a submission commits: the sum of its bids (Rumble 5) or of its
// allocations (Rumble 8); a submission holds one or the other.
func (x *Sub) total() int {
	n := 0
	for _, b := range x.Bids {
		n += b.N
	}
	for _, a := range x.Acts {
		n += a.N
	}
	return n
}

// dropSub takes who's submission out of the list, in a new list (SaveTop).
func (s *State) dropSub(who string) {
	s.Subs = slices.DeleteFunc(slices.Clone(s.Subs), func(x *Sub) bool { return x.Who == who })
}

// missing lists the contestants the open phase still waits for, for the
// reminders: the submitters are looked up in a set, not each in the list
// of submissions.
func (s *State) missing() []*Fighter {
	sent := s.submitters()
	var out []*Fighter
	for _, f := range s.Fighters {
		if s.awaits(f) && !sent[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// awaits says whether the open phase waits for f's submission: a living
// contestant, who holds a power in the discard (Rumble 6: with none there
// is nothing to choose).
func (s *State) awaits(f *Fighter) bool {
	return f.Alive && !(s.Phase == PhaseDiscard && len(f.Powers) == 0)
}

func (s *State) submitters() map[string]bool {
	sent := make(map[string]bool, len(s.Subs))
	for _, x := range s.Subs {
		sent[x.Who] = true
	}
	return sent
}

// waiting says whether the open phase still waits for a contestant, as
// missing would list one. It is asked at each submission (checkAllIn): while
// fewer submissions are in than contestants awaited, someone is missing,
// and that is a count; the set of submitters is built only when as many are
// in.
func (s *State) waiting() bool {
	n := 0
	for _, f := range s.Fighters {
		if s.awaits(f) {
			n++
		}
	}
	if len(s.Subs) < n {
		return true
	}
	sent := s.submitters()
	for _, f := range s.Fighters {
		if s.awaits(f) && !sent[f.Name] {
			return true
		}
	}
	return false
}

// checkAllIn closes the phase early once everyone has sent one (U3). During
// power submission the contestmaster counts too when e owes powers.
func (s *State) checkAllIn(c *contract.Ctx) {
	if s.Phase == PhaseNone || s.Phase == PhaseRulings || s.waiting() {
		return
	}
	if s.Phase == PhasePowers && s.Q > 0 && !s.cmSubmitted() {
		return
	}
	s.CloseAt = c.Now()
}

// cmSubmitted says whether the contestmaster's powers are in: a submission
// of someone who is not a contestant.
func (s *State) cmSubmitted() bool {
	for _, x := range s.Subs {
		if s.fighter(x.Who) == nil {
			return true
		}
	}
	return false
}

func short(h string) string {
	if len(h) > 16 {
		return h[:16]
	}
	return h
}

func phaseRule(phase string) string {
	switch phase {
	case PhasePowers:
		return "Rumble 2"
	case PhaseBids:
		return "Rumble 5"
	case PhaseDiscard:
		return "Rumble 6"
	}
	return "Rumble 8"
}

// isAre and themIt agree with phaseWhat: the discard is one choice.
func isAre(phase string) string {
	if phase == PhaseDiscard {
		return "is"
	}
	return "are"
}

func themIt(phase string) string {
	if phase == PhaseDiscard {
		return "it"
	}
	return "them"
}

func phaseWhat(phase string) string {
	switch phase {
	case PhasePowers:
		return "powers"
	case PhaseBids:
		return "bids"
	case PhaseDiscard:
		return "discard"
	}
	return "actions"
}

func phaseName(s *State) string {
	switch s.Phase {
	case PhasePowers:
		return "power submission"
	case PhaseBids:
		return "bidding"
	case PhaseDiscard:
		return "discard"
	case PhaseRound:
		return fmt.Sprintf("round %d", s.Round)
	case PhaseRulings:
		return fmt.Sprintf("round %d (waiting for rulings)", s.Round)
	}
	return "between games"
}
