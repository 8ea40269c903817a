package contract

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"referee/contract/text"
)

// Revision is what a correction changed, published so that every player can
// check it (issue: corrections): every outcome that changed, the old and new
// value of what changed in the state, the draws whose outcome changed, the
// notices that changed (the receipts among them re-sent as "Corrected: ..."),
// and the state's hashes before and after.
type Revision struct {
	CoE        int        `json:"coe"`
	Correction string     `json:"correction"`
	Fix        Correction `json:"fix"`
	// From is the earliest point of the history the correction touches.
	From     time.Time       `json:"from"`
	Outcomes []OutcomeChange `json:"outcomes,omitempty"`
	State    []StateChange   `json:"state,omitempty"`
	Draws    []DrawChange    `json:"draws,omitempty"`
	Receipts []NoticeChange  `json:"receipts,omitempty"`
	Notices  []NoticeChange  `json:"notices,omitempty"`
	// Overrides are the ratified notices the correction changes, when it
	// overrides ratification.
	Overrides []string `json:"overrides,omitempty"`
	OldHash   string   `json:"old_hash"`
	NewHash   string   `json:"new_hash"`
	// Hashes is HashesOfTheGames when the hashes leave the mailbox
	// position out (StateDigest); empty in a revision written before.
	Hashes string `json:"hashes,omitempty"`
	// Rulings is RulingsKept when the corrected history kept the recorded
	// history's numbers of ruling requests (claimPins); empty in a
	// revision written before, whose corrected history numbered them anew.
	Rulings string `json:"rulings,omitempty"`
	// Series is SeriesKept when the corrected history kept the numbers
	// the recorded history gave the games' series (Ctx.Number); empty in
	// a revision written before, whose corrected history numbered them
	// anew.
	Series string `json:"series,omitempty"`
	// Items is ItemsByText when the corrected history matched a message's
	// items of a series to the recorded history's by their text first
	// (Ctx.Number); empty in a revision written before, which matched
	// them by their place alone.
	Items string `json:"items,omitempty"`
	// Ahead is AheadRead when the corrected history read a message's
	// items ahead, so that one added in front of those recorded took no
	// recorded one's number by its place (replayAhead); empty in a
	// revision written before.
	Ahead string `json:"ahead,omitempty"`
	// Lines is ReportEntries when the lines of a game's report were
	// compared entry by entry (reportEntries); empty in a revision
	// written before, which compared them line by line.
	Lines string `json:"lines,omitempty"`
	// Answer is AnswerRecorded when the corrected state records the
	// answer to the claim among its game's recent events (Event); empty
	// in a revision written before, whose corrected state did not.
	Answer string `json:"answer,omitempty"`
	// Event is that line of the recent events, journaled with the
	// correction's input (Input.Answer).
	Event *GameEvent `json:"-"`
	// Entries are the journal lines of the correction: its own, then the
	// re-run's, numbered after the current state's.
	Entries []Entry `json:"-"`
	// private: the correction gives a new text to a message sent to the
	// referee alone (a sealed bid, a secret action list), which the
	// revision's text does not show (compare; not journaled).
	private bool
}

// said is the correction as a mail says it: what the message now reads is
// shown only to its sender when the message was private (ownReceipt: the
// mail is the sender's corrected receipt of it).
func (r *Revision) said(ownReceipt bool) string {
	if !r.private || ownReceipt {
		return r.Correction
	}
	return fmt.Sprintf("message %s, sent to the referee alone, reads otherwise; what it now reads goes to its sender alone, in the corrected receipt", r.Fix.MsgID)
}

// quoted is the text a public message now reads, quoted as its sender
// wrote it (text.Quote), for the revision's text; "" for another
// correction, a private message's or a text without words. The journaled
// correction (Correction.Describe) has its words on one line.
func (r *Revision) quoted() string {
	if r.Fix.Kind != FixReads || r.private {
		return ""
	}
	return text.Quote(r.Fix.Text)
}

// Changed reports whether the correction changed anything a revision lists
// (the hashes differ also when it only closed its claim).
func (r *Revision) Changed() bool {
	return len(r.Outcomes) > 0 || len(r.State) > 0 || len(r.Draws) > 0 || len(r.Receipts) > 0 || len(r.Notices) > 0
}

