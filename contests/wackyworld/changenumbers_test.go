package wackyworld

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"referee/contract"
)

// TestCorrectionKeepsChangeNumbers, as the parties and Atlas see it: Atlas
// modifies the contract twice (modification #1, m3; #2, m4, the World 20
// tiles wide); Bob claims that the first was not Atlas's, and Atlas voids
// its message. The corrected history numbered the second modification #1:
// after the correction Bob's "I oppose modification #2" was refused
// ("there is no modification #2") and the World stayed 20 wide, and a new
// modification took #2. The second now keeps #2, Bob's opposition undoes
// it, and a new one is #3.
func TestCorrectionKeepsChangeNumbers(t *testing.T) {
	h, atlas := withParties(t)
	for _, m := range []struct{ at, text, want string }{
		{"2026-12-01T12:00:00Z", "I modify the Wacky World contract: SET BuildXCost = 2", "modification #1 is made"},
		{"2026-12-01T12:01:00Z", "I modify the Wacky World contract: SET Width = 20", "modification #2 is made"},
	} {
		if r := h.H.Public(m.at, atlas, m.text); !strings.Contains(r.Body, m.want) {
			t.Fatalf("%s:\n%s", m.text, r.Body)
		}
	}
	if r := h.H.Private("2026-12-01T13:00:00Z", bob, "I CoE on randomness/2026-W49/20261201T090000: the first modification was not Atlas's."); !strings.Contains(r.Body, "Claim of Error #1 recorded") {
		t.Fatalf("the claim:\n%s", r.Body)
	}
	n := len(h.H.Entries)
	h.H.Private("2026-12-01T13:30:00Z", atlas, "I correct CoE #1: message <m3@example.test> is void.")
	fixes := contract.Corrections(h.H.Entries[n:])
	if len(fixes) != 1 {
		t.Fatalf("%d corrections journaled", len(fixes))
	}
	rev, _, err := h.H.Correct("2026-12-01T13:30:00Z", fixes[0], nil)
	if err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	_, outcomes, _ := strings.Cut(rev.Text(), "Outcomes that changed")
	if outcomes, _, _ = strings.Cut(outcomes, "Notices that changed"); strings.Contains(outcomes, "modification #2") {
		t.Errorf("the revision changes what modification #2 is:\n%s", rev.Text())
	}
	h.s = h.H.S
	if r := h.H.Public("2026-12-01T14:00:00Z", bob, "I oppose modification #2 in Wacky World."); !done(r) {
		t.Errorf("Bob's opposition to modification #2:\n%s", r.Body)
	}
	if w := h.data().width(); w != 16 {
		t.Errorf("the World is %d wide, want 16 again", w)
	}
	if r := h.H.Public("2026-12-01T14:10:00Z", atlas, "I modify the Wacky World contract: SET BuildXCost = 3"); !strings.Contains(r.Body, "modification #3 is made") {
		t.Errorf("a new modification:\n%s", r.Body)
	}
}

// TestCorrectionKeepsAssetNumbers: Alice drops a hat (asset #1, m3) and
// Bob a cane (#2, m4); voiding Alice's message made Bob's cane asset #1 in
// the corrected history, so that "I pick up asset #2" named nothing, and
// her drop after the correction took #2. The cane keeps #2 and her new
// drop is #3.
func TestCorrectionKeepsAssetNumbers(t *testing.T) {
	h, _ := withParties(t)
	for _, m := range []struct{ at, who, text, want string }{
		{"2026-12-01T12:00:00Z", alice, "I drop a hat in Wacky World.", "hat (#1)"},
		{"2026-12-01T12:01:00Z", bob, "I drop a cane in Wacky World.", "cane (#2)"},
		{"2026-12-01T13:00:00Z", bob, "I CoE on randomness/2026-W49/20261201T090000: Alice never dropped a hat.", "Claim of Error #1 recorded"},
	} {
		if r := h.H.Public(m.at, m.who, m.text); !strings.Contains(r.Body, m.want) {
			t.Fatalf("%s:\n%s", m.text, r.Body)
		}
	}
	if _, _, err := h.H.Correct("2026-12-01T13:30:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m3@example.test"}, nil); err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	h.s = h.H.S
	if as := h.data().Assets; len(as) != 1 || as[0].ID != 2 || as[0].Name != "cane" {
		t.Errorf("after the correction the assets are %+v, want the cane, #2", as[0])
	}
	if r := h.H.Public("2026-12-01T14:00:00Z", alice, "I drop a hat in Wacky World."); !strings.Contains(r.Body, "hat (#3)") {
		t.Errorf("Alice's drop after the correction:\n%s", r.Body)
	}
}

