package contract

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"referee/contract/text"
	"referee/internal/lazyre"
)

// The contestmaster's correction, by private mail (issue: corrections):
//
//	I correct CoE #3: message <abc@example.org> reads `I transfer a Vial to the Life contest to take control of Cell (3, 4).`
//	I correct CoE #3: message <abc@example.org> is void.
//	I correct CoE #3: message <abc@example.org> arrived at 2026-12-06 23:50.
//	I correct CoE #3: at 2026-12-07 12:00, Alice has 5 Vials (Life R15).
//	I correct CoE #3: at 2026-12-07 12:00, Cell (3, 4) is Controlled by Alice (Life R16).
//
// Any of them may end with "overriding ratification": the correction then
// changes what a ratified report reported, and the revision says so. The
// sentences between backquotes may hold several sentences and lines; the
// command is read whole, before the text is split into sentences, so the
// quoted sentences are never read as the contestmaster's own actions.
//
// Applying the command checks it (the claim is open, the sender is the
// claim's game's contestmaster, the form is one of the above) and journals
// the correction; the daemon then re-runs the history with it
// (Engine.Rerun) and publishes the revision, or tells the contestmaster why
// it was refused.

var (
	correctHead = lazyre.MustCompile(`(?i)\bI\s+(?:hereby\s+)?correct\s+(?:CoE|claim(?:\s+of\s+error)?)\s*(?:#|no\.?\s*)?\s*(\d+)\s*[:,.-]?\s*`)
	// \x60 is the backtick that quotes a message's corrected text.
	fixMessage = lazyre.MustCompile(`(?is)^message\s+<?([^\s<>\x60]+?)>?\s+(?:(reads)\s*\x60([^\x60]*)\x60|(is\s+void)|(arrived\s+at)\s+(` + timePattern + `))`)
	// The change may hold parenthesised text without a letter (Life's
	// "Cell (x, y) is Dead"); the rule, in parentheses, names one.
	fixAdjust   = lazyre.MustCompile(`(?is)^at\s+(` + timePattern + `)\s*,\s*((?:[^()\n]|\([^()\n\pL]*\))+?)\s*\(([^()\n]*\pL[^()\n]*)\)`)
	fixOverride = lazyre.MustCompile(`(?i)^\s*[,;]?\s*(?:and\s+)?(?:\(?\s*overriding\s+ratification\s*\)?|I\s+override\s+ratification)`)
	fixEnd      = lazyre.MustCompile(`^\s*[.!]?`)
	ledgerForm  = lazyre.MustCompile(`(?i)^(.+?)\s+(?:has|holds|owns)\s+(` + WholeNumber + `)\s+(.+)$`)
)

const timePattern = `\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?\s*(?:Z|UTC)?`

// parseFixTime reads a correction's time: a date, a date and minute or
// second, RFC 3339; UTC always (G1).
func parseFixTime(s string) (time.Time, error) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "UTC"))
	s = strings.TrimSuffix(s, "Z")
	s = strings.Replace(strings.TrimSpace(s), "T", " ", 1)
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time (write 2026-12-07 12:00, UTC)", s)
}

// correctVerb is the contestmaster's correction, read only by
// extractCorrections.
var correctVerb = &Verb{Name: "correct", Scope: PrivateOnly, Rule: "G8", Extracted: true,
	Syntax: "I correct CoE #N: message <Message-ID> reads `<sentences>` / is void / arrived at <time>; or: at <time>, <change> (<rule>); optionally \"overriding ratification\"",
	Help:   "answer a claim of error with a correction (contestmasters, privately)", Do: doCorrect}

// fixSyntax is the expected form, for a command that is not one.
const fixSyntax = "I correct CoE #N: message <Message-ID> reads `<sentences>` (or: is void; or: arrived at <time>), or: I correct CoE #N: at <time>, <change> (<rule that allows it>)"

// hasCorrect is strings.Contains(strings.ToLower(text), "correct"), which
// correctHead needs, without the lower-case copy of the text.
func hasCorrect(text string) bool { return hasFoldASCII(text, "correct") }

// hasFoldASCII reports whether text has word in some case, word being
// lower-case ASCII letters that no rune past ASCII lowers or folds to (not
// k, for the Kelvin sign, nor s, for ſ; nor i, for İ): a byte of such a
// rune is never an ASCII letter.
//
// Each case of the word's rarest letter in English text (anchor) is found
// by strings.IndexByte, which passes over the text many bytes at a time,
// and the word compared around it: IndexByte stops at each one, and an
// "e" (error) or an "h" (help) is in nearly every word.
func hasFoldASCII(text, word string) bool {
	k := anchor(word)
	return hasFoldAt(text, word, k, word[k]) || hasFoldAt(text, word, k, word[k]-('a'-'A'))
}

