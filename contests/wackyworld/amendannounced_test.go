package wackyworld

import (
	"strings"
	"testing"
)

// TestAmendOnlyAsAnnounced: Alice's intent #1 to amend the contract with
// SET DonorYPoints = 3 and her intent #2 with SET DonorYPoints = 4, which
// Bob, Carol and Dan object to (Wacky 1, G7). Four days later the
// objected amendment is refused for its objections, and SET
// DonorYPoints = 5, which no intent announced, is refused naming both
// intents and what each announced (G7); nothing changes. Where either
// passed through intent #1. The amendment #1 announced, written "set
// donorypoints=3.", passes.
func TestAmendOnlyAsAnnounced(t *testing.T) {
	h := world(t)
	const dan = "Dan <dan@example.test>"
	for _, m := range []struct{ at, who, text string }{
		{"2026-12-01T12:00:00Z", alice, "I intend, without 3 objections, to amend the Wacky World contract: SET DonorYPoints = 3"},
		{"2026-12-01T12:01:00Z", alice, "I intend, without 3 objections, to amend the Wacky World contract: SET DonorYPoints = 4"},
		{"2026-12-01T13:00:00Z", bob, "I object to intent #2."},
		{"2026-12-01T13:01:00Z", carol, "I object to intent #2."},
		{"2026-12-01T13:02:00Z", dan, "I object to intent #2."},
	} {
		if r := h.public(m.at, m.who, m.text); !done(r) {
			t.Fatalf("%s:\n%s", m.text, r.Body)
		}
	}
	before := h.gameSnap()
	for _, c := range []struct{ text, want string }{
		{"I amend the Wacky World contract: SET DonorYPoints = 4", "Not done: intent #2 has 3 objections: Bob, Carol, Dan (G7)"},
		{"I amend the Wacky World contract: SET DonorYPoints = 5", "Not done: no intent of yours announced this action; " +
			"your intent #1 announced: amend the Wacky World contract: SET DonorYPoints = 3; " +
			"your intent #2 announced: amend the Wacky World contract: SET DonorYPoints = 4; this one needs an intent of its own"},
	} {
		r := h.public("2026-12-05T12:10:00Z", alice, c.text)
		if body := strings.Join(strings.Fields(r.Body), " "); done(r) || !strings.Contains(body, c.want) {
			t.Errorf("%s: the receipt lacks %q:\n%s", c.text, c.want, r.Body)
		}
	}
	if after := h.gameSnap(); after != before {
		t.Errorf("refused amendments changed the game:\n%s\nwas\n%s", after, before)
	}
	if len(h.s.Intents) != 2 {
		t.Errorf("open intents: %+v, want #1 and #2", h.s.Intents)
	}
	r := h.public("2026-12-05T12:11:00Z", alice, "I amend Wacky World: set donorypoints=3.")
	if !done(r) || !strings.Contains(r.Body, "intent #1 resolved") {
		t.Errorf("the amendment announced did not pass:\n%s", r.Body)
	}
	if got := h.s.Games[ID].Params[ParamDonor]; got != "3" {
		t.Errorf("DonorYPoints = %q, want 3", got)
	}
}

// TestAmendWackyWorldsContract: "Wacky World's contract" names the
// contract (Wacky 1): the amendment is its text alone, "SET DonorYPoints
// = 3", where it was "'s contract: SET DonorYPoints = 3", which the
// amended contract published.
func TestAmendWackyWorldsContract(t *testing.T) {
	h := world(t)
	if r := h.public("2026-12-01T12:00:00Z", alice, "I intend, without 3 objections, to amend Wacky World’s contract: SET DonorYPoints = 3"); !done(r) {
		t.Fatalf("intent:\n%s", r.Body)
	}
	if r := h.public("2026-12-05T12:00:00Z", alice, "I amend Wacky World's contract: SET DonorYPoints = 3"); !done(r) {
		t.Fatalf("amend:\n%s", r.Body)
	}
	if ch := h.data().Changes; len(ch) != 1 || ch[0].Text != "SET DonorYPoints = 3" {
		t.Errorf("the changes: %+v", ch)
	}
}
