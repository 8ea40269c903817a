package contract

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"referee/contract/text"
)

// Ruling is a question a game put to its contestmaster (G8).
type Ruling struct {
	ID       int       `yaml:"id"`
	Game     string    `yaml:"game"`
	Key      string    `yaml:"key"` // the game's own reference
	Question string    `yaml:"question"`
	Default  string    `yaml:"default"` // what silence means
	Asked    time.Time `yaml:"asked"`
	Deadline time.Time `yaml:"deadline"`
	Reminded bool      `yaml:"reminded,omitempty"`
	Answer   string    `yaml:"answer,omitempty"`
}

// AskRuling asks the game's contestmaster, by private mail, to rule on a question
// the rules leave to eir judgement (G8). The game hears the answer, or the
// deadline's passing (then the default applies), through RulingHandler.OnRuling.
// A question with the same key already open is not asked twice.
func (c *Ctx) AskRuling(key, question, dflt string) *Ruling {
	c.reads |= readBeyond
	for _, r := range c.s.Rulings {
		if r.Game == c.game && r.Key == key {
			return r
		}
	}
	n := c.s.NextRuling + 1
	asked, rk := c.s.aux().asked, rulingKey(c.game, key)
	if pins := c.s.aux().claims; pins != nil {
		// A re-run: the request keeps its number, a new one takes one
		// after the recorded history's (claimPins).
		if nth, was := len(asked[rk]), pins.rulings[rk]; nth < len(was) && c.s.ruling(was[nth]) == nil {
			n = was[nth]
		} else {
			n = max(n, pins.lastRuling+1)
		}
	}
	if asked != nil {
		asked[rk] = append(asked[rk], n)
	}
	c.s.NextRuling = max(c.s.NextRuling, n)
	wait := c.e.cfg.RulingWait
	r := &Ruling{ID: n, Game: c.game, Key: key, Question: question, Default: dflt, Asked: c.now, Deadline: c.now.Add(wait)}
	c.s.Rulings = append(c.s.Rulings, r)
	c.Notify(&Notice{ID: fmt.Sprintf("%s/ruling/%d", c.game, r.ID), Kind: "ruling", Channel: ChanPrivate, To: []string{c.gs.Contestmaster},
		Subject: fmt.Sprintf("[%s] Ruling requested (#%d)", c.Title(), r.ID), Body: rulingBody(c.Title(), r, false)})
	return r
}

// Rulings lists the open ruling requests of the game.
func (c *Ctx) Rulings() []*Ruling {
	c.reads |= readBeyond
	var out []*Ruling
	for _, r := range c.s.Rulings {
		if r.Game == c.game {
			out = append(out, r)
		}
	}
	return out
}

func rulingBody(title string, r *Ruling, reminder bool) string {
	var b strings.Builder
	if reminder {
		b.WriteString(text.Wrap(fmt.Sprintf("Reminder: the %s contest still needs your ruling #%d.", title, r.ID), 0))
		b.WriteString("\n")
	}
	b.WriteString(text.Wrap(fmt.Sprintf("As the contestmaster of %s, please rule on the following:", title), 0))
	b.WriteString("\n")
	b.WriteString(text.WrapIndent(r.Question, 0, "  ", "  "))
	b.WriteString("\n")
	answer := fmt.Sprintf("a line \"I rule on #%d: <your ruling>\"", r.ID)
	if n, ok := claimRuling(r); ok {
		answer = fmt.Sprintf("\"I deny CoE #%d: <reason>\" (the denial and its reason are published on the official list) or a correction (see \"help\")", n)
	}
	b.WriteString(text.Wrap(fmt.Sprintf("Answer privately to the referee with %s before %s UTC. Without an answer by then: %s (ruling G8).", answer, Stamp(r.Deadline), r.Default), 0))
	b.WriteString("\n")
	b.WriteString(text.Signature("The referee"))
	return b.String()
}

