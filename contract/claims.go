package contract

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"referee/contract/text"
	"referee/internal/lazyre"
)

// Claims of Error and self-ratification (AGORA "Reports and notices"): every
// public report and notice is citable, describes the state by a hash, and
// becomes true after its period unless a player claims an error in it first.

// Cited is a published report or notice that self-ratifies: what it covers of
// the record, the hash of the state it describes, and its ratification clock.
type Cited struct {
	// ID is its citation, the notice's ID: "life/report/2026-W50".
	ID   string `yaml:"id"`
	Game string `yaml:"game,omitempty"` // "" for the referee's own notices
	Kind string `yaml:"kind"`
	// Subject is the notice's subject, for players who cite it by name.
	Subject string `yaml:"subject"`
	// From and Seq are the journal lines it covers: From..Seq.
	From int64 `yaml:"from"`
	Seq  int64 `yaml:"seq"`
	// LastMsgID is the Message-ID of the last message applied before it.
	LastMsgID string `yaml:"last_msgid,omitempty"`
	// Hash is the keyed hash of the state it describes (StateHash).
	Hash      string    `yaml:"hash"`
	Published time.Time `yaml:"published"`
	// Ratifies is when it self-ratifies, unless a claim is open on it then
	// (zero while one is: the clock is stopped).
	Ratifies time.Time `yaml:"ratifies,omitempty"`
	// Status is "pending", "claimed" (a claim is open: the clock is stopped)
	// or "ratified".
	Status   string    `yaml:"status"`
	Ratified time.Time `yaml:"ratified,omitempty"`
	// Announced: a later notice of its game has said that it ratified.
	Announced bool `yaml:"announced,omitempty"`
	// Excluded are the parts the game's text says do not self-ratify.
	Excluded []string `yaml:"excluded,omitempty"`
}

// Claim is an open Claim of Error: a player's doubt about a report, a notice
// or a receipt, waiting for the contestmaster's answer (G8).
type Claim struct {
	ID int `yaml:"id"`
	// Game is the game whose contestmaster answers it.
	Game string `yaml:"game"`
	// Report is what is claimed against: a citation (a Cited ID) or the
	// receipt of a message ("receipt/<Message-ID>").
	Report   string `yaml:"report"`
	Claimant string `yaml:"claimant"` // the player's name
	From     string `yaml:"from"`     // eir address
	MsgID    string `yaml:"msgid"`    // the message that made the claim
	What     string `yaml:"what"`     // what is wrong, in eir words
	// Public: the claim was made on a public list, so its words may be
	// quoted in public; a private claim's words are not (they may tell a
	// sealed value).
	Public bool      `yaml:"public,omitempty"`
	Filed  time.Time `yaml:"filed"`
	// Ruling is the number of the ruling request asked of the contestmaster.
	Ruling int `yaml:"ruling,omitempty"`
	// Status is "open" while it waits; a claim answered leaves the state (the
	// journal keeps the answer).
	Status string `yaml:"status"`
	// Fix is a correction the contestmaster made that is not yet re-run:
	// the referee re-runs it as soon as the message that made it is saved,
	// and again at a start if a crash came between the two (the re-run's
	// journal line, InCorrect, answers the claim or clears Fix).
	Fix *Correction `yaml:"fix,omitempty"`
}

// DefaultRatification is a report's self-ratification period when the game's
// "ratification" parameter is unset.
const DefaultRatification = 7 * 24 * time.Hour

