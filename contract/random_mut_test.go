package contract_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestDrawsOfAnySizeAsPublished: a draw of any size is what a player
// recomputes by the method the Randomness notice describes, also when the
// first values fall above the largest multiple of n and the next k is
// taken (for n near 2^64/3, a third of the first values do).
func TestDrawsOfAnySizeAsPublished(t *testing.T) {
	seed := contract.SeedFor(contracttest.Secret[:], "2026-W50")
	for _, n := range []int{2, 6, 1000, 1<<62 + 1, 6148914691236517206, math.MaxInt64} {
		limit := math.MaxUint64 - math.MaxUint64%uint64(n)
		retried := 0
		for i := range 300 {
			label := fmt.Sprintf("toy/2026-W50/draw/%d", i)
			if got, want := contract.Intn(seed, label, n), playerDraw(seed, label, n); got != want {
				t.Errorf("n = %d, %s: drawn %d, recomputed %d", n, label, got, want)
			}
			if binary.BigEndian.Uint64(hmacOf(seed, label+"#0")) >= limit {
				retried++
			}
		}
		if (n == 1<<62+1 || n == 6148914691236517206) && retried == 0 {
			t.Errorf("n = %d: no draw of the 300 took a second value; the test does not reach the retry", n)
		}
	}
}

// hmacOf is HMAC-SHA256(seed, msg).
func hmacOf(seed []byte, msg string) []byte {
	m := hmac.New(sha256.New, seed)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

// TestCommitmentForIsThePublished: the commitment the state gives for a
// week (which Life's report prints beside each draw) is the one the
// Randomness notice published for that week, and none for a week never
// committed.
func TestCommitmentForIsThePublished(t *testing.T) {
	h := newToy(t)
	for _, w := range []string{"2026-W49", "2026-W50"} {
		published := noticeMatch(t, h.Sent, w+`  \d{4}-\d\d-\d\d  ([0-9a-f]{64})`)
		if got := h.S.CommitmentFor(w); got != published {
			t.Errorf("%s: commitment %q, the notice published %q", w, got, published)
		}
	}
	if got := h.S.CommitmentFor("2026-W51"); got != "" {
		t.Errorf("a week never committed has the commitment %q", got)
	}
}

// TestIntnOfOneOrLess: a draw among one number, or none, is 0 (a game
// drawing among the players left when one or none is left), never a panic
// or a value outside [0, n).
func TestIntnOfOneOrLess(t *testing.T) {
	seed := []byte("week seed")
	for _, n := range []int{1, 0, -1, -1 << 62} {
		if got := contract.Intn(seed, "winner", n); got != 0 {
			t.Errorf("Intn(seed, winner, %d) = %d, want 0", n, got)
		}
	}
}
