package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
)

// TestRevisionNamesANonPlayersMessage: a revision's line for a message's
// outcome that is no action's, from a sender who is not a player, says who
// sent it and what it was: "carol@example.test  toy not understood", public
// or private (a private message's reason stays with its sender). It said
// "-" and nothing, with the game's name alone, as for an event.
func TestRevisionNamesANonPlayersMessage(t *testing.T) {
	h := newToy(t)
	h.Record()
	h.Public("2026-12-01T10:05:00Z", carol, "I join the Toy game.") // m1
	h.Public("2026-12-01T10:06:00Z", carol, "I juggle in Toy.")
	h.Private("2026-12-01T10:07:00Z", carol, "I juggle in Toy.")
	h.Public("2026-12-01T10:08:00Z", alice, "CoE: Carol never joined.")
	rev, out, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m1@example.test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var body string
	for _, n := range out {
		if n.ID == "revision/1" {
			body = n.Body
		}
	}
	for _, want := range []string{
		"2026-12-01 10:06  carol@example.test  toy not understood\n    was: not in the record\n    now: rejected (not understood;",
		"2026-12-01 10:07  carol@example.test  toy not understood\n    was: not in the record\n    now: rejected\n",
		"2026-12-01 10:06  Carol  toy not understood\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the revision lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "  -  toy") {
		t.Errorf("the revision has a line with no sender and no verb:\n%s", body)
	}
	if body != rev.Text() {
		t.Errorf("the revision sent is not the revision's text")
	}
}