func doRule(c *Ctx, a *Action) error {
	id, _ := strconv.Atoi(a.Arg("id"))
	r := c.s.ruling(id)
	if r == nil {
		return Reject("G8", "there is no open ruling request #%s", a.Arg("id"))
	}
	gs := c.s.Games[r.Game]
	if !strings.EqualFold(c.msg.From, gs.Contestmaster) {
		return Reject("G8", "only the contestmaster of %s can rule on #%d", c.e.title(r.Game), r.ID)
	}
	if n, ok := claimRuling(r); ok {
		return Reject("G8", "ruling request #%d asks about Claim of Error #%d: answer it with \"I deny CoE #%d: <reason>\" or a correction (see \"help\")", r.ID, n, n)
	}
	c.s.touchRuling(r)
	r.Answer = a.Arg("answer")
	c.game, c.gs = r.Game, gs
	c.dropRuling(r.ID)
	if h, ok := c.e.games[r.Game].(RulingHandler); ok {
		if err := h.OnRuling(c, r, false); err != nil {
			return err
		}
	}
	c.Did("ruling #%d recorded: %s", r.ID, r.Answer)
	c.Detail("ruling", map[string]any{"id": r.ID, "key": r.Key, "answer": r.Answer})
	return nil
}

// claimRuling says whether a ruling request asks about a Claim of Error, and
// which.
func claimRuling(r *Ruling) (int, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(r.Key, "coe/"))
	return n, err == nil && strings.HasPrefix(r.Key, "coe/")
}

func (s *State) ruling(id int) *Ruling {
	for _, r := range s.Rulings {
		if r.ID == id {
			return r
		}
	}
	return nil
}

func (c *Ctx) dropRuling(id int) {
	c.s.Rulings = slices.DeleteFunc(slices.Clone(c.s.Rulings), func(r *Ruling) bool { return r.ID == id })
}

// coreNext is the earliest of the interpreter's own duties: the weekly
// Randomness notice, expired intents, ruling reminders and deadlines, the
// ends of the waits for a list's copy, the ratifications. On equal times
// the first in that order comes first (the waits' ends by Message-ID).
// It is a scan, with nothing listed or sorted: the daemon and a replay ask
// for it at least twice a message.
func coreNext(s *State) (Event, bool) {
	var n soonest
	if at := s.Randomness.NextNotice; !at.IsZero() && n.beaten(at) {
		n.set(Event{At: at, Name: "randomness"})
	}
	for _, in := range s.Intents {
		if at := in.Expires(); n.beaten(at) {
			n.set(Event{At: at, Name: "intent expired", Key: strconv.Itoa(in.ID)})
		}
	}
	for _, r := range s.Rulings {
		if at := r.Asked.Add(r.Deadline.Sub(r.Asked) / 2); !r.Reminded && n.beaten(at) {
			n.set(Event{At: at, Name: "ruling reminder", Key: strconv.Itoa(r.ID)})
		}
		if n.beaten(r.Deadline) {
			n.set(Event{At: r.Deadline, Name: "ruling deadline", Key: strconv.Itoa(r.ID)})
		}
	}
	if ev, ok := heldNext(s); ok && n.beaten(ev.At) {
		n.set(ev)
	}
	if ev, ok := s.ratificationNext(); ok && n.beaten(ev.At) {
		n.set(ev)
	}
	return n.ev, n.ok
}

