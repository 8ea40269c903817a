package contract

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"time"

	"referee/contract/text"
	"referee/internal/lazyre"
)

// readingGuide is how the referee reads mail, the same for every game: the
// first part of the HELP reply and the guide players are pointed to.
//
//go:embed guide.md
var readingGuide string

var helpRE = lazyre.MustCompile(`(?i)^\s*help\b\s*([a-z ]*?)\s*[.!?]*\s*$`)

func firstLine(s string) string {
	for s != "" {
		l := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			l, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

func (e *Engine) isHelp(m *Message) bool {
	return isHelpLine(firstLine(m.Text)) || (strings.TrimSpace(m.Text) == "" && isHelpLine(m.Subject))
}

// isHelpLine is helpRE().MatchString(s), without the expression when s does
// not hold "help" in some case (no rune but an ASCII letter folds to one of
// its letters).
func isHelpLine(s string) bool { return hasFoldASCII(s, "help") && helpRE().MatchString(s) }

// allowReceipt applies the per-sender receipt limit (default 30 an hour) so a
// mail loop cannot flood anyone. Senders whose latest receipt is an hour old
// are forgotten, found from a queue by that time rather than by a scan.
func (e *Engine) allowReceipt(s *State, addr string, at time.Time) bool {
	if s.Receipts == nil {
		s.Receipts = map[string][]time.Time{}
	}
	rs := s.Receipts
	ax := s.aux()
	u, q := &ax.log, &ax.receipts
	q.sync(rs, func(add func(string, time.Time)) {
		for a, ts := range rs {
			if len(ts) > 0 {
				add(a, ts[len(ts)-1])
			}
		}
	})
	set := func(a string, ts []time.Time, del bool) {
		if u.active() {
			old, had := rs[a]
			u.push(func() {
				if !had {
					delete(rs, a)
					return
				}
				rs[a] = old
				if len(old) > 0 {
					q.push(old[len(old)-1], a)
				}
			})
		}
		if del {
			delete(rs, a)
		} else {
			rs[a] = ts
		}
	}
	var keep []time.Time
	for _, t := range rs[addr] {
		if at.Sub(t) < time.Hour {
			keep = append(keep, t)
		}
	}
	for {
		it, ok := q.pop(at.Add(-time.Hour).Add(time.Nanosecond))
		if !ok {
			break
		}
		if ts := rs[it.key]; it.key != addr && len(ts) > 0 && at.Sub(ts[len(ts)-1]) >= time.Hour {
			set(it.key, nil, true)
		}
	}
	if len(keep) >= e.cfg.RateLimit {
		set(addr, keep, false)
		return false
	}
	set(addr, append(keep, at), false)
	q.push(at, addr)
	return true
}

func replySubject(subj string) string {
	s := strings.TrimSpace(subj)
	if s == "" {
		return "Re: your message"
	}
	if lowerHasPrefix(s, "re:") {
		return s
	}
	return "Re: " + s
}

func refs(m *Message) []string {
	out := append([]string{}, m.References...)
	if len(out) == 0 {
		out = append(out, m.InReplyTo...)
	}
	return append(out, m.ID)
}

// receipt queues the private reply listing each action as read, with "done" and
// what changed or "not done" and why (issue: receipts).
func (e *Engine) receipt(s *State, m *Message, at time.Time, results []Result, events []Entry) {
	var b strings.Builder
	date := ""
	if !m.Date.IsZero() {
		date = " dated " + Stamp(m.Date) + " UTC"
	}
	b.WriteString(text.Wrap(fmt.Sprintf("Your message%s arrived at %s UTC and was read as follows.", date, Stamp(m.Arrived)), 0))
	if len(events) > 0 {
		b.WriteString("\n")
		var names []string
		for _, ev := range events {
			names = append(names, fmt.Sprintf("%s %s at %s", e.title(ev.Game), ev.Verb, Stamp(ev.Time)))
		}
		b.WriteString(text.Wrap("It arrived after these scheduled events, so it was applied after them (ruling G2): "+strings.Join(names, "; ")+".", 0))
	}
	writeResults(&b, results)
	b.WriteString(text.Signature("The referee"))
	e.reply(s, m, "receipt/"+m.ID, b.String(), at)
}

// noteReceipted keeps the game of a message's receipt (State.Receipted)
// when its results, done or not, concern one game; the memory of
// Message-IDs forgets it with the message (remember).
func noteReceipted(s *State, id string, results []Result) {
	game := ""
	for _, r := range results {
		switch {
		case r.Game == "" || r.Game == game:
		case game != "":
			return // two games'
		default:
			game = r.Game
		}
	}
	if game == "" {
		return
	}
	if s.Receipted == nil {
		s.Receipted = map[string]string{}
	}
	logKey(s.undoLog(), s.Receipted, id)
	s.Receipted[id] = game
}

// writeResults writes each action as read, with "Done" and what changed or
// "Not done" and why, and the count.
func writeResults(b *strings.Builder, results []Result) {
	done, failed := 0, 0
	for _, r := range results {
		b.WriteString("\n")
		b.WriteString(text.WrapIndent(r.Line, 0, "> ", "> "))
		if r.Done {
			done++
			if len(r.Changes) == 0 {
				b.WriteString("  Done.\n")
			}
			for i, ch := range r.Changes {
				lead := "  Done: "
				if i > 0 {
					lead = "        "
				}
				b.WriteString(text.WrapIndent(ch, 0, lead, "        "))
			}
		} else {
			failed++
			b.WriteString(text.WrapIndent(r.Reason, 0, "  Not done: ", "            "))
		}
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "%d done, %d not done.\n\n", done, failed)
}

// reply queues a private answer to the sender of m, within the per-sender
// receipt limit. The first answer the limit withholds is replaced by one
// notice saying until when receipts are paused; the rest are withheld
// silently.
func (e *Engine) reply(s *State, m *Message, id, body string, at time.Time) {
	if !e.allowReceipt(s, m.From, at) {
		e.announcePause(s, m, at)
		return
	}
	s.Outbox = append(s.Outbox, &Outgoing{Notice: Notice{
		ID: id, Kind: "receipt", Channel: ChanPrivate, To: []string{m.From},
		Subject: replySubject(m.Subject), Body: body, InReplyTo: m.ID, References: refs(m), Time: at,
	}})
}

// announcePause tells a sender, once per pause, that the hourly receipt limit
// withholds eir receipts and until when; eir actions are still applied.
func (e *Engine) announcePause(s *State, m *Message, at time.Time) {
	for a, t := range s.Paused {
		if at.Sub(t) >= time.Hour {
			logKey(s.undoLog(), s.Paused, a)
			delete(s.Paused, a)
		}
	}
	if _, told := s.Paused[m.From]; told {
		return
	}
	sent := s.Receipts[m.From]
	if len(sent) == 0 {
		return
	}
	until := sent[0].Add(time.Hour)
	if s.Paused == nil {
		s.Paused = map[string]time.Time{}
	}
	logKey(s.undoLog(), s.Paused, m.From)
	s.Paused[m.From] = at
	var b strings.Builder
	b.WriteString(text.Wrap(fmt.Sprintf("You have had %d receipts from the referee in the last hour, the most it sends one address, so receipts are paused until %s UTC. Your actions are still applied; the weekly reports show them, and receipts resume by themselves.",
		len(sent), Stamp(until)), 0))
	b.WriteString("\n")
	b.WriteString(text.Signature("The referee"))
	s.Outbox = append(s.Outbox, &Outgoing{Notice: Notice{
		ID: "receipts-paused/" + m.ID, Kind: "receipt", Channel: ChanPrivate, To: []string{m.From},
		Subject: "Receipts paused until " + Stamp(until) + " UTC", Body: b.String(), InReplyTo: m.ID, References: refs(m), Time: at,
	}})
}

func (e *Engine) title(game string) string {
	if g := e.games[game]; g != nil {
		return g.Spec().Title
	}
	return "referee"
}

// helpReply answers HELP with the overview, or "help <game>" with the game's guide.
func (e *Engine) helpReply(s *State, m *Message, at time.Time) {
	src := firstLine(m.Text)
	if !helpRE().MatchString(src) {
		src = m.Subject
	}
	want := strings.TrimSpace(helpRE().FindStringSubmatch(src)[1])
	game := e.gameNamed(want)
	if game == "" {
		// "help me please", "help with life": the words around a game's
		// name, or around none, ask for help all the same.
		want = helpWords(want)
		game = e.gameNamed(want)
	}
	var body string
	switch g := e.games[game]; {
	case want == "":
		body = e.Overview()
	case g != nil:
		body = g.Spec().Guide
	default:
		var guides []string
		for _, g := range e.list {
			guides = append(guides, fmt.Sprintf("\"help %s\" for %s's guide", g.Spec().ID, g.Spec().Title))
		}
		body = text.Wrap(fmt.Sprintf("No game here is called %q; send %s.", want, joinAnd(guides)), 0) + "\n" + e.Overview()
	}
	e.reply(s, m, "help/"+m.ID, body, at)
}

// helpFiller are the words that ask for help without naming what about.
var helpFiller = map[string]bool{"me": true, "us": true, "please": true, "pls": true, "plz": true, "with": true, "on": true,
	"about": true, "for": true, "the": true, "a": true, "an": true, "i": true, "need": true, "some": true, "wanted": true,
	"needed": true, "again": true, "thanks": true, "thank": true, "you": true, "guide": true, "rules": true, "of": true}

// helpWords is what follows "help" without the words that only ask for it.
func helpWords(words string) string {
	var kept []string
	for _, w := range strings.Fields(words) {
		if !helpFiller[strings.ToLower(w)] {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// Overview is the HELP reply: every game with its actions, from the verb tables.
func (e *Engine) Overview() string {
	var b strings.Builder
	b.WriteString(text.Banner("The referee: help", '='))
	b.WriteString("\n")
	b.WriteString(readingGuide)
	b.WriteString("\n")
	b.WriteString(text.Wrap("Send \"help <game>\" for a game's full guide. The actions of each game:", 0))
	for _, g := range e.list {
		b.WriteString("\n")
		b.WriteString(text.Heading(g.Spec().Title + " (help " + g.Spec().ID + ")"))
		for _, v := range g.Verbs() {
			if v.Syntax == "" {
				continue
			}
			b.WriteString(text.WrapIndent(v.Syntax, 0, "  ", "    "))
		}
	}
	b.WriteString("\n")
	b.WriteString(text.Heading("For every game"))
	var core, masters []string
	for _, v := range e.coreVerbs() {
		if v.Scope == PrivateOnly && v.Rule == "G8" {
			masters = append(masters, v.Syntax)
			continue
		}
		core = append(core, v.Syntax)
	}
	core = append(core, intentVerb.Syntax, coeVerb.Syntax, previewSyntax)
	sort.Strings(core)
	for _, c := range core {
		b.WriteString(text.WrapIndent(c, 0, "  ", "    "))
	}
	b.WriteString("\n")
	b.WriteString(text.Heading("For contestmasters"))
	masters = append(masters, denyVerb.Syntax, correctVerb.Syntax)
	for _, c := range masters {
		b.WriteString(text.WrapIndent(c, 0, "  ", "    "))
	}
	b.WriteString(text.WrapIndent("A Claim of Error stops the claimed report's self-ratification until you answer it; silence leaves it open. Set a game's ratification period with its parameter \"ratification\" (7 days by default).", 0, "  ", "  "))
	b.WriteString("\n")
	b.WriteString(text.Signature("The referee"))
	return b.String()
}
