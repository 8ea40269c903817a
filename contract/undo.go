package contract

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"sync/atomic"
	"time"
	"unsafe"
)

// Transactions: trying an action costs what it touches.
//
// A transaction records, before each change to the state, how to undo it: an
// entry of a map (the ledger, the points, the processed-message memory, the
// receipt limits) by its old value, a player, intent or ruling by a copy of
// itself, a game's section by a copy of that section alone, taken the first
// time the section is reached (Ctx.Data); a game's data that saves itself
// (DataSaver) by its top level, and each entry or value below it by the game
// as it changes it. The top-level fields (the clock, the
// counters, the slices' headers) are kept by value when the transaction
// begins, a copy of a few hundred bytes; the state's slices are never changed
// in place inside a transaction, only replaced or appended to, so restoring a
// header restores the slice.
//
// Transactions nest: the engine opens one per action inside the one a caller
// opens per message, and undoing the inner one leaves the outer one whole.
//
// A change made behind the log's back (a field written directly, a slice
// changed in place) would not be undone. With SetVerifyUndo(true), as in
// every test that uses contracttest, each transaction keeps a deep copy of
// the state it began from and Undo compares the restored state with it field
// by field, and Apply and Advance run every message and event once, undo it,
// and run it again, so a missed change is a failing test naming the field.

// verifyUndo turns the checks on; see SetVerifyUndo.
var verifyUndo atomic.Bool

// SetVerifyUndo turns on or off the checks of every undo against a deep copy
// (slow: for tests), and returns whether they were on, so a test that turns
// them off gives back what it found:
//
//	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
//
// The setting is the package's, not a test's: a test that turns it off
// must not run in parallel with others (t.Parallel), which would run
// without the checks, or find them off when they give back.
func SetVerifyUndo(on bool) (was bool) { return verifyUndo.Swap(on) }

// Txn is an open transaction on a state (State.Begin).
type Txn struct {
	s     *State
	log   *undoLog
	mark  int    // the log's length at Begin
	tmark int    // the length of the list of ledger entries changed
	done  bool   // undone or ended
	check *State // VerifyUndo: the state at Begin
}

// undoLog is a state's log of undo records while a transaction is open.
type undoLog struct {
	recs []func()
	open []*Txn
	// saved maps a thing saved by a copy (a player, a game's section) to the
	// position of its save record, so it is copied once per transaction.
	saved map[any]int
	// touched lists the ledger entries changed, for the ledger's check.
	touched []ledgerTouch
}

// ledgerTouch names a ledger entry changed in a transaction: a currency's
// owner whose balance changed, or, with cur "", every holding of an owner
// whose membership or name changed.
type ledgerTouch struct{ cur, owner string }

// touch records a changed ledger entry.
func (u *undoLog) touch(cur, owner string) {
	if u.active() {
		u.touched = append(u.touched, ledgerTouch{cur, owner})
	}
}

// aux is what a state keeps beside its fields: the undo log, the indexes
// of the processed-message memory and the receipt limits, and the contexts
// the games' Next are asked with. None of it is
// encoded, and a copy of the state does not share it.
type aux struct {
	log      undoLog
	seen     timeQueue // seen.ids by arrival, oldest first
	receipts timeQueue // receipt senders by their latest receipt
	players  playerIndex
	next     []*nextAnswer // by the game's index in the engine's list (gameNext)
	extract  *Ctx          // the context of the games' Extractors (extractCtx)
	// undos counts the transactions undone: an undo may put back any
	// section, so no game's answer to Next is kept across one.
	undos uint64
	// citedTouched counts the changes to citable records that the queue
	// of ratifications does not follow (touchCited, and the undo of any
	// change), and ratification is that queue (ratificationNext).
	citedTouched uint64
	ratification keptRatification
	// changes notes the memory of the games' data saved for a change
	// (changes.go).
	changes changeLog
	// claims, in a re-run's history, are the numbers its claims, ruling
	// requests and the games' series keep (claimPins); asked collects the
	// numbers of the ruling requests it asks, numbered those of the
	// games' series (Ctx.Number).
	claims   *claimPins
	asked    map[string][]int
	numbered map[string][]numbered
}

func (s *State) aux() *aux {
	if s.ax == nil {
		s.ax = &aux{}
	}
	return s.ax
}

// Begin opens a transaction: every change made to the state from now on, by
// the engine or by a game, can be undone until the transaction ends. The
// daemon opens one per message (Apply, the checkpoint, the save) and undoes it
// when the message is not applied or the save fails. Transactions nest, and
// must end innermost first.
func (s *State) Begin() *Txn {
	ax := s.aux()
	u := &ax.log
	s.Ledger.undo = u
	if len(u.open) == 0 {
		ax.changes.begun = ax.changes.pos()
	}
	t := &Txn{s: s, log: u, mark: len(u.recs), tmark: len(u.touched)}
	if verifyUndo.Load() {
		t.check = Snapshot(s)
	}
	top := *s
	u.recs = append(u.recs, func() { *s = top })
	u.open = append(u.open, t)
	return t
}

