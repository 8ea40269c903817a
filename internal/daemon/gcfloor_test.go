package daemon

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"referee/internal/testdeadline"
)

// gcRead is one of the runtime's metrics now.
func gcRead(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// gcUnset runs t as without GOGC in the environment, the target at 100,
// and puts the target back at its end.
func gcUnset(t *testing.T) {
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	before := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(before); debug.SetMemoryLimit(limit) })
}

// memLimit is the memory limit now.
func memLimit() int64 { return debug.SetMemoryLimit(-1) }

// TestSetGCFloor: with a small live heap the collector's goal is the
// floor, from the start and after each collection; with a live heap whose
// goal at the target passes the floor, the target is the one asked; the
// floor follows the live heap down again; stopped, the old target is back
// and a later collection changes nothing. While the target is raised, a
// memory limit of one and a half times the floor bounds the heap (the
// raising can come late after a collection: the sweeper runs the cleanup),
// and none once it is not. With GOGC set, nothing changes; with GOMEMLIMIT
// set, the operator's limit is kept.
func TestSetGCFloor(t *testing.T) {
	const floor = 64 << 20
	gcUnset(t)
	runtime.GC()

	tuned := make(chan int, 1)
	collect := func() int {
		t.Helper()
		runtime.GC()
		select {
		case p := <-tuned:
			return p
		case <-time.After(testdeadline.Left(t)):
			t.Fatal("no cleanup ran after a collection")
			return 0
		}
	}
	stop := setGCFloor(200, floor, func(p int) { tuned <- p })
	defer stop()

	goal := func() uint64 { return gcRead("/gc/heap/goal:bytes") }
	if p, g := gcRead("/gc/gogc:percent"), goal(); p != floor*100/heapMinimum || g < floor || g > floor*5/4 {
		t.Errorf("before any collection: target %d, goal %d MiB; want %d and a goal of 64 MiB", p, g>>20, floor*100/heapMinimum)
	}
	if l := memLimit(); l != floor*3/2 {
		t.Errorf("before any collection: memory limit %d MiB; want 96 MiB", l>>20)
	}
	if p := collect(); p <= 200 {
		t.Errorf("a small live heap (%d MiB): target %d; want it raised over 200", gcRead("/gc/heap/live:bytes")>>20, p)
	}
	if l := memLimit(); l != floor*3/2 {
		t.Errorf("a small live heap: memory limit %d MiB; want 96 MiB", l>>20)
	}
	if g := goal(); g < floor || g > floor*5/4 {
		t.Errorf("a small live heap (%d MiB): goal %d MiB; want 64 MiB", gcRead("/gc/heap/live:bytes")>>20, g>>20)
	}

	big := make([]byte, 48<<20) // live: three times it passes the floor
	if p := collect(); p != 200 {
		t.Errorf("a live heap of %d MiB: target %d; want 200", gcRead("/gc/heap/live:bytes")>>20, p)
	}
	if g, live := goal(), gcRead("/gc/heap/live:bytes"); g < 3*live {
		t.Errorf("a live heap of %d MiB: goal %d MiB; want three times the live heap", live>>20, g>>20)
	}
	if l := memLimit(); l != math.MaxInt64 {
		t.Errorf("a live heap of %d MiB: memory limit %d MiB; want none", gcRead("/gc/heap/live:bytes")>>20, l>>20)
	}
	runtime.KeepAlive(big)
	big = nil
	if p := collect(); p <= 200 {
		t.Errorf("the live heap small again (%d MiB): target %d; want it raised over 200", gcRead("/gc/heap/live:bytes")>>20, p)
	}
	if l := memLimit(); l != floor*3/2 {
		t.Errorf("the live heap small again: memory limit %d MiB; want 96 MiB", l>>20)
	}

	stop()
	if p := gcRead("/gc/gogc:percent"); p != 100 {
		t.Errorf("stopped: target %d; want the old 100", p)
	}
	if l := memLimit(); l != math.MaxInt64 {
		t.Errorf("stopped: memory limit %d MiB; want none, as before", l>>20)
	}
	if p := collect(); p != -1 {
		t.Errorf("a collection after the stop set the target %d", p)
	}
	if p := gcRead("/gc/gogc:percent"); p != 100 {
		t.Errorf("a collection after the stop: target %d; want the old 100", p)
	}

	t.Run("GOMEMLIMIT set", func(t *testing.T) {
		t.Setenv("GOMEMLIMIT", "1GiB")
		debug.SetMemoryLimit(1 << 30)
		defer debug.SetMemoryLimit(math.MaxInt64)
		restore := setGCFloor(200, floor, nil)
		if p, l := gcRead("/gc/gogc:percent"), memLimit(); p <= 200 || l != 1<<30 {
			t.Errorf("target %d, memory limit %d MiB; want the target raised and the operator's 1024 MiB", p, l>>20)
		}
		restore()
		if l := memLimit(); l != 1<<30 {
			t.Errorf("restored: memory limit %d MiB; want the operator's 1024", l>>20)
		}
	})
	t.Run("GOGC set", func(t *testing.T) {
		t.Setenv("GOGC", "50")
		debug.SetGCPercent(50)
		restore := setGCFloor(200, floor, func(p int) { t.Errorf("the target was tuned to %d", p) })
		runtime.GC()
		if p := gcRead("/gc/gogc:percent"); p != 50 {
			t.Errorf("target %d; want the operator's 50", p)
		}
		restore()
		if p := gcRead("/gc/gogc:percent"); p != 50 {
			t.Errorf("restored: target %d; want the operator's 50", p)
		}
	})
}

