package steemfield

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract"
)

// No fixed player limit: Steemfield with 1,000 players (more than a byte
// can number, and past the 52 map letters) runs three rounds. The first
// player proposes to raise the cap and every player votes yes: the results
// post tallies 1,000 votes and every player gets the end-of-round LAND
// (S6). In round 2 the 60th player, past the letters, places it: the map's
// legend names em for '?'. In round 3 the last player, past them too,
// places it: the results post lists em with '?', and the legend says '?'
// is shared, naming neither.
func TestRoundsOfAThousand(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100 // the mutation runs (scripts/mutate.sh): the same rounds, smaller
	}
	h := newHarness(t)
	name := func(i int) string { return fmt.Sprintf("P%04d", i+1) }
	from := func(i int) string { return fmt.Sprintf("%s <p%04d@example.test>", name(i), i+1) }
	// All but the last message of each kind are setup, applied quietly
	// (contracttest: without the checks of the state after each).
	for i := 0; i < n-1; i++ {
		h.Quietly("2026-12-01T10:00:00Z", from(i), contract.ChanPublic, "{DELEGATE: 1}")
	}
	mustContain(t, h.Public("2026-12-01T10:00:00Z", from(n-1), "{DELEGATE: 1}"), "you joined Steemfield as "+name(n-1)+" (?)")
	mustContain(t, h.Public("2026-12-01T11:00:00Z", from(0), "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nSET LANDCap = 5000\n---"),
		"Done: your proposal is recorded")
	h.Advance("2026-12-02T10:30:00Z")
	for i := 0; i < n-1; i++ {
		h.Quietly("2026-12-02T11:00:00Z", from(i), contract.ChanPublic, "{YES}")
	}
	mustContain(t, h.Public("2026-12-02T11:00:00Z", from(n-1), "{YES}"), "Done: your vote YES")
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post of round 1")
	}
	if b := flat(post); !strings.Contains(b, fmt.Sprintf("in favor: %d.000 against: 0.000", n)) || !strings.Contains(b, "sets LANDCap from 100 to 5000") {
		t.Fatalf("the results post of round 1 lacks the tally of %d votes or the new cap:\n%s", n, post.Body)
	}
	for _, i := range []int{0, n - 1} {
		if got := land(h, name(i)); got < 1 {
			t.Errorf("%s has %d LAND after round 1, want the end-of-round LAND", name(i), got)
		}
	}
	// The 60th player, past the letters, alone on the map with '?': the
	// legend names em.
	mustContain(t, h.Public("2026-12-04T11:00:00Z", from(59), "{PLACE: L(5, 5)}"), "Done: your LAND is placed at (5, 5)")
	post = findNotice(h.Advance("2026-12-07T10:30:00Z"), "steemfield/round/3/results-post")
	if post == nil {
		t.Fatal("no results post of round 2")
	}
	if !strings.Contains(post.Body, "\n  ?  "+name(59)+"\n") {
		t.Errorf("the map's legend does not name %s, the one '?' on the map:\n%s", name(59), post.Body)
	}
	mustContain(t, h.Public("2026-12-07T11:00:00Z", from(n-1), "{PLACE: L(3, 3)}"), "Done: your LAND is placed at (3, 3)")
	post = findNotice(h.Advance("2026-12-10T10:30:00Z"), "steemfield/round/4/results-post")
	if post == nil {
		t.Fatal("no results post of round 3")
	}
	if !strings.Contains(post.Body, name(n-1)+" (?)") {
		t.Errorf("the distribution lacks %s (?):\n%s", name(n-1), post.Body)
	}
	if !strings.Contains(post.Body, "\n  ?  any player who joined after the 52 letters were taken (several share it)\n") {
		t.Errorf("the map's legend does not say '?' is shared:\n%s", post.Body)
	}
}
