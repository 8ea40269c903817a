package contract_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"referee/contract"
)

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// flat folds white space, so tests do not depend on where text wraps.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// other is a second game with a "join" verb, to test routing.
type other struct{ toy }

func (g *other) ID() string                      { return "other" }
func (g *other) Title() string                   { return "Other" }
func (g *other) Aliases() []string               { return []string{"other"} }
func (g *other) Currencies() []contract.Currency { return nil }
