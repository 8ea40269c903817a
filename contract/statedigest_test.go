package contract_test

import (
	"errors"
	"strings"
	"testing"

	"referee/contract"
)

// unwritable is a game's data that cannot be written.
type unwritable struct{}

func (unwritable) MarshalYAML() (any, error) { return nil, errors.New("the board cannot be written") }

// TestStateDigestOfAnUnwritableState: the digest a revision gives of a
// state (its "State hash before" and "after") names why the state cannot be
// written, instead of a hash, when a game's data cannot be.
func TestStateDigestOfAnUnwritableState(t *testing.T) {
	h := newToy(t)
	h.S.Games["toy"].Data = unwritable{}
	got := contract.StateDigest(h.S)
	if !strings.HasPrefix(got, "unencodable: ") || !strings.Contains(got, "the board cannot be written") {
		t.Errorf("the digest of a state that cannot be written: %q", got)
	}
}
