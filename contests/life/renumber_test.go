package life

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestCorrectionRenumbersNoClaim: Bob, Alice and Carol each claim an error
// (#1, #2, #3); the contestmaster answers Bob's by voiding Alice's join. In
// the corrected record Alice never joined, so her claim is refused: its
// number stays unused and Carol's claim keeps #3, open, so that a denial of
// #3 answers it, as Carol was told (claims are answered by number).
func TestCorrectionRenumbersNoClaim(t *testing.T) {
	h := recordedJoins(t, alice, bob, carol)
	for i, who := range []string{bob, alice, carol} {
		at := []string{"2026-11-16T14:00:00Z", "2026-11-16T14:01:00Z", "2026-11-16T14:02:00Z"}[i]
		done(t, h.Private(at, who, "I CoE on randomness/2026-W47/20261116T120000: the map is wrong."), "Claim of Error #")
	}
	if got := claimsOf(h); got != "Bob #1 Alice #2 Carol #3 " {
		t.Fatalf("the claims: %s", got)
	}
	_, out, err := h.Correct("2026-11-16T15:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m1@example.test"}, nil)
	if err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	for _, n := range out {
		if n.Kind == "receipt" && n.To[0] == "carol@example.test" && !strings.Contains(flat(n.Body), "Claim of Error #3 recorded") {
			t.Errorf("Carol's claim has another number:\n%s", n.Body)
		}
	}
	if got := claimsOf(h); got != "Carol #3 " {
		t.Errorf("after the correction the claims are %s, want Carol's #3 alone", got)
	}
	if p := h.S.PlayerByAddress("alice@example.test"); p != nil && p.In(ID) {
		t.Error("Alice is still a contestant")
	}
	done(t, h.Private("2026-11-16T15:10:00Z", contracttest.Contestmaster, "I deny CoE #3: the map is right."), "Claim of Error #3 denied")
	done(t, h.Private("2026-11-16T15:11:00Z", bob, "I CoE on randomness/2026-W47/20261116T120000: the map is still wrong."), "Claim of Error #4 recorded")
}

// TestCorrectionKeepsItsClaimsNumber: Alice claims an error (#1), then Bob
// (#2); the contestmaster answers Bob's by voiding Alice's join, so that in
// the corrected record Alice's claim is not made. Bob's claim was numbered
// #1 there: the correction was refused as renumbering the very claim it
// answers ("answer those claims first"), and once the contestmaster had
// denied Alice's #1 it was made, the denial of #1 then denying Bob's claim
// in the corrected record, Bob told that his claim was #1. Bob's claim now
// keeps #2 and the denial of #1 answers nothing there.
func TestCorrectionKeepsItsClaimsNumber(t *testing.T) {
	h := recordedJoins(t, alice, bob)
	done(t, h.Private("2026-11-16T14:00:00Z", alice, "I CoE on randomness/2026-W47/20261116T120000: the map is wrong."), "Claim of Error #1")
	done(t, h.Private("2026-11-16T14:01:00Z", bob, "I CoE on randomness/2026-W47/20261116T120000: Alice never joined."), "Claim of Error #2") // m4
	done(t, h.Private("2026-11-16T14:30:00Z", contracttest.Contestmaster, "I deny CoE #1: Alice, the map is right."), "Claim of Error #1 denied")
	rev, out, err := h.Correct("2026-11-16T15:00:00Z", contract.Correction{CoE: 2, Kind: contract.FixVoid, MsgID: "m1@example.test"}, nil)
	if err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	for _, n := range out {
		if n.Kind == "receipt" && n.To[0] == "bob@example.test" && strings.Contains(flat(n.Body), "Claim of Error #1") {
			t.Errorf("Bob is told his claim is #1:\n%s", n.Body)
		}
	}
	for _, o := range rev.Outcomes {
		if o.New != nil && o.New.MsgID == "m5@example.test" && o.New.Outcome == "applied" {
			t.Errorf("the denial of Alice's claim answers another claim in the corrected record: %+v", o)
		}
	}
	if got := claimsOf(h); got != "" {
		t.Errorf("after the correction the claims open are %s", got)
	}
	done(t, h.Private("2026-11-16T15:10:00Z", bob, "I CoE on randomness/2026-W47/20261116T120000: the map is still wrong."), "Claim of Error #3 recorded")
}