// Undo restores the state as it was when the transaction began, and ends it
// (and any transaction opened inside it). Undoing an ended transaction does
// nothing.
func (t *Txn) Undo() {
	if t.done {
		return
	}
	t.s.aux().undos++
	u := t.log
	for i := len(u.recs) - 1; i >= t.mark; i-- {
		u.recs[i]()
		u.recs[i] = nil
	}
	u.recs = u.recs[:t.mark]
	u.touched = u.touched[:t.tmark]
	t.close()
	if t.check != nil {
		if d := diffState(t.check, t.s); d != "" {
			panic(fmt.Sprintf("contract: an undo left the state different from before the transaction: %s", d))
		}
	}
}

// End keeps the transaction's changes. In a nested transaction they can still
// be undone by the enclosing one; at the outermost, the log is dropped. Ending
// an undone transaction does nothing, so `defer tx.End()` is safe.
func (t *Txn) End() {
	if t.done {
		return
	}
	if n := len(t.log.open); n == 0 || t.log.open[n-1] != t {
		panic("contract: a transaction ended before the one opened inside it")
	}
	t.close()
	if len(t.log.open) == 0 {
		clear(t.log.recs)
		t.log.recs = t.log.recs[:0]
		t.log.touched = t.log.touched[:0]
		clear(t.log.saved)
	}
}

// close marks the transaction and those opened inside it done.
func (t *Txn) close() {
	u := t.log
	for i := len(u.open) - 1; i >= 0; i-- {
		o := u.open[i]
		o.done = true
		u.open = u.open[:i]
		if o == t {
			break
		}
	}
	if len(u.open) == 0 {
		clear(u.saved)
	}
}

// active is the log while a transaction is open, nil otherwise.
func (u *undoLog) active() bool { return u != nil && len(u.open) > 0 }

// push adds an undo record.
func (u *undoLog) push(f func()) { u.recs = append(u.recs, f) }

// once saves a thing by a copy the first time it changes in the innermost
// open transaction: save is called then and returns the function that puts
// the copy back.
func (u *undoLog) once(key any, save func() func()) {
	if !u.active() {
		return
	}
	inner := u.open[len(u.open)-1]
	if u.saved == nil {
		u.saved = map[any]int{}
	}
	prev, had := u.saved[key]
	if had && prev >= inner.mark {
		return
	}
	restore := save()
	u.saved[key] = len(u.recs)
	u.push(func() {
		restore()
		if had {
			u.saved[key] = prev
		} else {
			delete(u.saved, key)
		}
	})
}

// logKey records the entry m[k] before it is written or deleted.
func logKey[K comparable, V any](u *undoLog, m map[K]V, k K) {
	if !u.active() {
		return
	}
	old, had := m[k]
	u.push(func() {
		if had {
			m[k] = old
		} else {
			delete(m, k)
		}
	})
}

func (s *State) undoLog() *undoLog {
	if s.ax == nil {
		return nil
	}
	return &s.ax.log
}

// touchPlayer saves a player before it changes.
func (s *State) touchPlayer(p *Player) {
	s.noteChange(unsafe.Pointer(p), unsafe.Sizeof(*p))
	s.undoLog().once(p, func() func() {
		cp := clonePlayer(p)
		return func() { *p = *cp }
	})
}

// touchIntent saves an intent before it changes.
func (s *State) touchIntent(in *Intent) {
	s.undoLog().once(in, func() func() {
		cp := *in
		cp.Supporters = slices.Clone(in.Supporters)
		cp.Objectors = slices.Clone(in.Objectors)
		return func() { *in = cp }
	})
}

// touchRuling saves a ruling request before it changes.
func (s *State) touchRuling(r *Ruling) {
	s.undoLog().once(r, func() func() {
		cp := *r
		return func() { *r = cp }
	})
}

// sectionKey and dataKey name what of a game's section was saved.
type sectionKey struct{ gs *GameState }
type dataKey struct{ gs *GameState }

// touchSection saves the interpreter's part of a game's section (not the
// game's own data) before it changes: its fields by value, the parameters'
// map by its header, whose entries are logged one by one as they are
// written (touchParam), as an action seldom changes one.
func (s *State) touchSection(gs *GameState) {
	if gs != nil {
		gs.saves++
	}
	s.undoLog().once(sectionKey{gs}, func() func() {
		cm, params, last, recent := gs.Contestmaster, gs.Params, gs.LastReport, gs.Recent
		return func() { gs.Contestmaster, gs.Params, gs.LastReport, gs.Recent = cm, params, last, recent }
	})
}

