package contract

import (
	"cmp"
	"fmt"
	"referee/internal/lazyre"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Result is what became of one attempted action, for the receipt.
type Result struct {
	Line    string
	Game    string
	Done    bool
	Changes []string
	Reason  string // for a failure: why, with the rule or the syntax expected
}

// Apply performs a message on the state: first every scheduled event due by its
// arrival (G2), then its actions in the order written, then the receipt. It
// returns the journal entries. A rejected action leaves the state as it was; an
// error is a fault of ours (a game's panic, a broken invariant) and the caller
// must discard the state and leave the message unacknowledged.
//
// Apply changes only what the message touches, and can be undone within a
// transaction the caller opened (State.Begin).
func (e *Engine) Apply(s *State, m *Message) ([]Entry, error) {
	if verifyUndo.Load() {
		tx := s.Begin()
		_, _ = e.apply(s, m)
		tx.Undo()
	}
	return e.apply(s, m)
}

func (e *Engine) apply(s *State, m *Message) ([]Entry, error) {
	m.Arrived = m.Arrived.UTC()
	entries, err := e.advance(s, m.Arrived)
	if err != nil {
		return entries, err
	}
	at := m.Arrived
	if at.Before(s.Clock) {
		at = s.Clock // G2: nothing enters a phase that has closed
	}
	if e.holds(m) {
		return append(entries, e.hold(s, m, at)...), nil
	}
	if s.seen(m, e.cfg.SeenHorizon) {
		return entries, nil
	}
	s.release(m.ID) // the list's copy arrived: it is the one that counts
	s.LastMsgID = m.ID
	if m.Channel == ChanIgnore {
		return entries, nil
	}
	var events []Entry
	for _, en := range entries {
		if en.Outcome == "event" && (m.Date.IsZero() || en.Time.After(m.Date)) {
			events = append(events, en)
		}
	}
	if e.isPreview(m) {
		return entries, e.preview(s, m, at)
	}
	if e.isHelp(m) && !m.TooLarge {
		if len(m.Unreadable) > 0 && m.Channel != ChanDiscussion {
			entries = append(entries, e.journalMessage(s, m, at, "", "rejected", "unreadable: "+strings.Join(m.Unreadable, "; ")))
		}
		e.helpReply(s, m, at)
		return entries, nil
	}
	results, more, err := e.actions(s, m, at)
	entries = append(entries, more...)
	if err != nil {
		return entries, err
	}
	if len(results) > 0 {
		e.receipt(s, m, at, results, events)
		noteReceipted(s, m.ID, results)
	}
	more, err = e.advance(s, at)
	return append(entries, more...), err
}

// actions performs a message's actions in the order written and returns the
// receipt's results and the journal entries.
func (e *Engine) actions(s *State, m *Message, at time.Time) ([]Result, []Entry, error) {
	var entries []Entry
	var results []Result
	if len(m.Unreadable) > 0 && !m.TooLarge && m.Channel != ChanDiscussion {
		// A part in an unknown charset or encoding is read as its raw
		// bytes, and the actions found there are performed; a part
		// skipped is not: only what is listed below was.
		r := Result{Line: "(parts of the message)", Reason: "could not be read whole: " + strings.Join(m.Unreadable, "; ") +
			". Only the actions read below were performed; send any other again as plain text (text/plain, UTF-8), in the body, not in an attachment or a forwarded message"}
		results = append(results, r)
		ent := e.journalMessage(s, m, at, "", "rejected", "unreadable: "+strings.Join(m.Unreadable, "; "))
		entries = append(entries, ent)
	}
	switch {
	case m.TooLarge && m.Channel == ChanDiscussion:
		// Talk, never actions (G4): answered no more than a post of any
		// size there, as a part that could not be read is not.
	case m.TooLarge:
		results = append(results, Result{Line: "(the whole message)", Reason: "the message is too large to be read for actions; send the actions alone, in plain text"})
		entries = append(entries, e.journalMessage(s, m, at, "", "rejected", "too large"))
	default:
		acts, notUnderstood := e.extract(s, m)
		if m.Channel == ChanDiscussion {
			for _, a := range acts {
				results = append(results, Result{Line: a.Line, Game: a.Game, Reason: "this came through the discussion list, so it had no effect; announce it on the public list (G4)"})
			}
			if len(results) > 0 {
				ent := e.journalMessage(s, m, at, "", "rejected", "discussion list")
				entries = append(entries, ent)
			}
			break
		}
		// The receipt keeps the order written: a sentence not understood comes
		// where it stood among the actions.
		unread := func(before int) {
			for len(notUnderstood) > 0 && notUnderstood[0].Offset < before {
				r := notUnderstood[0].Result
				notUnderstood = notUnderstood[1:]
				ent := e.journalMessage(s, m, at, r.Game, "rejected", r.Reason)
				ent.Detail = map[string]any{"line": r.Line}
				entries = append(entries, ent)
				results = append(results, r)
			}
		}
		for _, a := range acts {
			unread(a.Offset)
			r, ent, err := e.perform(s, m, a, at)
			if err != nil {
				return results, entries, fmt.Errorf("message %s, action %q: %w", m.ID, a.Line, err)
			}
			results = append(results, r)
			entries = append(entries, ent)
		}
		unread(len(m.Text) + 1)
	}
	return results, entries, nil
}

// Repeats reports whether Apply would change nothing of s for m, and
// journal nothing: the message was already applied (or is older than the
// memory's horizon), or, a direct copy, is held already or was dropped
// when its wait ended, and no scheduled event falls due by its arrival.
// A replay of an archive read before skips such messages instead of
// journaling each again.
func (e *Engine) Repeats(s *State, m *Message) bool {
	arrived := m.Arrived.UTC()
	if arrived.After(s.Clock) {
		return false // Apply moves the clock
	}
	seen := s.remembers(m.ID, arrived)
	if !seen && e.holds(m) {
		_, held := s.Held[m.ID]
		seen = held || s.remembers(droppedKey(m.ID), arrived)
	}
	if !seen {
		return false
	}
	_, ev, ok, err := e.earliest(s)
	return err == nil && (!ok || ev.At.After(arrived))
}

// Forgotten reports whether m arrived before the memory of Message-IDs
// begins (its horizon) and is not in it, held or dropped: Apply takes it
// as applied, and whether it ever was cannot be told (an archive older
// than the state, replayed after it).
func (s *State) Forgotten(m *Message) bool {
	if s.Seen.Horizon.IsZero() || !m.Arrived.Before(s.Seen.Horizon) {
		return false
	}
	if _, ok := s.Seen.IDs[m.ID]; ok {
		return false
	}
	if _, ok := s.Held[m.ID]; ok {
		return false
	}
	_, dropped := s.Seen.IDs[droppedKey(m.ID)]
	return !dropped
}

// seen reports whether the message was already applied (or is older than the
// memory's horizon), and remembers it otherwise. The memory is a map, looked
// up once, and a queue by arrival from which what falls behind the horizon is
// taken: a message costs what it adds and what expires, not the memory's size.
func (s *State) seen(m *Message, horizon time.Duration) bool {
	if s.remembers(m.ID, m.Arrived) {
		return true
	}
	s.remember(m.ID, m.Arrived, horizon)
	return false
}

// remembers says whether the memory holds key, or arrival is before its
// horizon.
func (s *State) remembers(key string, arrived time.Time) bool {
	if _, ok := s.Seen.IDs[key]; ok {
		return true
	}
	return !s.Seen.Horizon.IsZero() && arrived.Before(s.Seen.Horizon)
}

// droppedKey is the memory's key of a direct copy whose wait for the
// list's copy ended (listCopyMissing): the Message-ID after "<", which no
// Message-ID holds, so that the list's copy, which still counts when it
// comes, is not taken for it.
func droppedKey(id string) string { return "<" + id }

// remember adds key, at arrived, to the memory, which does not hold it
// (remembers is false), and forgets what falls behind its horizon.
func (s *State) remember(key string, arrived time.Time, horizon time.Duration) {
	if s.Seen.IDs == nil {
		s.Seen.IDs = map[string]time.Time{}
	}
	ids := s.Seen.IDs
	ax := s.aux()
	u, q := &ax.log, &ax.seen
	q.sync(ids, func(add func(string, time.Time)) {
		for id, t := range ids {
			add(id, t)
		}
	})
	if u.active() { // logKey, knowing key is not in ids: its undo deletes it
		u.push(func() { delete(ids, key) })
	}
	ids[key] = arrived
	q.push(arrived, key)
	if arrived.After(s.Seen.Latest) {
		s.Seen.Latest = arrived
	}
	cut := s.Seen.Latest.Add(-horizon)
	if cut.After(s.Seen.Horizon) {
		for {
			it, ok := q.pop(cut)
			if !ok {
				break
			}
			t, ok := ids[it.key]
			if !ok || !t.Before(cut) {
				continue // gone, or remembered again since
			}
			if u.active() {
				id := it.key
				u.push(func() { ids[id] = t; q.push(t, id) })
			}
			delete(ids, it.key)
			if rm := s.Receipted; rm != nil {
				logKey(u, rm, it.key)
				delete(rm, it.key)
			}
		}
		s.Seen.Horizon = cut
	}
}

// unreadResult is a sentence not understood, with its offset in the text.
// Private marks one answered only in private mail from a player or a
// contestmaster (verbHead).
type unreadResult struct {
	Result
	Offset  int
	Private bool
}

// extract finds the actions of a message in the order written: "I ..." sentences
// matched against every verb table, and the actions of games with their own
// notation. Sentences that name a game but match none of its verbs come back as
// "not understood" results with the nearest syntax.
func (e *Engine) extract(s *State, m *Message) ([]*Action, []unreadResult) {
	var acts []*Action
	var notUnderstood []unreadResult
	var fixes []*Action
	var text string
	if r := m.ahead; r != nil && r.raw == m.Text {
		fixes, text = r.fixes, r.text // read ahead, of this text
	} else {
		fixes, text = e.extractCorrections(m.Text)
	}
	var actor *Player // looked up once for every game's Extractor
	var c *Ctx        // the state's context for the Extractors, made once
	var gm *Message   // the message as the Extractors read it (gamesMessage)
	for i, g := range e.list {
		if x, ok := g.(Extractor); ok {
			if c == nil {
				actor, c, gm = s.PlayerByAddress(m.From), s.extractCtx(), gamesMessage(m, text)
			}
			id := e.ids[i]
			*c = Ctx{e: e, s: s, game: id, gs: s.Games[id], now: s.Clock, msg: gm, actor: actor, ro: true}
			for _, a := range x.Extract(c, gm) {
				a.Game = id
				acts = append(acts, a)
			}
		}
	}
	if c != nil {
		*c = Ctx{}
	}
	acts = append(acts, fixes...)
	sentences, notUnderstood := e.readOf(m, text)
	if slices.ContainsFunc(notUnderstood, func(u unreadResult) bool { return u.Private }) && !e.privateFromKnown(s, m) {
		notUnderstood = slices.DeleteFunc(slices.Clone(notUnderstood), func(u unreadResult) bool { return u.Private })
	}
	for _, a := range sentences {
		if !readWhole(acts, a, a.Line) {
			acts = append(acts, a)
		}
	}
	sort.SliceStable(acts, func(i, j int) bool { return acts[i].Offset < acts[j].Offset })
	return acts, notUnderstood
}

// gamesMessage is m as the games' Extractors read it: text (m's with the
// contestmaster's corrections blanked) with its claims of error and denials
// blanked too, each with the rest of its paragraph. Those are the
// interpreter's: a claim sent privately that quotes the bid meant ("CoE:
// you read my bid wrong, it was" / "Flight: 30") is a claim, not also a new
// sealed list. A message with none of them comes back as it was.
func gamesMessage(m *Message, text string) *Message {
	_, spans := claimActions(text)
	if len(spans) == 0 && text == m.Text {
		return m
	}
	b := []byte(text)
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	c := *m
	c.Text, c.ahead = string(b), nil
	return &c
}

// extractCtx is the context the games' Extractors are given: the state's
// own, used again message after message (a game keeps nothing of it), or a
// fresh one while that is in use (an Extract that extracts again).
func (s *State) extractCtx() *Ctx {
	ax := s.aux()
	if ax.extract == nil {
		ax.extract = &Ctx{}
	}
	if ax.extract.e != nil {
		return &Ctx{}
	}
	return ax.extract
}

// readAhead is a message's sentences as read before Apply.
type readAhead struct {
	raw    string    // m.Text as read
	fixes  []*Action // its corrections (extractCorrections)
	text   string    // raw with the corrections blanked
	acts   []*Action
	unread []unreadResult
}

// ReadAhead reads m's sentences now, for the Apply that follows: reading
// depends on the text and the games' verbs alone, not on the state, so a
// caller that parses mail outside its lock, or ahead of applying it, reads
// the sentences there too. Safe for concurrent use; m must not be applied
// meanwhile.
func (e *Engine) ReadAhead(m *Message) {
	fixes, text := e.extractCorrections(m.Text)
	acts, unread := e.read(text)
	m.ahead = &readAhead{raw: m.Text, fixes: fixes, text: text, acts: acts, unread: unread}
}

// readOf is the sentences of text, m's text with the contestmaster's
// corrections blanked: those read ahead, once, if the text is still the
// one read, or read now.
func (e *Engine) readOf(m *Message, text string) ([]*Action, []unreadResult) {
	if r := m.ahead; r != nil {
		m.ahead = nil
		if r.text == text {
			return r.acts, r.unread
		}
	}
	return e.read(text)
}

// read finds the "I ..." actions of a text in the order written, and the
// sentences that name a game but match none of its verbs.
func (e *Engine) read(text string) ([]*Action, []unreadResult) {
	written := text
	text = expandFollowing(text)
	acts, spans := claimActions(text)
	var notUnderstood []unreadResult
	for _, sen := range Sentences(text) {
		if inSpans(spans, sen.Offset) {
			continue // part of a claim of error or its answer
		}
		as, nu, private := e.readSentence(sen)
		if read, mark, ok := itemMark(written, text, sen); ok {
			// The receipt quotes the item with its mark, as written.
			for _, a := range as {
				if rest, ok := strings.CutPrefix(a.Line, read); ok {
					a.Line = mark + rest
				}
			}
			if nu != nil && strings.HasPrefix(nu.Line, read) {
				nu.Line = mark + nu.Line[len(read):]
			}
		}
		acts = append(acts, as...)
		if nu != nil {
			notUnderstood = append(notUnderstood, unreadResult{*nu, sen.Offset, private})
		}
	}
	sort.SliceStable(acts, func(i, j int) bool { return acts[i].Offset < acts[j].Offset })
	return acts, notUnderstood
}

// readSentence reads one sentence: its actions, or the result of a sentence
// that names a game but matches none of its verbs. private marks a result
// for a sentence that names no game but begins as a verb does (verbHead):
// answered only in private mail from a player or a contestmaster.
func (e *Engine) readSentence(sen Sentence) (acts []*Action, nu *Result, private bool) {
	p, ok := ReadPerformative(sen.Text)
	if ok && p.Kind == "not" {
		return nil, e.intentWithoutMethod(sen, p), false
	}
	if !ok {
		return nil, nil, false
	}
	if p.Kind == "intent" {
		return []*Action{{Line: sen.Text, Offset: sen.Offset, Verb: intentVerb, Args: map[string]string{
			"action": p.Action, "method": p.Method, "n": fmt.Sprint(p.N), "notice": p.Notice}, Cond: p.Cond, later: p.Later}}, nil, false
	}
	acts, nu = e.matchSentence(sen, p)
	acts = eachIntent(acts)
	if p.We || p.Later != "" {
		// "Tonight we celebrate in Life.": no verb reads it, and a
		// sentence of "we" or one put off to a later time is talk
		// oftener than an action (G3: plans never act); no reply, as
		// for other talk. "I celebrate in Life." is still answered.
		nu = nil
	} else if nu == nil && len(acts) == 0 {
		nu, private = e.verbHead(sen, p), true
	}
	for _, a := range acts {
		if p.LaterAfter && a.Verb != nil && a.Verb.Text {
			continue // the time phrase is the text's, read whole
		}
		a.later = p.Later
	}
	return acts, nu, private && nu != nil
}

// verbHead is the refusal of a sentence that names no game and reads as
// no verb but begins with the words of a verb's form before its first
// argument ("I correct the delegated power of dave to lots": "correct the
// delegated power of"), with the nearest such form; nil for any other
// sentence. In a public mail such a sentence is talk, as any sentence
// naming no game is (match); in private mail to the referee from a player
// or a contestmaster it can only be meant for the referee, and is answered
// (extract).
func (e *Engine) verbHead(sen Sentence, p Performative) *Result {
	action := strings.ToLower(strings.Join(strings.Fields(p.Action), " "))
	var best *compiledVerb
	score := -1
	for i := range e.verbs {
		cv := &e.verbs[i]
		head := cv.head
		if head == "" || !strings.HasPrefix(action, head) || len(action) > len(head) && isWordByte(action[len(head)]) {
			continue
		}
		if n := sharedWords(action, cv.verb.Syntax); n > score {
			best, score = cv, n
		}
	}
	switch {
	case best == nil:
		return nil
	case best.game == "":
		return &Result{Line: sen.Text, Reason: "not understood; the form is: " + best.verb.Syntax}
	}
	return &Result{Line: sen.Text, Game: best.game, Reason: fmt.Sprintf("not understood; the nearest form is: %s (send \"help %s\" for all)", best.verb.Syntax, best.game)}
}

// syntaxHead is the words of a verb's form after "I" and before its first
// argument, lower case: those of lower-case letters alone ("correct the
// delegated power of" of "I correct the delegated power of Bob to 0.5",
// "pick up" of "I pick up <thing> in Wacky World"); "" for a form that
// does not begin "I ".
func syntaxHead(syntax string) string {
	rest, ok := strings.CutPrefix(syntax, "I ")
	if !ok {
		return ""
	}
	var head []string
	for _, w := range strings.Fields(rest) {
		if strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			break
		}
		head = append(head, w)
	}
	return strings.Join(head, " ")
}

