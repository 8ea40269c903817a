package main

import "testing"

// TestVerifySummaryAgrees: verify's line of counts agrees with each number:
// one seed is "checked against its commitment", not "against their
// commitments", which stays for none and for several.
func TestVerifySummaryAgrees(t *testing.T) {
	for _, c := range []struct {
		r    verification
		want string
	}{
		{verification{seeds: 1, draws: 1, commitments: 1, citations: 1},
			"1 seed checked against its commitment, 1 draw recomputed, 0 draws pending (seed not yet revealed), 1 commitment recomputed, 1 state hash checked, 0 mismatches"},
		{verification{seeds: 2, draws: 5, pending: 1, commitments: 3, citations: 2, mismatches: []string{"x"}},
			"2 seeds checked against their commitments, 5 draws recomputed, 1 draw pending (seed not yet revealed), 3 commitments recomputed, 2 state hashes checked, 1 mismatch"},
		{verification{},
			"0 seeds checked against their commitments, 0 draws recomputed, 0 draws pending (seed not yet revealed), 0 commitments recomputed, 0 state hashes checked, 0 mismatches"},
	} {
		if got := c.r.summary(); got != c.want {
			t.Errorf("verify says\n%s\nwant\n%s", got, c.want)
		}
	}
}
