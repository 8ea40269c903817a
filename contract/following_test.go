package contract_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
)

// A list of actions opened by "I perform the following actions, in order:"
// (or "I hereby do the following:"), its items without "I", is read as the
// actions it lists, in order: it got no reply and did nothing. Items of a
// list under any other line ("Plans for next week:") still do nothing, and
// so does a list quoted from another message.
func TestListOfTheFollowingActions(t *testing.T) {
	for _, c := range []struct {
		body string
		want []string
		bob  int64
	}{
		{"I perform the following actions, in order:\n\n1. Transfer 3 Vials to Bob.\n2. Claim cell (1, 2) in Life.\n\nCheers,\nAlice",
			[]string{"Done: 3 Vials moved from Alice to Bob", "Done: you Control Cell (1, 2)", "2 done, 0 not done"}, 13},
		{"I hereby do the following:\n- transfer 2 Vials to Bob\n- I claim cell (1, 2) in Life\n\nNot this one:\n- transfer 5 Vials to Bob",
			[]string{"Done: 2 Vials moved from Alice to Bob", "2 done, 0 not done"}, 12},
		{"Plans for next week:\n- transfer 3 Vials to Bob\n- claim cell (5, 5) in Life", nil, 10},
		{"Agreed.\n\nBob wrote:\n> I perform the following actions:\n> 1. Transfer 3 Vials to Bob.", nil, 10},
	} {
		h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
		h.Quietly("2026-11-30T10:00:00Z", alice, contract.ChanPublic, "I join the Life contest.")
		h.Quietly("2026-11-30T10:01:00Z", bob, contract.ChanPublic, "I join the Life contest.")
		eml := "From: Alice <alice@example.test>\nTo: agora-business@example.test\n" +
			"List-Id: Agora Business <agora-business.example.test>\nDate: Tue, 01 Dec 2026 10:00:00 +0000\n" +
			"Message-ID: <list@example.test>\nSubject: BUS: actions\nMIME-Version: 1.0\n" +
			"Content-Type: text/plain; charset=utf-8\n\n" + c.body + "\n"
		path := filepath.Join(t.TempDir(), "m.eml")
		if err := os.WriteFile(path, []byte(eml), 0o644); err != nil {
			t.Fatal(err)
		}
		r := contracttest.Receipt(h.Mbox(path))
		switch {
		case c.want == nil && r != nil:
			t.Errorf("%q: a receipt:\n%s", c.body, r.Body)
		case c.want != nil && r == nil:
			t.Errorf("%q: no receipt", c.body)
		}
		for _, w := range c.want {
			if r != nil && !strings.Contains(flat(r.Body), w) {
				t.Errorf("%q: the receipt lacks %q:\n%s", c.body, w, r.Body)
			}
		}
		if got := h.S.Ledger.Balance(life.Vial, "Bob"); got != c.bob {
			t.Errorf("%q: Bob owns %d Vials, want %d", c.body, got, c.bob)
		}
	}
}
