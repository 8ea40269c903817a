package main

import (
	"fmt"
	"slices"
)

// Issue 14's targets for a replay, against which the bench's last lines
// judge its medians.
const (
	targetRatio = 0.5   // replay/parse on one core, at the largest size, at least
	targetRate  = 25000 // messages/s on two cores, at the largest size, at least
	targetFlat  = 1.2   // per-message CPU, max/min over the sizes, at most
	targetRSSMB = 150   // peak RSS at the largest size, under
)

// figures are the medians of the runs, by GOMAXPROCS and size.
type figures struct {
	sizes                       []int
	ratio, rate, cpu, user, rss map[int]map[int]float64
}

// verdicts says of each of issue 14's targets "met" or "NOT met", with the
// figure and the target: replay/parse on one core and messages/s on two
// cores at the largest size, the per-message CPU's max/min over the sizes
// (user and whole, for each GOMAXPROCS measured), the peak RSS at the
// largest size (the highest median over the GOMAXPROCS). A target whose
// figure was not measured (no GOMAXPROCS 1 or 2, a single size) is said
// to be so.
func verdicts(f figures) []string {
	if len(f.sizes) == 0 {
		return nil
	}
	largest := slices.Max(f.sizes)
	var out []string
	say := func(met bool, format string, args ...any) {
		v := "NOT met"
		if met {
			v = "met"
		}
		out = append(out, fmt.Sprintf("%-7s  ", v)+fmt.Sprintf(format, args...))
	}
	if v, ok := f.ratio[1][largest]; ok {
		say(v >= targetRatio, "replay/parse on one core at %d messages: %.3f (target at least %.2f)", largest, v, targetRatio)
	} else {
		out = append(out, fmt.Sprintf("not measured: replay/parse on one core at %d messages (target at least %.2f): run with -procs 1", largest, targetRatio))
	}
	if v, ok := f.rate[2][largest]; ok {
		say(v >= targetRate, "replay on two cores at %d messages: %.0f messages/s (target at least %d)", largest, v, targetRate)
	} else {
		out = append(out, fmt.Sprintf("not measured: replay on two cores at %d messages (target at least %d messages/s): run with -procs 2", largest, targetRate))
	}
	var procs []int
	for p := range f.cpu {
		procs = append(procs, p)
	}
	slices.Sort(procs)
	smallest := slices.Min(f.sizes)
	for _, p := range procs {
		for _, c := range []struct {
			what string
			v    map[int]float64
		}{{"user", f.user[p]}, {"whole (user + system)", f.cpu[p]}} {
			if smallest == largest {
				out = append(out, fmt.Sprintf("not measured: %s CPU per message from the smallest size to the largest on GOMAXPROCS=%d: one size only", c.what, p))
				continue
			}
			lo, hi := c.v[f.sizes[0]], c.v[f.sizes[0]]
			for _, n := range f.sizes {
				lo, hi = min(lo, c.v[n]), max(hi, c.v[n])
			}
			say(hi <= targetFlat*lo, "%s CPU per message, %d to %d messages, GOMAXPROCS=%d: max/min %.2f (target at most %.2f)", c.what, smallest, largest, p, hi/lo, targetFlat)
		}
	}
	peak, ok := 0.0, false
	for _, p := range procs {
		if v, in := f.rss[p][largest]; in {
			peak, ok = max(peak, v), true
		}
	}
	if ok {
		say(peak < targetRSSMB, "peak RSS at %d messages: %.0f MB (target under %d MB)", largest, peak, targetRSSMB)
	}
	return out
}
