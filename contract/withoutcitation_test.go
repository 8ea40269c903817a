package contract_test

import (
	"testing"

	"referee/contract"
	"referee/contract/text"
)

// TestWithoutCitation: a notice's body without its citation block is its
// text and, when it has one, its signature; a body with no block is kept
// whole.
func TestWithoutCitation(t *testing.T) {
	block := "\n" + text.Heading("Citation") + "Cite as: Life report 2026-W50\nJournal lines 3-9\n"
	for _, c := range []struct{ body, want string }{
		{"Standings:\n  Alice 3\n" + block + "\n-- \nThe contestmaster\n", "Standings:\n  Alice 3\n\n-- \nThe contestmaster\n"},
		{"Standings:\n  Alice 3\n" + block, "Standings:\n  Alice 3\n"},
		{"Standings:\n  Alice 3\n\n-- \nThe contestmaster\n", "Standings:\n  Alice 3\n\n-- \nThe contestmaster\n"},
		{"", ""},
	} {
		if got := contract.WithoutCitation(c.body); got != c.want {
			t.Errorf("WithoutCitation(%q) = %q, want %q", c.body, got, c.want)
		}
	}
}