// sharedWords counts the words of more than two letters of form that text
// has, both lower case.
func sharedWords(text, form string) int {
	words := map[string]bool{}
	for _, w := range wordRE().FindAllString(text, -1) {
		words[w] = true
	}
	n := 0
	for _, w := range wordRE().FindAllString(strings.ToLower(form), -1) {
		if words[w] && len(w) > 2 {
			n++
		}
	}
	return n
}

// privateFromKnown reports whether m is private mail from a player or from
// a game's contestmaster.
func (e *Engine) privateFromKnown(s *State, m *Message) bool {
	if m.Channel != ChanPrivate {
		return false
	}
	if s.PlayerByAddress(m.From) != nil || strings.EqualFold(m.From, e.cfg.Contestmaster) {
		return true
	}
	for _, gs := range s.Games {
		if gs.Contestmaster != "" && strings.EqualFold(m.From, gs.Contestmaster) {
			return true
		}
	}
	return false
}

// matchSentence finds the action or actions of a performative sentence.
func (e *Engine) matchSentence(sen Sentence, p Performative) ([]*Action, *Result) {
	a, nu := e.match(sen, p)
	if p.Whole != "" {
		// "I suggest we let a Cell survive if it has 2 neighbours":
		// the "if" is the suggestion's, a verb's text read whole.
		q := p
		q.Action, q.Cond = p.Whole, p.WholeCond
		if w, _ := e.match(sen, q); w != nil && w.Reject == nil && w.Verb.Text {
			a, nu = w, nil
		}
	}
	if a == nil || a.Reject != nil || a.Game == "" && a.Verb.Name == "transfer" {
		// A transfer's recipient runs to the end of the sentence, so
		// "I transfer 3 Vials to Bob and claim cell (1, 2)" matches it
		// whole, to a player called "Bob and claim cell (1, 2)": a
		// reading as several actions comes first.
		if parts := e.matchJoined(sen, p); parts != nil {
			return parts, nil
		}
	}
	if a != nil {
		return []*Action{a}, nil
	}
	return nil, nu
}

