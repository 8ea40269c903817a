package life

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

const (
	alice = "Alice <alice@example.test>"
	bob   = "Bob <bob@example.test>"
	carol = "Carol <carol@example.test>"
	cm    = "CM <cm@example.test>"
)

func newHarness(t *testing.T, start string) *contracttest.Harness {
	t.Helper()
	return contracttest.New(t, start, New())
}

func st(h *contracttest.Harness) *State { return h.Data(ID).(*State) }

func balance(h *contracttest.Harness, owner string) int64 { return h.S.Ledger.Balance(Vial, owner) }

// done fails the test unless the receipt reports the action done.
func done(t *testing.T, rec *contract.Notice, want ...string) {
	t.Helper()
	if rec == nil {
		t.Fatal("no receipt")
	}
	for _, w := range want {
		if !strings.Contains(rec.Body, w) {
			t.Errorf("receipt lacks %q:\n%s", w, rec.Body)
		}
	}
}
