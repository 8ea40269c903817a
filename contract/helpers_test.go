package contract_test

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
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

func errorsAs(err error, target any) bool { return errors.As(err, target) }

// other is a second game with a "join" verb, to test routing.
type other struct{ toy }

func (g *other) ID() string                      { return "other" }
func (g *other) Title() string                   { return "Other" }
func (g *other) Aliases() []string               { return []string{"other"} }
func (g *other) Currencies() []contract.Currency { return nil }

func newToyFuzz(t *testing.T) *contracttest.Harness {
	return contracttest.New(t, "2026-12-01T10:00:00Z", &toy{})
}

// newToyFuzzSeed is the encoding of a fresh toy state, a seed for FuzzDecode.
func newToyFuzzSeed() []byte {
	e, _ := contract.NewEngine(contract.Config{Referee: "referee@example.test"}, &toy{})
	s, _, _ := e.NewState(make([]byte, 32), contracttestAt("2026-12-01T10:00:00Z"))
	b, _ := contract.Encode(s)
	return b
}

func contracttestAt(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}
