package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestLedgerShortfallCaught: coins that vanish without the supply knowing
// break conservation as surely as coins that appear; the message is a fault
// and not acknowledged.
func TestLedgerShortfallCaught(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	_, err := h.E.Apply(h.S, &contract.Message{ID: "x3", From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"),
		Channel: contract.ChanPublic, Text: "I shred a coin in Toy."})
	if err == nil || !strings.Contains(err.Error(), "balances add up to 4 but the supply is 5") || !contract.IsFault(err) {
		t.Fatalf("a coin vanished and the ledger check said: %v", err)
	}
}
