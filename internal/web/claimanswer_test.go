package web

import (
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
)

// TestPageShowsClaimAnswers: a Life page's recent events list, after a
// Claim of Error, what became of it: the contestmaster's correction, what
// it did and what its revision lists, and a denial with its reason. The
// page listed the corrected claim and nothing after it.
func TestPageShowsClaimAnswers(t *testing.T) {
	h := contracttest.New(t, "2026-11-16T12:00:00Z", life.New())
	h.Record()
	h.Public("2026-11-16T12:05:00Z", "Alice <alice@example.test>", "I join the Life contest.")                                         // m1
	h.Public("2026-11-16T12:06:00Z", "Alice <alice@example.test>", "I transfer a Vial to the contest to take control of Cell (3, 4).") // m2
	claim := func(at, msgID, text string) {
		t.Helper()
		tm := contracttest.At(t, at)
		rid := "<" + contract.MessageID("receipt/"+msgID, "example.test") + ">"
		h.Send(&contract.Message{From: "alice@example.test", Name: "Alice", Arrived: tm, Date: tm, Channel: contract.ChanPublic,
			Authenticated: true, Subject: "Re: actions", InReplyTo: []string{rid}, References: []string{"<" + msgID + ">", rid}, Text: text})
	}
	claim("2026-11-16T13:00:00Z", "m2@example.test", "CoE: I meant another Cell.")
	claim("2026-11-16T13:01:00Z", "m1@example.test", "CoE: my joining was misread.")
	byMail := func(at, text string) []contract.Correction {
		t.Helper()
		n := len(h.Entries)
		h.Send(&contract.Message{From: contracttest.Contestmaster, Date: contracttest.At(t, at), Arrived: contracttest.At(t, at),
			Subject: "CoE", Channel: contract.ChanPrivate, Authenticated: true, Text: text})
		return contract.Corrections(h.Entries[n:])
	}
	fixes := byMail("2026-11-16T14:00:00Z", "I correct CoE #1: message <m2@example.test> is void.")
	if len(fixes) != 1 {
		t.Fatal("the correction was not accepted")
	}
	if _, _, err := h.Correct("2026-11-16T14:00:00Z", fixes[0], nil); err != nil {
		t.Fatal(err)
	}
	byMail("2026-11-16T15:00:00Z", "I deny CoE #2: it was read as written.")
	p := get(t, serve(t, h, nil), "/game/life", 200)
	_, recent, _ := strings.Cut(p, `<section id="recent">`)
	recent, _, _ = strings.Cut(recent, "</section>")
	recent = unescape(recent)
	for _, want := range []string{
		"Alice: claims an error in receipt/m2@example.test (CoE #1)",
		"the contestmaster: corrects CoE #1 on receipt/m2@example.test: message m2@example.test is void (Revision: CoE #1, on the official list:",
		"the contestmaster: denies CoE #2 on receipt/m1@example.test: it was read as written.",
	} {
		if !strings.Contains(recent, want) {
			t.Errorf("the page's recent events lack %q:\n%s", want, recent)
		}
	}
}
