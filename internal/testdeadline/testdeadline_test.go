package testdeadline

import (
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

// TestLeftOfABenchmark: a benchmark has no Deadline; its waits get the
// binary's -test.timeout whole.
func TestLeftOfABenchmark(t *testing.T) {
	var b testing.B
	if got := Left(&b); got <= 0 {
		t.Errorf("a benchmark's wait is bounded by %v", got)
	}
}
