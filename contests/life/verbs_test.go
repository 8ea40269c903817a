package life

import (
	"testing"

	"referee/contract/contracttest"
)

// Lenient wording: the forms players write reach the right verb.
func TestVerbWording(t *testing.T) {
	tests := []struct{ text, verb string }{
		{"I join the Life contest.", "join"},
		{"I hereby join Life.", "join"},
		{"I become a contestant of Life.", "join"},
		{"I register as a contestant in the Life contest.", "join"},
		{"I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (12, 34).", "claim"},
		{"I transfer one Vial to the Life contest in order to claim cell (1,2).", "claim"},
		{"I pay a Vial to take control of cell (3, 4) in Life.", "claim"},
		{"I claim cell (12,34) in Life.", "claim"},
		{"I take control of cells (5, 5) and (6, 6) in Life.", "claim"},
		{"I transfer 2 Vials of Primordial Ooze to Bob.", "transfer"},
		{"I transfer 1 Vial to the Life contest.", "transfer"},
		{"I consent to Suggestion #1 in Life.", "consent"},
		{"I vote consent on suggestion 1 in Life.", "consent"},
		{"I consent to become the contestmaster of Life.", "volunteer"},
		{"I leave the Life contest.", "leave"},
	}
	for _, tc := range tests {
		h := join3(t)
		h.Public("2026-11-10T11:00:00Z", alice, "I suggest: SET VPP = 11")
		n := len(h.Entries)
		h.Public("2026-11-10T12:00:00Z", alice, tc.text)
		var got []string
		for _, e := range h.Entries[n:] {
			if e.Verb != "" {
				got = append(got, e.Verb)
			}
		}
		if len(got) != 1 || got[0] != tc.verb {
			t.Errorf("%q performed %v, want [%s]", tc.text, got, tc.verb)
		}
	}
}

// The guide lists every verb's syntax and HELP line, and every test it names
// exists.
func TestGuideCoversVerbsAndTests(t *testing.T) {
	contracttest.CheckGuide(t, New(), nil)
}

// TestJoinAndClaimSeveralCells: "I join the Life contest and claim cells
// (12, 35), (13, 35) and (11, 35)." joins and claims the three Cells, the
// "and" of the Cells' list staying inside the claim; where it was cut there
// too, no part but the first two read as an action, and the sentence,
// join included, was not understood.
func TestJoinAndClaimSeveralCells(t *testing.T) {
	h := newHarness(t, "2026-11-09T10:00:00Z")
	r := h.Public("2026-11-09T11:00:00Z", alice, "I join the Life contest and claim cells (12, 35), (13, 35) and (11, 35).")
	done(t, r, "> I join the Life contest", "> ... and claim cells (12, 35), (13, 35) and (11, 35).",
		"you Control Cells (12, 35), (13, 35), (11, 35), paying 3 Vials", "2 done, 0 not done.")
	if got := balance(h, "Alice"); got != 7 {
		t.Errorf("Alice owns %d Vials, want 7", got)
	}
	r = h.Public("2026-11-09T12:00:00Z", bob, "I join the Life contest and take (1, 1) and (2, 2) and transfer 2 Vials to Alice.")
	done(t, r, "> I join the Life contest", "> ... and take (1, 1) and (2, 2)", "> ... and transfer 2 Vials to Alice.", "3 done, 0 not done.")
	if got := balance(h, "Alice"); got != 9 {
		t.Errorf("Alice owns %d Vials after Bob's transfer, want 9", got)
	}
}