// The sentences of claims and their answers. A claim takes the rest of its
// paragraph as what is wrong; so does a denial as its reason.
var (
	// claimLine starts a claim: "I CoE on <report>: ...", "CoE: ...",
	// "Claim of Error on <report>: ...", "CoE in Life: ..." (the game,
	// one to four words, named before the colon).
	claimLine = lazyre.MustCompile(`(?i)^(?:(?:[-*•]|\d{1,2}[.)])\s+)?(?:(i)\s+(?:hereby\s+)?(?:coe|make\s+a\s+claim\s+of\s+error|claim\s+(?:an\s+)?error)\b|(?:coe|claim\s+of\s+error)\s*(?:\bon\b|\bagainst\b|:|\s(?:in|for)\s+(?:[\pL\pN'-]+\s+){0,3}[\pL\pN'-]+\s*(?:\bon\b|\bagainst\b|:)))`)
	claimForm = lazyre.MustCompile(`(?is)^(?:(?:[-*•]|\d{1,2}[.)])\s+)?(?:i\s+(?:hereby\s+)?)?(?:coe|make\s+a\s+claim\s+of\s+error|claim\s+(?:an\s+)?error|claim\s+of\s+error)(?:\s+(?:in|for)\s+(?P<game>(?:[\pL\pN'-]+\s+){0,3}?[\pL\pN'-]+))?(?:\s+(?:on|against)\s+<?(?P<report>[^\s:<>]+?)>?)?\s*:\s*(?P<what>\S.*)$`)
	// denyLine starts a denial: "I deny CoE #N: <reason>".
	denyLine = lazyre.MustCompile(`(?i)^(?:(?:[-*•]|\d{1,2}[.)])\s+)?i\s+(?:hereby\s+)?deny\s+(?:the\s+)?(?:coe|claim\s+of\s+error)\b`)
	denyForm = lazyre.MustCompile(`(?is)^(?:(?:[-*•]|\d{1,2}[.)])\s+)?i\s+(?:hereby\s+)?deny\s+(?:the\s+)?(?:coe|claim\s+of\s+error)\s*(?:#|no\.?\s*|number\s*)?\s*(?P<id>\d+)\s*[:,.-]\s*(?P<reason>\S.*)$`)
)

const (
	claimSyntax = `I CoE on <report>: <what is wrong> (or "CoE: <what is wrong>" in a reply to the report or receipt)`
	denySyntax  = `I deny CoE #N: <reason> (contestmasters, privately)`
)

var coeVerb = &Verb{Name: "coe", Scope: Anywhere, Rule: "CoE", Extracted: true,
	Syntax: claimSyntax, Help: "claim an error in a report, a notice or a receipt; it stops the report's self-ratification until the contestmaster answers",
	Do: doClaim}

var denyVerb = &Verb{Name: "deny coe", Scope: PrivateOnly, Rule: "CoE", Extracted: true,
	Syntax: denySyntax, Help: "deny a Claim of Error; the denial is published and the report's clock restarts",
	Do: doDeny}

// paragraphs splits a text into its paragraphs (runs of non-blank lines),
// each with its byte offset and end.
func paragraphs(text string) [][3]int {
	var out [][3]int
	start, end := -1, 0
	off := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.TrimSpace(line) == "" {
			if start >= 0 {
				out = append(out, [3]int{start, end, 0})
				start = -1
			}
		} else {
			if start < 0 {
				start = off
			}
			end = off + len(line)
		}
		off += len(line)
	}
	if start >= 0 {
		out = append(out, [3]int{start, end, 0})
	}
	return out
}

