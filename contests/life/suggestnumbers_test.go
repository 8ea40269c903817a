package life

import (
	"slices"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestCorrectionKeepsSuggestionNumbers, as the players and the
// contestmaster see it: Alice suggests (#1, m4), Bob suggests (#2, m5) and
// Alice consents to #2; Carol claims that Alice's suggestion was not hers,
// and the contestmaster voids its message. The corrected history numbered
// Bob's suggestion #1: Alice's consent to #2 was refused there ("there is
// no Suggestion #2"), and after the correction so were Bob's and the
// contestmaster's, who answer by the number they were given, while Carol's
// new suggestion took #2, the number the others were consenting to. Bob's
// suggestion now keeps #2, the consents reach it, and a new one is #3.
func TestCorrectionKeepsSuggestionNumbers(t *testing.T) {
	h := recordedJoins(t, alice, bob, carol)
	done(t, h.Public("2026-11-16T13:10:00Z", alice, "I suggest: let every contestant start with a dozen Vials."), "Suggestion #1 recorded")
	done(t, h.Public("2026-11-16T13:11:00Z", bob, "I suggest: SET VPP = 12"), "Suggestion #2 recorded")
	done(t, h.Public("2026-11-16T13:12:00Z", alice, "I consent to Suggestion #2 in Life."), "you consent to Suggestion #2")
	done(t, h.Private("2026-11-16T14:00:00Z", carol, "I CoE on randomness/2026-W47/20261116T120000: Alice's suggestion was sent by someone else."), "Claim of Error #1 recorded")
	n := len(h.Entries)
	done(t, h.Private("2026-11-16T14:30:00Z", cm, "I correct CoE #1: message <m4@example.test> is void."), "correction of CoE #1 accepted")
	fixes := contract.Corrections(h.Entries[n:])
	if len(fixes) != 1 {
		t.Fatalf("%d corrections journaled", len(fixes))
	}
	rev, out, err := h.Correct("2026-11-16T14:30:00Z", fixes[0], nil)
	if err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	for _, o := range out {
		if o.Kind == "receipt" && strings.Contains(o.Subject, "Corrected") && (o.To[0] == "alice@example.test" && !strings.Contains(o.Body, "void") || o.To[0] == "bob@example.test") {
			t.Errorf("a corrected receipt to %s:\n%s", o.To[0], o.Body)
		}
	}
	if body := rev.Text(); strings.Contains(body, "Suggestion #2") {
		t.Errorf("the revision changes what Suggestion #2 is:\n%s", body)
	}
	done(t, h.Public("2026-11-16T15:00:00Z", bob, "I consent to Suggestion #2 in Life."), "you consent to Suggestion #2")
	done(t, h.Public("2026-11-16T15:01:00Z", cm, "I consent to Suggestion #2 in Life."), "Suggestion #2 is adopted")
	if got := h.S.Games[ID].Params["VPP"]; got != "12" {
		t.Errorf("VPP = %s, want Suggestion #2's 12", got)
	}
	done(t, h.Public("2026-11-16T15:02:00Z", carol, "I suggest: SET VPP = 11"), "Suggestion #3 recorded")
	if got := h.S.Claims; len(got) != 0 {
		t.Errorf("claims open after the correction: %+v", got[0])
	}
}

// suggestedTwice is the history the series' tests correct: Alice, Bob and
// Carol join (m1 to m3); Alice's suggestion is #1 (m4), Bob's #2 (m5),
// Alice consents to #2 (m6) and Carol claims an error (#1, m7).
func suggestedTwice(t *testing.T) *contracttest.Harness {
	t.Helper()
	h := recordedJoins(t, alice, bob, carol)
	done(t, h.Public("2026-11-16T13:10:00Z", alice, "I suggest: let every contestant start with a dozen Vials."), "Suggestion #1 recorded")
	done(t, h.Public("2026-11-16T13:11:00Z", bob, "I suggest: SET VPP = 12"), "Suggestion #2 recorded")
	done(t, h.Public("2026-11-16T13:12:00Z", alice, "I consent to Suggestion #2 in Life."), "you consent to Suggestion #2")
	done(t, h.Private("2026-11-16T14:00:00Z", carol, "I CoE on randomness/2026-W47/20261116T120000: Alice's suggestion was sent by someone else."), "Claim of Error #1 recorded")
	return h
}

// TestCorrectionRenumberedSeriesAsMadeBefore: a revision written before
// the series kept their numbers (unmarked) is re-computed as it was made
// (referee verify), Bob's suggestion #1 and Alice's consent refused, and a
// new one is marked. A correction after one made so re-runs the history
// it made as it was made: the recorded history leads to the current state
// and the second correction is made.
func TestCorrectionRenumberedSeriesAsMadeBefore(t *testing.T) {
	h := suggestedTwice(t)
	fix := contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m4@example.test"}
	in := h.RecordedInputs()
	s, rev, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: in.Inputs, Current: h.S, Fix: fix, RenumberedSeries: true, UnrecordedAnswer: true})
	if err != nil {
		t.Fatalf("a revision re-computed as written before: %v", err)
	}
	if sg := s.Games[ID].Data.(*State).Suggestions; rev.Series != "" || len(sg) != 1 || sg[0].ID != 1 || len(sg[0].Consents) != 0 {
		t.Fatalf("a revision re-computed as written before: marked %q, the suggestions %+v", rev.Series, sg)
	}
	if _, rev, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: in.Inputs, Current: h.S, Fix: fix}); err != nil || rev.Series != contract.SeriesKept {
		t.Fatalf("a new revision: %v, marked %+v", err, rev)
	}
	// The first correction, as the build before made it.
	at := contracttest.At(t, "2026-11-16T14:30:00Z")
	h.E.PublishRevision(s, rev, at)
	h.S = s
	h.Private("2026-11-16T15:00:00Z", carol, "I CoE on randomness/2026-W47/20261116T120000: the map is wrong.") // after the corrected receipts
	if got := claimsOf(h); got != "Carol #2 " {
		t.Fatalf("the claims open: %s, want Carol's #2", got)
	}
	after := h.RecordedInputs().Inputs[len(in.Inputs):]
	inputs := append(slices.Clone(in.Inputs), contract.Input{Kind: contract.InCorrect, At: at, Fix: &fix, Seq: s.JournalSeq, RenumberedSeries: true})
	inputs = append(inputs, after...)
	fix2 := contract.Correction{CoE: 2, Kind: contract.FixVoid, MsgID: "m6@example.test"}
	if _, _, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: inputs, Current: h.S, Fix: fix2}); err != nil {
		t.Errorf("the second correction was refused: %v", err)
	}
}

