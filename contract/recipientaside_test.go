package contract_test

import (
	"strings"
	"testing"
)

// A transfer's recipient may have a remark after it: "to Bob (as
// promised)", "to Bob - thanks!", "to Bob, for the cell", "to Bob. (As
// agreed.)"; each was refused as no player known as "Bob (as promised)".
// A remark that names another player ("to Bob (no wait, Carol)") leaves
// the recipient in doubt, and is still refused, nothing moved.
func TestRecipientWithARemark(t *testing.T) {
	for _, c := range []struct {
		text, want string
		bob        int64
	}{
		{"I transfer 2 coins to Bob (as promised).", "Done: 2 coins moved from Alice to Bob", 7},
		{"I transfer 2 coins to Bob - thanks!", "Done: 2 coins moved from Alice to Bob", 7},
		{"I transfer 2 coins to Bob \u2014 for the help.", "Done: 2 coins moved from Alice to Bob", 7},
		{"I transfer 2 coins to Bob, for the cell he gave me.", "Done: 2 coins moved from Alice to Bob", 7},
		{"I transfer 2 coins to Bob. (As agreed.)", "Done: 2 coins moved from Alice to Bob", 7},
		{"I transfer 2 coins to Bob (no wait, Carol).", `Not done: no player is known as "Bob (no wait, Carol)"`, 5},
		{"I transfer 2 coins to Bobby (a typo).", `Not done: no player is known as "Bobby (a typo)"`, 5},
	} {
		h := newToy(t)
		for _, p := range []string{alice, bob, carol} {
			h.Public("2026-12-01T10:05:00Z", p, "I join the Toy game.")
		}
		r := h.Public("2026-12-01T10:06:00Z", alice, c.text)
		if r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%q: the receipt lacks %q:\n%v", c.text, c.want, r)
		}
		if got := h.S.Ledger.Balance("toy/coin", "Bob"); got != c.bob {
			t.Errorf("%q: Bob owns %d coins, want %d", c.text, got, c.bob)
		}
	}
}

// A remark after the recipient that takes the transfer back, puts it off
// or makes it hang on something ("to Bob (not really)", "to Bob - just
// kidding", "to Bob, or not", "to Bob (when he joins)", "I give Bob (if he
// joins) 3 coins") leaves it in doubt: it is refused, nothing moved, as it
// was before remarks were read. Each moved the coins.
func TestRecipientRemarkInDoubt(t *testing.T) {
	for _, text := range []string{
		"I transfer 2 coins to Bob (not really).",
		"I transfer 2 coins to Bob - just kidding.",
		"I transfer 2 coins to Bob. (Just kidding.)",
		"I transfer 2 coins to Bob, or not.",
		"I transfer 2 coins to Bob -- no, wait.",
		"I transfer 2 coins to Bob (maybe).",
		"I transfer 2 coins to Bob, hypothetically.",
		"I transfer 2 coins to Bob (when he joins).",
		"I transfer 2 coins to Bob, once he pays me back.",
		"I transfer 2 coins to Bob (after Friday).",
		"I transfer 2 coins to Bob (tomorrow).",
		"I give Bob (if he joins) 2 coins.",
		"I transfer 2 coins to Bob - I don't.",
		"I transfer 2 coins to Bob (pending approval).",
		"I transfer 2 coins to Bob (/s).",
	} {
		h := newToy(t)
		for _, p := range []string{alice, bob, carol} {
			h.Public("2026-12-01T10:05:00Z", p, "I join the Toy game.")
		}
		r := h.Public("2026-12-01T10:06:00Z", alice, text)
		if r == nil || !strings.Contains(flat(r.Body), "Not done: no player is known as") {
			t.Errorf("%q: the receipt does not refuse the recipient:\n%v", text, r)
		}
		if got := h.S.Ledger.Balance("toy/coin", "Bob"); got != 5 {
			t.Errorf("%q: Bob owns %d coins, want 5: a transfer in doubt was done", text, got)
		}
	}
}
