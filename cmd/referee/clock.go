package main

import "time"

// clock is the daemon's time (DESIGN "Time"): the wall clock, or a test clock
// that starts at a given instant and runs rate times faster than real time.
type clock struct {
	start time.Time // simulated start; zero for the wall clock
	real0 time.Time
	rate  float64
}

func (c *clock) now() time.Time {
	if c.start.IsZero() {
		return time.Now().UTC()
	}
	return c.start.Add(time.Duration(float64(time.Since(c.real0)) * c.rate)).UTC()
}

// fromReal maps a real instant (an IMAP INTERNALDATE) onto the clock.
func (c *clock) fromReal(t time.Time) time.Time {
	if c.start.IsZero() {
		return t.UTC()
	}
	return c.start.Add(time.Duration(float64(t.Sub(c.real0)) * c.rate)).UTC()
}

// realDelay is how long to wait in real time until the clock shows t.
func (c *clock) realDelay(t time.Time) time.Duration {
	d := t.Sub(c.now())
	if d <= 0 {
		return 0
	}
	if !c.start.IsZero() {
		d = time.Duration(float64(d) / c.rate)
	}
	return d
}