// ratificationNext is the soonest ratification of a pending record, the
// first in the list of those at its time. The list holds a record of every
// public notice for the processed-message memory's horizon, thousands in a
// game of many players, and an hour's events may ratify hundreds of them:
// the records to ratify are kept in the order they ratify in (a queue: by
// time, those at one time in the list's order), made again from the list
// only after a record changed otherwise than by leaving the queue
// (touchCited; touchCitedDone is a ratification's or an announcement's,
// which leave the queue or were not in it) or an undo put one back;
// records appended since are queued alone, the list before them the same
// pointers. A record at the front that is no longer pending is dropped
// from the queue when it is reached.
func (s *State) ratificationNext() (Event, bool) {
	ax := s.aux()
	k := &ax.ratification
	if k.valid && k.touched == ax.citedTouched && k.prefixOf(s.Cited) {
		k.queueAppended(s.Cited[len(k.list):])
	} else {
		*k = keptRatification{valid: true, touched: ax.citedTouched}
		for _, x := range s.Cited {
			if ratifiable(x) {
				k.queue = append(k.queue, x)
			}
			k.foldDone(x)
			k.noteRatified(x)
		}
		// Stable: those at one time stay in the list's order.
		slices.SortStableFunc(k.queue, func(x, y *Cited) int { return x.Ratifies.Compare(y.Ratifies) })
	}
	k.list, k.last = s.Cited, nil
	if len(s.Cited) > 0 {
		k.last = s.Cited[len(s.Cited)-1]
	}
	for len(k.queue) > 0 && !ratifiable(k.queue[0]) {
		k.queue = k.queue[1:]
	}
	if len(k.queue) == 0 {
		return Event{}, false
	}
	x := k.queue[0]
	return Event{At: x.Ratifies, Name: "ratification", Key: x.ID}, true
}

// ratifiable: x is waiting for its ratification.
func ratifiable(x *Cited) bool { return x.Status == "pending" && !x.Ratifies.IsZero() }

// queueAppended queues the records appended to the list, each after every
// record queued at its time or before.
func (k *keptRatification) queueAppended(xs []*Cited) {
	for _, x := range xs {
		k.foldDone(x)
		k.noteRatified(x)
		if !ratifiable(x) {
			continue
		}
		i := len(k.queue)
		for i > 0 && x.Ratifies.Before(k.queue[i-1].Ratifies) {
			i--
		}
		k.queue = slices.Insert(k.queue, i, x)
	}
}

// keptRatification is what ratificationNext keeps: the records to ratify
// in the order they ratify in (the front may be no longer pending), and
// the list and the count of the records' changes they were found in.
type keptRatification struct {
	valid   bool
	list    []*Cited
	last    *Cited // list's last record, as it was when kept
	touched uint64
	queue   []*Cited
	// doneBy is at or before the time of ratification of every record
	// ratified and announced (done: there is one), the soonest that a
	// record may be left to the journal.
	doneBy time.Time
	done   bool
	// unannounced holds every record ratified and not yet announced (and
	// may hold records announced since, or ratified no more: each is read
	// again where it is used, cite), in no particular order: a notice
	// names those of its game without reading every record of the list.
	unannounced []*Cited
}

// noteRatified notes x among the records to announce when it is ratified
// and not announced.
func (k *keptRatification) noteRatified(x *Cited) {
	if unannounced(x) {
		k.unannounced = append(k.unannounced, x)
	}
}

// unannounced: x is ratified, and no notice has said so yet.
func unannounced(x *Cited) bool { return x.Status == "ratified" && !x.Announced }

// toAnnounce lists the records of game ratified and not yet announced, in
// the order of the list: those noted (ratificationNext, ratify), read
// again. The list is read for their order only when there are several,
// by their pointers alone.
func (s *State) toAnnounce(game string) []*Cited {
	s.ratificationNext()
	k := &s.aux().ratification
	k.unannounced = slices.DeleteFunc(k.unannounced, func(x *Cited) bool { return !unannounced(x) })
	var out []*Cited
	for _, x := range k.unannounced {
		if x.Game == game {
			out = append(out, x)
		}
	}
	if len(out) < 2 {
		return out
	}
	var in func(*Cited) bool
	if len(out) <= 8 {
		in = func(x *Cited) bool { return slices.Contains(out, x) }
	} else {
		set := make(map[*Cited]bool, len(out))
		for _, x := range out {
			set[x] = true
		}
		in = func(x *Cited) bool { return set[x] }
	}
	ordered := make([]*Cited, 0, len(out))
	for _, x := range s.Cited {
		if in(x) {
			ordered = append(ordered, x)
		}
	}
	return ordered
}

