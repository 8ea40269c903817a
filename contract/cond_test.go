package contract_test

import (
	"strings"
	"testing"
)

// TestConditionBoundaries: each comparison of "if I own ... N coins" (G3) at
// its boundary, Alice owning exactly 5.
func TestConditionBoundaries(t *testing.T) {
	for cond, want := range map[string]bool{
		"more than 5": false, "more than 4": true, "over 5": false,
		"fewer than 5": false, "fewer than 6": true, "less than 5": false, "under 5": false,
		"at least 5": true, "at least 6": false, "5": true, "6": false,
		"at most 5": true, "at most 4": false,
		"exactly 5": true, "exactly 4": false, "exactly 6": false,
	} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game.")
		r := h.Public("2026-12-01T10:06:00Z", alice, "If I own "+cond+" coins, I transfer 1 coin to Bob.")
		got := h.S.Ledger.Balance("toy/coin", "Bob") == 6
		if got != want {
			t.Errorf("owning 5, %q decided %v, want %v:\n%s", cond, got, want, r.Body)
		}
		if !want && !strings.Contains(r.Body, `the condition "I own `+cond+` coins" is false`) {
			t.Errorf("%q: the receipt does not say the condition is false:\n%s", cond, r.Body)
		}
	}
}

// TestConditionAnd: "A and B" holds only when both parts do (G3), whichever
// of them fails.
func TestConditionAnd(t *testing.T) {
	for cond, want := range map[string]bool{
		"I own at least 5 coins and I am a player of Toy":     true,
		"I own at least 6 coins and I am a player of Toy":     false,
		"I own at least 5 coins and I am not a player of Toy": false,
		"I own at least 5 coins and I own at most 4 coins":    false,
	} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game.")
		r := h.Public("2026-12-01T10:06:00Z", alice, "If "+cond+", I transfer 1 coin to Bob.")
		if got := h.S.Ledger.Balance("toy/coin", "Bob") == 6; got != want {
			t.Errorf("owning 5, %q decided %v, want %v:\n%s", cond, got, want, r.Body)
		}
	}
}

// TestConditionPointsAndMembership: "if I own N points" counts the
// player's points in every game (G3, G6), and "if I am (not) a player"
// without a game asks whether the player has joined any.
func TestConditionPointsAndMembership(t *testing.T) {
	for _, c := range []struct {
		cond string
		want bool
	}{
		{"I own more than 6 points", true}, {"I own more than 7 points", false},
		{"I have at least 1 point", true}, {"I own exactly 7 points", true},
		{"I am a player", true}, {"I am not a player", false},
	} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game.")
		h.Public("2026-12-01T10:06:00Z", alice, "I score 7 points in Toy.")
		r := h.Public("2026-12-01T10:07:00Z", alice, "If "+c.cond+", I transfer 1 coin to Bob.")
		if got := h.S.Ledger.Balance("toy/coin", "Bob") == 6; got != c.want {
			t.Errorf("Alice with 7 points, a player: %q decided %v, want %v:\n%s", c.cond, got, c.want, r.Body)
		}
	}
	// Carol has joined nothing.
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game.")
	r := h.Public("2026-12-01T10:07:00Z", carol, "If I am a player, I poke Bob in Toy.")
	if !strings.Contains(flat(r.Body), `the condition "I am a player" is false`) {
		t.Errorf("a sender who joined nothing is a player:\n%s", r.Body)
	}
}
