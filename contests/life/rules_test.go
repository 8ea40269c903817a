package life

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// join3 makes Alice, Bob and Carol contestants on 2026-11-10 (a Tuesday).
func join3(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, "2026-11-10T09:00:00Z")
	for _, p := range []string{alice, bob, carol} {
		done(t, h.Public("2026-11-10T10:00:00Z", p, "I join the Life contest."), "Done")
	}
	return h
}

// Bad input (issue list; R2, R7, R13, R16, R4): each is refused citing its
// regulation and changes nothing.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name, from, text, rule string
	}{
		{"claim a living cell", bob, "I claim cell (5, 5) in Life.", "Life R16"},
		{"claim outside the limits", alice, "I claim cell (51, 3) in Life.", "Life R7"},
		{"claim a negative coordinate", alice, "I claim cell (3, -1) in Life.", "Life R7"},
		{"claim without a Vial", carol, "I claim cell (20, 20) in Life.", "Life R16"},
		{"claim by a non-contestant", "Dave <dave@example.test>", "I claim cell (20, 20) in Life.", "Life R16"},
		{"claim a malformed coordinate", alice, "I claim cell (5,5,5) in Life.", `"(5,5,5)" is not a Cell; name each Cell as (X, Y)`},
		{"claim an unclosed coordinate", alice, "I claim cell (6, 7 in Life.", `"(6, 7" is not a Cell`},
		{"claim a coordinate with a letter", alice, "I claim cell (x, 7) in Life.", `"(x, 7)" is not a Cell`},
		{"transfer more than owned", alice, "I transfer 50 Vials to Bob.", "Life R13"},
		{"transfer to a non-contestant", alice, "I transfer 2 Vials to Fay.", "Life R13"},
		{"consent to an unknown suggestion", alice, "I consent to Suggestion #9 in Life.", "Life R4"},
		{"join twice", alice, "I join the Life contest.", "Life R2"},
		{"join within 7 days of leaving", "Fay <fay@example.test>", "I join the Life contest.", "Life R2"},
		{"leave without being in", "Dave <dave@example.test>", "I leave the Life contest.", "Life R2"},
		{"hand over by a non-contestmaster", alice, "I consent to Bob becoming the contestmaster of Life.", "Life R1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := join3(t)
			h.Public("2026-11-10T10:01:00Z", "Fay <fay@example.test>", "I join the Life contest.")
			h.Public("2026-11-10T10:02:00Z", "Fay <fay@example.test>", "I leave the Life contest.")
			done(t, h.Public("2026-11-10T10:03:00Z", alice, "I claim cell (5, 5) in Life."), "Done")
			// Carol spends all her Vials on the contest.
			done(t, h.Public("2026-11-10T10:04:00Z", carol, "I transfer 10 Vials to the Life contest."), "Done")
			before := snapshot(t, h)
			notDone(t, h.Public("2026-11-12T10:00:00Z", tc.from, tc.text), tc.rule)
			if after := snapshot(t, h); after != before {
				t.Errorf("the state changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// Life R1: the contestmaster changes only by mutual consent, in either order.
func TestR1ContestmasterByMutualConsent(t *testing.T) {
	h := join3(t)
	done(t, h.Public("2026-11-11T10:00:00Z", bob, "I consent to become the contestmaster of Life."), "still needed")
	if got := h.S.Games[ID].Contestmaster; got != "cm@example.test" {
		t.Fatalf("one half changed the contestmaster to %s", got)
	}
	done(t, h.Public("2026-11-11T11:00:00Z", cm, "I consent to Alice becoming the contestmaster of Life."), "still needed")
	if got := h.S.Games[ID].Contestmaster; got != "cm@example.test" {
		t.Fatalf("consent to a different player changed the contestmaster to %s", got)
	}
	done(t, h.Public("2026-11-11T12:00:00Z", alice, "I consent to become the contestmaster of Life."), "now the contestmaster")
	if got := h.S.Games[ID].Contestmaster; got != "alice@example.test" {
		t.Fatalf("contestmaster = %s, want alice@example.test", got)
	}
	// The other order. Bob's consent of 11-11 lapsed with the change (the
	// guide's decision), so the new contestmaster's offer waits for a new one.
	done(t, h.Public("2026-11-12T10:00:00Z", alice, "I hand over the contestmastership to Bob."), "still needed")
	done(t, h.Public("2026-11-12T11:00:00Z", bob, "I consent to become the contestmaster of Life."), "now the contestmaster")
	if got := h.S.Games[ID].Contestmaster; got != "bob@example.test" {
		t.Fatalf("contestmaster = %s, want bob@example.test", got)
	}
}

// Life R2, R3, R15, ruling L8: joining mints VPP Vials and costs nothing;
// rejoining waits seven days after leaving.
func TestR2R3R15JoinLeaveRejoin(t *testing.T) {
	h := newHarness(t, "2026-11-10T09:00:00Z")
	done(t, h.Public("2026-11-10T10:00:00Z", alice, "I become a contestant of Life."), "minted you 10 Vials")
	if got := balance(h, "Alice"); got != 10 {
		t.Fatalf("Alice owns %d Vials after joining, want VPP = 10 (R15, no fee R3)", got)
	}
	done(t, h.Public("2026-11-10T11:00:00Z", alice, "I claim cells (1, 1), (2, 2) in Life."), "Done")
	done(t, h.Public("2026-11-11T10:00:00Z", alice, "I leave the Life contest."), "2 Cells went to the contest")
	if st(h).Cells["alice@example.test"] != "" || balance(h, "Alice") != 0 {
		t.Fatalf("after leaving: cells %q, Vials %d; want none (R9, R13)", st(h).Cells["alice@example.test"], balance(h, "Alice"))
	}
	notDone(t, h.Public("2026-11-18T09:59:00Z", alice, "I join the Life contest."), "Life R2")
	done(t, h.Public("2026-11-18T10:00:00Z", alice, "I join the Life contest."), "Done")
}

// Life R4, ruling L9: regulations 1-5 need every contestant; others the
// contestmaster and a simple majority.
func TestR4Thresholds(t *testing.T) {
	h := join3(t)
	h.Public("2026-11-10T11:00:00Z", alice, "I suggest the following change to the Life regulations:\nSET VPP = 12\n")
	h.Public("2026-11-10T11:01:00Z", alice, "I suggest: amend regulation 2 to read \"Anyone may join.\"\n")
	if n := len(st(h).Suggestions); n != 2 {
		t.Fatalf("%d suggestions, want 2", n)
	}
	// #1: a majority without the contestmaster is not enough.
	h.Public("2026-11-10T12:00:00Z", alice, "I consent to Suggestion #1 in Life.")
	h.Public("2026-11-10T12:00:00Z", bob, "I consent to Suggestion #1 in Life.")
	if st(h).Suggestions[0].Status != "open" {
		t.Fatal("#1 adopted without the contestmaster's consent")
	}
	h.Public("2026-11-10T12:05:00Z", cm, "I consent to Suggestion #1 in Life.")
	if st(h).Suggestions[0].Status != "adopted" || h.S.Games[ID].Params["VPP"] != "12" {
		t.Fatalf("#1: status %q, VPP %s; want adopted and 12", st(h).Suggestions[0].Status, h.S.Games[ID].Params["VPP"])
	}
	// #2 touches regulation 2: the contestmaster and two of three are not enough.
	h.Public("2026-11-10T13:00:00Z", cm, "I consent to Suggestion #2 in Life.")
	h.Public("2026-11-10T13:00:00Z", alice, "I consent to Suggestion #2 in Life.")
	h.Public("2026-11-10T13:00:00Z", bob, "I consent to Suggestion #2 in Life.")
	if st(h).Suggestions[1].Status != "open" {
		t.Fatal("#2 (regulation 2) adopted without unanimity")
	}
	h.Public("2026-11-10T13:01:00Z", carol, "I consent to Suggestion #2 in Life.")
	if !strings.HasPrefix(st(h).Suggestions[1].Status, "adopted") {
		t.Fatalf("#2 status %q after unanimous consent", st(h).Suggestions[1].Status)
	}
	// #3 touches regulation 5, the last that needs unanimity.
	h.Public("2026-11-10T14:00:00Z", alice, "I suggest: amend regulation 5 to read \"The grid is small.\"\n")
	for _, p := range []string{cm, alice, bob} {
		h.Public("2026-11-10T14:01:00Z", p, "I consent to Suggestion #3 in Life.")
	}
	if st(h).Suggestions[2].Status != "open" {
		t.Fatal("#3 (regulation 5) adopted without unanimity")
	}
	// #4 touches regulation 6: a simple majority with the contestmaster.
	// With two contestants, one is not a majority.
	done(t, h.Public("2026-11-10T14:10:00Z", carol, "I leave the Life contest."), "Done")
	h.Public("2026-11-10T14:11:00Z", alice, "I suggest: amend regulation 6 to read \"VPP is ten.\"\n")
	h.Public("2026-11-10T14:12:00Z", cm, "I consent to Suggestion #4 in Life.")
	h.Public("2026-11-10T14:12:00Z", alice, "I consent to Suggestion #4 in Life.")
	if st(h).Suggestions[3].Status != "open" {
		t.Fatal("#4 adopted by one of two contestants")
	}
	h.Public("2026-11-10T14:13:00Z", bob, "I consent to Suggestion #4 in Life.")
	if !strings.HasPrefix(st(h).Suggestions[3].Status, "adopted") {
		t.Fatalf("#4 status %q after a majority and the contestmaster", st(h).Suggestions[3].Status)
	}
	// #5 touches regulation 1, the first that needs unanimity: the
	// contestmaster and two of three are not enough.
	done(t, h.Public("2026-11-10T14:19:00Z", "Dave <dave@example.test>", "I join the Life contest."), "Done")
	h.Public("2026-11-10T14:20:00Z", alice, "I suggest: amend regulation 1 to read \"The contestmaster is chosen by lot.\"\n")
	for _, p := range []string{cm, alice, bob} {
		h.Public("2026-11-10T14:21:00Z", p, "I consent to Suggestion #5 in Life.")
	}
	if st(h).Suggestions[4].Status != "open" {
		t.Fatal("#5 (regulation 1) adopted without unanimity")
	}
}

// Life R5, R6, R7, ruling L1: the default grid is 0..50 both ways; new limits
// destroy the Cells outside them.
func TestR5R6R7Limits(t *testing.T) {
	h := join3(t)
	done(t, h.Public("2026-11-10T11:00:00Z", alice, "I claim cells (0, 0), (50, 50), (40, 10) in Life."), "Done")
	notDone(t, h.Public("2026-11-10T11:01:00Z", alice, "I claim cell (0, 51) in Life."), "Life R7")
	h.Public("2026-11-10T12:00:00Z", bob, "I suggest the following change to the Life regulations:\nSET Xmax = 30\n")
	for _, p := range []string{alice, bob, cm} {
		h.Public("2026-11-10T12:01:00Z", p, "I consent to Suggestion #1 in Life.")
	}
	if got := cellsOf(h, "alice@example.test"); got != "0,0" {
		t.Fatalf("Alice's cells after Xmax = 30: %q, want 0,0 (R5)", got)
	}
	notDone(t, h.Public("2026-11-10T12:02:00Z", alice, "I claim cell (31, 0) in Life."), "Life R7")
}

// Life R8, R10, R16, ruling L2: a claim makes the contestant the Controller of
// a Dead Cell for one Vial paid to the contest; several claims are processed
// in order while Vials last.
func TestR16ClaimAndL2Order(t *testing.T) {
	h := join3(t)
	done(t, h.Public("2026-11-10T11:00:00Z", alice, "I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (12, 34)."), "Done")
	if balance(h, "Alice") != 9 || balance(h, contract.ContestEntity(ID)) != 1 || cellsOf(h, "alice@example.test") != "12,34" {
		t.Fatalf("after one claim: Alice %d Vials, contest %d, cells %q", balance(h, "Alice"), balance(h, contract.ContestEntity(ID)), cellsOf(h, "alice@example.test"))
	}
	h.Public("2026-11-10T11:01:00Z", alice, "I transfer 7 Vials to Bob.")
	rec := h.Public("2026-11-10T11:02:00Z", alice, "I claim cells (1, 1), (2, 1), (3, 1) in Life.")
	done(t, rec, "Cells (1, 1), (2, 1)", "not claimed: claiming Cell (3, 1) costs one Vial")
	if got := cellsOf(h, "alice@example.test"); got != "1,1 2,1 12,34" {
		t.Fatalf("Alice's cells %q", got)
	}
}

// Life R9, R13, ruling L8: leaving kills the leaver's Cells and destroys eir
// Vials; the supply shrinks accordingly.
func TestR9R13Leave(t *testing.T) {
	h := join3(t)
	h.Public("2026-11-10T11:00:00Z", bob, "I claim cells (1, 1), (2, 1), (3, 1) in Life.")
	supply := h.S.Ledger.Supply[Vial]
	done(t, h.Public("2026-11-10T12:00:00Z", bob, "I leave the Life contest."), "3 Cells went to the contest", "7 Vials self-destructed")
	if h.S.Ledger.Supply[Vial] != supply-7 || cellsOf(h, "bob@example.test") != "" {
		t.Fatalf("supply %d (was %d), Bob's cells %q", h.S.Ledger.Supply[Vial], supply, cellsOf(h, "bob@example.test"))
	}
}

// Life R13: only the contest, the contestmaster and contestants own Vials;
// the generic transfer works between them.
func TestR13Owners(t *testing.T) {
	s := &contract.State{Players: []*contract.Player{{Name: "In", Member: []string{ID}}, {Name: "Out"}}}
	for owner, want := range map[string]bool{"In": true, "Out": false, "Nobody": false,
		contract.ContestEntity(ID): true, contract.ContestmasterEntity(ID): true, contract.ContestEntity("rumble"): false} {
		if got := canOwn(s, owner); got != want {
			t.Errorf("canOwn(%q) = %v, want %v", owner, got, want)
		}
	}
	h := join3(t)
	done(t, h.Public("2026-11-10T11:00:00Z", alice, "I transfer 3 Vials of Primordial Ooze to Bob."), "Done")
	if balance(h, "Alice") != 7 || balance(h, "Bob") != 13 {
		t.Errorf("balances %d, %d", balance(h, "Alice"), balance(h, "Bob"))
	}
}

// TestCitations: every "Life R<n>" in the package, and every further "R<n>"
// of a list ("Life R2, R9, R13"), names a regulation of regulations.txt
// (either version of an amended one, ruling L5), and every ruling it cites is
// one of docs/rulings.md.
func TestCitations(t *testing.T) {
	b, err := os.ReadFile("regulations.txt")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^## (\d+)(?: amended| original)?$`).FindAllStringSubmatch(string(b), -1) {
		known[m[1]] = true
	}
	contracttest.CheckCitations(t, regexp.MustCompile(`\bLife R(\d+)((?:,? (?:and )?R\d+)*)\b`), known)
}