// claimActions reads the claims and denials of a text: each starts a line
// and runs to the end of its paragraph. A line that starts like one but does
// not follow its form is an action that fails with the syntax expected.
// spans are the byte ranges read, which the sentence reader skips.
func claimActions(text string) (acts []*Action, spans [][2]int) {
	if !mayClaim(text) {
		return nil, nil // no line of it may claim: most mail
	}
	for _, p := range paragraphs(text) {
		lines := strings.SplitAfter(text[p[0]:p[1]], "\n")
		off := p[0]
		for i, line := range lines {
			t := strings.TrimSpace(line)
			lead := off + len(line) - len(strings.TrimLeftFunc(line, unicode.IsSpace))
			var verb *Verb
			var form *regexp.Regexp
			switch {
			case !mayClaim(t):
			case denyLine().MatchString(t):
				verb, form = denyVerb, denyForm()
			case claimLine().MatchString(t):
				verb, form = coeVerb, claimForm()
			}
			if verb == nil {
				off += len(line)
				continue
			}
			// The rest of the paragraph, unless another claim or denial
			// starts a later line.
			rest := []string{t}
			end := off + len(line)
			for _, l := range lines[i+1:] {
				lt := strings.TrimSpace(l)
				if mayClaim(lt) && (denyLine().MatchString(lt) || claimLine().MatchString(lt)) {
					break
				}
				rest = append(rest, lt)
				end += len(l)
			}
			whole := strings.Join(rest, " ")
			a := &Action{Line: whole, Offset: lead, Verb: verb, Args: map[string]string{}, Body: whole}
			if m := form.FindStringSubmatch(whole); m != nil {
				for k, name := range form.SubexpNames() {
					if name != "" {
						a.Args[name] = strings.TrimSpace(m[k])
					}
				}
			} else {
				a.Reject = Reject("syntax", "not understood; the form is: %s", verb.Syntax)
			}
			acts = append(acts, a)
			spans = append(spans, [2]int{lead, end})
			off += len(line)
		}
	}
	return acts, spans
}

// mayClaim reports whether denyLine or claimLine can match a line: each
// needs "coe" or "error" in it, in some case.
func mayClaim(line string) bool { return hasFoldASCII(line, "coe") || hasFoldASCII(line, "error") }

// inSpans reports whether a byte offset falls inside one of the spans.
func inSpans(spans [][2]int, off int) bool {
	for _, s := range spans {
		if off >= s[0] && off < s[1] {
			return true
		}
	}
	return false
}

// claimTarget finds what a claim is about: the citation named, a report or
// notice the message replies to, or the receipt it replies to.
func (c *Ctx) claimTarget(ref string) (string, *Cited, error) {
	c.reads |= readBeyond
	s, m := c.s, c.msg
	domain := Domain(c.e.cfg.Referee)
	if ref != "" {
		ref = strings.Trim(ref, "<>.,;")
		for _, x := range s.Cited {
			if strings.EqualFold(x.ID, ref) || MessageID(x.ID, domain) == ref {
				return x.ID, x, nil
			}
		}
		return "", nil, Reject("CoE", "there is no report or notice %q that can still be claimed against; %s", ref, claimable(s))
	}
	if m != nil {
		var refs []string
		refsSet := map[string]bool{}
		for _, r := range append(slices.Clone(m.InReplyTo), m.References...) {
			r = strings.Trim(r, "<>")
			refs = append(refs, r)
			refsSet[r] = true
		}
		for _, x := range s.Cited {
			if refsSet[MessageID(x.ID, domain)] {
				return x.ID, x, nil
			}
		}
		// A receipt's References end with the message it answers; the
		// latest receipt replied to counts.
		for i := len(refs) - 1; i >= 0; i-- {
			if refsSet[MessageID("receipt/"+refs[i], domain)] {
				return "receipt/" + refs[i], nil, nil
			}
		}
		// A reply that names the receipt alone (In-Reply-To without the
		// References a mail client adds): the message it answers is one
		// the memory of Message-IDs holds.
		if id := receiptAnswering(s, m.InReplyTo, domain); id != "" {
			return "receipt/" + id, nil, nil
		}
	}
	return "", nil, Reject("CoE", "name the report or notice (\"I CoE on life/report/2026-W50: ...\"), or send the claim as a reply to it or to your receipt; %s", claimable(s))
}

// receiptAnswering is the Message-ID of the message whose receipt is one of
// ids, among the messages the memory of Message-IDs holds; "" if none is.
func receiptAnswering(s *State, ids []string, domain string) string {
	want := map[string]bool{}
	for _, r := range ids {
		if r = strings.Trim(r, "<>"); strings.HasPrefix(r, "receipt.") {
			want[r] = true
		}
	}
	if len(want) == 0 {
		return ""
	}
	for id := range s.Seen.IDs {
		if want[MessageID("receipt/"+id, domain)] {
			return id
		}
	}
	return ""
}

