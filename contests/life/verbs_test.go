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
