package contract_test

import (
	"encoding/json"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/text"
)

// TestRevisionOfNothing: a correction that changes nothing the record did
// (it voids a message that performed no action and got no receipt) has a
// revision that says "Nothing changed." and has no heading over a list.
func TestRevisionOfNothing(t *testing.T) {
	h := newToy(t)
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	if r := h.Public("2026-12-01T10:06:00Z", bob, "Nice weather for a game."); r != nil {
		t.Fatalf("a message without an action answered:\n%s", r.Body)
	}
	h.Public("2026-12-01T10:07:00Z", alice, "CoE: Bob's message.")
	rev, _, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m2@example.test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := rev.Text()
	if !strings.Contains(body, "\nNothing changed.\n") {
		t.Errorf("a correction that changes nothing does not say so:\n%s", body)
	}
	for _, head := range []string{"Outcomes that changed", "The state", "Draws whose outcome changed", "Notices that changed"} {
		if strings.Contains(body, text.Heading(head)) {
			t.Errorf("a heading %q over nothing:\n%s", head, body)
		}
	}
}

// TestRevisionReadBackFromTheJournal: a revision as the journal keeps it
// (JSON, the entry of its correction) reads back with the receipt it
// lists named.
func TestRevisionReadBackFromTheJournal(t *testing.T) {
	rev := rewordedJoining(t)
	b, err := json.Marshal(rev)
	if err != nil {
		t.Fatal(err)
	}
	var back contract.Revision
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Receipts) != 1 || len(rev.Receipts) != 1 || back.Receipts[0].ID == "" || back.Receipts[0].ID != rev.Receipts[0].ID {
		t.Errorf("the journal's revision %s read back with receipts %+v, want %+v", b, back.Receipts, rev.Receipts)
	}
}
