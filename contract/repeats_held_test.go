package contract_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"referee/contract"
	"referee/contract/contracttest"
	"referee/contract/text"
)

// TestReplayAgainUnlistedCopy: an archive read again (referee replay of
// the same archive, or of one that overlaps it) changes nothing, as the
// README says, for a direct copy of a public message whose list copy never
// came either: its wait ended, its sender was told once that the list
// never carried it, and reading it again neither holds it again (a journal
// entry) nor tells its sender a second time when that wait ends.
func TestReplayAgainUnlistedCopy(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &herald{})
	at := contracttest.At(t, "2026-12-01T10:05:00Z")
	direct := func() *contract.Message {
		return &contract.Message{ID: "unlisted@example.test", From: "alice@example.test", Date: at, Arrived: at,
			Subject: "actions", Channel: contract.ChanPublic, ListCopy: false, Authenticated: true, Text: "I shout hi in Herald."}
	}
	if _, err := h.E.Apply(h.S, direct()); err != nil {
		t.Fatal(err)
	}
	if _, err := h.E.Advance(h.S, at.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if len(h.S.Outbox) != 1 {
		t.Fatalf("the wait ended: %d notices, want the one telling the sender the list never carried it", len(h.S.Outbox))
	}
	h.S.Outbox = nil // sent

	// The archive read again: the same message at the same arrival.
	m := direct()
	repeats := h.E.Repeats(h.S, m)
	ent, err := h.E.Apply(h.S, m)
	if err != nil {
		t.Fatal(err)
	}
	more, err := h.E.Advance(h.S, at.Add(6*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ent) + len(more); n > 0 || len(h.S.Outbox) > 0 {
		var notices []string
		for _, o := range h.S.Outbox {
			notices = append(notices, o.ID)
		}
		t.Errorf("the direct copy read again (Repeats %v): %d journal entries, notices %v; want none", repeats, n, notices)
	}
}

// TestUnlistedNoticeIsFilledAndSigned: the notice telling a sender that the
// list never carried a direct copy is written as every other receipt is,
// its lines filled to text.Width and signed by the referee, not as one line
// of some 300 characters without a signature.
func TestUnlistedNoticeIsFilledAndSigned(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &herald{})
	at := contracttest.At(t, "2026-12-01T10:05:00Z")
	m := &contract.Message{ID: "unlisted@example.test", From: "alice@example.test", Date: at, Arrived: at,
		Subject: "actions", Channel: contract.ChanPublic, ListCopy: false, Authenticated: true, Text: "I shout hi in Herald."}
	if _, err := h.E.Apply(h.S, m); err != nil {
		t.Fatal(err)
	}
	if _, err := h.E.Advance(h.S, at.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if len(h.S.Outbox) != 1 {
		t.Fatalf("the wait ended: %d notices, want 1", len(h.S.Outbox))
	}
	body := h.S.Outbox[0].Body
	for _, l := range strings.Split(body, "\n") {
		if utf8.RuneCountInString(l) > text.Width {
			t.Errorf("a line of %d characters, over %d: %q", utf8.RuneCountInString(l), text.Width, l)
		}
	}
	if !strings.HasSuffix(body, "\n\n"+text.Signature("The referee")) ||
		!strings.HasPrefix(strings.Join(strings.Fields(body), " "), "Your message of 2026-12-01 10:05 UTC named a public list, but the list's copy of it did not reach the referee within 1 hour,") {
		t.Errorf("the notice:\n%s", body)
	}
}