// TestCorrectionKeepsALastSuggestionsNumber: voiding the message of the
// last suggestion (Bob's #2) leaves #2 unused: a suggestion made after the
// correction is #3, and so it stays when a second correction re-runs the
// history.
func TestCorrectionKeepsALastSuggestionsNumber(t *testing.T) {
	h := suggestedTwice(t)
	if _, _, err := h.Correct("2026-11-16T14:30:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m5@example.test"}, nil); err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	done(t, h.Public("2026-11-16T14:40:00Z", carol, "I suggest: SET VPP = 11"), "Suggestion #3 recorded")
	done(t, h.Public("2026-11-16T14:41:00Z", bob, "I consent to Suggestion #2 in Life."), "there is no Suggestion #2")
	done(t, h.Private("2026-11-16T15:00:00Z", carol, "I CoE on randomness/2026-W47/20261116T120000: the map is wrong."), "Claim of Error #2 recorded")
	if _, _, err := h.Correct("2026-11-16T15:30:00Z", contract.Correction{CoE: 2, Kind: contract.FixVoid, MsgID: "m6@example.test"}, nil); err != nil {
		t.Fatalf("the second correction was refused: %v", err)
	}
	var ids []int
	for _, sg := range st(h).Suggestions {
		ids = append(ids, sg.ID)
	}
	if !slices.Equal(ids, []int{1, 3}) {
		t.Errorf("the suggestions are %v, want Alice's #1 and Carol's #3", ids)
	}
	done(t, h.Public("2026-11-16T15:40:00Z", alice, "I suggest: SET VPP = 13"), "Suggestion #4 recorded")
}