// Reading is how the referee reads one action of a text, for tests and
// tools: the game ("" for the interpreter's own verbs), the verb and its
// arguments; Verb is "not understood" for a sentence that names a game but
// matches none of its verbs, and "not now" for an action put off to a
// later time ("Tomorrow, I ...": not performed, later.go). An action put
// off to a day named ("On Friday, I ...") is read as its verb: it is
// performed when the day is the one it arrives.
type Reading struct {
	Game, Verb string
	Args       map[string]string
}

// Read reads a text's "I ..." sentences as the interpreter does, without a
// state: the games' own notations (Extractors) are not read.
func (e *Engine) Read(text string) []Reading {
	acts, nu := e.read(text)
	var out []Reading
	for _, a := range acts {
		r := Reading{Game: a.Game, Verb: a.Verb.Name, Args: map[string]string{}}
		if a.later != "" && putOff(a.later) {
			r.Verb = "not now"
		}
		if a.Reject != nil {
			r.Verb = "ambiguous"
			if a.Verb == coeVerb || a.Verb == denyVerb {
				r.Verb = "not understood" // a claim or denial not in its form
			}
		}
		for k, v := range a.Args {
			if v != "" && !strings.HasPrefix(k, "_") {
				r.Args[k] = v
			}
		}
		if a.Cond != "" {
			r.Args["if"] = a.Cond
		}
		out = append(out, r)
	}
	for _, r := range nu {
		if r.Private {
			continue // answered in private mail alone (verbHead)
		}
		out = append(out, Reading{Game: r.Game, Verb: "not understood"})
	}
	return out
}

