package wackyworld

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// No fixed party limit: Wacky World with 1,000 parties (more than a byte
// can number, and past the 36 letters and digits of the map) plays a whole
// turn: each drops a thing on eir tile (Wacky 6b), the last with its
// receipt. The next turn begins, and Atlas's weekly report lists every
// party, the last marked '?' on the map, whose legend says '?' is shared,
// naming none of them (W5).
func TestTurnOfAThousand(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100 // the mutation runs (scripts/mutate.sh): the same turn, smaller
	}
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	name := func(i int) string { return fmt.Sprintf("P%04d", i+1) }
	from := func(i int) string { return fmt.Sprintf("%s <p%04d@example.test>", name(i), i+1) }
	// All but the last message of each kind are setup, applied quietly
	// (contracttest: without the checks of the state after each).
	for i := 0; i < n-1; i++ {
		h.Quietly("2026-12-01T10:00:00Z", from(i), contract.ChanPublic, "I join Wacky World.")
	}
	if r := h.Public("2026-12-01T10:00:00Z", from(n-1), "I join Wacky World."); !done(r) {
		t.Fatalf("the last join: %v", r)
	}
	drop := func(i int) string { return fmt.Sprintf("I drop a token of %s in Wacky World.", name(i)) }
	for i := 0; i < n-1; i++ {
		h.Quietly("2026-12-01T11:00:00Z", from(i), contract.ChanPublic, drop(i))
	}
	if r := h.Public("2026-12-01T11:00:00Z", from(n-1), drop(n-1)); !done(r) || !strings.Contains(r.Body, "token of "+name(n-1)) {
		t.Fatalf("the last drop: %v", r)
	}
	if got := len(h.Data(ID).(*State).Assets); got != n {
		t.Fatalf("%d things in the World, want %d", got, n)
	}
	var report, turn *contract.Notice
	for _, x := range h.Advance("2026-12-07T00:30:00Z") {
		switch x.Subject {
		case "[Atlas] Weekly Report":
			report = x
		case "Wacky World: turn 2 begins":
			turn = x
		}
	}
	if report == nil || turn == nil {
		t.Fatalf("turn 2 began (%v) and the weekly report went out (%v), want both", turn != nil, report != nil)
	}
	for _, i := range []int{0, n / 2, n - 1} {
		if !strings.Contains(report.Body, "\n"+name(i)+" ") {
			t.Errorf("the report's parties lack %s", name(i))
		}
	}
	if !strings.Contains(report.Body, "\n  ?  any party past the first 36 (the Parties table gives each one's location)\n") {
		t.Errorf("the map's legend does not say '?' is shared:\n%s", report.Body)
	}
}
