package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
)

// TestConditionAfterCondition: "If A, if B, I ..." (or "If A, and if B,
// I ...") is performed only when both hold (G3), whichever is written
// first; the receipt names the condition as "A and B". "If A, or if B" is
// refused, naming the forms the referee reads, and changes nothing.
func TestConditionAfterCondition(t *testing.T) {
	for _, c := range []struct {
		text, cond string
		done       bool
	}{
		{"If I own at least 5 coins, if I am a player of Toy, I transfer 1 coin to Bob.", "I own at least 5 coins and I am a player of Toy", true},
		{"If I am a player of Toy, if I own at least 5 coins, I transfer 1 coin to Bob.", "I am a player of Toy and I own at least 5 coins", true},
		{"If I am a player of Toy, if I own at least 6 coins, I transfer 1 coin to Bob.", "I am a player of Toy and I own at least 6 coins", false},
		{"If I am a player of Toy, and if I own more than 5 coins, I transfer 1 coin to Bob.", "I am a player of Toy and I own more than 5 coins", false},
		{"If I own at least 6 coins, if I am a player of Toy, I transfer 1 coin to Bob.", "I own at least 6 coins and I am a player of Toy", false},
	} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game.")
		r := h.Public("2026-12-01T10:06:00Z", alice, c.text)
		want := `condition "` + c.cond + `" is false`
		if c.done {
			want = `condition "` + c.cond + `" holds`
		}
		if !strings.Contains(flat(r.Body), want) {
			t.Errorf("owning 5, %q: the receipt does not say %s:\n%s", c.text, want, r.Body)
		}
		if got := h.S.Ledger.Balance("toy/coin", "Bob") == 6; got != c.done {
			t.Errorf("owning 5, %q: transferred %v, want %v", c.text, got, c.done)
		}
	}

	for _, text := range []string{
		"If I am a player of Toy, or if I own at least 6 coins, I transfer 1 coin to Bob.",
		"If I am a player of Toy or I own at least 6 coins, I transfer 1 coin to Bob.",
	} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game.")
		r := h.Public("2026-12-01T10:06:00Z", alice, text)
		want := `joins conditions with a comma or "or", which the referee does not read, so the action was not performed; write "If A and B, I ..." or "If A, if B, I ..." (both must hold) (G3)`
		if !strings.Contains(flat(r.Body), want) {
			t.Errorf("%q: the receipt does not refuse with %s:\n%s", text, want, r.Body)
		}
		if got := h.S.Ledger.Balance("toy/coin", "Bob"); got != 5 {
			t.Errorf("%q: Bob has %d coins, want 5", text, got)
		}
	}

	p, ok := contract.ReadPerformative("If I own 3 Vials, if I am a contestant of Life, I transfer 1 Vial to Bob.")
	if want := "I own 3 Vials and I am a contestant of Life"; !ok || p.Cond != want {
		t.Errorf("read as %+v, %v; want the condition %q", p, ok, want)
	}
}