// letterRank ranks the lower-case letters a to z by how rare they are in
// English text, the rarest 0: z q x j k v b p y g f w m u c l d r h s n
// i o a t e.
var letterRank = [26]uint8{23, 6, 14, 16, 25, 10, 9, 18, 21, 3, 4, 15, 12, 20, 22, 7, 1, 17, 19, 24, 13, 5, 11, 2, 8, 0}

// anchor is the index of word's rarest letter by letterRank, the first of
// those as rare.
func anchor(word string) int {
	k := 0
	for i := 1; i < len(word); i++ {
		if letterRank[word[i]-'a'] < letterRank[word[k]-'a'] {
			k = i
		}
	}
	return k
}

// hasFoldAt reports whether text has word in some case with the byte at,
// its k-th letter in one case, where it is.
func hasFoldAt(text, word string, k int, at byte) bool {
	for i := k; ; i++ {
		if i >= len(text) {
			return false
		}
		j := strings.IndexByte(text[i:], at)
		if j < 0 {
			return false
		}
		i += j
		start := i - k
		if start+len(word) > len(text) {
			return false
		}
		n := 0
		for n < len(word) && (n == k || text[start+n]|0x20 == word[n]) {
			n++
		}
		if n == len(word) {
			return true
		}
	}
}

// extractCorrections finds the correction commands of a message's text and
// returns them as actions, with the text they span blanked (offsets kept)
// so that the sentences they quote are not read again.
func (e *Engine) extractCorrections(text string) ([]*Action, string) {
	if !hasCorrect(text) {
		return nil, text
	}
	var acts []*Action
	b := []byte(text)
	for _, loc := range correctHead().FindAllStringSubmatchIndex(text, -1) {
		start, rest := loc[0], loc[1]
		if b[start] == ' ' { // blanked by an earlier command
			continue
		}
		a := &Action{Offset: start, Verb: correctVerb, Args: map[string]string{"coe": text[loc[2]:loc[3]]}}
		tail := text[rest:]
		end := rest
		if m := fixMessage().FindStringSubmatchIndex(tail); m != nil {
			sub := func(i int) string {
				if m[2*i] < 0 {
					return ""
				}
				return tail[m[2*i]:m[2*i+1]]
			}
			a.Args["msgid"] = sub(1)
			switch {
			case sub(2) != "":
				a.Args["kind"], a.Args["text"] = string(FixReads), sub(3)
			case sub(4) != "":
				a.Args["kind"] = string(FixVoid)
			default:
				a.Args["kind"], a.Args["time"] = string(FixArrived), sub(6)
			}
			end += m[1]
		} else if m := fixAdjust().FindStringSubmatchIndex(tail); m != nil {
			a.Args["kind"] = string(FixAdjust)
			a.Args["time"], a.Args["change"], a.Args["rule"] = tail[m[2]:m[3]], tail[m[4]:m[5]], tail[m[6]:m[7]]
			end += m[1]
		} else {
			line, _, _ := strings.Cut(tail, "\n")
			a.Reject = Reject("syntax", "a correction is written as: %s", fixSyntax)
			end += len(line)
		}
		if m := fixOverride().FindStringIndex(text[end:]); m != nil {
			a.Args["override"] = "yes"
			end += m[1]
		}
		if m := fixEnd().FindStringIndex(text[end:]); m != nil {
			end += m[1]
		}
		a.Line = strings.Join(strings.Fields(text[start:end]), " ")
		for i := start; i < end; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
		acts = append(acts, a)
	}
	return acts, string(b)
}

