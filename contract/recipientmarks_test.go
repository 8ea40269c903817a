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

// A player is found by a name as mail clients write it: "Zoë" with its ë
// decomposed (e and a combining diaeresis, as some clients send it), in
// curly quotation marks, or with an ellipsis after it. Each was refused
// with "no player is known as "Zoë"", which read like the name itself.
// The message goes through the mail parser, as the referee reads it.
func TestRecipientAsClientsWriteIt(t *testing.T) {
	for _, to := range []string{"Zoe\u0308", "\u201cZo\u00eb\u201d", "Zo\u00eb\u2026", "zoe\u0308"} {
		h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
		h.Quietly("2026-11-30T10:00:00Z", alice, contract.ChanPublic, "I join the Life contest.")
		h.Quietly("2026-11-30T10:01:00Z", "Zo\u00eb <zoe@example.test>", contract.ChanPublic, "I join the Life contest.")
		eml := "From: Alice <alice@example.test>\nTo: agora-business@example.test\n" +
			"List-Id: Agora Business <agora-business.example.test>\nDate: Tue, 01 Dec 2026 10:00:00 +0000\n" +
			"Message-ID: <zoe@example.test>\nSubject: BUS: Vials\nMIME-Version: 1.0\n" +
			"Content-Type: text/plain; charset=utf-8\n\nI transfer 3 Vials to " + to + "\n"
		path := filepath.Join(t.TempDir(), "m.eml")
		if err := os.WriteFile(path, []byte(eml), 0o644); err != nil {
			t.Fatal(err)
		}
		r := contracttest.Receipt(h.Mbox(path))
		if r == nil || !strings.Contains(flat(r.Body), "Done: 3 Vials moved from Alice to Zo\u00eb") {
			t.Errorf("to %q: receipt\n%v", to, r)
		}
		if got := h.S.Ledger.Balance(life.Vial, "Zo\u00eb"); got != 13 {
			t.Errorf("to %q: Zoë owns %d Vials, want 13", to, got)
		}
	}
}

// A new name in curly quotation marks is the name without them, as in
// straight ones: "I change my name to “Alicia”" named the player
// “Alicia”, quotation marks and all, whom no later reference could reach
// (a reference leaves the marks out). Others then find em as Alicia.
func TestRenameInCurlyQuotes(t *testing.T) {
	h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
	h.Quietly("2026-11-30T10:00:00Z", alice, contract.ChanPublic, "I join the Life contest.")
	h.Quietly("2026-11-30T10:01:00Z", bob, contract.ChanPublic, "I join the Life contest.")
	r := h.Public("2026-12-01T10:00:00Z", alice, "I change my name to \u201cAlicia\u201d.")
	if r == nil || !strings.Contains(flat(r.Body), "Done: you are now known as Alicia (before: Alice)") {
		t.Fatalf("receipt:\n%v", r)
	}
	r = h.Public("2026-12-01T10:05:00Z", bob, "I transfer 2 Vials to Alicia.")
	if r == nil || !strings.Contains(flat(r.Body), "Done: 2 Vials moved from Bob to Alicia") {
		t.Errorf("receipt:\n%v", r)
	}
}

// A new name in straight quotation marks, double or single, is the name
// without them, as in curly ones: "I change my name to \"Alicia\"." was
// refused ("a name may not hold quotation marks"), and "... to 'Alicia'."
// named the player 'Alicia', marks and all, whom no reference could reach.
func TestRenameInStraightQuotes(t *testing.T) {
	for _, text := range []string{`I change my name to "Alicia".`, `I change my name to 'Alicia'.`} {
		h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
		h.Quietly("2026-11-30T10:00:00Z", alice, contract.ChanPublic, "I join the Life contest.")
		h.Quietly("2026-11-30T10:01:00Z", bob, contract.ChanPublic, "I join the Life contest.")
		r := h.Public("2026-12-01T10:00:00Z", alice, text)
		if r == nil || !strings.Contains(flat(r.Body), "Done: you are now known as Alicia (before: Alice)") {
			t.Errorf("%s: receipt:\n%v", text, r)
			continue
		}
		r = h.Public("2026-12-01T10:05:00Z", bob, "I transfer 2 Vials to Alicia.")
		if r == nil || !strings.Contains(flat(r.Body), "Done: 2 Vials moved from Bob to Alicia") {
			t.Errorf("%s: receipt:\n%v", text, r)
		}
	}
}