// andSplit is where "I join Life and claim cell (1, 2)" joins two actions;
// also "..., then claim ..." and "..., and then I claim ...".
var andSplit = lazyre.MustCompile(`(?i)\s*(?:,\s*)?\b(?:and\s+(?:then\s+|also\s+)?|then\s+)(?:i\s+(?:then\s+|also\s+)?)?`)

// matchJoined reads several actions joined by "and" with a shared subject
// ("I join the Life contest and claim cell (1, 2)"): each part must be an
// action by itself; a part that names no game takes the game another part
// names. An "and" may also stand inside one of the actions ("... and claim
// cells (1, 2) and (3, 4)"): the sentence is cut at every "and" if each
// part is then an action, else at as many of them as make every part one,
// the earlier cuts first. Nil when the sentence is not such a list.
func (e *Engine) matchJoined(sen Sentence, p Performative) []*Action {
	if len(p.Action) > 400 {
		return nil // not a list of a few actions
	}
	locs := andSplit().FindAllStringIndex(p.Action, -1)
	if len(locs) == 0 || len(locs) > 4 {
		return nil
	}
	_, game := e.gameRef(p.Action)
	for cuts := len(locs); cuts >= 1; cuts-- {
		for _, at := range choose(len(locs), cuts) {
			var chosen [][]int
			for _, i := range at {
				chosen = append(chosen, locs[i])
			}
			if out := e.joinedParts(sen, p, chosen, game); out != nil {
				return out
			}
		}
	}
	return nil
}