// Outcome is what a revision says of one journal entry.
type Outcome struct {
	Time    time.Time `json:"time"`
	MsgID   string    `json:"msgid,omitempty"`
	Game    string    `json:"game,omitempty"`
	Verb    string    `json:"verb"`
	Player  string    `json:"player,omitempty"`
	Outcome string    `json:"outcome"`
	Reason  string    `json:"reason,omitempty"`
	Changes []string  `json:"changes,omitempty"`
	// what names a message's outcome that is no action's ("not
	// understood") and sender is the address of its sender when e is not
	// a player, for the revision's text (outcomeOf); neither is journaled.
	what, sender string
	// line is the action as its public message reads it, by which the
	// revision's text pairs a message's outcomes (byItem); not journaled.
	line string
}

func (o Outcome) equal(p Outcome) bool {
	return o.Outcome == p.Outcome && o.Reason == p.Reason && slices.Equal(o.Changes, p.Changes)
}

func (o *Outcome) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", o.Outcome)
	if o.Reason != "" {
		fmt.Fprintf(&b, " (%s)", o.Reason)
	}
	if len(o.Changes) > 0 {
		fmt.Fprintf(&b, ": %s", strings.Join(o.Changes, "; "))
	}
	return b.String()
}

// OutcomeChange is an action, a round or another event that came out
// otherwise: Old is nil for one the corrected history adds, New for one it
// no longer has.
type OutcomeChange struct {
	Old *Outcome `json:"old,omitempty"`
	New *Outcome `json:"new,omitempty"`
}

// pairedOutcomes are the outcome changes as the revision's text shows them:
// an outcome the corrected history no longer has and one it has instead,
// of the same action (its time, message and verb) under another game or
// with a player where the other has none, are one change, shown once under
// the new one's game and player. The two are apart in the journaled
// revision (outcomeChanges keys an entry with its game and player, and
// referee verify re-computes the revisions as journaled): a transfer
// refused for want of Vials is journaled without a game and the same
// transfer done with Life's, and a claim refused as its sender was no
// player without a game or a player and the same claim made, once a
// corrected join made em one, with both; the text showed each as two
// outcomes, one "not in the record" and one that "no longer happens".
func pairedOutcomes(cs []OutcomeChange) []OutcomeChange {
	same := func(a, b *Outcome) bool {
		player := a.Player == b.Player || a.Player == "" || b.Player == "" // one message: one sender
		return a.MsgID != "" && (a.Game != b.Game || a.Player != b.Player) && a.Time.Equal(b.Time) && a.MsgID == b.MsgID &&
			a.Verb == b.Verb && player && a.what == b.what && a.sender == b.sender
	}
	out := slices.Clone(cs)
	gone := make([]bool, len(out))
	for i := range out {
		if gone[i] || out[i].Old != nil || out[i].New == nil {
			continue
		}
		for j := range out {
			if !gone[j] && out[j].New == nil && out[j].Old != nil && same(out[i].New, out[j].Old) {
				out[i].Old, gone[j] = out[j].Old, true
				break
			}
		}
	}
	kept := out[:0]
	for i, c := range out {
		if !gone[i] {
			kept = append(kept, c)
		}
	}
	return kept
}

// byItem pairs again the outcome changes of the same action of one message
// (its time, message, game, verb and player), as the revision's text shows
// them: by what each is, the action as the message reads it or else its
// outcome, and then by their place among those left. The journaled revision pairs them by their
// place in the message alone (outcomeChanges; referee verify re-computes
// the revisions as journaled): a correction that added a modification in
// front of two kept ones was shown as "was #1, now #3", "was #2, now #1"
// and "now #2", though both kept theirs. A pair whose outcome is the same
// is left out. Private messages' outcomes, which say no line, stay paired
// by their place.
func byItem(cs []OutcomeChange) []OutcomeChange {
	type action struct {
		at                              time.Time
		msgID, game, verb, player, what string
	}
	keyOf := func(c OutcomeChange) (action, bool) {
		o := c.New
		if o == nil {
			o = c.Old
		}
		return action{o.Time, o.MsgID, o.Game, o.Verb, o.Player, o.what}, o.MsgID != ""
	}
	groups := map[action][]int{}
	for i, c := range cs {
		if k, ok := keyOf(c); ok {
			groups[k] = append(groups[k], i)
		}
	}
	var out []OutcomeChange
	for i, c := range cs {
		k, ok := keyOf(c)
		if !ok || len(groups[k]) < 2 {
			out = append(out, c)
			continue
		}
		if groups[k][0] != i {
			continue // written with the first of its action
		}
		var olds, news []*Outcome
		for _, j := range groups[k] {
			if cs[j].Old != nil {
				olds = append(olds, cs[j].Old)
			}
			if cs[j].New != nil {
				news = append(news, cs[j].New)
			}
		}
		out = append(out, pairByLine(olds, news)...)
	}
	return out
}

