package contract_test

import (
	"strings"
	"testing"
)

// A transfer may name its recipient before the amount, as people write it
// ("I give Bob two coins", "I transfer to Bob 2 coins"): those got no reply
// at all, or the form. Two recipients are still refused, nothing moved.
func TestTransferRecipientFirst(t *testing.T) {
	for _, c := range []struct {
		text, want string
		bob        int64
	}{
		{"I give Bob two coins.", "Done: 2 coins moved from Alice to Bob", 7},
		{"I transfer Bob 2 coins, please.", "Done: 2 coins moved from Alice to Bob", 7},
		{"I transfer to Bob a coin.", "Done: 1 coin moved from Alice to Bob", 6},
		{"I hereby pay bob@example.test 1 coin.", "Done: 1 coin moved from Alice to Bob", 6},
		{"I give Bob and Carol 2 coins.", `Not done: no player is known as "Bob and Carol"`, 5},
	} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game.")
		r := h.Public("2026-12-01T10:06:00Z", alice, c.text)
		if r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%q: the receipt lacks %q:\n%v", c.text, c.want, r)
		}
		if got := h.S.Ledger.Balance("toy/coin", "Bob"); got != c.bob {
			t.Errorf("%q: Bob owns %d coins, want %d", c.text, got, c.bob)
		}
	}
}