// joinedParts reads p's action cut at each of locs as actions with one
// subject, or nil when a part is not an action by itself.
func (e *Engine) joinedParts(sen Sentence, p Performative, locs [][]int, game string) []*Action {
	var parts []string
	start := 0
	for _, l := range locs {
		parts = append(parts, strings.TrimSpace(p.Action[start:l[0]]))
		start = l[1]
	}
	parts = append(parts, strings.TrimSpace(p.Action[start:]))
	lines := joinedLines(sen.Text, p.Action, locs)
	var out []*Action
	for i, part := range parts {
		if part == "" {
			return nil
		}
		line := "I " + part
		if i > 0 {
			line = "... and " + part
		}
		if lines != nil {
			line = lines[i]
		}
		if r, g := e.gameRef(part); g == "" && game != "" {
			part = r + " in " + e.games[game].Spec().Aliases[0]
		}
		q := p
		q.Action = part
		if i < len(parts)-1 {
			q.Remark = "" // the remark ends the last part
		}
		a, _ := e.match(Sentence{Text: line, Offset: sen.Offset + i}, q)
		if (a == nil || a.Reject != nil) && i > 0 {
			// The verb of the first part, shared: "I transfer 3 Vials to
			// Bob and 2 Vials to Carol".
			q.Action = firstWord(parts[0]) + " " + q.Action
			a, _ = e.match(Sentence{Text: line, Offset: sen.Offset + i}, q)
		}
		if a == nil || a.Reject != nil {
			return nil
		}
		a.Line = line
		out = append(out, a)
	}
	return out
}

// joinedLines are the words of sentence that each part of its action
// (cut at locs, as joinedParts cuts it) stands for, as the receipt quotes
// them: the first part with what comes before it ("For the record, I
// transfer 3 Vials to Bob"), each other one "..." and its joining words on
// ("... then claim cell (1, 2) in Life"), the last to the sentence's end.
// Nil when the action is not found in the sentence.
func joinedLines(sentence, action string, locs [][]int) []string {
	base := strings.Index(sentence, action)
	if base < 0 {
		return nil
	}
	var lines []string
	start := 0
	for _, l := range locs {
		lines = append(lines, strings.TrimSpace(sentence[start:base+l[0]]))
		start = base + l[0]
	}
	lines = append(lines, strings.TrimSpace(sentence[start:]))
	for i := 1; i < len(lines); i++ {
		lines[i] = "... " + strings.TrimLeft(lines[i], ", \t")
	}
	if len(lines[0]) == 0 {
		return nil
	}
	return lines
}

