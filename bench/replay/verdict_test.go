package main

import (
	"slices"
	"strings"
	"testing"
)

// byProcs is a figure for GOMAXPROCS 1 and 2 at each size.
func byProcs(one, two map[int]float64) map[int]map[int]float64 {
	return map[int]map[int]float64{1: one, 2: two}
}

// TestVerdicts: each of issue 14's targets is judged on its own figure,
// at the largest size whatever the order of -sizes, each bound on the
// side the issue puts it (at least 0.5 and 25,000 messages/s, max/min at
// most 1.2, under 150 MB), and a figure not measured is said to be so.
func TestVerdicts(t *testing.T) {
	f := figures{
		sizes: []int{200000, 5000, 20000},
		ratio: byProcs(map[int]float64{5000: 0.2, 20000: 0.3, 200000: 0.5}, map[int]float64{200000: 0.9}),
		rate:  byProcs(map[int]float64{200000: 30000}, map[int]float64{5000: 30000, 200000: 24999}),
		user: byProcs(map[int]float64{5000: 0.06, 20000: 0.05, 200000: 0.06},
			map[int]float64{5000: 0.05, 20000: 0.0601, 200000: 0.05}),
		cpu: byProcs(map[int]float64{5000: 0.12, 20000: 0.1, 200000: 0.1},
			map[int]float64{5000: 0.1, 20000: 0.1, 200000: 0.1}),
		rss: byProcs(map[int]float64{200000: 149}, map[int]float64{5000: 200, 200000: 120}),
	}
	want := []string{
		"met      replay/parse on one core at 200000 messages: 0.500 (target at least 0.50)",
		"NOT met  replay on two cores at 200000 messages: 24999 messages/s (target at least 25000)",
		"met      user CPU per message, 5000 to 200000 messages, GOMAXPROCS=1: max/min 1.20 (target at most 1.20)",
		"met      whole (user + system) CPU per message, 5000 to 200000 messages, GOMAXPROCS=1: max/min 1.20 (target at most 1.20)",
		"NOT met  user CPU per message, 5000 to 200000 messages, GOMAXPROCS=2: max/min 1.20 (target at most 1.20)",
		"met      whole (user + system) CPU per message, 5000 to 200000 messages, GOMAXPROCS=2: max/min 1.00 (target at most 1.20)",
		"met      peak RSS at 200000 messages: 149 MB (target under 150 MB)",
	}
	if got := verdicts(f); !slices.Equal(got, want) {
		t.Errorf("verdicts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Each target missed by a little, the other way.
	f.ratio[1][200000] = 0.4999
	f.rate[2][200000] = 25000
	f.user[1][5000] = 0.0601
	f.cpu[2][20000] = 0.1201
	f.rss[2][200000] = 150
	got := verdicts(f)
	for i, w := range []string{"NOT met  replay/parse", "met      replay on two", "NOT met  user CPU", "met      whole", "NOT met  user", "NOT met  whole", "NOT met  peak RSS at 200000 messages: 150 MB"} {
		if i >= len(got) || !strings.HasPrefix(got[i], w) {
			t.Errorf("line %d: %q, want it to begin %q (all: %q)", i, got, w, got)
			break
		}
	}

	// One GOMAXPROCS, one size.
	one := figures{sizes: []int{5000},
		ratio: map[int]map[int]float64{2: {5000: 0.9}}, rate: map[int]map[int]float64{2: {5000: 40000}},
		user: map[int]map[int]float64{2: {5000: 0.05}}, cpu: map[int]map[int]float64{2: {5000: 0.1}}, rss: map[int]map[int]float64{2: {5000: 40}}}
	want = []string{
		"not measured: replay/parse on one core at 5000 messages (target at least 0.50): run with -procs 1",
		"met      replay on two cores at 5000 messages: 40000 messages/s (target at least 25000)",
		"not measured: user CPU per message from the smallest size to the largest on GOMAXPROCS=2: one size only",
		"not measured: whole (user + system) CPU per message from the smallest size to the largest on GOMAXPROCS=2: one size only",
		"met      peak RSS at 5000 messages: 40 MB (target under 150 MB)",
	}
	if got := verdicts(one); !slices.Equal(got, want) {
		t.Errorf("verdicts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRunsOf: sizes under 20,000 messages are replayed about as much in
// all (runs times 20,000/n, rounded up, at most 20 times), the others
// runs times.
func TestRunsOf(t *testing.T) {
	for _, c := range []struct{ n, runs, want int }{
		{5000, 3, 12}, {6000, 3, 12}, {19999, 3, 6}, {20000, 3, 3}, {200000, 3, 3}, {1, 1, 20}, {1000, 2, 40}, {5000, 1, 4},
	} {
		if got := runsOf(c.n, c.runs); got != c.want {
			t.Errorf("runsOf(%d, %d) = %d, want %d", c.n, c.runs, got, c.want)
		}
	}
	if got := shortRuns([]int{5000, 20000, 200000}, 3); got != "12 at 5000 messages" {
		t.Errorf("shortRuns: %q", got)
	}
	if got := shortRuns([]int{20000, 200000}, 3); got != "every size" {
		t.Errorf("shortRuns: %q", got)
	}
}
