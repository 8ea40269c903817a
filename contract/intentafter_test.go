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

// A remark after the method does not hide it: "I intend to end the game of
// Toy without objection, as discussed." was read as an intent naming no
// method, and tabled nothing without a word; it is now tabled as the
// sentence without the remark is, the remark not part of the action.
func TestIntentMethodBeforeARemark(t *testing.T) {
	for text, want := range map[string]string{
		"I intend to end the game of Toy without objection, as discussed.":           "intent #1 tabled: end the game of Toy, without objection",
		"I intend to end the game of Toy without objection, because it stalled.":     "intent #1 tabled: end the game of Toy, without objection",
		"I intend to reset the Toy rounds with Agoran consent, as promised, thanks.": "intent #1 tabled: reset the Toy rounds, with Agoran consent",
	} {
		h := joined(t)
		r := h.Public("2026-12-01T10:10:00Z", alice, text)
		if r == nil || !strings.Contains(flat(r.Body), want) {
			t.Errorf("%q: the receipt lacks %q:\n%v", text, want, r)
		}
	}
	// Without a method, the remark is no part of the action the answer
	// shows either.
	h := joined(t)
	r := h.Public("2026-12-01T10:10:00Z", alice, "I intend to end the game of Toy, as discussed.")
	if want := `"I intend, without objection, to end the game of Toy" (G7)`; r == nil || !strings.Contains(flat(r.Body), want) {
		t.Errorf("the intent without a method: the receipt lacks %q:\n%v", want, r)
	}
	h = joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend to end the game of Toy without objection, as discussed.")
	r = h.Public("2026-12-05T10:10:00Z", alice, "I do so.")
	if r == nil || !strings.Contains(r.Body, "Done: the game of Toy is over") {
		t.Errorf("the intent did not resolve:\n%v", r)
	}
}
