package rumble

import (
	"regexp"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestCorrectionOfASealedBid: the contestmaster corrects a sealed bid
// before the bids are revealed (the claim in reply to its receipt). The
// revision on the official list says which message was corrected, not what
// it now reads: it published "message <ru14.bob@example.test> reads `I bid
// 43 on Flight.`", Bob's sealed bid, before the reveal. Bob's corrected
// receipt, to him alone, shows his bid as it now reads, and the reveal the
// corrected bid.
func TestCorrectionOfASealedBid(t *testing.T) {
	raw, at := scenarioAt(t, beforeDaveBids)
	path := mboxFile(t, raw[:at])
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	h.Record()
	h.Mbox(path)
	receipt := contract.MessageID("receipt/ru14.bob@example.test", contract.Domain(contracttest.Referee))
	claim := contracttest.Receipt(h.Send(&contract.Message{From: "bob@example.test", Name: "Bob",
		Date: contracttest.At(t, "2026-12-02T09:41:00Z"), Arrived: contracttest.At(t, "2026-12-02T09:41:00Z"), Subject: "Re: bids",
		Channel: contract.ChanPrivate, Authenticated: true, Text: "CoE: my bid was not read as I sent it.",
		InReplyTo: []string{receipt}, References: []string{"ru14.bob@example.test", receipt}}))
	if claim == nil || !strings.Contains(claim.Body, "Claim of Error #1 recorded") {
		t.Fatalf("the claim was not recorded: %v", claim)
	}
	_, out, err := h.Correct("2026-12-02T09:42:00Z", contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "ru14.bob@example.test", Text: "I bid 43 on Flight."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var revision, corrected, commitment *contract.Notice
	for _, n := range out {
		switch n.ID {
		case "revision/1":
			revision = n
		case "corrected/1/receipt/ru14.bob@example.test":
			corrected = n
		case "corrected/1/rumble/1/commit/ru14.bob@example.test":
			commitment = n
		}
		if n.Channel == contract.ChanPrivate && n.ID != "corrected/1/receipt/ru14.bob@example.test" {
			continue
		}
		if n.Channel != contract.ChanPrivate || n.To[0] != "bob@example.test" {
			if strings.Contains(n.Body, "43 on Flight") || strings.Contains(n.Body, "Flight: 43") {
				t.Errorf("%s (%s, to %v) shows Bob's corrected bid before the reveal:\n%s", n.ID, n.Channel, n.To, n.Body)
			}
		}
	}
	if revision == nil || !strings.Contains(revision.Body, "ru14.bob@example.test") {
		t.Fatalf("the revision does not name the message corrected:\n%v", revision)
	}
	if strings.Contains(revision.Body, "43 on Flight") {
		t.Errorf("the revision shows Bob's sealed bid:\n%s", revision.Body)
	}
	if corrected == nil || corrected.To[0] != "bob@example.test" || !strings.Contains(corrected.Body, "I bid 43 on Flight.") {
		t.Fatalf("Bob's corrected receipt does not show his bid as it now reads:\n%v", corrected)
	}
	// The corrected bid's commitment is published whole before the
	// reveal, on the list its first commitment went to, so that the
	// reveal can be checked against it.
	if commitment == nil || commitment.Channel != contract.ChanPublic || !strings.HasPrefix(commitment.Subject, "Corrected: ") {
		t.Fatalf("the corrected bid's commitment is not published again: %v", commitment)
	}
	hash := regexp.MustCompile(`(?m)^  ([0-9a-f]{64})$`).FindStringSubmatch(commitment.Body)
	if hash == nil || !strings.Contains(commitment.Body, "CoE #1") {
		t.Fatalf("the corrected commitment notice holds no commitment or names no claim:\n%s", commitment.Body)
	}
	// The rest of the bids: the reveal shows the corrected bid.
	_, end := scenarioAt(t, "From alice@example.test Wed Dec  2 10:10:00 2026")
	var reveal *contract.Notice
	for _, n := range h.Mbox(mboxFile(t, raw[at:end])) {
		if n.Channel == contract.ChanPublic && strings.Contains(n.Body, "bid: Flight: 43") {
			reveal = n
		}
	}
	if reveal == nil {
		t.Fatal("no reveal shows Bob's corrected bid")
	}
	if !strings.Contains(reveal.Body, hash[1]) {
		t.Errorf("the reveal does not show the commitment published with the correction, %s:\n%s", hash[1], reveal.Body)
	}
}

// TestClaimIsNoSubmission: a Claim of Error sent privately while bids are
// sealed, in reply to the bid's receipt, is a claim and nothing else, even
// when it quotes the bid the player meant: "CoE: you read my bid wrong, it
// was" and "Flight: 30" on the next line were also read as a new bid list,
// which replaced Bob's sealed bid. So is one that names its game before the
// colon ("CoE in Rumble: I meant to bid 30 on Flight"), which was read as a
// bid line that is not a bid, the claim lost.
func TestClaimIsNoSubmission(t *testing.T) {
	raw, at := scenarioAt(t, beforeDaveBids)
	path := mboxFile(t, raw[:at])
	for _, text := range []string{"CoE: you read my bid wrong, it was\nFlight: 30\n", "CoE in Rumble: I meant to bid 30 on Flight.\n"} {
		h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
		h.Mbox(path)
		receipt := contract.MessageID("receipt/ru14.bob@example.test", contract.Domain(contracttest.Referee))
		out := h.Send(&contract.Message{From: "bob@example.test", Name: "Bob",
			Date: contracttest.At(t, "2026-12-02T09:41:00Z"), Arrived: contracttest.At(t, "2026-12-02T09:41:00Z"), Subject: "Re: bids",
			Channel: contract.ChanPrivate, Authenticated: true, Text: text,
			InReplyTo: []string{receipt}, References: []string{"ru14.bob@example.test", receipt}})
		r := contracttest.Receipt(out)
		if r == nil || !strings.Contains(r.Body, "Claim of Error #1 recorded") || !strings.Contains(r.Body, "1 done, 0 not done") {
			t.Fatalf("%q: the claim's receipt:\n%v", text, r)
		}
		for _, n := range out {
			if strings.Contains(n.Subject, "sealed bids from Bob") || strings.Contains(n.Body, "sealed") {
				t.Errorf("%q: the claim was taken for a bid: %s (%s)\n%s", text, n.ID, n.Subject, n.Body)
			}
		}
	}
}

// TestRevisionShowsAWrappedEventWhole: a correction of a sealed bid changes
// the commitment on the second line of its recent event in the report
// ("submits sealed bids (commitment" / "027e826fdbbb2272)"); the revision
// lists the event whole, its first line with the commitment it wraps onto,
// where it showed the commitment's line alone. A revision written before
// (Rerun.LoneLines, unmarked) is re-computed line by line, as it was.
func TestRevisionShowsAWrappedEventWhole(t *testing.T) {
	raw, at := scenarioAt(t, beforeDaveBids)
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	h.Record()
	h.Mbox(mboxFile(t, raw[:at]))
	receipt := contract.MessageID("receipt/ru14.bob@example.test", contract.Domain(contracttest.Referee))
	h.Send(&contract.Message{From: "bob@example.test", Name: "Bob",
		Date: contracttest.At(t, "2026-12-02T09:41:00Z"), Arrived: contracttest.At(t, "2026-12-02T09:41:00Z"), Subject: "Re: bids",
		Channel: contract.ChanPrivate, Authenticated: true, Text: "CoE: my bid was not read as I sent it.",
		InReplyTo: []string{receipt}, References: []string{"ru14.bob@example.test", receipt}})
	fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "ru14.bob@example.test", Text: "I bid 43 on Flight."}
	in := h.RecordedInputs()
	rerun := func(lone bool) *contract.Revision {
		t.Helper()
		_, rev, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: in.Inputs, Current: h.S, Fix: fix, LoneLines: lone})
		if err != nil {
			t.Fatal(err)
		}
		return rev
	}
	// wrapped is the report lines of the revision's state that continue a
	// recent event (its hanging indent), each with the line before it.
	wrapped := func(rev *contract.Revision) []string {
		var out []string
		for i, c := range rev.State {
			for _, l := range []string{c.Old, c.New} {
				if strings.HasPrefix(l, "                    ") {
					before := ""
					if i > 0 {
						before = rev.State[i-1].Old + rev.State[i-1].New
					}
					out = append(out, before+" | "+strings.TrimSpace(l))
				}
			}
		}
		return out
	}
	rev := rerun(false)
	got := wrapped(rev)
	if len(got) != 2 || rev.Lines != contract.ReportEntries {
		t.Fatalf("the revision (lines %q) lists %d wrapped lines, want the commitment's before and after: %q", rev.Lines, len(got), got)
	}
	for _, l := range got {
		if !strings.Contains(l, "Bob      submits sealed bids (commitment |") {
			t.Errorf("a commitment's line without the event it ends: %q", l)
		}
	}
	before := rerun(true)
	if got := wrapped(before); len(got) != 2 || before.Lines != "" || strings.Contains(got[0], "submits sealed bids") {
		t.Errorf("re-computed as written before (lines %q), the revision lists %q, want the commitment's lines alone", before.Lines, got)
	}
}