// ruledOnThree is the history the ruling-number tests correct: Alice, Bob
// and Carol join (m1 to m3); Alice's claim asks ruling request #1 and
// Bob's, that Alice never joined, #2; Bob's suggestion, adopted with every
// consent (m7 to m10), asks #3, on which the contestmaster rules "SET VPP =
// 12".
func ruledOnThree(t *testing.T) *contracttest.Harness {
	t.Helper()
	h := recordedJoins(t, alice, bob, carol)
	done(t, h.Private("2026-11-16T14:00:00Z", alice, "I CoE on randomness/2026-W47/20261116T120000: the map is wrong."), "ruling request #1")
	done(t, h.Private("2026-11-16T14:01:00Z", bob, "I CoE on randomness/2026-W47/20261116T120000: Alice never joined."), "ruling request #2")
	h.Public("2026-11-16T14:10:00Z", bob, "I suggest: let every contestant start with a dozen Vials.")
	for _, p := range []string{alice, bob, carol, cm} {
		h.Public("2026-11-16T14:20:00Z", p, "I consent to Suggestion #1 in Life.")
	}
	done(t, h.Private("2026-11-16T14:30:00Z", cm, "I rule on #3: SET VPP = 12"), "Done")
	return h
}

func claimsOf(h *contracttest.Harness) string {
	var b strings.Builder
	for _, c := range h.S.Claims {
		fmt.Fprintf(&b, "%s #%d ", c.Claimant, c.ID)
	}
	return b.String()
}

// TestSecondCorrectionAfterAClaimNoLongerMade: a first correction leaves
// Alice's claim #2 no longer made and Carol's #3 kept; a second correction,
// re-running the record with the first among its inputs, must find the
// first's numbers again (Carol's #3), or the recorded history would not lead
// to the current state and the second correction would be refused.
func TestSecondCorrectionAfterAClaimNoLongerMade(t *testing.T) {
	h := recordedJoins(t, alice, bob, carol)
	done(t, h.Public("2026-11-16T13:30:00Z", bob, "I transfer 1 Vial to Carol."), "Done") // m4
	for i, who := range []string{bob, alice, carol} {
		at := []string{"2026-11-16T14:00:00Z", "2026-11-16T14:01:00Z", "2026-11-16T14:02:00Z"}[i]
		done(t, h.Private(at, who, "I CoE on randomness/2026-W47/20261116T120000: the map is wrong."), "Claim of Error #")
	}
	if _, _, err := h.Correct("2026-11-16T15:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m1@example.test"}, nil); err != nil {
		t.Fatalf("the first correction was refused: %v", err)
	}
	if _, _, err := h.Correct("2026-11-16T15:10:00Z", contract.Correction{CoE: 3, Kind: contract.FixVoid, MsgID: "m4@example.test"}, nil); err != nil {
		t.Fatalf("the second correction was refused: %v", err)
	}
	if got := claimsOf(h); got != "" {
		t.Errorf("after both corrections the claims open are %s", got)
	}
	if got := balance(h, "Carol"); got != 10 {
		t.Errorf("Carol has %d Vials, want 10", got)
	}
}

// TestCorrectionOfAClaimsWords: a correction that gives a claim's message
// other words leaves it the same claim, with its number.
func TestCorrectionOfAClaimsWords(t *testing.T) {
	h := recordedJoins(t, alice, bob)
	done(t, h.Private("2026-11-16T14:00:00Z", alice, "I CoE on randomness/2026-W47/20261116T120000: the map is wrong."), "Claim of Error #1") // m3
	done(t, h.Private("2026-11-16T14:01:00Z", bob, "I CoE on randomness/2026-W47/20261116T120000: the seed is wrong."), "Claim of Error #2")
	if _, _, err := h.Correct("2026-11-16T15:00:00Z", contract.Correction{CoE: 2, Kind: contract.FixReads, MsgID: "m3@example.test",
		Text: "I CoE on randomness/2026-W47/20261116T120000: the map is upside down."}, nil); err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	if got := claimsOf(h); got != "Alice #1 " {
		t.Errorf("after the correction the claims open are %s, want Alice's #1", got)
	}
}

