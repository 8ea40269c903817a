package contract

import (
	"fmt"
	"time"

	"referee/contract/text"
)

// Where a public message counts (G4): a public list's copy is the one that
// counts, at its arrival. A direct copy (a message naming the list in To/Cc
// that reached the referee without the list) is held in the state until the
// list's copy arrives, which is then applied as any message and makes the
// held copy a duplicate; if none arrives within Config.ListWait, a core event
// drops it and tells the sender that the list never carried it and nothing
// was performed. A list copy that comes later still is the list carrying
// the post: it counts at its arrival, like any other. A held copy gets no
// receipt while it waits: the receipt is the list copy's, or the reply
// saying it never came.

// Held is a direct copy of a public message waiting for the list's copy.
type Held struct {
	Message *Message  `yaml:"message"`
	Until   time.Time `yaml:"until"` // when the wait ends
}

// holds reports whether m is a direct copy that must wait for the list's.
func (e *Engine) holds(m *Message) bool {
	return e.cfg.ListWait > 0 && m.Channel.IsPublic() && !m.ListCopy
}

// hold keeps a direct copy until the list's copy arrives, unless a copy of it
// was already applied or is already held, or it was held before and its
// wait ended.
func (e *Engine) hold(s *State, m *Message, at time.Time) []Entry {
	if _, ok := s.Held[m.ID]; ok {
		return nil
	}
	if s.remembers(m.ID, m.Arrived) || s.remembers(droppedKey(m.ID), m.Arrived) {
		return nil // applied, or its wait ended before: read again
	}
	if s.Held == nil {
		s.Held = map[string]*Held{}
	}
	cp := *m
	cp.ahead = nil // its own reading, if it is ever read
	logKey(s.undoLog(), s.Held, m.ID)
	s.Held[m.ID] = &Held{Message: &cp, Until: at.Add(e.cfg.ListWait)}
	return []Entry{e.journalMessage(s, m, at, "", "held", "a direct copy: waiting for the list's copy (G4)")}
}

// release drops the held direct copy of a message whose list copy arrived.
func (s *State) release(id string) {
	if _, ok := s.Held[id]; ok {
		logKey(s.undoLog(), s.Held, id)
		delete(s.Held, id)
	}
}

// heldNext is the first end of a wait: the earliest, of those at the same
// time the one of the lowest Message-ID.
func heldNext(s *State) (Event, bool) {
	var next Event
	found := false
	for id, h := range s.Held {
		if !found || h.Until.Before(next.At) || h.Until.Equal(next.At) && id < next.Key {
			next, found = Event{At: h.Until, Name: "list copy missing", Key: id}, true
		}
	}
	return next, found
}

// listCopyMissing ends a wait: nothing of the direct copy is performed and
// its sender is told why.
func (e *Engine) listCopyMissing(s *State, id string, at time.Time) []Entry {
	h := s.Held[id]
	if h == nil {
		return nil
	}
	s.release(id)
	m := h.Message
	// Read again (an archive replayed again, the mail fetched again), it
	// is not held again nor its sender told twice; the list's copy still
	// counts when it comes.
	if key := droppedKey(m.ID); !s.remembers(key, m.Arrived) {
		s.remember(key, m.Arrived, e.cfg.SeenHorizon)
	}
	// Filled and signed as every receipt is.
	body := text.Wrap(fmt.Sprintf("Your message of %s named a public list, but the list's copy of it did not reach the referee within %s, "+
		"so the list never carried it and nothing in it was performed: public actions count from the list's copy (G4). "+
		"If the list delivers it later, it counts from then; otherwise send it to the list again.", m.Arrived.UTC().Format("2006-01-02 15:04 MST"), waitText(e.cfg.ListWait)), 0) +
		"\n" + text.Signature("The referee")
	e.reply(s, m, "unlisted/"+m.ID, body, at)
	return []Entry{e.journalMessage(s, m, at, "", "rejected", "the list never carried it (G4)")}
}

// waitText writes a wait as people say it: "1 hour", "90 minutes".
func waitText(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return text.Count(int(d/time.Hour), "hour", "hours")
	case d%time.Minute == 0:
		return text.Count(int(d/time.Minute), "minute", "minutes")
	}
	return d.String()
}