// Fix reads the correction of an action extractCorrections found.
func (e *Engine) fix(s *State, a *Action) (*Correction, error) {
	n, err := strconv.Atoi(a.Arg("coe"))
	if err != nil {
		return nil, Reject("syntax", "the claim's number %q is not a number", a.Arg("coe"))
	}
	f := &Correction{CoE: n, Kind: FixKind(a.Arg("kind")), MsgID: a.Arg("msgid"), Text: a.Arg("text"), Override: a.Arg("override") != ""}
	switch f.Kind {
	case FixArrived:
		t, err := parseFixTime(a.Arg("time"))
		if err != nil {
			return nil, Reject("syntax", "the arrival time: %v", err)
		}
		f.Arrived = t
	case FixAdjust:
		t, err := parseFixTime(a.Arg("time"))
		if err != nil {
			return nil, Reject("syntax", "the adjustment's time: %v", err)
		}
		adj := &Adjustment{At: t, Rule: strings.TrimSpace(a.Arg("rule")), CoE: n}
		change := strings.TrimSpace(a.Arg("change"))
		if m := ledgerForm().FindStringSubmatch(change); m != nil {
			amount, whole := ParseWhole(m[2])
			if cur, _, ok := e.currency(m[3]); ok && whole {
				adj.Owner, adj.Amount, adj.Currency = strings.TrimSpace(m[1]), amount, cur.ID
			}
		}
		if adj.Currency == "" {
			adj.Change = change
		}
		f.Adjust = adj
	}
	return f, nil
}

// doCorrect checks a correction and journals it; the re-run follows.
func doCorrect(c *Ctx, a *Action) error {
	f, err := c.e.fix(c.s, a)
	if err != nil {
		return err
	}
	var cl *Claim
	for _, x := range c.s.Claims {
		if x.ID == f.CoE {
			cl = x
		}
	}
	if cl == nil {
		if err := answered(c.s, f.CoE); err != nil {
			return err
		}
		return Reject("G8", "there is no open claim of error #%d to correct", f.CoE)
	}
	gs := c.s.Games[cl.Game]
	if gs == nil || !strings.EqualFold(gs.Contestmaster, c.msg.From) {
		return Reject("G8", "only the contestmaster of the game claim #%d is about may correct it", f.CoE)
	}
	if f.Adjust != nil {
		f.Adjust.Game = cl.Game
	}
	if f.Kind == FixArrived && f.Arrived.After(c.now) {
		return Reject("G2", "a message cannot have arrived after the correction (%s UTC)", Stamp(c.now))
	}
	if f.Kind == FixAdjust && f.Adjust.At.After(c.now) {
		return Reject("G8", "an adjustment corrects the past: its time %s UTC is after now", Stamp(f.Adjust.At))
	}
	c.Detail("correction", f)
	// Kept on the claim until the re-run is journaled (PendingCorrections).
	c.s.setClaimFix(cl.ID, f)
	c.Did("correction of CoE #%d accepted: %s; the record is re-run from there, and the revision (or the reason the correction is refused) follows", f.CoE, f.Describe())
	return nil
}

// Corrections lists the corrections a message's entries accepted: the
// daemon re-runs the history with each.
func Corrections(entries []Entry) []Correction {
	var out []Correction
	for _, en := range entries {
		if en.Verb != "correct" || en.Outcome != "applied" {
			continue
		}
		if f, ok := en.Detail["correction"].(*Correction); ok {
			out = append(out, *f)
		}
	}
	return out
}

// corrected answers claim n by a correction, as a denial answers it: the
// claim leaves the state with its ruling request, and the report it was
// about, when no other claim holds it, self-ratifies again a period after
// the state's clock. Rerun does it to the corrected state; a re-done
// InCorrect of a later re-run's history does the same. It returns the claim
// answered, nil when no claim n is open.
func (e *Engine) corrected(s *State, n int) *Claim {
	i := slices.IndexFunc(s.Claims, func(x *Claim) bool { return x.ID == n })
	if i < 0 {
		return nil
	}
	cl := s.Claims[i]
	s.Claims = slices.Delete(slices.Clone(s.Claims), i, i+1)
	if s.ruling(cl.Ruling) != nil {
		s.Rulings = slices.DeleteFunc(slices.Clone(s.Rulings), func(r *Ruling) bool { return r.ID == cl.Ruling })
	}
	if x := s.cited(cl.Report); x != nil && x.Status == "claimed" && !slices.ContainsFunc(s.Claims, func(o *Claim) bool { return o.Report == x.ID }) {
		s.touchCited(x)
		x.Status, x.Ratifies = "pending", s.Clock.Add(e.ratification(s, x.Game))
	}
	return cl
}

// AnswerRecorded marks a revision whose corrected state records the answer
// to its claim among its game's recent events (Revision.Answer).
const AnswerRecorded = "recorded"

// GameEvent is a line of one game's recent events, held apart from the
// game: the answer a correction gave its claim (Input.Answer).
type GameEvent struct {
	Game string    `json:"game"`
	Time time.Time `json:"time"`
	Who  string    `json:"who"`
	What string    `json:"what"`
}