// TestCorrectionKeepsASuggestionsNumberByItsText: Alice's one message makes
// Suggestions #1 (SET VPP = 11) and #2 (SET VPP = 12), and Bob consents
// to #2; Carol claims that the first was never meant, and the
// contestmaster corrects the message to make only the second. Numbered by
// its place among the message's suggestions, the second became #1 in the
// corrected history: Bob's consent to #2 was refused there ("there is no
// Suggestion #2"), and so were the consents after it. A suggestion keeps
// the number of the recorded one of the same message with the same text:
// the second keeps #2, Bob's consent reaches it, #1 is left unused, and a
// new one is #3.
func TestCorrectionKeepsASuggestionsNumberByItsText(t *testing.T) {
	h := recordedJoins(t, alice, bob, carol)
	r := h.Public("2026-11-16T13:10:00Z", alice, "I suggest: SET VPP = 11\n\nI suggest: SET VPP = 12") // m4
	done(t, r, "Suggestion #1 recorded")
	done(t, r, "Suggestion #2 recorded")
	done(t, h.Public("2026-11-16T13:12:00Z", bob, "I consent to Suggestion #2 in Life."), "you consent to Suggestion #2")
	done(t, h.Private("2026-11-16T14:00:00Z", carol, "I CoE on randomness/2026-W47/20261116T120000: Alice never meant VPP 11."), "Claim of Error #1 recorded")
	fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m4@example.test", Text: "I suggest: SET VPP = 12"}
	rev, _, err := h.Correct("2026-11-16T14:30:00Z", fix, nil)
	if err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	if body := rev.Text(); strings.Contains(body, "consent to Suggestion #2") {
		t.Errorf("the revision changes Bob's consent to Suggestion #2:\n%s", body)
	}
	var ids []int
	for _, sg := range st(h).Suggestions {
		ids = append(ids, sg.ID)
	}
	if !slices.Equal(ids, []int{2}) {
		t.Errorf("the suggestions are %v, want SET VPP = 12 as #2", ids)
	}
	done(t, h.Public("2026-11-16T15:00:00Z", alice, "I consent to Suggestion #2 in Life."), "you consent to Suggestion #2")
	done(t, h.Public("2026-11-16T15:01:00Z", cm, "I consent to Suggestion #2 in Life."), "Suggestion #2 is adopted")
	if got := h.S.Games[ID].Params["VPP"]; got != "12" {
		t.Errorf("VPP = %s, want Suggestion #2's 12", got)
	}
	done(t, h.Public("2026-11-16T15:02:00Z", carol, "I suggest: SET VPP = 13"), "Suggestion #3 recorded")
}

// TestCorrectionPlacedItemsAsMadeBefore: a revision written before a
// message's items were matched by their text (unmarked) is re-computed as
// it was made (referee verify), the suggestion left numbered #1 by its
// place, and a new one is marked. A correction after one made so re-runs
// the history it made as it was made: the recorded history leads to the
// current state and the second correction is made.
func TestCorrectionPlacedItemsAsMadeBefore(t *testing.T) {
	h := recordedJoins(t, alice, bob, carol)
	done(t, h.Public("2026-11-16T13:10:00Z", alice, "I suggest: SET VPP = 11\n\nI suggest: SET VPP = 12"), "Suggestion #2 recorded") // m4
	done(t, h.Private("2026-11-16T14:00:00Z", carol, "I CoE on randomness/2026-W47/20261116T120000: Alice never meant VPP 11."), "Claim of Error #1 recorded")
	fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m4@example.test", Text: "I suggest: SET VPP = 12"}
	in := h.RecordedInputs()
	s, rev, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: in.Inputs, Current: h.S, Fix: fix, PlacedItems: true})
	if err != nil {
		t.Fatalf("a revision re-computed as written before: %v", err)
	}
	if sg := s.Games[ID].Data.(*State).Suggestions; rev.Items != "" || rev.Series != contract.SeriesKept || len(sg) != 1 || sg[0].ID != 1 {
		t.Fatalf("a revision re-computed as written before: marked %q, %q, the suggestions %+v", rev.Items, rev.Series, sg)
	}
	if _, rev, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: in.Inputs, Current: h.S, Fix: fix}); err != nil || rev.Items != contract.ItemsByText {
		t.Fatalf("a new revision: %v, marked %+v", err, rev)
	}
	// The first correction, as the build before made it.
	at := contracttest.At(t, "2026-11-16T14:30:00Z")
	h.E.PublishRevision(s, rev, at)
	h.S = s
	h.Public("2026-11-16T14:40:00Z", bob, "I consent to Suggestion #1 in Life.") // after the corrected receipts
	h.Private("2026-11-16T15:00:00Z", carol, "I CoE on randomness/2026-W47/20261116T120000: the map is wrong.")
	if got := claimsOf(h); got != "Carol #2 " {
		t.Fatalf("the claims open: %s, want Carol's #2", got)
	}
	after := h.RecordedInputs().Inputs[len(in.Inputs):]
	inputs := append(slices.Clone(in.Inputs), contract.Input{Kind: contract.InCorrect, At: at, Fix: &fix, Seq: s.JournalSeq, Answer: rev.Event, PlacedItems: true})
	inputs = append(inputs, after...)
	fix2 := contract.Correction{CoE: 2, Kind: contract.FixVoid, MsgID: "m3@example.test"}
	s2, _, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: inputs, Current: h.S, Fix: fix2})
	if err != nil {
		t.Fatalf("the second correction was refused: %v", err)
	}
	if sg := s2.Games[ID].Data.(*State).Suggestions; len(sg) != 1 || sg[0].ID != 1 || len(sg[0].Consents) != 1 {
		t.Errorf("after the second correction the suggestions are %+v, want #1 with Bob's consent", sg)
	}
}