// TestCorrectionKeepsALastChangesNumber: voiding the message of the last
// modification (#2) leaves its number unused: the next is #3, and so it
// stays when a second correction re-runs the history.
func TestCorrectionKeepsALastChangesNumber(t *testing.T) {
	h := newHarness(t, "2026-12-01T09:00:00Z")
	h.H.Record()
	atlas := "Atlas <" + cm + ">"
	for _, m := range []struct{ at, who, text, want string }{
		{"2026-12-01T10:00:00Z", alice, "I join Wacky World.", "1 done"},
		{"2026-12-01T12:00:00Z", atlas, "I modify the Wacky World contract: SET BuildXCost = 2", "modification #1 is made"}, // m2
		{"2026-12-01T12:01:00Z", atlas, "I modify the Wacky World contract: SET BuildXCost = 3", "modification #2 is made"}, // m3
	} {
		if r := h.H.Public(m.at, m.who, m.text); !strings.Contains(r.Body, m.want) {
			t.Fatalf("%s:\n%s", m.text, r.Body)
		}
	}
	if _, _, err := h.H.Correct("2026-12-01T13:30:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m3@example.test"}, nil); err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	if r := h.H.Public("2026-12-01T14:00:00Z", atlas, "I modify the Wacky World contract: SET BuildXCost = 4"); !strings.Contains(r.Body, "modification #3 is made") {
		t.Errorf("a modification after the correction:\n%s", r.Body)
	}
	if _, _, err := h.H.Correct("2026-12-01T14:30:00Z", contract.Correction{CoE: 2, Kind: contract.FixVoid, MsgID: "m2@example.test"}, nil); err != nil {
		t.Fatalf("the second correction was refused: %v", err)
	}
	h.s = h.H.S
	if ch := h.data().Changes; len(ch) != 1 || ch[0].ID != 3 {
		t.Errorf("the changes after both corrections: %+v", ch)
	}
}

// TestCorrectionKeepsAChangesNumberByItsText: Atlas's one message makes
// modifications #1 (SET BuildXCost = 2) and #2 (SET Width = 20); Bob
// claims that the first was never meant, and Atlas corrects the message to
// make only the second. Numbered by its place among the message's
// changes, the second became #1 in the corrected history, and Bob's "I
// oppose modification #2" was refused ("there is no modification #2").
// A change keeps the number of the recorded change of the same message
// with the same text: the second keeps #2, and #1 is left unused.
func TestCorrectionKeepsAChangesNumberByItsText(t *testing.T) {
	h, atlas := withParties(t)
	modifiesTwiceAtOnce(t, h, atlas)
	if r := h.H.Private("2026-12-01T13:00:00Z", bob, "I CoE on randomness/2026-W49/20261201T090000: the first modification was never meant."); !strings.Contains(r.Body, "Claim of Error #1 recorded") {
		t.Fatalf("the claim:\n%s", r.Body)
	}
	fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m3@example.test", Text: "I modify the Wacky World contract: SET Width = 20"}
	if _, _, err := h.H.Correct("2026-12-01T13:30:00Z", fix, nil); err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	h.s = h.H.S
	var got []string
	for _, ch := range h.data().Changes {
		got = append(got, fmt.Sprintf("#%d %s", ch.ID, ch.Text))
	}
	if want := []string{"#2 SET Width = 20"}; !slices.Equal(got, want) {
		t.Errorf("after the correction the changes are %q, want %q", got, want)
	}
	if r := h.H.Public("2026-12-01T14:00:00Z", bob, "I oppose modification #2 in Wacky World."); !done(r) {
		t.Errorf("Bob's opposition to modification #2:\n%s", r.Body)
	}
	if w := h.data().width(); w != 16 {
		t.Errorf("the World is %d wide, want 16 again", w)
	}
	if r := h.H.Public("2026-12-01T14:10:00Z", atlas, "I modify the Wacky World contract: SET BuildXCost = 3"); !strings.Contains(r.Body, "modification #3 is made") {
		t.Errorf("a new modification:\n%s", r.Body)
	}
}

// withParties is a World that records its history (for corrections),
// Alice and Bob joined at 10:00 and 10:01, and Atlas's sender.
func withParties(t *testing.T) (*harness, string) {
	t.Helper()
	h := newHarness(t, "2026-12-01T09:00:00Z")
	h.H.Record()
	atlas := "Atlas <" + cm + ">"
	for i, who := range []string{alice, bob} {
		if r := h.H.Public("2026-12-01T10:0"+string(rune('0'+i))+":00Z", who, "I join Wacky World."); !done(r) {
			t.Fatalf("join %s: %v", who, r)
		}
	}
	return h, atlas
}

// modifiesTwiceAtOnce: Atlas's one message (m3, at noon) makes
// modifications #1 (SET BuildXCost = 2) and #2 (SET Width = 20).
func modifiesTwiceAtOnce(t *testing.T, h *harness, atlas string) {
	t.Helper()
	r := h.H.Public("2026-12-01T12:00:00Z", atlas, "I modify the Wacky World contract: SET BuildXCost = 2\n\nI modify the Wacky World contract: SET Width = 20") // m3
	if !strings.Contains(r.Body, "modification #1 is made") || !strings.Contains(r.Body, "modification #2 is made") {
		t.Fatalf("the modifications:\n%s", r.Body)
	}
}
