package contract_test

import (
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestFirstFullWeek: the first full Agoran week of a month is the one whose
// Monday is the first on or after the 1st (ruling L6): in December 2026
// (the 1st a Tuesday) the week of Monday the 7th, not the week of Monday
// 30 November nor that of the 14th; in June 2026 (the 1st a Monday) the week
// of the 1st itself, any instant of it.
func TestFirstFullWeek(t *testing.T) {
	for _, c := range []struct {
		at   string
		want bool
	}{
		{"2026-12-01T10:00:00Z", false},
		{"2026-12-06T23:59:59Z", false},
		{"2026-12-07T00:00:00Z", true},
		{"2026-12-13T23:59:59Z", true},
		{"2026-12-14T00:00:00Z", false},
		{"2026-06-01T00:00:00Z", true},
		{"2026-06-07T12:00:00Z", true},
		{"2026-06-08T00:00:00Z", false},
	} {
		if got := contract.FirstFullWeek(contracttest.At(t, c.at)); got != c.want {
			t.Errorf("the week of %s is the first full week of its month: %v, want %v", c.at, got, c.want)
		}
	}
}