// TestCorrectionKeepsASuggestionsNumberWithOneAddedInFront: Alice's
// message makes Suggestion #1 (SET VPP = 11) and Bob consents to #1;
// Carol claims that the message also suggested SET VPP = 13, first, and
// the contestmaster corrects it to read both. SET VPP = 11 keeps #1 by its
// text, Bob's consent stays on it, and the suggestion added in front takes
// #2: it took #1 by its place, leaving SET VPP = 11 to a new #2, and
// Bob's consent moved to a suggestion he never saw. The revision is marked
// "ahead": "read"; one written before is re-computed as it was made.
func TestCorrectionKeepsASuggestionsNumberWithOneAddedInFront(t *testing.T) {
	h := recordedJoins(t, alice, bob, carol)
	done(t, h.Public("2026-11-16T13:10:00Z", alice, "I suggest: SET VPP = 11"), "Suggestion #1 recorded") // m4
	done(t, h.Public("2026-11-16T13:12:00Z", bob, "I consent to Suggestion #1 in Life."), "you consent to Suggestion #1")
	done(t, h.Private("2026-11-16T14:00:00Z", carol, "I CoE on randomness/2026-W47/20261116T120000: Alice also suggested VPP 13."), "Claim of Error #1 recorded")
	fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m4@example.test", Text: "I suggest: SET VPP = 13\n\nI suggest: SET VPP = 11"}
	// A revision written before the items were read ahead (unmarked) is
	// re-computed as it was made (referee verify): SET VPP = 13 #1.
	in := h.RecordedInputs()
	s, rev, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: in.Inputs, Current: h.S, Fix: fix, UnreadAhead: true})
	if sg := s.Games[ID].Data.(*State).Suggestions; err != nil || rev.Ahead != "" || len(sg) != 2 || sg[0].ID != 1 || sg[0].Text != "SET VPP = 13" {
		t.Fatalf("a revision re-computed as written before: %v, marked %q, the suggestions %+v", err, rev.Ahead, sg)
	}
	if _, rev, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: in.Inputs, Current: h.S, Fix: fix}); err != nil || rev.Ahead != contract.AheadRead {
		t.Fatalf("a new revision: %v, marked %+v", err, rev)
	}
	if _, _, err := h.Correct("2026-11-16T14:30:00Z", fix, nil); err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	got := map[int]string{}
	for _, sg := range st(h).Suggestions {
		got[sg.ID] = sg.Text
		if sg.ID == 1 && len(sg.Consents) != 1 {
			t.Errorf("Suggestion #1 has consents %v, want Bob's", sg.Consents)
		}
	}
	if got[1] != "SET VPP = 11" || got[2] != "SET VPP = 13" {
		t.Errorf("the suggestions are %v, want SET VPP = 11 as #1 and SET VPP = 13 as #2", got)
	}
	// Two added in front of two: each recorded one keeps its number.
	h = recordedJoins(t, alice, bob, carol)
	done(t, h.Public("2026-11-16T13:10:00Z", alice, "I suggest: SET VPP = 11\n\nI suggest: SET VPP = 12"), "Suggestion #2 recorded") // m4
	done(t, h.Private("2026-11-16T14:00:00Z", carol, "I CoE on randomness/2026-W47/20261116T120000: Alice also suggested more."), "Claim of Error #1 recorded")
	fix.Text = "I suggest: SET VPP = 13\n\nI suggest: SET VPP = 14\n\nI suggest: SET VPP = 11\n\nI suggest: SET VPP = 12"
	if _, _, err := h.Correct("2026-11-16T14:30:00Z", fix, nil); err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	got = map[int]string{}
	for _, sg := range st(h).Suggestions {
		got[sg.ID] = sg.Text
	}
	if got[1] != "SET VPP = 11" || got[2] != "SET VPP = 12" {
		t.Errorf("the suggestions are %v, want SET VPP = 11 and 12 as #1 and #2", got)
	}
}