// pairByLine pairs the outcomes of one action of a message in the recorded
// history (olds) and the corrected one (news): each new one with the first
// old one left of the same line, then with the first left of the same
// outcome (a numbered item's names its number: "modification #2 is
// made"), then those left in their order; pairs whose outcome is the same
// are left out.
func pairByLine(olds, news []*Outcome) []OutcomeChange {
	pair := make([]int, len(news)) // the old outcome of each new one, -1: none yet
	taken := make([]bool, len(olds))
	for i, n := range news {
		pair[i] = -1
		if n.line == "" {
			continue
		}
		for j, o := range olds {
			if !taken[j] && o.line == n.line {
				pair[i], taken[j] = j, true
				break
			}
		}
	}
	for i, n := range news {
		for j, o := range olds {
			if pair[i] < 0 && !taken[j] && o.equal(*n) {
				pair[i], taken[j] = j, true
			}
		}
	}
	j := 0
	for i := range news {
		if pair[i] >= 0 {
			continue
		}
		for j < len(olds) && taken[j] {
			j++
		}
		if j < len(olds) {
			pair[i], taken[j] = j, true
		}
	}
	var out []OutcomeChange
	for i, n := range news {
		if pair[i] < 0 {
			out = append(out, OutcomeChange{New: n})
		} else if o := olds[pair[i]]; !o.equal(*n) {
			out = append(out, OutcomeChange{Old: o, New: n})
		}
	}
	for j, o := range olds {
		if !taken[j] {
			out = append(out, OutcomeChange{Old: o})
		}
	}
	return out
}

func (c OutcomeChange) at() time.Time {
	if c.New != nil {
		return c.New.Time
	}
	return c.Old.Time
}

