package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestClaimAnswerInRecentEvents: a game's recent events, which its report
// and its page show, say what became of each Claim of Error they list: a
// denial with its reason, a correction with what it did and what its
// revision lists, under the claim's game. A correction of a message sent to
// the referee alone does not say what it now reads. The events listed the
// claim and nothing after it when it was corrected; a later correction
// re-does the earlier one's answer with its history.
func TestClaimAnswerInRecentEvents(t *testing.T) {
	h := newToy(t)
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.") // m1
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")   // m2
	h.Private("2026-12-01T10:07:00Z", bob, "I poke Alice in Toy.")  // m3
	h.Public("2026-12-01T10:08:00Z", alice, "I transfer 2 coins to Bob.")
	claim := func(at, from, msgID string, ch contract.Channel, text string) {
		t.Helper()
		tm := contracttest.At(t, at)
		rid := "<" + contract.MessageID("receipt/"+msgID, "example.test") + ">"
		r := contracttest.Receipt(h.Send(&contract.Message{From: from, Arrived: tm, Date: tm, Channel: ch, ListCopy: ch.IsPublic(),
			Authenticated: true, Subject: "Re: Receipt", InReplyTo: []string{rid}, References: []string{"<" + msgID + ">", rid}, Text: text}))
		if r == nil || !strings.Contains(r.Body, "Claim of Error #") {
			t.Fatalf("the claim %q was not recorded: %v", text, r)
		}
	}
	claim("2026-12-02T09:00:00Z", "bob@example.test", "m3@example.test", contract.ChanPrivate, "CoE: I meant to ask about walls.")
	claim("2026-12-02T09:01:00Z", "alice@example.test", "m1@example.test", contract.ChanPublic, "CoE: my joining was misread.")
	claim("2026-12-02T09:02:00Z", "alice@example.test", "m4@example.test", contract.ChanPublic, "CoE: I never sent that transfer.")

	// As the daemon: the contestmaster's mail, then the re-run.
	correct := func(at, text string) {
		t.Helper()
		n := len(h.Entries)
		h.Private(at, cm, text)
		fixes := contract.Corrections(h.Entries[n:])
		if len(fixes) != 1 {
			t.Fatalf("the correction %q was not accepted", text)
		}
		if _, _, err := h.Correct(at, fixes[0], nil); err != nil {
			t.Fatal(err)
		}
	}
	correct("2026-12-03T10:00:00Z", "I correct CoE #1: message <m3@example.test> reads `I ask the contestmaster whether walls are secret.`")
	h.Private("2026-12-03T11:00:00Z", cm, "I deny CoE #2: the join was read as written, and it was made in time for the Round.")
	correct("2026-12-03T12:00:00Z", "I correct CoE #3: message <m4@example.test> is void.")
	report := flat(reportAt(t, h, "2026-12-07T00:00:00Z").Body)
	for _, want := range []string{
		"Bob claims an error in receipt/m3@example.test (CoE #1)",
		"the contestmaster corrects CoE #1 on receipt/m3@example.test: message m3@example.test, sent to the referee alone, reads otherwise (Revision: CoE #1, on the official list: 2 outcomes and 1 notice changed)",
		"the contestmaster denies CoE #2 on receipt/m1@example.test: the join was read as written",
		"the contestmaster corrects CoE #3 on receipt/m4@example.test: message m4@example.test is void (Revision: CoE #3, on the official list: 1 outcome, 3 facts and 1 notice changed)",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report's recent events lack %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "walls") {
		t.Errorf("the report tells what a private message now reads:\n%s", report)
	}
}

// TestCorrectionAnswerStampedWhenMade: a correction's line in the recent
// events is stamped with the time the contestmaster corrected the record,
// as a denial's is, not with the time of the message it corrects. Alice's
// transfer (1 December) was reported on 7 December; she claims an error
// on 8 December at 09:00 and the contestmaster voids the transfer at
// 12:00. The next report lists the claim and then its correction, both
// after its "time of last report" marker, in the order they happened:
// stamped with the transfer's time the line would stand before the claim
// it answers, above the marker among the events the last report already
// showed, and the report after it would drop it.
func TestCorrectionAnswerStampedWhenMade(t *testing.T) {
	h := newToy(t)
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	h.Public("2026-12-01T10:08:00Z", alice, "I transfer 2 coins to Bob.") // m3
	reportAt(t, h, "2026-12-07T00:00:00Z")
	tm := contracttest.At(t, "2026-12-08T09:00:00Z")
	rid := "<" + contract.MessageID("receipt/m3@example.test", "example.test") + ">"
	if r := contracttest.Receipt(h.Send(&contract.Message{From: "alice@example.test", Arrived: tm, Date: tm, Channel: contract.ChanPublic, ListCopy: true,
		Authenticated: true, Subject: "Re: Receipt", InReplyTo: []string{rid}, References: []string{"<m3@example.test>", rid}, Text: "CoE: I never sent that transfer."})); r == nil || !strings.Contains(r.Body, "Claim of Error #1") {
		t.Fatalf("the claim was not recorded: %v", r)
	}
	n := len(h.Entries)
	h.Private("2026-12-08T12:00:00Z", cm, "I correct CoE #1: message <m3@example.test> is void.")
	fixes := contract.Corrections(h.Entries[n:])
	if len(fixes) != 1 {
		t.Fatal("the correction was not accepted")
	}
	if _, _, err := h.Correct("2026-12-08T12:00:00Z", fixes[0], nil); err != nil {
		t.Fatal(err)
	}
	report := reportAt(t, h, "2026-12-14T00:00:00Z").Body
	_, since, ok := strings.Cut(report, "----- time of last report -----\n")
	if !ok {
		t.Fatalf("the report has no time of last report:\n%s", report)
	}
	claimAt := strings.Index(since, "2026-12-08 09:00  Alice")
	fixAt := strings.Index(since, "2026-12-08 12:00  the contestmaster  corrects CoE #1")
	if claimAt < 0 || fixAt < claimAt {
		t.Errorf("the recent events since the last report do not list the claim and then its correction, as made:\n%s", report)
	}
}
