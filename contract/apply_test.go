package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestSeenHorizon: a message redelivered after it has left the
// processed-message memory (older than its 30 days) is still not applied
// again, and the saved memory no longer holds it (DESIGN invariant 2).
func TestSeenHorizon(t *testing.T) {
	h := newToy(t)
	first := &contract.Message{ID: "first@example.test", From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"),
		Channel: contract.ChanPublic, Text: "I join the Toy game."}
	replay := *first
	if ns := h.Send(first); len(ns) != 1 {
		t.Fatalf("first copy: %d notices", len(ns))
	}
	h.Public("2027-01-05T11:00:00Z", bob, "I join the Toy game.")
	b, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	// The memory is the seen section; the reports' citations name the last
	// message they cover and keep it while they are remembered.
	if _, ok := h.S.Seen.IDs["first@example.test"]; ok || strings.Contains(string(b), "  first@example.test:") {
		t.Errorf("the saved memory still holds a message 35 days old:\n%s", b)
	}
	if ns := h.Send(&replay); len(ns) != 0 {
		t.Errorf("a redelivered message older than the memory was applied again: %d notices, first:\n%s", len(ns), ns[0].Body)
	}
	// A message with a new ID inside the memory is applied.
	if r := h.Public("2027-01-05T11:01:00Z", carol, "I join the Toy game."); r == nil || !strings.Contains(r.Body, "Done: you joined Toy") {
		t.Errorf("a new message was not applied: %v", r)
	}
}