// firstWord is s up to its first white space.
func firstWord(s string) string {
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i]
	}
	return s
}

// choose is every way to pick k of 0..n-1, each in increasing order, the
// ways in lexicographic order: choose(3, 2) is [0 1] [0 2] [1 2].
func choose(n, k int) [][]int {
	if k == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for first := 0; first <= n-k; first++ {
		for _, rest := range choose(n-first-1, k-1) {
			pick := []int{first}
			for _, r := range rest {
				pick = append(pick, first+1+r)
			}
			out = append(out, pick)
		}
	}
	return out
}

// namedGameRE finds "the X contest" or "the X game" in a sentence, X one to
// three words.
var namedGameRE = lazyre.MustCompile(`(?i)\bthe\s+((?:[\pL\pN'-]+\s+){0,2}?[\pL\pN'-]+)\s+(contest|game)\b`)

// unknownGame is the refusal of a sentence that names a game the referee
// does not run ("I join the Chess contest", "I join the Lfie contest"): one
// that some game's verb reads once that game is named in its place. Any
// other sentence that matches no verb is nil, and performs nothing.
func (e *Engine) unknownGame(sen Sentence, p Performative) *Result {
	m := namedGameRE().FindStringSubmatchIndex(p.Action)
	if m == nil {
		return nil
	}
	for _, g := range e.list {
		q := p
		q.Action = p.Action[:m[2]] + g.Spec().Aliases[0] + p.Action[m[3]:]
		if _, game := e.gameRef(q.Action); game != g.Spec().ID {
			continue
		}
		if a, _ := e.match(sen, q); a != nil {
			var names []string
			for _, g := range e.list {
				names = append(names, g.Spec().Title)
			}
			return &Result{Line: sen.Text, Reason: fmt.Sprintf("no game here is called %q; the games are %s (send \"help\" for their actions)", p.Action[m[2]:m[3]], joinAnd(names))}
		}
	}
	return nil
}

// coreHeads are how the interpreter's transfer and name change begin
// whatever follows: "I transfer -3 Vials to Bob", "I give 2.5 Vials to
// Bob", "I change my name to ." read as no verb, but are plainly those
// actions attempted.
var coreHeads = []struct {
	re   func() *regexp.Regexp
	verb string
}{
	{lazyre.MustCompile(`(?i)^(?:transfer\b|(?:give|send|hand(?:\s+over)?|pay)\s+[-+]?\d)`), "transfer"},
	{lazyre.MustCompile(`(?i)^(?:change|set)\s+my\s+(?:nick)?name\b`), "name"},
}

// coreNearest is the refusal of a sentence that begins as one of the
// interpreter's own verbs but does not read as it, with the form expected;
// nil for any other sentence, which performs nothing.
func (e *Engine) coreNearest(sen Sentence, p Performative) *Result {
	for _, h := range coreHeads {
		if !h.re().MatchString(p.Action) {
			continue
		}
		for _, v := range e.coreVerbs() {
			if v.Name == h.verb {
				why := "not understood; the form is: " + v.Syntax
				if h.verb == "transfer" {
					why += ", N a whole number, 0 or more"
				}
				return &Result{Line: sen.Text, Reason: why}
			}
		}
	}
	return nil
}

// readWhole reports whether a game's Extractor already read the sentence as
// part of an action it quotes (a Rumble list read whole), so the receipt does
// not quote it twice. The quote joins the list's lines with " / " where the
// sentence, run on to the next line without a full stop, joins them with a
// space: both are compared with every " / " and run of spaces as one space.
func readWhole(extracted []*Action, a *Action, sentence string) bool {
	flat := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, " / ", " ")), " ") }
	for _, x := range extracted {
		if x.Game != "" && x.Game == a.Game && x.Body != "" && strings.Contains(flat(x.Line), flat(sentence)) {
			return true
		}
	}
	return false
}