// TestCorrectionKeepsRulingNumbers: Alice's claim asked ruling request #1
// and Bob's #2; a suggestion adopted then asked #3, on which the
// contestmaster ruled ("I rule on #3"). Voiding Alice's join in answer to
// Bob's claim leaves her claim, and its request, no longer made: the
// suggestion's request was numbered #2 in the corrected record, the ruling
// on #3 answered nothing there, and the corrected state lost it (VPP back
// to 10, the request open again as #2, which the contestmaster was never
// asked). A ruling request keeps its number as a claim does.
func TestCorrectionKeepsRulingNumbers(t *testing.T) {
	h := ruledOnThree(t)
	if got := h.S.Games[ID].Params["VPP"]; got != "12" {
		t.Fatalf("VPP = %s after the ruling, want 12", got)
	}
	fix := contract.Correction{CoE: 2, Kind: contract.FixVoid, MsgID: "m1@example.test"}
	// A revision written before ruling requests kept their numbers is
	// re-computed as written (referee verify): unmarked, the ruling lost.
	in := h.RecordedInputs()
	s, rev, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: in.Inputs, Current: h.S, Fix: fix, RenumberedRulings: true})
	if err != nil {
		t.Fatalf("a revision re-computed as written before: %v", err)
	}
	if rev.Rulings != "" || s.Games[ID].Params["VPP"] != "10" {
		t.Fatalf("a revision re-computed as written before: marked %q, VPP %s", rev.Rulings, s.Games[ID].Params["VPP"])
	}
	rev, _, err = h.Correct("2026-11-16T15:00:00Z", fix, nil)
	if err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	if rev.Rulings != contract.RulingsKept {
		t.Errorf("the revision is marked %q, want %q", rev.Rulings, contract.RulingsKept)
	}
	if got := h.S.Games[ID].Params["VPP"]; got != "12" {
		t.Errorf("VPP = %s after the correction, want the ruling's 12", got)
	}
	for _, r := range h.S.Rulings {
		t.Errorf("after the correction ruling request #%d (%s) is open", r.ID, r.Key)
	}
}

// TestCorrectionAfterOneThatRenumberedRulings: a correction made by a
// build before ruling requests kept their numbers (its revision unmarked,
// Input.RenumberedRulings) numbered the adopted suggestion's request #2
// where the record had #3. A later correction re-runs the history that
// one made, and numbered the request #3 there: "the recorded history does
// not lead to the current state", every correction after an upgrade
// refused. It now re-runs an unmarked correction's history as it was made.
func TestCorrectionAfterOneThatRenumberedRulings(t *testing.T) {
	h := ruledOnThree(t)
	// The first correction, as the build before made it.
	in := h.RecordedInputs()
	fix := contract.Correction{CoE: 2, Kind: contract.FixVoid, MsgID: "m1@example.test"}
	at := contracttest.At(t, "2026-11-16T15:00:00Z")
	s, rev, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: in.Inputs, Current: h.S, Fix: fix, RenumberedRulings: true, UnrecordedAnswer: true})
	if err != nil {
		t.Fatalf("the first correction: %v", err)
	}
	h.E.PublishRevision(s, rev, at)
	if r := s.Rulings; len(r) != 1 || r[0].ID != 2 {
		t.Fatalf("the first correction, as made before, left the requests %+v, want #2 open", r)
	}
	h.S = s
	h.Private("2026-11-16T15:10:00Z", carol, "I CoE on randomness/2026-W47/20261116T120000: the map is still wrong.")
	if got := claimsOf(h); got != "Carol #3 " {
		t.Fatalf("the claims open: %s, want Carol's #3", got)
	}
	after := h.RecordedInputs().Inputs[len(in.Inputs):]
	inputs := append(slices.Clone(in.Inputs), contract.Input{Kind: contract.InCorrect, At: at, Fix: &fix, Seq: s.JournalSeq, RenumberedRulings: true})
	inputs = append(inputs, after...)
	fix2 := contract.Correction{CoE: 3, Kind: contract.FixVoid, MsgID: "m7@example.test"}
	if _, _, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: inputs, Current: h.S, Fix: fix2}); err != nil {
		t.Errorf("the second correction was refused: %v", err)
	}
}
