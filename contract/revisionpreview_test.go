package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
)

// TestCorrectionSendsNoPreviewAgain: a preview is performed on a copy and
// changes nothing, so when a correction makes its text come out otherwise,
// no "Corrected:" copy of it is sent; the revision lists it as a preview
// not sent again, and the receipts beside it are sent as before.
// Bob's preview of a transfer of 7 coins, which he had after Alice's
// transfer of 2, is "Not done" once that transfer is void.
func TestCorrectionSendsNoPreviewAgain(t *testing.T) {
	h := newToy(t)
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")       // m1
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")         // m2
	h.Public("2026-12-01T10:07:00Z", alice, "I transfer 2 coins to Bob.") // m3
	if r := h.Private("2026-12-01T10:08:00Z", bob, "preview\nI transfer 7 coins to Alice."); r == nil || !strings.Contains(r.Body, "Done: 7 coins moved") {
		t.Fatalf("the preview: %v", r)
	}
	h.Public("2026-12-01T10:09:00Z", bob, "I transfer 6 coins to Alice.") // m5
	h.Public("2026-12-01T10:10:00Z", alice, "CoE: my transfer.")
	_, out, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m3@example.test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	var revision string
	for _, n := range out {
		ids = append(ids, n.ID)
		if n.ID == "revision/1" {
			revision = n.Body
		}
	}
	if got := strings.Join(ids, " "); got != "corrected/1/receipt/m3@example.test corrected/1/receipt/m5@example.test revision/1" {
		t.Errorf("the correction sent %s, want the receipts of m3 and m5 and the revision alone", got)
	}
	for _, want := range []string{
		"a private receipt to bob@example.test (changed; a preview, which changed nothing: not sent again)",
		"a private receipt to bob@example.test (changed)\n",
		`Each changed receipt is sent again to its player, marked "Corrected:".`,
	} {
		if !strings.Contains(revision, want) {
			t.Errorf("the revision lacks %q:\n%s", want, revision)
		}
	}
}