// match finds the verb a performative means. A trailing game reference routes
// it; a sentence that matches verbs of several games without naming one is
// ambiguous and fails.
func (e *Engine) match(sen Sentence, p Performative) (*Action, *Result) {
	rest, game := e.gameRef(p.Action)
	var hits []compiledVerb
	var args [][]string
	try := func(text string) {
		for _, cv := range e.verbs {
			if game != "" && cv.game != "" && cv.game != game || !cv.first.mayBegin(text) {
				continue
			}
			if m := cv.re().FindStringSubmatch(text); m != nil {
				hits = append(hits, cv)
				args = append(args, m)
			}
		}
	}
	try(rest)
	if len(hits) == 0 && rest != p.Action {
		try(p.Action)
	}
	for _, t := range []string{rest, p.Action} {
		if len(hits) > 0 {
			break
		}
		if d := numberDigits(t); d != t {
			try(d)
		}
	}
	if len(hits) == 0 && game != "" && rest == p.Action {
		if action, remark, ok := e.remarkAfterGame(p.Action, game); ok {
			// "I claim cell (40, 40) in Life as discussed": the remark
			// without a comma after the game's name, read off as one
			// after a comma is.
			q := p
			q.Action, q.Remark = action, remark
			if p.Remark != "" {
				q.Remark += ", " + p.Remark
			}
			return e.match(sen, q)
		}
	}
	if len(hits) == 0 {
		if game == "" {
			if r := e.unknownGame(sen, p); r != nil {
				return nil, r
			}
			return nil, e.coreNearest(sen, p)
		}
		return nil, &Result{Line: sen.Text, Game: game, Reason: "not understood; " + e.nearest(game, rest)}
	}
	// Prefer a game's verb over the interpreter's own, and a single game. The
	// hits are in e.verbs' order, every game's verbs before the interpreter's
	// (NewEngine), so the first is a game's whenever any is.
	games := map[string]bool{}
	for _, cv := range hits {
		if cv.game != "" {
			games[cv.game] = true
		}
	}
	if len(games) > 1 {
		var names []string
		for g := range games {
			names = append(names, e.games[g].Spec().Title)
		}
		sort.Strings(names)
		a := &Action{Line: sen.Text, Offset: sen.Offset, Verb: hits[0].verb, Game: hits[0].game,
			Reject: Reject("syntax", "this could be an action of %s; name the game (\"... in %s\")", strings.Join(names, " or "), names[0])}
		return a, nil
	}
	cv := hits[0]
	a := &Action{Line: sen.Text, Offset: sen.Offset, Game: cv.game, Verb: cv.verb, Cond: p.Cond, Args: map[string]string{}}
	for i, name := range cv.re().SubexpNames() {
		// A name may stand in two alternatives ("I give 3 Vials to Bob", "I
		// give Bob 3 Vials"): the one that matched gives its value.
		if v := strings.TrimSpace(args[0][i]); name != "" && (v != "" || a.Args[name] == "") {
			a.Args[name] = v
		}
	}
	if p.Resolves {
		a.Args["_resolves"] = "yes"
	}
	if p.Remark != "" {
		a.Args["_remark"] = p.Remark
	}
	return a, nil
}

var wordRE = lazyre.MustCompile(`[a-z]+`)

// spelled is a number written as a word before what it counts ("two
// Vials", "three cells", "twenty-one Vials"), perhaps with its figures
// after it in parentheses, as Agora writes amounts ("three (3) Vials"), or
// at the text's end ("Flight: thirty").
var spelled = lazyre.MustCompile(`(?i)\b(` + spelledNumber + `)(?:\s*\(\s*(\d+)\s*\))?(?:\s+([a-z])|\s*$)`)

// spelledNumber is a number in words: one of spelledValue, or a ten and a
// unit ("twenty-one", "forty two").
const spelledNumber = `(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[-\s](?:one|two|three|four|five|six|seven|eight|nine)\b)?` +
	`|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|hundred`

// figuresSpelled is an amount in figures with its words after it in
// parentheses: "3 (three) Vials".
var figuresSpelled = lazyre.MustCompile(`(?i)\b(\d+)\s*\(\s*(` + spelledNumber + `)\s*\)\s+([a-z])`)

var spelledValue = map[string]int{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
	"fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100}

// spelledNumberValue is the value of a match of spelledNumber.
func spelledNumberValue(w string) int {
	n := 0
	for _, part := range strings.FieldsFunc(strings.ToLower(w), func(r rune) bool { return r == '-' || unicode.IsSpace(r) }) {
		n += spelledValue[part]
	}
	return n
}

// numberDigits writes spelled numbers as digits: "two Vials" is "2 Vials",
// "twenty-one Vials" is "21 Vials", "three (3) Vials" and "3 (three)
// Vials" are "3 Vials". Words and figures that disagree ("three (4)
// Vials") are left as written, which no verb reads.
func numberDigits(s string) string {
	if !maySpell(s) {
		return s
	}
	s = figuresSpelled().ReplaceAllStringFunc(s, func(m string) string {
		g := figuresSpelled().FindStringSubmatch(m)
		if strconv.Itoa(spelledNumberValue(g[2])) != strings.TrimLeft(g[1], "0") {
			return m
		}
		return g[1] + " " + g[3]
	})
	return spelled().ReplaceAllStringFunc(s, func(m string) string {
		g := spelled().FindStringSubmatch(m)
		v := strconv.Itoa(spelledNumberValue(g[1]))
		if g[2] != "" && strings.TrimLeft(g[2], "0") != v {
			return m
		}
		if g[3] == "" {
			return v // the text's last word: "Flight: thirty"
		}
		return v + " " + g[3]
	})
}

// NumberDigits writes the numbers of a text spelled in words as figures,
// as the interpreter reads a verb's amounts ("two powers" is "2 powers",
// "twenty-one Vials" "21 Vials", "three (3) Vials" "3 Vials"), for a game
// that reads numbers in an argument's free text.
func NumberDigits(s string) string { return numberDigits(s) }

// spelledWords are the words spelled matches, in lower case, or the start
// of each ("seven" holds "seventeen" and "seventy").
var spelledWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
	"thirteen", "fifteen", "twenty", "thirty", "forty", "fifty", "hundred"}

