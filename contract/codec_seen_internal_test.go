package contract

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestFreshIDsWithoutASet: the IDs of a memory that only grew since its
// text was kept (and lost its oldest) are found by one reading of the
// memory, in one allocation (the list), with no set of the IDs kept; an
// ID remembered before the latest kept is found too, through the set.
func TestFreshIDsWithoutASet(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	ids := map[string]time.Time{}
	var kept []seenItem
	for i := range 50 {
		id := fmt.Sprintf("%d.%x@example.test", i, i*7919)
		ids[id] = at.Add(time.Duration(i) * time.Minute)
		if i < 40 { // the 10 latest new
			kept = append(kept, seenItem{id: id, at: ids[id]})
		}
	}
	slices.SortFunc(kept, func(a, b seenItem) int { return strings.Compare(a.id, b.id) })
	var want []string
	for i := range 10 {
		want = append(want, fmt.Sprintf("%d.%x@example.test", 40+i, (40+i)*7919))
	}
	slices.Sort(want)
	check := func(what string, want []string) {
		t.Helper()
		got := freshIDs(ids, kept)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: fresh IDs %q, want %q", what, got, want)
		}
	}
	check("grown", want)
	if n := testing.AllocsPerRun(20, func() { freshIDs(ids, kept) }); n != 1 {
		t.Errorf("a memory that only grew read in %v allocations, want 1 (no set of the IDs kept)", n)
	}
	for i := range 5 {
		delete(ids, fmt.Sprintf("%d.%x@example.test", i, i*7919))
	}
	kept = slices.DeleteFunc(kept, func(it seenItem) bool { _, ok := ids[it.id]; return !ok })
	check("grown, its oldest gone", want)
	if n := testing.AllocsPerRun(20, func() { freshIDs(ids, kept) }); n != 1 {
		t.Errorf("a memory that grew and lost its oldest read in %v allocations, want 1 (no set of the IDs kept)", n)
	}
	ids["early@example.test"] = at.Add(7 * time.Minute)
	check("an ID remembered before the latest kept", append(slices.Clone(want), "early@example.test"))
}