// answerEvent is what the recent events of claim cl's game say of its
// correction, as a denial's say of it: where the claim was made, what the
// correction did, briefly, without what a private message now reads (its
// sender's corrected receipt alone shows it, as the revision says), and
// how much the revision lists.
func answerEvent(cl *Claim, rev *Revision, at time.Time) *GameEvent {
	f := &rev.Fix
	did := f.Describe()
	switch {
	case f.Kind == FixReads && rev.private:
		did = fmt.Sprintf("message %s, sent to the referee alone, reads otherwise", f.MsgID)
	case f.Kind == FixReads:
		did = fmt.Sprintf("message %s now reads `%s`", f.MsgID, firstWords(f.Text, 8))
	}
	changed := "nothing changed"
	if rev.Changed() {
		var parts []string
		count := func(n int, one, many string) {
			switch {
			case n == 1:
				parts = append(parts, "1 "+one)
			case n > 1:
				parts = append(parts, fmt.Sprintf("%d %s", n, many))
			}
		}
		count(len(pairedOutcomes(rev.Outcomes)), "outcome", "outcomes")
		count(len(rev.State), "fact", "facts")
		count(len(rev.Draws), "draw", "draws")
		count(len(rev.Receipts)+len(rev.Notices), "notice", "notices")
		changed = joinAnd(parts) + " changed"
	}
	return &GameEvent{Game: cl.Game, Time: at, Who: "the contestmaster",
		What: fmt.Sprintf("corrects CoE #%d on %s: %s (Revision: CoE #%d, on the official list: %s)", cl.ID, cl.Report, did, cl.ID, changed)}
}

// firstWords is the first n words of s, "..." marking those left out.
func firstWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) <= n {
		return strings.Join(w, " ")
	}
	return strings.Join(w[:n], " ") + " ..."
}

// recordAnswer adds a correction's answer to its game's recent events.
func (s *State) recordAnswer(ev *GameEvent) {
	gs := s.Games[ev.Game]
	if gs == nil {
		return
	}
	s.touchSection(gs)
	gs.Recent = append(slices.Clip(gs.Recent), Happening{Time: ev.Time, Who: ev.Who, What: ev.What})
}

// correctionRefused performs a refused InCorrect: the contestmaster who
// asked for it is told why (a correction that would change a ratified report
// without overriding ratification, a message not in the record, a history
// that fails), and the journal says so.
func (e *Engine) correctionRefused(s *State, in *Input) []Entry {
	f := in.Fix
	s.setClaimFix(f.CoE, nil)
	to := e.cfg.Contestmaster
	game := ""
	for _, cl := range s.Claims {
		if cl.ID == f.CoE {
			game = cl.Game
			if gs := s.Games[cl.Game]; gs != nil && gs.Contestmaster != "" {
				to = gs.Contestmaster
			}
		}
	}
	at := in.At.UTC()
	body := text.Wrap(fmt.Sprintf("Your correction of CoE #%d (%s) was not made: %s. Nothing was changed; the claim stays open.", f.CoE, f.Describe(), in.Error), 0) +
		"\n" + text.Signature("The referee")
	e.enqueue(s, &Notice{ID: fmt.Sprintf("correction/%d/refused/%s", f.CoE, at.Format("20060102T150405Z")), Kind: "ruling", Game: game,
		Channel: ChanPrivate, To: []string{to}, Subject: fmt.Sprintf("Correction of CoE #%d refused", f.CoE), Body: body, Time: at})
	s.JournalSeq++
	return []Entry{{Seq: s.JournalSeq, Time: at, Game: game, Verb: "correction", Outcome: "rejected", Reason: in.Error,
		Detail: map[string]any{"coe": f.CoE, "correction": f.Describe()}}}
}

// PendingCorrections are the corrections accepted whose re-run is not yet
// journaled, in the order of their claims: the referee re-runs each once
// the message that made it is saved, and at a start.
func (s *State) PendingCorrections() []Correction {
	var out []Correction
	for _, cl := range s.Claims {
		if cl.Fix != nil {
			out = append(out, *cl.Fix)
		}
	}
	return out
}

// setClaimFix records (or, with nil, clears) the correction waiting to be
// re-run on claim n, replacing the claim and the list rather than writing
// into them, so that an open transaction can undo it.
func (s *State) setClaimFix(n int, f *Correction) {
	for i, cl := range s.Claims {
		if cl.ID != n {
			continue
		}
		c := *cl
		c.Fix = f
		s.Claims = slices.Clone(s.Claims)
		s.Claims[i] = &c
		return
	}
}