// maySpell reports whether spelled can match s: an ASCII s must hold one of
// spelledWords in some case (folding another rune to s needs a text that
// is not ASCII).
func maySpell(s string) bool {
	if !isASCII(s) {
		return true
	}
	lower := strings.ToLower(s)
	for _, w := range spelledWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// nearest names the verb of the game (a sentence's or a tag's, as the game's
// table lists them) whose syntax shares most words with what the player
// wrote, and among those whose syntax shares as many, the one whose
// help does ("I join Steemfield": no form of that game has "join", but the
// help of {DELEGATE: 0.5} says it joins the game). Words of one or two
// letters do not count.
func (e *Engine) nearest(game, text string) string {
	words := map[string]bool{}
	for _, w := range wordRE().FindAllString(strings.ToLower(text), -1) {
		words[w] = true
	}
	shared := func(s string) int {
		n := 0
		for _, w := range wordRE().FindAllString(strings.ToLower(s), -1) {
			if words[w] && len(w) > 2 {
				n++
			}
		}
		return n
	}
	best, score, helps := "", -1, -1
	var verbs []*Verb
	if g := e.games[game]; g != nil {
		verbs = g.Verbs()
	}
	for _, v := range verbs {
		if v.Syntax == "" {
			continue
		}
		n := shared(v.Syntax)
		if n < score {
			continue
		}
		h := shared(v.Help)
		if n > score || h > helps {
			best, score, helps = v.Syntax, n, h
		}
	}
	if best == "" {
		return fmt.Sprintf("send \"help %s\" for the actions", game)
	}
	return fmt.Sprintf("the nearest form is: %s (send \"help %s\" for all)", best, game)
}

// perform applies one action. A rejection restores the state as it was.
func (e *Engine) perform(s *State, m *Message, a *Action, at time.Time) (Result, Entry, error) {
	res := Result{Line: a.Line, Game: a.Game}
	tx := s.Begin()
	defer tx.End()
	c := e.ctx(s, a.Game, at, m)
	err := run(func() error {
		if err := e.do(c, m, a); err != nil {
			return err
		}
		e.closeGone(c)
		return nil
	})
	if err == nil {
		err = s.checkTouched(e.currencies(), tx)
	}
	if res.Game == "" {
		res.Game = cmp.Or(c.game, c.concerns)
	}
	if err != nil {
		r, ok := AsRejection(err)
		if !ok {
			return res, Entry{}, err
		}
		tx.Undo()
		res.Reason = r.Error()
		ent := e.journalMessage(s, m, at, a.Game, "rejected", r.Error())
		ent.Verb = a.Verb.Name
		ent.Detail = map[string]any{"line": a.Line}
		return res, ent, nil
	}
	res.Done = c.ignored == ""
	res.Changes = c.did
	if !res.Done {
		res.Reason, res.Changes = c.ignored, nil
	}
	ent := e.flush(s, c)
	if !res.Done {
		ent.set("ignored", res.Reason)
	}
	ent.Verb = a.Verb.Name
	ent.Outcome = "applied"
	ent.set("line", a.Line)
	return res, ent, nil
}

// do checks the action's channel, authentication, intent and condition, then
// performs it.
func (e *Engine) do(c *Ctx, m *Message, a *Action) error {
	if a.Reject != nil {
		return a.Reject
	}
	if a.later != "" {
		if err := notNow(a.later, c.Now()); err != nil {
			return err
		}
	}
	v := a.Verb
	switch v.Scope {
	case PublicOnly:
		if !m.Channel.IsPublic() && !m.preview {
			return Reject("G4", "this is a public action: announce it on the public list, not in private mail")
		}
	case PrivateOnly:
		if m.Channel != ChanPrivate && !m.preview {
			if a.Game == "" {
				// The contestmaster's answers (a ruling, a denial, a
				// correction): nothing in them is sealed.
				return Reject("G4", "this is a private action and does not count from a list; send it privately to %s", e.cfg.Referee)
			}
			return Reject("G4", "this is a private action and does not count from a list; the list has now seen it, so consider changing it; send it privately to %s", e.cfg.Referee)
		}
		if e.cfg.RequireAuth && !m.Authenticated {
			note := m.AuthNote
			if note == "" {
				note = "no passing DKIM or DMARC result"
			}
			return Reject("G4", "private actions need an authenticated sender and this message was not authenticated (%s)", note)
		}
	}
	if a.Cond != "" {
		ok, err := e.evalCond(c, a.Cond)
		if err != nil {
			return err
		}
		if !ok {
			return Reject("G3", "the condition %q is false, so the action was not performed", a.Cond)
		}
		c.Did("condition %q holds", a.Cond)
	}
	if v.Dependent != nil {
		return e.resolveDependent(c, a)
	}
	return v.Do(c, a)
}

// journalMessage builds an entry for a message-level outcome.
func (e *Engine) journalMessage(s *State, m *Message, at time.Time, game, outcome, reason string) Entry {
	s.JournalSeq++
	ent := Entry{Seq: s.JournalSeq, Time: at, MsgID: m.ID, Game: game, Outcome: outcome, Reason: reason}
	if p := s.PlayerByAddress(m.From); p != nil {
		ent.Player = p.Name
	}
	return ent
}
