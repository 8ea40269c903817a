// Package testdeadline bounds a test's wait for an event (a receipt, a log
// line, a reconnect) by the test binary's own deadline (go test -timeout)
// instead of a fixed number of seconds: a machine under load, or the race
// detector, slows what the test waits for without failing it, and a wait
// that never ends still fails the test, with its own message, shortly
// before the binary would be stopped. It is for tests only.
package testdeadline

import (
	"flag"
	"math"
	"testing"
	"time"
)

// Left is how long a wait that begins now may last: until a twentieth of
// the time left before the test binary's deadline remains, so that the
// test's failure message is printed before the binary's timeout panics.
// A benchmark has no Deadline: its binary's is reckoned from the
// -test.timeout it runs under and the time the package was loaded (the
// binary's start, near enough); with no timeout at all (-timeout 0) a wait
// is not bounded.
func Left(t testing.TB) time.Duration {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		at, ok := d.Deadline()
		if !ok {
			return math.MaxInt64
		}
		return max(time.Until(at)*19/20, 0)
	}
	if f := flag.Lookup("test.timeout"); f != nil {
		if v, ok := f.Value.(flag.Getter).Get().(time.Duration); ok && v > 0 {
			return max((v-time.Since(loaded))*19/20, 0)
		}
	}
	return math.MaxInt64
}

// loaded is when the package was loaded, at the test binary's start.
var loaded = time.Now()

// Timer is a timer that fires when Left ends; the caller stops it.
func Timer(t testing.TB) *time.Timer {
	return time.NewTimer(Left(t))
}
