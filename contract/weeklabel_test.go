package contract

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// TestWeekLabelIsFmts: a week's label is what fmt writes of its ISO year
// and week, for instants of every week of this era and of years fmt pads
// otherwise (before year 1000, negative, past 9999).
func TestWeekLabelIsFmts(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 7))
	check := func(at time.Time) {
		t.Helper()
		y, w := at.UTC().ISOWeek()
		if got, want := WeekLabel(at), fmt.Sprintf("%04d-W%02d", y, w); got != want {
			t.Fatalf("WeekLabel(%v) = %q, fmt writes %q", at, got, want)
		}
	}
	for d := time.Date(2025, 12, 20, 23, 59, 0, 0, time.UTC); d.Year() < 2029; d = d.Add(13 * time.Hour) {
		check(d)
	}
	for range 2000 {
		check(time.Unix(r.Int64N(1<<40)-1<<39, 0).In(time.FixedZone("", (r.IntN(48)-24)*1800)))
	}
	for _, y := range []int{0, 1, 9, 99, 999, 1000, 9999, 10000, 12345, -1, -44} {
		check(time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC))
		check(time.Date(y, 12, 31, 12, 0, 0, 0, time.UTC))
	}
}
