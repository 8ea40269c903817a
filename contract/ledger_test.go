package contract_test

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestLedgerShortfallCaught: coins that vanish without the supply knowing
// break conservation as surely as coins that appear. The write goes behind
// the ledger's methods (and so behind the undo log), which only the whole
// ledger's check finds: the checks of undo, on in every test, run it and
// name the shortfall.
func TestLedgerShortfallCaught(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "balances add up to 4 but the supply is 5") {
			t.Fatalf("a coin vanished and the ledger check said: %v", r)
		}
	}()
	h.E.Apply(h.S, &contract.Message{ID: "x3", From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"),
		Channel: contract.ChanPublic, ListCopy: true, Text: "I shred a coin in Toy."})
}

// TestLedgerRefusesNegative: minting, destroying or moving a negative amount,
// or more than the owner holds, is refused and changes nothing; zero is a
// no-op that leaves no empty balance behind.
func TestLedgerRefusesNegative(t *testing.T) {
	var l contract.Ledger
	if err := l.Mint("toy/coin", "Alice", 5); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"mint -1":         l.Mint("toy/coin", "Alice", -1),
		"destroy -1":      l.Destroy("toy/coin", "Alice", -1),
		"destroy 6":       l.Destroy("toy/coin", "Alice", 6),
		"move -1":         l.Move("toy/coin", "Alice", "Bob", -1),
		"move 6":          l.Move("toy/coin", "Alice", "Bob", 6),
		"move from Carol": l.Move("toy/coin", "Carol", "Bob", 1),
	} {
		if err == nil {
			t.Errorf("%s was allowed", name)
		}
	}
	for name, err := range map[string]error{
		"mint 0":    l.Mint("toy/coin", "Bob", 0),
		"destroy 0": l.Destroy("toy/coin", "Bob", 0),
		"move 0":    l.Move("toy/coin", "Alice", "Bob", 0),
		"destroy 5": l.Destroy("toy/coin", "Alice", 5),
	} {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if len(l.Balances["toy/coin"]) != 0 || l.Supply["toy/coin"] != 0 {
		t.Errorf("after minting 5 and destroying 5: balances %v, supply %d", l.Balances["toy/coin"], l.Supply["toy/coin"])
	}
}

// TestDestroy: coins burnt leave their holder and the supply alike; burning
// more than one holds is refused and changes nothing.
func TestDestroy(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game.")
	r := h.Public("2026-12-01T10:06:00Z", alice, "I burn 2 coins in Toy.")
	if !strings.Contains(r.Body, "Done: you burn 2 coins") || h.S.Ledger.Balance("toy/coin", "Alice") != 3 || h.S.Ledger.Supply["toy/coin"] != 8 {
		t.Fatalf("burning 2 of 5 coins: Alice holds %d, supply %d:\n%s", h.S.Ledger.Balance("toy/coin", "Alice"), h.S.Ledger.Supply["toy/coin"], r.Body)
	}
	r = h.Public("2026-12-01T10:07:00Z", alice, "I burn 3 coins in Toy.")
	if !strings.Contains(r.Body, "Done: you burn 3 coins") || h.S.Ledger.Balance("toy/coin", "Alice") != 0 {
		t.Fatalf("burning all of one's coins:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T10:08:00Z", bob, "I burn 6 coins in Toy.")
	if !strings.Contains(flat(r.Body), "you cannot burn 6 coins") || h.S.Ledger.Balance("toy/coin", "Bob") != 5 || h.S.Ledger.Supply["toy/coin"] != 5 {
		t.Fatalf("burning more than one holds:\n%s", r.Body)
	}
}

// TestZeroBalanceInAStateFile: a state file the operator edited by hand may
// hold a balance of 0 (the referee drops an emptied one, a hand may write
// it). That ledger is sound: `referee check` finds no problem in it, and a
// player holding 0 acts as before, here by changing eir name, which carries
// the holding over; a negative balance is a problem.
func TestZeroBalanceInAStateFile(t *testing.T) {
	h := joined(t)
	b, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(strings.Replace(string(b), "      Carol: 5\n", "      Carol: 0\n", 1), "    toy/coin: 20\n", "    toy/coin: 15\n", 1)
	if edited == string(b) {
		t.Fatalf("the ledger is not written as expected:\n%s", b)
	}
	if h.S, err = h.E.Decode([]byte(edited)); err != nil {
		t.Fatal(err)
	}
	if p := h.E.Check(h.S); len(p) != 0 {
		t.Errorf("check of a ledger where Carol holds 0: %q", p)
	}
	r := h.Public("2026-12-01T10:20:00Z", carol, "I change my name to Cara.")
	if !strings.Contains(r.Body, "Done: you are now known as Cara") {
		t.Errorf("a player holding 0 could not change eir name:\n%s", r.Body)
	}
	if b, _ := contract.Encode(h.S); !strings.Contains(string(b), "      Cara: 0\n") || strings.Contains(string(b), "Carol") {
		t.Errorf("the holding of 0 did not follow the name:\n%s", b)
	}

	h.S.Ledger.Balances["toy/coin"]["Cara"] = -1
	h.S.Ledger.Balances["toy/coin"]["Dan"] = 6
	if got := strings.Join(h.E.Check(h.S), "\n"); !strings.Contains(got, "toy/coin: Cara holds -1") {
		t.Errorf("check of a ledger where Cara holds -1: %q", got)
	}
}