// claimable lists the records a claim can name.
func claimable(s *State) string {
	var ids []string
	for _, x := range s.Cited {
		if x.Status != "ratified" {
			ids = append(ids, x.ID)
		}
	}
	if len(ids) == 0 {
		return "no report or notice is waiting to self-ratify"
	}
	if len(ids) > 8 {
		ids = append(ids[len(ids)-8:len(ids):len(ids)], "(and older ones)")
	}
	return "those not yet ratified are " + strings.Join(ids, ", ")
}

// doClaim records a Claim of Error: the claimed report's clock stops, and
// the game's contestmaster is asked for a ruling (G8).
func doClaim(c *Ctx, a *Action) error {
	s := c.s
	id, x, err := c.claimTarget(a.Arg("report"))
	if err != nil {
		return err
	}
	if x != nil && x.Status == "ratified" {
		return Reject("CoE", "%s self-ratified on %s UTC: it is now true as published, and a claim no longer stops it", x.ID, Stamp(x.Ratified))
	}
	what := a.Arg("what")
	p := c.Actor()
	game := ""
	if x != nil {
		game = x.Game
	}
	if game == "" {
		// "CoE in Life: ...": the game named before the colon; other
		// words there ("CoE for my receipt: ...") name none.
		game = c.e.gameNamed(a.Arg("game"))
	}
	if game == "" {
		if _, g := c.e.gameRef(what); g != "" {
			game = g
		} else if g := s.Receipted[strings.TrimPrefix(id, "receipt/")]; x == nil && g != "" {
			// The receipt replied to concerns one game's actions.
			game = g
		} else if len(p.Member) == 1 {
			game = p.Member[0]
		}
	}
	if game == "" {
		return Reject("CoE", "%s belongs to no one game: say which game's contestmaster should answer (\"... in Life\")", id)
	}
	n := s.NextClaim + 1
	if pins := s.aux().claims; pins != nil {
		// A re-run's corrected history: the claim keeps its number, a
		// new one takes one after the recorded history's.
		if k, ok := pins.ids[claimKey(c.msg.ID, id)]; ok && !slices.ContainsFunc(s.Claims, func(o *Claim) bool { return o.ID == k }) {
			n = k
		} else {
			n = max(n, pins.last+1)
		}
	}
	s.NextClaim = max(s.NextClaim, n)
	cl := &Claim{ID: n, Game: game, Report: id, Claimant: p.Name, From: strings.ToLower(c.msg.From), MsgID: c.msg.ID,
		What: what, Filed: c.now, Public: c.msg.Channel.IsPublic(), Status: "open"}
	s.Claims = append(slices.Clone(s.Claims), cl)
	if x != nil && x.Status == "pending" {
		s.touchCited(x)
		x.Status, x.Ratifies = "claimed", time.Time{}
	}
	c.game, c.gs = game, s.Games[game]
	how := "privately"
	if cl.Public {
		how = "publicly"
	}
	q := fmt.Sprintf("Claim of Error #%d, made %s by %s <%s> at %s UTC, on %s: %s", cl.ID, how, cl.Claimant, cl.From, Stamp(cl.Filed), id, what)
	dflt := "the claim stays open"
	if x != nil {
		dflt += fmt.Sprintf(" and %s does not self-ratify", id)
	}
	r := c.AskRuling(fmt.Sprintf("coe/%d", cl.ID), q, dflt)
	cl.Ruling = r.ID
	stop := ""
	if x != nil {
		stop = "; its self-ratification is stopped"
	}
	c.Did("Claim of Error #%d recorded on %s%s until the contestmaster of %s answers (ruling request #%d)", cl.ID, id, stop, c.Title(), r.ID)
	c.Record(p.Name, "claims an error in %s (CoE #%d)", id, cl.ID)
	c.Detail("claim", map[string]any{"id": cl.ID, "report": id, "what": what, "ruling": r.ID})
	return nil
}

