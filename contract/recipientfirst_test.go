package contract_test

import (
	"strings"
	"testing"
)

// A transfer may name its recipient before the amount, as people write it
// ("I give Bob two coins", "I transfer to Bob 2 coins"): those got no reply
// at all, or the form. Two recipients are still refused, nothing moved.
func TestTransferRecipientFirst(t *testing.T) {
	checkTransfers(t, []transferCase{
		{"I give Bob two coins.", "Done: 2 coins moved from Alice to Bob", 7},
		{"I transfer Bob 2 coins, please.", "Done: 2 coins moved from Alice to Bob", 7},
		{"I transfer to Bob a coin.", "Done: 1 coin moved from Alice to Bob", 6},
		{"I hereby pay bob@example.test 1 coin.", "Done: 1 coin moved from Alice to Bob", 6},
		{"I give Bob and Carol 2 coins.", `Not done: no player is known as "Bob and Carol"`, 5},
	})
}

// A pronoun for the recipient is no start of a player's name: "I give em 3
// coins" (as Agora writes it, "em" for someone named before) moved them to
// Emma, the one player whose name begins so, and "I transfer 3 coins to
// her" to Hermione. It names no player, nothing moved; a player whose name
// is the word itself is still found.
func TestPronounIsNoPlayer(t *testing.T) {
	for _, text := range []string{"Bob asked for help; I give em 3 coins.", "I transfer 3 coins to em.", "I transfer 3 coins to her.",
		"I give them 3 coins.", "I give you 3 coins."} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		for _, who := range []string{"Emma <emma@example.test>", "Hermione <hermione@example.test>", "Themis <themis@example.test>", "Yousef <yousef@example.test>"} {
			h.Public("2026-12-01T10:05:00Z", who, "I join the Toy game.")
		}
		r := h.Public("2026-12-01T10:06:00Z", alice, text)
		if r == nil || !strings.Contains(flat(r.Body), "Not done: no player is known as") {
			t.Errorf("%q: the receipt does not refuse the recipient:\n%v", text, r)
		}
		if got := h.S.Ledger.Balance("toy/coin", "Alice"); got != 5 {
			t.Errorf("%q: Alice owns %d coins, want 5: a pronoun was read as a player", text, got)
		}
	}
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:05:00Z", "Em <em@example.test>", "I join the Toy game.")
	if r := h.Public("2026-12-01T10:06:00Z", alice, "I transfer 3 coins to Em."); r == nil || !strings.Contains(flat(r.Body), "Done: 3 coins moved from Alice to Em") {
		t.Errorf("a player named Em: %v", r)
	}
}

// A recipient written before the amount is the player's whole name,
// nickname or address, never the start of one: "I give away 3 coins", "I
// give back 2 coins", "I give up 1 coin" name nobody, where each paid the one
// player whose name begins so (Awaya, Backus, Upton). After "to" a start
// of a name still reaches its player ("I transfer 3 coins to Awa").
func TestRecipientFirstIsAWholeName(t *testing.T) {
	for _, text := range []string{"I give away 3 coins.", "I give back 2 coins.", "I give up 1 coin.", "I give Awa 3 coins."} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		for _, who := range []string{"Awaya <awaya@example.test>", "Backus <backus@example.test>", "Upton <upton@example.test>"} {
			h.Public("2026-12-01T10:05:00Z", who, "I join the Toy game.")
		}
		r := h.Public("2026-12-01T10:06:00Z", alice, text)
		if got := h.S.Ledger.Balance("toy/coin", "Alice"); got != 5 {
			t.Errorf("%q: Alice owns %d coins, want 5: a word was read as the start of a name:\n%v", text, got, r)
		}
		if r != nil && strings.Contains(flat(r.Body), "Done") {
			t.Errorf("%q: the receipt says done:\n%v", text, r)
		}
	}
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:05:00Z", "Awaya <awaya@example.test>", "I join the Toy game.")
	for _, c := range []struct{ text, want string }{
		{"I transfer 3 coins to Awa.", "Done: 3 coins moved from Alice to Awaya"},
		{"I give Awaya 1 coin.", "Done: 1 coin moved from Alice to Awaya"},
	} {
		if r := h.Public("2026-12-01T10:06:00Z", alice, c.text); r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%q: the receipt lacks %q:\n%v", c.text, c.want, r)
		}
	}
}

// transferCase is a mail of Alice's on the public list, what its receipt
// says, and the coins Bob owns after it (5 before).
type transferCase struct {
	text, want string
	bob        int64
}

// checkTransfers sends each case's mail in a Toy game Alice and Bob have
// just joined (5 coins each) and holds its receipt and Bob's coins to it.
func checkTransfers(t *testing.T, cases []transferCase) {
	t.Helper()
	for _, c := range cases {
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
