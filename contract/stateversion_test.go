package contract_test

import (
	"errors"
	"strings"
	"testing"

	"referee/contract"
)

// TestStateVersionRefused: a state file without a version, or of a version
// this build does not know, is refused saying which; one of this build's
// version loads.
func TestStateVersionRefused(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	b, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	const v1 = "version: 1\n"
	if !strings.HasPrefix(string(b), v1) {
		t.Fatalf("the state file does not begin %q:\n%s", v1, b)
	}
	if _, err := h.E.Decode(b); err != nil {
		t.Errorf("a state of version 1: %v", err)
	}
	rest := string(b[len(v1):])
	if _, err := h.E.Decode([]byte(rest)); err == nil || err.Error() != "version: missing (is this a referee state?)" {
		t.Errorf("a state without its version: %v", err)
	}
	_, err = h.E.Decode([]byte("version: 2\n" + rest))
	if !errors.Is(err, contract.ErrFutureVersion) || !strings.Contains(err.Error(), "version 2: state was written by a newer version of referee (this build reads version 1)") {
		t.Errorf("a state of version 2: %v", err)
	}
}
