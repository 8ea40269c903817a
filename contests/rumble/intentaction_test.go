package rumble

import (
	"strings"
	"testing"

	"referee/contract/contracttest"
)

// TestAmendOnlyAsAnnounced: Mars announces "I intend, without 2
// objections, to amend the Rumble contract: contestants SHOULD be kind";
// four days later "I amend the Rumble contract: SET BidLimit = 5" is not
// that amendment, and is not done through it (G7): the receipt names
// Mars's intent and what it announced, BidLimit stays, no amendment is
// made, and the intent stays open. Where BidLimit became 5. The announced
// amendment, reworded in form only (case, spacing, a final full stop,
// "the contract of Rumble"), passes through it.
func TestAmendOnlyAsAnnounced(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	mustDone(t, h.Public("2026-12-01T10:00:00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: contestants SHOULD be kind."))
	was := h.S.Games["rumble"].Params["BidLimit"]
	r := h.Public("2026-12-05T10:01:00Z", mars, "I amend the Rumble contract: SET BidLimit = 5.")
	want := "> I amend the Rumble contract: SET BidLimit = 5. Not done: no intent of yours announced this action; your intent #1 announced: amend the Rumble contract: contestants SHOULD be kind; this one needs an intent of its own, announced \"I intend, without 2 objections, to amend the Rumble contract: SET BidLimit = 5\" (G7)"
	if !failed(r) || !strings.Contains(norm(r.Body), want) || !strings.Contains(norm(r.Body), "(G7)") {
		t.Errorf("the receipt lacks %q and G7:\n%s", want, r.Body)
	}
	if got := h.S.Games["rumble"].Params["BidLimit"]; got != was {
		t.Errorf("BidLimit = %q through an intent to another amendment, want %q", got, was)
	}
	if am := data2(h).Amendments; len(am) != 0 {
		t.Errorf("amendments made: %+v", am)
	}
	if len(h.S.Intents) != 1 || h.S.Intents[0].ID != 1 {
		t.Fatalf("open intents: %+v, want #1 still open", h.S.Intents)
	}
	r = h.Public("2026-12-05T10:02:00Z", mars, "I amend the contract of Rumble: contestants  should be KIND")
	if !strings.Contains(norm(r.Body), "amendment 1 of the Rumble contract passed") || !strings.Contains(norm(r.Body), "intent #1 resolved") {
		t.Errorf("the announced amendment, reworded in form, did not pass:\n%s", r.Body)
	}
}

// TestObjectedAmendmentNotThroughAnother: two contestants object to Mars's
// intent #1 to set BidLimit = 5, which stops it (Rumble 15, G7); Mars's
// intent #2, to another amendment nobody objected to, does not carry it
// (G7): the receipt names both intents and what each announced, and
// nothing changes. Where the objected amendment passed through #2.
func TestObjectedAmendmentNotThroughAnother(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T09:30:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T10:00:00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: SET BidLimit = 5"))
	mustDone(t, h.Public("2026-12-01T10:01:00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: contestants SHOULD be kind"))
	mustDone(t, h.Public("2026-12-01T11:00:00Z", alice, "I object to intent #1."))
	mustDone(t, h.Public("2026-12-01T11:01:00Z", bob, "I object to intent #1."))
	was := h.S.Games["rumble"].Params["BidLimit"]
	r := h.Public("2026-12-05T10:02:00Z", mars, "I amend the Rumble contract: SET BidLimit = 5")
	if want := "Not done: intent #1 has 2 objections: Alice, Bob (G7)"; !failed(r) || !strings.Contains(norm(r.Body), want) {
		t.Errorf("the objected amendment: the receipt lacks %q:\n%s", want, r.Body)
	}
	r = h.Public("2026-12-05T10:03:00Z", mars, "I amend the Rumble contract: SET BidLimit = 6")
	want := "Not done: no intent of yours announced this action; your intent #1 announced: amend the Rumble contract: SET BidLimit = 5; your intent #2 announced: amend the Rumble contract: contestants SHOULD be kind; this one needs an intent of its own"
	if !failed(r) || !strings.Contains(norm(r.Body), want) {
		t.Errorf("another amendment: the receipt lacks %q:\n%s", want, r.Body)
	}
	if got := h.S.Games["rumble"].Params["BidLimit"]; got != was {
		t.Errorf("BidLimit = %q past two objections, want %q", got, was)
	}
	if am := data2(h).Amendments; len(am) != 0 {
		t.Errorf("amendments made: %+v", am)
	}
	if len(h.S.Intents) != 2 {
		t.Errorf("open intents: %+v, want #1 and #2", h.S.Intents)
	}
}

// TestAmendRumblesContract: "Rumble's contract" (a straight or a curly
// apostrophe) names the contract as "the Rumble contract" does (Rumble
// 15): Mars's intent to amend Rumble's contract is tabled with the
// amendment's text alone, and "I amend the Rumble contract: ..." in other
// words of form passes through it. Where "amend Rumble's contract" was not
// a dependent action of any game, and "I amend Rumble’s contract" was not
// understood.
func TestAmendRumblesContract(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	mustDone(t, h.Public("2026-12-01T10:00:00Z", mars, "I intend, without 2 objections, to amend Rumble's contract: contestants SHOULD be kind."))
	mustDone(t, h.Public("2026-12-01T10:01:00Z", mars, "I intend, without 2 objections, to amend Rumble’s contract: SET BidLimit = 5"))
	r := h.Public("2026-12-05T10:02:00Z", mars, "I amend the Rumble contract: contestants should be kind")
	if !strings.Contains(norm(r.Body), "amendment 1 of the Rumble contract passed: contestants should be kind") || !strings.Contains(norm(r.Body), "intent #1 resolved") {
		t.Errorf("the amendment announced as Rumble's did not pass through its intent:\n%s", r.Body)
	}
	r = h.Public("2026-12-05T10:03:00Z", mars, "I amend Rumble’s contract: SET BidLimit=5")
	if !strings.Contains(norm(r.Body), "intent #2 resolved") {
		t.Errorf("the second amendment did not pass:\n%s", r.Body)
	}
	if got := h.S.Games["rumble"].Params["BidLimit"]; got != "5" {
		t.Errorf("BidLimit = %q, want 5", got)
	}
	if am := data2(h).Amendments; len(am) != 2 || am[1].Text != "SET BidLimit=5" {
		t.Errorf("the amendments: %+v", am)
	}
}
