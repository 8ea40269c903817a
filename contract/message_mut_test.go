package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestReferencesFindIntent: a stance whose mail names the intent's message
// only in References (no In-Reply-To, as some mailers write a reply) applies
// to that intent, whatever else References names.
func TestReferencesFindIntent(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Send(&contract.Message{ID: "second@example.test", From: "carol@example.test", Arrived: contracttest.At(t, "2026-12-01T10:11:00Z"),
		Channel: contract.ChanPublic, Text: "I intend, with Agoran consent, to reset the Toy rounds."})
	r := contracttest.Receipt(h.Send(&contract.Message{From: "bob@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"), Channel: contract.ChanPublic,
		References: []string{"first@example.test", "second@example.test"}, Text: "I object."}))
	if r == nil || !strings.Contains(r.Body, "Done: you object to intent #2 (reset the Toy rounds)") {
		t.Errorf("a reply naming intent #2 in References alone:\n%v", r)
	}
}
