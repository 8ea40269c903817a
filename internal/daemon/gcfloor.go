package daemon

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// heapMinimum is the runtime's least heap goal at a target of 100 (its
// defaultHeapMinimum, 4 MiB); at a target of P it is P/100 of that.
const heapMinimum = 4 << 20

// SetGCFloor sets the garbage collector's target to percent, as SetGC
// does, and keeps the heap's goal at floor bytes at least while the live
// heap is too small for percent to reach it: after each collection the
// target is raised for the next one to floor over what the collection
// found live, and lowered back to percent once the live heap alone makes
// a goal of floor. Unless GOGC is set (the operator's choice: kept, and no
// floor). While the target is raised, a memory limit of one and a half
// times the floor bounds the heap (unless GOMEMLIMIT is set: the
// operator's limit is kept): the raising runs after a collection, when
// the sweeper reaches the sentinel's span, which on one processor, with
// the replay never idle, can be long after the collection; until then
// the raised target made the next goal seventeen times the live heap
// (measured: 3 of 36 replays of 200,000 messages on one core peaked at
// 171-207 MB of RSS, where the others peaked at 113-140). It returns
// what puts the old target back and stops the raising. The target is the
// process's: while one floor is set, another SetGCFloor sets nothing and
// its restore puts nothing back (two replays in one process, as tests run
// them, would otherwise each put back the target the other set).
//
// The floor is for a batch of work whose live heap starts small and grows
// (a replay): at a small live heap the collector runs once every few
// megabytes allocated, each run costing a message more than a large
// heap's runs do, and a short replay's cost per message would be the
// larger for it. The floor spends that memory, which a longer run's heap
// reaches anyway, and changes nothing once the live heap is large.
func SetGCFloor(percent int, floor uint64) (restore func()) {
	return setGCFloor(percent, floor, nil)
}

// setGCFloor is SetGCFloor; tuned, if not nil, is called after each
// collection with the target set for the next, or -1 once stopped (the
// tests' way of waiting for a collection's cleanup).
func setGCFloor(percent int, floor uint64, tuned func(int)) (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	floorSet.Lock()
	defer floorSet.Unlock()
	if floorSet.on {
		return func() {}
	}
	floorSet.on = true
	f := &gcFloor{percent: percent, floor: floor, tuned: tuned, limits: os.Getenv("GOMEMLIMIT") == ""}
	f.mu.Lock()
	p := f.target(f.live())
	f.old = debug.SetGCPercent(p)
	f.limit(p)
	f.mu.Unlock()
	f.arm()
	return f.stop
}

// floorSet says whether a floor is set in the process (SetGCFloor).
var floorSet struct {
	sync.Mutex
	on bool
}

// gcFloor is SetGCFloor's state, shared with the cleanup that runs after
// each collection.
type gcFloor struct {
	percent int
	floor   uint64
	tuned   func(int)

	mu       sync.Mutex
	old      int
	stopped  bool
	sample   [1]metrics.Sample
	limits   bool  // the floor may set a memory limit (GOMEMLIMIT unset)
	limited  bool  // it has set one
	oldLimit int64 // the limit before it
}

// limit sets the memory limit for target p (f.mu held): one and a half
// times the floor while p raises the target over f.percent, the old limit
// once it does not.
func (f *gcFloor) limit(p int) {
	switch raised := p > f.percent; {
	case !f.limits || raised == f.limited:
	case raised:
		f.oldLimit = debug.SetMemoryLimit(int64(f.floor + f.floor/2))
		f.limited = true
	default:
		debug.SetMemoryLimit(f.oldLimit)
		f.limited = false
	}
}

// target is the collector's target that makes the next goal about
// f.floor bytes for a live heap of live bytes (0: none measured yet), and
// f.percent where that would be less.
func (f *gcFloor) target(live uint64) int {
	// The goal is the larger of live×(1+P/100) and heapMinimum×P/100:
	// the second alone reaches the floor at P = floor×100/heapMinimum.
	p := f.floor * 100 / heapMinimum
	if live > 0 {
		q := uint64(0)
		if r := f.floor * 100 / live; r > 100 {
			q = r - 100
		}
		p = min(p, q)
	}
	return max(f.percent, int(min(p, 1<<20)))
}

// arm makes an object that only a cleanup refers to: the next collection
// finds it unreachable and its cleanup retunes the target and arms again.
func (f *gcFloor) arm() {
	type sentinel struct {
		_ *int
		_ [2]uintptr
	}
	runtime.AddCleanup(new(sentinel), func(f *gcFloor) { f.collected() }, f)
}

// collected retunes the target to the live heap the last collection
// found, and arms for the next, until stop.
func (f *gcFloor) collected() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		if f.tuned != nil {
			f.tuned(-1)
		}
		return
	}
	p := f.target(f.live())
	debug.SetGCPercent(p)
	f.limit(p)
	if f.tuned != nil {
		f.tuned(p)
	}
	f.arm()
}

// live is the heap the last collection found live, 0 before the first
// (or where the runtime does not say); f.mu is held.
func (f *gcFloor) live() uint64 {
	f.sample[0].Name = "/gc/heap/live:bytes"
	metrics.Read(f.sample[:])
	if f.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return f.sample[0].Value.Uint64()
}

func (f *gcFloor) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.stopped {
		f.stopped = true
		debug.SetGCPercent(f.old)
		f.limit(f.percent)
		floorSet.Lock()
		floorSet.on = false
		floorSet.Unlock()
	}
}
