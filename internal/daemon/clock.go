package daemon

import "time"

// Clock is the daemon's time (DESIGN "Time"): the wall clock, or a test clock
// that starts at a given instant and runs Rate times faster than real time.
type Clock struct {
	Start time.Time // simulated start; zero for the wall clock
	Real0 time.Time // the real instant the simulated start stands for
	Rate  float64   // how many times faster than real time (1 for the wall clock)
}

// WallClock is the real time.
func WallClock() *Clock { return &Clock{Real0: time.Now(), Rate: 1} }

// TestClock starts at start now and runs rate times faster than real time.
func TestClock(start time.Time, rate float64) *Clock {
	return &Clock{Start: start.UTC(), Real0: time.Now(), Rate: rate}
}

// Now is the clock's present.
func (c *Clock) Now() time.Time {
	if c.Start.IsZero() {
		return time.Now().UTC()
	}
	return c.Start.Add(time.Duration(float64(time.Since(c.Real0)) * c.Rate)).UTC()
}

// FromReal maps a real instant (an IMAP INTERNALDATE) onto the clock.
func (c *Clock) FromReal(t time.Time) time.Time {
	if c.Start.IsZero() {
		return t.UTC()
	}
	return c.Start.Add(time.Duration(float64(t.Sub(c.Real0)) * c.Rate)).UTC()
}

// RealDelay is how long to wait in real time until the clock shows t.
func (c *Clock) RealDelay(t time.Time) time.Duration {
	d := t.Sub(c.Now())
	if d <= 0 {
		return 0
	}
	if !c.Start.IsZero() {
		d = time.Duration(float64(d) / c.Rate)
	}
	return d
}
