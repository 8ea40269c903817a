package contract

import (
	"cmp"
	"slices"
	"unsafe"
)

// What of a game's data changed since a text of it was kept.
//
// The state hash and the snapshot keep the text of each item of a game's
// data lists (statehash_data.go, codec_split.go) with a deep copy of the
// item, and compare every item with its copy at each hash and each
// snapshot taken: thousands of items in a game of thousands of players,
// some milliseconds, where one or two items changed. A game whose data
// saves itself (DataSaver) saves, before it writes any memory below the
// data's top level, the value that memory is in (SaveValue), and every
// test that uses contracttest holds it to that (SetVerifyUndo: a write
// not saved is a write not undone). So the state notes, in order, the
// memory each save covers (the value saved, and a game's whole data when
// it is reached: its top level for a DataSaver, all of it for any other,
// which saves itself by a deep copy), whether a transaction is open or
// not; an item whose memory no save since covers is the item it was, and
// needs no comparison. So does a player of the state hash's text that
// the state noted no save of (touchPlayer, before any change to one). An
// undo writes back only what was saved, noted
// when it was saved: after any mark taken before the save, and a mark
// taken inside a transaction goes back to its beginning (changeMark). A
// state whose log the mark is not of, or a log cut since, is compared
// whole, as before.

// changeLog is the memory saved for a change, in order.
type changeLog struct {
	base  uint64 // the position of spans[0]
	spans []span
	// begun is the position when the outermost open transaction began:
	// a mark taken inside one goes back to it (changeMark).
	begun uint64
}

// span is the memory of a value saved for a change: [from, to).
type span struct{ from, to uintptr }

// everything is a span that covers all memory: a game's data saved by a
// deep copy, which the game may then change anywhere.
var everything = span{0, ^uintptr(0)}

// changeLogMax is how many spans the log holds; when full, it is cut, and
// every mark taken before is compared whole.
const changeLogMax = 1 << 14

// noteChange notes that the memory of the value at p, of size bytes, is
// about to change.
func (s *State) noteChange(p unsafe.Pointer, size uintptr) {
	s.noteSpan(span{uintptr(p), uintptr(p) + max(size, 1)})
}

// noteSpan notes sp. The same span noted last, inside the open
// transaction, is not noted again (an action reaches its data often):
// every mark taken so far is at or before the transaction's beginning
// (changeMark), so the span noted last counts as changed since each.
func (s *State) noteSpan(sp span) {
	ax := s.aux()
	l := &ax.changes
	if n := len(l.spans); n > 0 && l.spans[n-1] == sp && len(ax.log.open) > 0 && l.pos()-1 >= l.begun {
		return
	}
	l.note(sp)
}

func (l *changeLog) note(sp span) {
	if len(l.spans) == changeLogMax {
		l.base += uint64(len(l.spans))
		l.spans = l.spans[:0]
	}
	l.spans = append(l.spans, sp)
}

func (l *changeLog) pos() uint64 { return l.base + uint64(len(l.spans)) }

// changeMark is a point in a state's log of changes, taken when a text
// was kept.
type changeMark struct {
	log *changeLog // nil: no mark
	pos uint64
}

// changeMark is now in s's log of changes (none for a state that has
// noted nothing). Inside a transaction it is the transaction's
// beginning: a value saved and then written after a text was kept in the
// same message is compared at the next use.
func (s *State) changeMark() changeMark {
	if s == nil || s.ax == nil {
		return changeMark{}
	}
	ax := s.ax
	pos := ax.changes.pos()
	if len(ax.log.open) > 0 {
		pos = ax.changes.begun
	}
	return changeMark{log: &ax.changes, pos: pos}
}

// changedSince is the memory saved for a change in s since mark m, ok
// false when it cannot be told (no state, no mark, another state's, the
// log cut since).
func (s *State) changedSince(m changeMark) (c *changedSpans, ok bool) {
	if s == nil || s.ax == nil || m.log != &s.ax.changes || m.pos < m.log.base || m.pos > m.log.pos() {
		return nil, false
	}
	spans := slices.Clone(m.log.spans[m.pos-m.log.base:])
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.from, b.from) })
	c = &changedSpans{spans: spans, reach: make([]uintptr, len(spans))}
	var reach uintptr
	for i, sp := range spans {
		reach = max(reach, sp.to)
		c.reach[i] = reach
	}
	return c, true
}

// changedSpans are the spans saved since a mark, by their start, and
// for each the furthest end of it and those before it.
type changedSpans struct {
	spans []span
	reach []uintptr
}

// covers says whether a change may have written the memory [p, p+size).
func (c *changedSpans) covers(p unsafe.Pointer, size uintptr) bool {
	from, to := uintptr(p), uintptr(p)+max(size, 1)
	// i: the spans that start before the value ends.
	i, _ := slices.BinarySearchFunc(c.spans, to, func(sp span, x uintptr) int { return cmp.Compare(sp.from, x) })
	return i > 0 && c.reach[i-1] > from
}