// touchParam saves a game's parameter before it is written.
func (s *State) touchParam(gs *GameState, name string) {
	s.touchSection(gs)
	if gs.Params != nil {
		logKey(s.undoLog(), gs.Params, name)
	}
}

// touchData saves a game's own data before the game reaches it: by its top
// level alone when the data saves itself (DataSaver), otherwise by a deep
// copy, so that the cost of trying an action is the size of the section it
// touches.
func (s *State) touchData(gs *GameState) {
	gs.saves++
	if gs.Data == nil {
		return
	}
	if ds, ok := gs.Data.(DataSaver); ok {
		if v := reflect.ValueOf(gs.Data); v.Kind() == reflect.Pointer {
			s.noteChange(v.UnsafePointer(), v.Type().Elem().Size())
		} else {
			s.noteSpan(everything)
		}
		s.undoLog().once(dataKey{gs}, func() func() {
			d, restore := gs.Data, ds.SaveTop()
			return func() { gs.Data = d; restore() }
		})
		return
	}
	s.noteSpan(everything)
	s.undoLog().once(dataKey{gs}, func() func() {
		cp := deepCopy(reflect.ValueOf(gs.Data)).Interface()
		return func() { gs.Data = cp }
	})
}

// diffState names the first exported field where two states differ, "" when
// they are the same.
func diffState(a, b *State) string {
	return diff("state", reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem())
}

// diff names where a and b first differ, under path. Both are always
// valid values: a state, a field, an element, the value of a key both maps
// hold, or what a pointer or an interface that is not nil holds.
func diff(path string, a, b reflect.Value) string {
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: %s against %s", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil against not nil"
			}
			return ""
		}
		return diff(path, a.Elem(), b.Elem())
	case reflect.Map:
		if a.IsNil() != b.IsNil() {
			return path + ": nil map against a map"
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d entries against %d", path, a.Len(), b.Len())
		}
		it := a.MapRange()
		for it.Next() {
			w := b.MapIndex(it.Key())
			if !w.IsValid() {
				return fmt.Sprintf("%s[%v]: missing", path, it.Key())
			}
			if d := diff(fmt.Sprintf("%s[%v]", path, it.Key()), it.Value(), w); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return path + ": nil slice against a slice"
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d against %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Struct:
		if ta, ok := a.Interface().(time.Time); ok {
			tb := b.Interface().(time.Time)
			if !ta.Equal(tb) || ta.Location() != tb.Location() {
				return fmt.Sprintf("%s: %v against %v", path, ta, tb)
			}
			return ""
		}
		t := a.Type()
		for i := 0; i < a.NumField(); i++ {
			if !t.Field(i).IsExported() {
				continue
			}
			if d := diff(path+"."+t.Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Func:
		return ""
	default:
		if !a.Equal(b) {
			return fmt.Sprintf("%s: %v against %v", path, a.Interface(), b.Interface())
		}
		return ""
	}
}

// timeQueue lists keys by a time, oldest first, so that what expires is found
// without a scan: the processed-message memory by arrival, the receipt limits
// by each sender's latest receipt. It is an index of a map, rebuilt from it
// when the map is not the one it was built from; an entry whose key has since
// left the map or moved to another time is stale and skipped by its user.
type timeQueue struct {
	src   uintptr // the map it indexes
	items []timed // sorted by time from head
	head  int
}

type timed struct {
	t   time.Time
	key string
}

// sync rebuilds the queue when m is not the map it indexes. each lists m's
// keys with their times. A nil map, at 0 as a queue that indexes nothing,
// holds no key.
func (q *timeQueue) sync(m any, each func(add func(string, time.Time))) {
	p := reflect.ValueOf(m).Pointer()
	if p == q.src {
		return
	}
	q.src, q.items, q.head = p, q.items[:0], 0
	each(func(k string, t time.Time) { q.items = append(q.items, timed{t, k}) })
	sort.Slice(q.items, func(i, j int) bool { return q.items[i].t.Before(q.items[j].t) })
}

// push adds a key at a time: at the end when it is the latest, which is how
// mail arrives; otherwise in its place.
func (q *timeQueue) push(t time.Time, key string) {
	n := len(q.items)
	if n == q.head || !t.Before(q.items[n-1].t) {
		q.items = append(q.items, timed{t, key})
		return
	}
	i := q.head + sort.Search(n-q.head, func(i int) bool { return t.Before(q.items[q.head+i].t) })
	q.items = slices.Insert(q.items, i, timed{t, key})
}

// pop takes the oldest entry if its time is before limit.
func (q *timeQueue) pop(limit time.Time) (timed, bool) {
	if q.head == len(q.items) || !q.items[q.head].t.Before(limit) {
		return timed{}, false
	}
	it := q.items[q.head]
	q.items[q.head] = timed{}
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	} else if q.head > 1024 && q.head > len(q.items)/2 {
		q.items = q.items[:copy(q.items, q.items[q.head:])]
		q.head = 0
	}
	return it, true
}