// prefixOf says whether the list kept is list, or its start: the same
// records. In the same array it is when its last record is still there (a
// list is never changed in place, only replaced or appended to: an append
// after an undo that shortened it writes its new records over the
// end of the list kept); in another, when each record is the same.
func (k *keptRatification) prefixOf(list []*Cited) bool {
	n := len(k.list)
	switch {
	case len(list) < n:
		return false
	case n == 0:
		return true
	case list[n-1] != k.last:
		return false
	case &list[0] == &k.list[0]:
		return true
	}
	return slices.Equal(list[:n], k.list)
}

// foldDone counts x in doneBy when it is ratified and announced.
func (k *keptRatification) foldDone(x *Cited) {
	if x.Status == "ratified" && x.Announced && (!k.done || x.Ratified.Before(k.doneBy)) {
		k.doneBy, k.done = x.Ratified, true
	}
}

// announcedCited counts a record just announced (after its ratification)
// among those that may be left to the journal.
func (s *State) announcedCited(x *Cited) { s.aux().ratification.foldDone(x) }

// mayDropCited says whether a record ratified and announced before cut
// may be in the list: false only when none is.
func (s *State) mayDropCited(cut time.Time) bool {
	s.ratificationNext()
	k := &s.aux().ratification
	return k.done && k.doneBy.Before(cut)
}

// ratifying is the record the ratification event of id ratifies: the next
// ratification's record (ratificationNext, kept), found without a search
// when it is the one; else the record of that citation.
func (s *State) ratifying(id string) *Cited {
	if ev, ok := s.ratificationNext(); ok && ev.Key == id {
		return s.aux().ratification.queue[0]
	}
	return s.cited(id)
}

// soonest is the earliest event offered so far: the first offered of
// those at the earliest time.
type soonest struct {
	ev Event
	ok bool
}

// beaten says whether an event at at comes before the one kept.
func (n *soonest) beaten(at time.Time) bool { return !n.ok || at.Before(n.ev.At) }

func (n *soonest) set(ev Event) { n.ev, n.ok = ev, true }

func (e *Engine) runCoreEvent(s *State, ev Event, at time.Time) ([]Entry, error) {
	switch ev.Name {
	case "randomness":
		ent, err := e.randomnessNotice(s, at)
		if err != nil {
			return nil, err
		}
		return []Entry{ent}, nil
	case "intent expired":
		id, _ := strconv.Atoi(ev.Key)
		in := s.intent(id)
		s.dropIntent(id, "expired", at)
		s.JournalSeq++
		ent := Entry{Seq: s.JournalSeq, Time: at, Verb: ev.Name, Outcome: "event", Detail: map[string]any{"intent": id}}
		if in != nil {
			ent.Game = in.Game
		}
		return []Entry{ent}, nil
	case "ratification":
		return e.ratify(s, ev.Key, at), nil
	case "list copy missing":
		return e.listCopyMissing(s, ev.Key, at), nil
	case "ruling reminder", "ruling deadline":
		id, _ := strconv.Atoi(ev.Key)
		r := s.ruling(id)
		if r == nil {
			return nil, nil
		}
		c := e.ctx(s, r.Game, at, nil)
		if ev.Name == "ruling reminder" {
			s.touchRuling(r)
			r.Reminded = true
			c.Notify(&Notice{ID: fmt.Sprintf("%s/ruling/%d/reminder", r.Game, r.ID), Kind: "reminder", Channel: ChanPrivate,
				To: []string{c.gs.Contestmaster}, Subject: fmt.Sprintf("[%s] Ruling requested (#%d): reminder", c.Title(), r.ID), Body: rulingBody(c.Title(), r, true)})
		} else {
			c.dropRuling(r.ID)
			if _, ok := claimRuling(r); ok {
				// Silence leaves the claim open: the report does not
				// ratify until the contestmaster answers.
			} else if h, ok := e.games[r.Game].(RulingHandler); ok {
				err := run(func() error {
					if err := h.OnRuling(c, r, true); err != nil {
						return err
					}
					e.closeGone(c)
					return nil
				})
				if err != nil {
					return nil, fmt.Errorf("ruling #%d deadline: %w", r.ID, err)
				}
			}
		}
		ent := e.flush(s, c)
		ent.Verb, ent.Outcome = ev.Name, "event"
		ent.set("ruling", r.ID)
		return []Entry{ent}, nil
	}
	return nil, fmt.Errorf("unknown core event %q", ev.Name)
}

