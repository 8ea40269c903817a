package testdeadline

import (
	"flag"
	"testing"
	"time"
)

// TestLeftEndsBeforeTheDeadline: a test's wait ends before the binary's
// deadline, a twentieth of the time left before it, so that the test's own
// message is printed; with no deadline it does not end.
func TestLeftEndsBeforeTheDeadline(t *testing.T) {
	left := Left(t)
	d, ok := t.Deadline()
	if !ok {
		if left < 24*time.Hour {
			t.Errorf("no deadline, and a wait is bounded by %v", left)
		}
		return
	}
	until := time.Until(d)
	if left >= until || left < until*18/20 {
		t.Errorf("with %v before the deadline a wait may last %v, want about %v", until, left, until*19/20)
	}
}

// TestLeftOfABenchmark: a benchmark has no Deadline; its waits end a
// twentieth before the binary's -test.timeout, reckoned from its start.
func TestLeftOfABenchmark(t *testing.T) {
	var b testing.B
	timeout := flag.Lookup("test.timeout").Value.(flag.Getter).Get().(time.Duration)
	most := (timeout - time.Since(loaded)) * 19 / 20 // reckoned before Left, so at least Left's
	got := Left(&b)
	if timeout > 0 && (got <= 0 || got > most) {
		t.Errorf("a benchmark's wait is bounded by %v under a timeout of %v: want at most %v, a twentieth less than what is left", got, timeout, most)
	}
}
