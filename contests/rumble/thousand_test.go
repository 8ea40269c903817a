package rumble

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// No fixed player limit: a game of Rumble with 1,000 contestants (more than
// a byte can number) runs its phases and a round. Each submits a power, bids
// 5 on it, keeps it, and in round 1 attacks the next contestant (the last
// the first) with 10; the last to send closes each phase at once (U3). The
// round's results show every contestant at 95 stamina attacked with 10 and
// left at 85 (Rumble 9), and the last one's list has its receipt.
//
// Under the race detector, which makes each message cost several times
// more, the same game is played by 100: scripts/test.sh plays the game of
// 1,000 in a run of its own without it.
func TestGameOfAThousand(t *testing.T) {
	n := 1000
	switch {
	case testing.Short():
		n = 100 // the mutation runs (scripts/mutate.sh): the same game, smaller
	case raceEnabled:
		n = 100
		t.Logf("under the race detector: a game of %d; scripts/test.sh plays the game of 1,000 without it", n)
	}
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	name := func(i int) string { return fmt.Sprintf("P%04d", i+1) }
	from := func(i int) string { return fmt.Sprintf("%s <p%04d@example.test>", name(i), i+1) }
	// All but the last message of each kind are setup, applied quietly
	// (contracttest: without the checks of the state after each).
	phase := func(at string, ch contract.Channel, text func(i int) string) *contract.Notice {
		t.Helper()
		for i := 0; i < n-1; i++ {
			h.Quietly(at, from(i), ch, text(i))
		}
		if ch == contract.ChanPublic {
			return h.Public(at, from(n-1), text(n-1))
		}
		return h.Private(at, from(n-1), text(n-1))
	}
	mustDone(t, phase("2026-12-01T10:00:00Z", contract.ChanPublic, func(int) string { return "I join Rumble." }))
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."))
	if got := len(data2(h).Fighters); got != n {
		t.Fatalf("%d contestants in the game, want %d", got, n)
	}
	mustDone(t, phase("2026-12-01T12:00:00Z", contract.ChanPrivate, func(i int) string { return fmt.Sprintf("Might %d: the strength of %s (ward)", i+1, name(i)) }))
	mustDone(t, phase("2026-12-02T10:00:00Z", contract.ChanPrivate, func(i int) string { return fmt.Sprintf("I bid 5 on Might %d.", i+1) }))
	mustDone(t, phase("2026-12-02T12:00:00Z", contract.ChanPrivate, func(int) string { return "No discard." }))
	if st := data2(h); st.Phase != PhaseRound || st.Round != 1 {
		t.Fatalf("phase %q round %d after the discards, want round 1", st.Phase, st.Round)
	}
	r := phase("2026-12-03T10:00:00Z", contract.ChanPrivate, func(i int) string { return fmt.Sprintf("Attack %s 10", name((i+1)%n)) })
	if !strings.Contains(norm(r.Body), "Done: your actions for game 1 are sealed") ||
		!strings.Contains(norm(r.Body), fmt.Sprintf("contestant %s / attack: %s: 10", name(n-1), name(0))) {
		t.Errorf("the last contestant's receipt:\n%s", r.Body)
	}
	rows := results(t, sent(t, h, "rumble/1/round/2/begin"))
	if len(rows) != n {
		t.Errorf("the results show %d contestants, want %d", len(rows), n)
	}
	for _, i := range []int{0, n / 2, n - 1} {
		row := rows[name(i)]
		if row["Before"] != "95" || row["Attacked"] != "10" || row["After"] != "85" {
			t.Errorf("%s's results: %v, want 95 before, attacked with 10, 85 after", name(i), row)
		}
	}
}
