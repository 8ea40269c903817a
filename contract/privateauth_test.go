package contract_test

import (
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestPrivateActionNeedsAuthentication: where the referee requires an
// authenticated sender, a private action in mail that was not authenticated
// is refused (G4), the receipt giving what the mail checks found, or that
// they found no passing result; an authenticated one is done.
func TestPrivateActionNeedsAuthentication(t *testing.T) {
	h := contracttest.NewConfig(t, contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster,
		ListWait: time.Hour, RequireAuth: true}, "2026-12-01T10:00:00Z", &toy{})
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	for i, c := range []struct {
		auth bool
		note string
		want string
	}{
		{false, "", "this message was not authenticated (no passing DKIM or DMARC result)"},
		{false, "dkim=fail (body hash did not verify)", "this message was not authenticated (dkim=fail (body hash did not verify))"},
		{true, "", "Done: sealed"},
	} {
		at := contracttest.At(t, "2026-12-01T11:00:00Z").Add(time.Duration(i) * time.Minute)
		var receipt string
		for _, n := range h.Send(&contract.Message{From: "alice@example.test", Name: "Alice", Date: at, Arrived: at,
			Channel: contract.ChanPrivate, Authenticated: c.auth, AuthNote: c.note, Text: "I seal 7."}) {
			if n.Kind == "receipt" {
				receipt = flat(n.Body)
			}
		}
		if !strings.Contains(receipt, c.want) {
			t.Errorf("authenticated %v, note %q: the receipt lacks %q:\n%s", c.auth, c.note, c.want, receipt)
		}
	}
}
