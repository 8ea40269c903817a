package contract_test

import (
	"strings"
	"testing"
)

// The method of an intent may follow its action, as Agora writes it too (G7):
// "I intend to end the game of Toy without objection" got no reply and
// tabled nothing. It is now tabled as "I intend, without objection, to end
// the game of Toy" is, and "I do so" performs it.
func TestIntentMethodAfterTheAction(t *testing.T) {
	for text, want := range map[string]string{
		"I intend to end the game of Toy without objection.":            "intent #1 tabled: end the game of Toy, without objection",
		"I intend to reset the Toy rounds with Agoran consent, please.": "intent #1 tabled: reset the Toy rounds, with Agoran consent",
		"I hereby intend to end the game of Toy, without 2 objections.": "2 objections would be a weaker requirement (G7)",
	} {
		h := joined(t)
		r := h.Public("2026-12-01T10:10:00Z", alice, text)
		if r == nil || !strings.Contains(flat(r.Body), want) {
			t.Errorf("%q: the receipt lacks %q:\n%v", text, want, r)
		}
	}
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend to end the game of Toy without objection.")
	r := h.Public("2026-12-05T10:10:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "Done: the game of Toy is over") {
		t.Errorf("the intent did not resolve:\n%s", r.Body)
	}
}
