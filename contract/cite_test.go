package contract_test

import (
	"testing"

	"referee/contract/contracttest"
)

// TestCitations: every ruling the interpreter cites ("G4" in a Rule:, "// G7"
// in a comment) is one of docs/rulings.md. The games check their own rules'
// citations beside their rule texts.
func TestCitations(t *testing.T) {
	contracttest.CheckCitations(t, nil, nil)
}