// StateChange is one public fact of the state that changed: a balance, a
// score, a game's fact (a Life cell's Controller); "" is its absence.
type StateChange struct {
	What string `json:"what"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// DrawChange is a draw one history made and the other did not, or made over
// another range. Values are given once the week's seed is revealed (G5).
type DrawChange struct {
	Label    string `json:"label"`
	Before   bool   `json:"before"` // the recorded history made it
	Made     bool   `json:"made"`   // the corrected history makes it
	OldN     int    `json:"old_n,omitempty"`
	NewN     int    `json:"new_n,omitempty"`
	OldValue *int   `json:"old_value,omitempty"`
	NewValue *int   `json:"new_value,omitempty"`
	Sealed   bool   `json:"sealed,omitempty"` // the week's seed is not revealed yet
}

// NoticeChange is a notice whose text changed, or that one history made and
// the other did not.
type NoticeChange struct {
	ID       string  `json:"id"`
	Old      *Notice `json:"-"`
	New      *Notice `json:"-"`
	Ratified bool    `json:"ratified,omitempty"`
}

// MarshalJSON keeps what a reader of the journal may check of a changed
// notice: its ID, its subject and kind, whether each history made it, and
// the SHA-256 of each text (bodies of private notices stay in the mail).
func (c NoticeChange) MarshalJSON() ([]byte, error) {
	return jsonMarshal(noticeChangeJSON{ID: c.ID, Ratified: c.Ratified, Old: summary(c.Old), New: summary(c.New)})
}

// UnmarshalJSON reads what MarshalJSON wrote (the notices themselves stay
// nil).
func (c *NoticeChange) UnmarshalJSON(b []byte) error {
	var j noticeChangeJSON
	if err := jsonUnmarshal(b, &j); err != nil {
		return err
	}
	*c = NoticeChange{ID: j.ID, Ratified: j.Ratified}
	return nil
}

type noticeChangeJSON struct {
	ID       string         `json:"id"`
	Ratified bool           `json:"ratified,omitempty"`
	Old      *noticeSummary `json:"old,omitempty"`
	New      *noticeSummary `json:"new,omitempty"`
}

type noticeSummary struct {
	Kind    string `json:"kind"`
	Subject string `json:"subject"`
	Body    string `json:"body_sha256"`
}

func summary(n *Notice) *noticeSummary {
	if n == nil {
		return nil
	}
	return &noticeSummary{Kind: n.Kind, Subject: n.Subject, Body: sha256hex(n.Body)}
}

// Facter is a game that lists its public facts for revisions: what its
// reports show, one value per name ("Cell (3, 4)": "Alice"), never a sealed
// value. A game without it is compared by its report's lines.
type Facter interface {
	Facts(c *Ctx) (map[string]string, error)
}

// stateChanges lists the public facts that differ between two states at the
// same clock: balances, scores, and each game's facts (or report lines,
// compared one by one when loneLines, as revisions written before
// ReportEntries did).
func (e *Engine) stateChanges(old, cur *State, loneLines bool) ([]StateChange, error) {
	var out []StateChange
	add := func(what, o, n string) {
		if o != n {
			out = append(out, StateChange{What: what, Old: o, New: n})
		}
	}
	for _, c := range e.currencies() {
		owners := map[string]bool{}
		for o := range old.Ledger.Balances[c.ID] {
			owners[o] = true
		}
		for o := range cur.Ledger.Balances[c.ID] {
			owners[o] = true
		}
		for _, o := range slices.Sorted(maps.Keys(owners)) {
			a, b := old.Ledger.Balance(c.ID, o), cur.Ledger.Balance(c.ID, o)
			add(fmt.Sprintf("%s of %s", c.Plural, e.EntityName(o)), fmt.Sprint(a), fmt.Sprint(b))
		}
	}
	players := map[string]bool{}
	for p := range old.Points {
		players[p] = true
	}
	for p := range cur.Points {
		players[p] = true
	}
	for _, p := range slices.Sorted(maps.Keys(players)) {
		games := map[string]bool{}
		for g := range old.Points[p] {
			games[g] = true
		}
		for g := range cur.Points[p] {
			games[g] = true
		}
		for _, g := range slices.Sorted(maps.Keys(games)) {
			add(fmt.Sprintf("%s points of %s", e.title(g), p), fmt.Sprint(old.Points[p][g]), fmt.Sprint(cur.Points[p][g]))
		}
	}
	for _, g := range e.list {
		id := g.Spec().ID
		if f, ok := g.(Facter); ok {
			var fo, fn map[string]string
			err := run(func() error {
				var err error
				co := e.ctx(old, id, old.Clock, nil)
				co.ro = true
				if fo, err = f.Facts(co); err != nil {
					return err
				}
				cn := e.ctx(cur, id, cur.Clock, nil)
				cn.ro = true
				fn, err = f.Facts(cn)
				return err
			})
			if err != nil {
				return nil, fmt.Errorf("revision: the facts of %s: %w", id, err)
			}
			keys := map[string]bool{}
			for k := range fo {
				keys[k] = true
			}
			for k := range fn {
				keys[k] = true
			}
			for _, k := range sortedFacts(keys) {
				add(g.Spec().Title+": "+k, fo[k], fn[k])
			}
			continue
		}
		ro, err := e.Report(Snapshot(old), id, old.Clock)
		if err != nil {
			return nil, fmt.Errorf("revision: the report of %s: %w", id, err)
		}
		rn, err := e.Report(Snapshot(cur), id, cur.Clock)
		if err != nil {
			return nil, fmt.Errorf("revision: the report of %s: %w", id, err)
		}
		if ro.Body == rn.Body {
			continue
		}
		gone, came := lineSets(ro.Body, rn.Body, !loneLines)
		for _, l := range gone {
			add(g.Spec().Title+" report", l, "")
		}
		for _, l := range came {
			add(g.Spec().Title+" report", "", l)
		}
	}
	return out, nil
}

// sortedFacts sorts fact names by their text with the numbers in them
// compared as numbers, so "Cell (2, 10)" comes after "Cell (2, 9)".
func sortedFacts(keys map[string]bool) []string {
	out := slices.Collect(maps.Keys(keys))
	slices.SortFunc(out, naturalCompare)
	return out
}

func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da != 0 && db != 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) - len(nb)
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// ReportEntries marks a revision whose report lines were compared entry by
// entry (Revision.Lines): a line and the lines wrapped after it, such as a
// recent event's, come and go together.
const ReportEntries = "entries"

// lineSets is the lines of a report a (the recorded one) that b (the
// corrected one) has not, and those b has that a has not, each as often
// as it is there more, blank lines left out. With entries, a line wrapped
// onto the next ones is compared with them and, if it changed, listed with
// them: the one line of a recent event that changed (a commitment wrapped
// onto its second line) is not shown without the line it ends.
func lineSets(a, b string, entries bool) (gone, came []string) {
	ea, eb := reportEntries(a, entries), reportEntries(b, entries)
	return notIn(ea, eb), notIn(eb, ea)
}

// notIn is the lines of the entries of a that b has not (each as often as
// a has it more), blank lines left out, trailing spaces cut.
func notIn(a, b []string) []string {
	count := map[string]int{}
	for _, x := range b {
		count[x]++
	}
	var out []string
	for _, x := range a {
		if count[x] > 0 {
			count[x]--
			continue
		}
		for _, l := range strings.Split(x, "\n") {
			if strings.TrimSpace(l) != "" {
				out = append(out, strings.TrimRight(l, " "))
			}
		}
	}
	return out
}

// reportEntries splits a report into its lines, or (entries) into its
// entries: a line with the lines after it indented at least four columns
// deeper, the hanging indent of a wrapped entry (text.Wrap's recent events);
// a table's rows, a grid's and a legend's are a line each.
func reportEntries(s string, entries bool) []string {
	lines := strings.Split(s, "\n")
	if !entries {
		return lines
	}
	var out []string
	head := -1 // the indent of the open entry's first line; -1: none open
	for _, l := range lines {
		blank := strings.TrimSpace(l) == ""
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if !blank && head >= 0 && indent >= head+4 {
			out[len(out)-1] += "\n" + l
			continue
		}
		out = append(out, l)
		head = -1
		if !blank {
			head = indent
		}
	}
	return out
}

// joinAnd joins items as a sentence: "a", "a and b", "a, b and c".
func joinAnd(items []string) string { return text.And(items) }

// PublishRevision queues the revision on the official list, the changed
// receipts, each to its player as "Corrected: ...", and the changed public
// notices a game publishes again (Republisher), and journals it. It
// returns the journal entry. A preview's reply is not sent again: the
// preview changed nothing, and what it would do in the corrected record is
// no more than the revision says (the revision lists it).
func (e *Engine) PublishRevision(s *State, rev *Revision, at time.Time) Entry {
	at = at.UTC()
	for _, rc := range rev.Receipts {
		if isPreviewReply(rc.ID) {
			continue
		}
		n := rc.New
		said := rev.said(rc.ID == "receipt/"+rev.Fix.MsgID)
		var body string
		switch {
		case n == nil:
			o := rc.Old
			body = text.Wrap(fmt.Sprintf("This corrects the receipt of %s UTC (CoE #%d: %s). In the corrected record your message performed nothing, so nothing of it was done.",
				Stamp(o.Time), rev.CoE, said), 0) + "\n" + text.Signature("The referee")
			n = o
		case rc.Old != nil:
			body = text.Wrap(fmt.Sprintf("This corrects the receipt of %s UTC (CoE #%d: %s). The corrected receipt follows.", Stamp(rc.Old.Time), rev.CoE, said), 0) + "\n" + n.Body
		default:
			body = text.Wrap(fmt.Sprintf("In the record corrected by CoE #%d (%s), your message has this receipt.", rev.CoE, said), 0) + "\n" + n.Body
		}
		s.Outbox = append(s.Outbox, &Outgoing{Notice: Notice{
			ID: fmt.Sprintf("corrected/%d/%s", rev.CoE, rc.ID), Kind: "receipt", Game: n.Game, Channel: ChanPrivate,
			To: slices.Clone(n.To), Subject: "Corrected: " + n.Subject, Body: body,
			InReplyTo: n.InReplyTo, References: slices.Clone(n.References), Time: at,
		}})
	}
	for _, nc := range rev.Notices {
		n := nc.New
		if n == nil || nc.Old == nil || n.Channel == ChanPrivate || !e.republishes(n) {
			continue
		}
		body := text.Wrap(fmt.Sprintf("This corrects the notice of %s UTC (CoE #%d; the revision on the official list says what changed). The corrected notice follows.",
			Stamp(nc.Old.Time), rev.CoE), 0) + "\n" + n.Body
		s.Outbox = append(s.Outbox, &Outgoing{Notice: Notice{
			ID: fmt.Sprintf("corrected/%d/%s", rev.CoE, nc.ID), Kind: n.Kind, Game: n.Game, Channel: n.Channel,
			To: slices.Clone(n.To), Subject: "Corrected: " + n.Subject, Body: body, Time: at,
		}})
	}
	s.Outbox = append(s.Outbox, &Outgoing{Notice: Notice{
		ID: fmt.Sprintf("revision/%d", rev.CoE), Kind: "revision", Channel: ChanOfficial,
		Subject: fmt.Sprintf("Revision: the correction of CoE #%d", rev.CoE), Body: rev.Text(), Time: at,
	}})
	s.JournalSeq++
	ent := Entry{Seq: s.JournalSeq, Time: at, Verb: "revision", Outcome: "applied", Detail: map[string]any{"revision": rev}}
	return ent
}

// republishes reports whether n's game publishes it again when a
// correction changes it (Republisher).
func (e *Engine) republishes(n *Notice) bool {
	r, ok := e.games[n.Game].(Republisher)
	return ok && r.Republish(n)
}

// Text renders the revision for the official list.
func (r *Revision) Text() string {
	var b strings.Builder
	b.WriteString(text.Banner(fmt.Sprintf("Revision: CoE #%d", r.CoE), '='))
	b.WriteString("\n")
	rerun := fmt.Sprintf("The record was re-run from %s UTC with the seeds already committed (ruling G5); the original entries stay in the journal, and this revision says what changed.", Stamp(r.From))
	if quote := r.quoted(); quote != "" {
		b.WriteString(text.Wrap(fmt.Sprintf("The contestmaster corrected CoE #%d: message %s now reads:", r.CoE, r.Fix.MsgID), 0))
		b.WriteString("\n" + quote + "\n")
		b.WriteString(text.Wrap(rerun, 0))
	} else {
		b.WriteString(text.Wrap(fmt.Sprintf("The contestmaster corrected CoE #%d: %s. %s", r.CoE, r.said(false), rerun), 0))
	}
	if len(r.Overrides) > 0 {
		b.WriteString("\n")
		b.WriteString(text.Wrap("This correction overrides ratification: it changes what these ratified notices reported: "+joinAnd(r.Overrides)+".", 0))
	}
	if !r.Changed() {
		b.WriteString("\nNothing changed.\n")
	}
	if len(r.Outcomes) > 0 {
		b.WriteString("\n" + text.Heading("Outcomes that changed"))
		for _, c := range pairedOutcomes(byItem(r.Outcomes)) {
			o := c.New
			if o == nil {
				o = c.Old
			}
			who := o.Player
			switch {
			case who != "":
			case c.Old != nil && c.Old.Player != "":
				who = c.Old.Player // paired: no player now, one in the record
			case o.sender != "":
				who = o.sender
			default:
				who = "-" // an event
			}
			what := o.Verb
			if what == "" {
				what = o.what
			}
			if o.Game != "" {
				what = strings.TrimSpace(o.Game + " " + what)
			}
			b.WriteString(fmt.Sprintf("%s  %s  %s\n", Stamp(o.Time), who, what))
			if c.Old != nil {
				b.WriteString(text.WrapIndent("was: "+c.Old.String(), 0, "    ", "         "))
			} else {
				b.WriteString("    was: not in the record\n")
			}
			if c.New != nil {
				b.WriteString(text.WrapIndent("now: "+c.New.String(), 0, "    ", "         "))
			} else {
				b.WriteString("    now: no longer happens\n")
			}
		}
	}
	if len(r.State) > 0 {
		b.WriteString("\n" + text.Heading("The state"))
		t := &text.Table{Header: []string{"what", "was", "now"}}
		for _, c := range r.State {
			t.Add(c.What, orNone(c.Old), orNone(c.New))
		}
		if tab := t.String(); fitsMail(tab) {
			b.WriteString(tab)
		} else {
			b.WriteString(stateList(r.State))
		}
	}
	if len(r.Draws) > 0 {
		b.WriteString("\n" + text.Heading("Draws whose outcome changed"))
		for _, d := range r.Draws {
			b.WriteString(d.String() + "\n")
		}
	}
	if len(r.Receipts)+len(r.Notices) > 0 {
		b.WriteString("\n" + text.Heading("Notices that changed"))
		for _, c := range append(slices.Clone(r.Receipts), r.Notices...) {
			b.WriteString(c.line() + "\n")
		}
		if line := receiptsSent(r.Receipts); line != "" {
			b.WriteString(text.Wrap(line, 0))
		}
	}
	b.WriteString("\n")
	b.WriteString(fmt.Sprintf("State hash before: %s\nState hash after:  %s\n", r.OldHash, r.NewHash))
	b.WriteString("`referee verify` re-computes this revision from the journal.\n\n")
	b.WriteString(text.Signature("The referee"))
	return b.String()
}

// receiptsSent is the revision's line on the receipts it lists: each but a
// preview's goes to its player with the revision, marked "Corrected:"
// (PublishRevision), a changed one again, one the record never made for
// the first time. It is "" when the receipts are all previews'.
func receiptsSent(rs []NoticeChange) string {
	sent := false
	for _, c := range rs {
		if isPreviewReply(c.ID) {
			continue
		}
		if c.Old == nil {
			return "Each changed or new receipt is sent to its player, marked \"Corrected:\"."
		}
		sent = true
	}
	if !sent {
		return ""
	}
	return "Each changed receipt is sent again to its player, marked \"Corrected:\"."
}

// fitsMail reports whether every line of s keeps within a mail's columns
// (text.Width).
func fitsMail(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		if utf8.RuneCountInString(l) > text.Width {
			return false
		}
	}
	return true
}

// stateList is the state's changes as a list, for those the table cannot
// hold within a mail's width (lines of a game's report, a whole line in each
// of "was" and "now"): each thing changed, then what it was and what it is
// now, the changes of one thing in a row (a report's lines gone, then
// those come) under one heading, each line whole.
func stateList(changes []StateChange) string {
	var b strings.Builder
	side := func(label string, vals []string) {
		switch len(vals) {
		case 0:
			b.WriteString("  " + label + ": (none)\n")
		case 1:
			if utf8.RuneCountInString(vals[0]) <= 64 && strings.TrimSpace(vals[0]) == vals[0] {
				b.WriteString("  " + label + ": " + vals[0] + "\n")
				return
			}
			fallthrough
		default:
			b.WriteString("  " + label + ":\n")
			for _, v := range vals {
				b.WriteString("    " + v + "\n")
			}
		}
	}
	for i := 0; i < len(changes); {
		j := i
		var was, now []string
		for ; j < len(changes) && changes[j].What == changes[i].What; j++ {
			if changes[j].Old != "" {
				was = append(was, changes[j].Old)
			}
			if changes[j].New != "" {
				now = append(now, changes[j].New)
			}
		}
		b.WriteString(changes[i].What + "\n")
		side("was", was)
		side("now", now)
		i = j
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func (d DrawChange) String() string {
	val := func(n int, v *int) string {
		if d.Sealed || v == nil {
			return fmt.Sprintf("a draw of %d, its value shown when the week's seed is revealed", n)
		}
		return fmt.Sprintf("%d of %d", *v, n)
	}
	switch {
	case d.Before && d.Made:
		return fmt.Sprintf("%s: was %s, now %s", d.Label, val(d.OldN, d.OldValue), val(d.NewN, d.NewValue))
	case d.Made:
		return fmt.Sprintf("%s: now drawn, %s", d.Label, val(d.NewN, d.NewValue))
	}
	return fmt.Sprintf("%s: no longer drawn (was %s)", d.Label, val(d.OldN, d.OldValue))
}

func (c NoticeChange) line() string {
	n := c.New
	state := "changed"
	switch {
	case c.Old == nil && n.Kind == "receipt":
		state = "now made" // sent with the revision (receiptsSent)
	case c.Old == nil:
		state = "now made, not sent"
	case c.New == nil:
		state, n = "no longer made", c.Old
	}
	subj := n.Subject
	if n.Channel == ChanPrivate {
		subj = "a private " + n.Kind + " to " + strings.Join(n.To, ", ")
	}
	if c.Ratified {
		state += ", ratified"
	}
	if isPreviewReply(c.ID) {
		state += "; a preview, which changed nothing: not sent again"
	}
	return fmt.Sprintf("%s  %s (%s)", Stamp(n.Time), subj, state)
}