// randomnessNotice commits to next week's seed and reveals the seed of the week
// just ended (DESIGN "Randomness"). At creation it commits to this week and the
// next, so every draw's seed is committed before the week it is used in begins —
// except the creation week itself, which is committed at creation, before any draw.
func (e *Engine) randomnessNotice(s *State, at time.Time) (Entry, error) {
	sec, err := s.secret()
	if err != nil {
		return Entry{}, err
	}
	this := WeekLabel(at)
	next := WeekLabel(NextWeekStart(at))
	prev := WeekLabel(WeekStart(at).AddDate(0, 0, -1))
	first := len(s.Randomness.Weeks) == 0
	var b strings.Builder
	b.WriteString(text.Banner("Randomness notice", '='))
	b.WriteString("\n")
	b.WriteString(text.Wrap("Every random choice of the games is drawn from a weekly seed. Its SHA-256 is published here before the week begins, and the seed itself after the week ends, so anyone can recompute every draw (ruling G5).", 0))
	b.WriteString("\n")
	detail := map[string]any{}
	var committed []map[string]string
	weeks := []string{next}
	if first {
		weeks = []string{this, next}
	}
	t := &text.Table{Header: []string{"Week", "Begins", "SHA-256 of the seed"}}
	for _, w := range weeks {
		c, _ := s.commitWeek(SeedFor(sec, w), w)
		start, _ := ParseWeekLabel(w)
		t.Add(w, start.Format("2006-01-02"), c)
		committed = append(committed, map[string]string{"week": w, "commitment": c})
	}
	b.WriteString(text.Heading("Commitments"))
	b.WriteString(t.String())
	detail["committed"] = committed
	if !first {
		// Copied before a seed is written in, so that an undo restores the
		// list by its header.
		s.Randomness.Weeks = slices.Clone(s.Randomness.Weeks)
		for i := range s.Randomness.Weeks {
			w := &s.Randomness.Weeks[i]
			if w.Week == prev && w.Seed == "" {
				seed := SeedFor(sec, prev)
				w.Seed = fmt.Sprintf("%x", seed)
				b.WriteString("\n")
				b.WriteString(text.Heading("Revealed"))
				rt := &text.Table{Header: []string{"Week", "Seed (hex)"}}
				rt.Add(prev, w.Seed)
				b.WriteString(rt.String())
				b.WriteString(fmt.Sprintf("SHA-256 of it, as committed: %s\n", w.Commitment))
				detail["revealed"] = map[string]string{"week": prev, "seed": w.Seed, "commitment": w.Commitment}
			}
		}
	}
	// Keep the state bounded: drop revealed weeks older than eight weeks
	// (the last ten kept, in an array of their own).
	s.Randomness.Weeks = slices.Clone(s.Randomness.Weeks[max(0, len(s.Randomness.Weeks)-10):])
	b.WriteString("\n")
	b.WriteString(text.Heading("How to check a draw"))
	b.WriteString(text.Wrap("A draw labelled L (for example life/2026-W50/round/J) with n outcomes is computed from the week's seed: for k = 0, 1, ... take HMAC-SHA256(seed, L + \"#\" + k), read its first 8 bytes as a big-endian unsigned number v, and stop at the first v below the largest multiple of n that fits in 64 bits; the draw is v mod n. Each notice names the labels it used.", 0))
	b.WriteString("\n")
	b.WriteString(text.Signature("The referee"))
	s.Randomness.NextNotice = NextWeekStart(at)
	c := e.ctx(s, "", at, nil)
	c.Notify(&Notice{ID: "randomness/" + this + "/" + at.Format("20060102T150405"), Kind: "randomness", Channel: ChanOfficial,
		Subject: "Randomness: seed commitment for " + next, Body: b.String()})
	ent := e.flush(s, c)
	ent.Verb, ent.Outcome = "randomness", "event"
	for k, v := range detail {
		ent.set(k, v)
	}
	return ent, nil
}