// TestSetGCFloorOverALargeHeap: set while the live heap is already large
// (48 MiB, whose goal at 200 passes the floor), the target is the one
// asked from the start. It was raised as if nothing were live (1,600: a
// goal of 17 times the live heap, 816 MiB here), until the first
// collection, which so large a goal put off. Nor is a memory limit set,
// which is for a raised target alone.
func TestSetGCFloorOverALargeHeap(t *testing.T) {
	const floor = 64 << 20
	gcUnset(t)
	big := make([]byte, 48<<20)
	runtime.GC()
	stop := setGCFloor(200, floor, nil)
	defer stop()
	if p, g, live := gcRead("/gc/gogc:percent"), gcRead("/gc/heap/goal:bytes"), gcRead("/gc/heap/live:bytes"); p != 200 || g > 4*live {
		t.Errorf("a live heap of %d MiB: target %d, goal %d MiB; want 200 and a goal of three times the live heap", live>>20, p, g>>20)
	}
	if l := memLimit(); l != math.MaxInt64 {
		t.Errorf("a live heap of 48 MiB: memory limit %d MiB; want none (a limit of 96 MiB would collect without end)", l>>20)
	}
	runtime.KeepAlive(big)
}

// TestSetGCFloorOnce: a floor set while another is sets nothing and puts
// nothing back, so the first's restore puts back the target it found. Two
// floors restored out of order put back each other's raised target.
func TestSetGCFloorOnce(t *testing.T) {
	const floor = 64 << 20
	gcUnset(t)
	runtime.GC()
	first := setGCFloor(200, floor, nil)
	raised := gcRead("/gc/gogc:percent")
	second := setGCFloor(300, floor/2, nil)
	if p := gcRead("/gc/gogc:percent"); p != raised {
		t.Errorf("a second floor set the target %d; want the first's %d", p, raised)
	}
	first()
	if p := gcRead("/gc/gogc:percent"); p != 100 {
		t.Errorf("the first floor restored: target %d; want the old 100", p)
	}
	second()
	if p := gcRead("/gc/gogc:percent"); p != 100 {
		t.Errorf("the second floor restored after the first: target %d; want the old 100", p)
	}
	third := setGCFloor(200, floor, nil)
	defer third()
	if p := gcRead("/gc/gogc:percent"); p <= 200 {
		t.Errorf("a floor set after both were restored: target %d; want it raised", p)
	}
}