// answered is the refusal of an answer to claim n when n was made and has
// left the state, answered (a claim is answered once: denied, or corrected
// and re-run); nil when no claim n was made.
func answered(s *State, n int) error {
	if n < 1 || n > s.NextClaim {
		return nil
	}
	return Reject("G8", "Claim of Error #%d has been answered; an error left in the record needs a new claim (a player's \"CoE: ...\" in a reply to the report, notice or receipt), which you can then answer", n)
}

func (s *State) claim(id int) *Claim {
	for _, c := range s.Claims {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// doDeny is the contestmaster's denial of a claim: published on the official
// list, and the claimed report's clock restarts for a whole period.
func doDeny(c *Ctx, a *Action) error {
	s := c.s
	n, _ := strconv.Atoi(a.Arg("id"))
	cl := s.claim(n)
	if cl == nil {
		if err := answered(s, n); err != nil {
			return err
		}
		return Reject("CoE", "there is no open Claim of Error #%s", a.Arg("id"))
	}
	gs := s.Games[cl.Game]
	if gs == nil || !strings.EqualFold(c.msg.From, gs.Contestmaster) {
		return Reject("G8", "only the contestmaster of %s can answer Claim of Error #%d", c.e.title(cl.Game), cl.ID)
	}
	reason := a.Arg("reason")
	c.game, c.gs = cl.Game, gs
	s.Claims = slices.DeleteFunc(slices.Clone(s.Claims), func(x *Claim) bool { return x.ID == cl.ID })
	if s.ruling(cl.Ruling) != nil {
		c.dropRuling(cl.Ruling)
	}
	restart := ""
	if x := s.cited(cl.Report); x != nil && x.Status == "claimed" && !slices.ContainsFunc(s.Claims, func(o *Claim) bool { return o.Report == x.ID }) {
		s.touchCited(x)
		x.Status, x.Ratifies = "pending", c.now.Add(c.e.ratification(s, x.Game))
		restart = fmt.Sprintf("%s now self-ratifies on %s UTC unless another Claim of Error is made before then.", x.ID, Stamp(x.Ratifies))
	} else if x != nil && x.Status == "claimed" {
		restart = fmt.Sprintf("%s stays unratified while other claims on it are open.", x.ID)
	}
	var b strings.Builder
	b.WriteString(text.Banner(c.Title()+": Claim of Error #"+strconv.Itoa(cl.ID)+" denied", '='))
	b.WriteString("\n")
	how := "privately"
	if cl.Public {
		how = "publicly"
	}
	b.WriteString(text.Wrap(fmt.Sprintf("The contestmaster of %s denies Claim of Error #%d, made %s by %s at %s UTC on %s.", c.Title(), cl.ID, how, cl.Claimant, Stamp(cl.Filed), cl.Report), 0))
	if cl.Public {
		b.WriteString("\n")
		b.WriteString(text.WrapIndent(cl.What, 0, "> ", "> "))
	}
	b.WriteString("\n")
	b.WriteString(text.WrapIndent(reason, 0, "Reason: ", "        "))
	if restart != "" {
		b.WriteString("\n")
		b.WriteString(text.Wrap(restart, 0))
	}
	b.WriteString("\n")
	b.WriteString(text.Signature("The referee"))
	c.Notify(&Notice{ID: fmt.Sprintf("%s/coe/%d/denied", cl.Game, cl.ID), Kind: "notice", Channel: ChanOfficial,
		Subject: fmt.Sprintf("[%s] Claim of Error #%d denied", c.Title(), cl.ID), Body: b.String()})
	c.Did("Claim of Error #%d denied; the denial is published on the official list", cl.ID)
	if restart != "" {
		c.Did("%s", restart)
	}
	c.Record("the contestmaster", "denies CoE #%d on %s: %s", cl.ID, cl.Report, reason)
	c.Detail("claim", map[string]any{"id": cl.ID, "report": cl.Report, "denied": reason})
	return nil
}
