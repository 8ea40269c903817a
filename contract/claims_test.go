package contract_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

const cm = "CM <cm@example.test>"

// TestReadClaims: every form of a claim and of a denial is read with its
// arguments, the rest of the paragraph being what is wrong (or the reason);
// a line that starts like one but breaks the form is not understood; and the
// sentences of a claim are not read again as actions.
func TestReadClaims(t *testing.T) {
	e := corpusEngine(t)
	for _, c := range []struct {
		text, verb string
		args       map[string]string
	}{
		{"I CoE on life/report/2026-W50: the board is wrong.", "coe", map[string]string{"report": "life/report/2026-W50", "what": "the board is wrong."}},
		{"I hereby CoE on <life.report.2026-W50.1a2b3c4d5e6f@example.test>: two cells\nare missing.", "coe",
			map[string]string{"report": "life.report.2026-W50.1a2b3c4d5e6f@example.test", "what": "two cells are missing."}},
		{"CoE: I own 3 Vials, not 2.", "coe", map[string]string{"what": "I own 3 Vials, not 2."}},
		{"coe on rumble/report/2026-W49: wrong winner", "coe", map[string]string{"report": "rumble/report/2026-W49", "what": "wrong winner"}},
		{"Claim of Error: I claim cell (1, 2) in Life was read as (2, 1).", "coe", map[string]string{"what": "I claim cell (1, 2) in Life was read as (2, 1)."}},
		{"I make a claim of error on randomness/2026-W49/20261130T000000: the seed.", "coe",
			map[string]string{"report": "randomness/2026-W49/20261130T000000", "what": "the seed."}},
		{"- I CoE: the points of Bob.", "coe", map[string]string{"what": "the points of Bob."}},
		{"CoE in Life: I own 3 Vials, not 2.", "coe", map[string]string{"game": "Life", "what": "I own 3 Vials, not 2."}},
		{"Claim of Error for the Rumble contest: my bid was 41.", "coe", map[string]string{"game": "the Rumble contest", "what": "my bid was 41."}},
		{"I CoE in Life on life/report/2026-W50: the board.", "coe", map[string]string{"game": "Life", "report": "life/report/2026-W50", "what": "the board."}},
		{"I deny CoE #3: the report is right (R20).", "deny coe", map[string]string{"id": "3", "reason": "the report is right (R20)."}},
		{"I deny the Claim of Error no. 12 - the cell died\nin the Round.", "deny coe", map[string]string{"id": "12", "reason": "the cell died in the Round."}},
		{"I CoE on the report.", "not understood", nil},
		{"I CoE", "not understood", nil},
		{"I deny CoE #x: no.", "not understood", nil},
		{"I deny CoE #4", "not understood", nil},
	} {
		got := e.Read(c.text)
		if len(got) != 1 {
			t.Errorf("%q: read as %+v, want one %s", c.text, got, c.verb)
			continue
		}
		if got[0].Verb != c.verb || got[0].Game != "" {
			t.Errorf("%q: read as %+v, want %s", c.text, got[0], c.verb)
		}
		for k, v := range c.args {
			if got[0].Args[k] != v {
				t.Errorf("%q: %s = %q, want %q", c.text, k, got[0].Args[k], v)
			}
		}
	}
	// Not claims: the word alone, or in the middle of a sentence.
	for _, text := range []string{"CoE is how Agora fixes reports.", "I think a CoE would help.", "Bob said: I CoE.", "I coexist peacefully."} {
		for _, r := range e.Read(text) {
			if r.Verb == "coe" || r.Verb == "deny coe" {
				t.Errorf("%q read as %+v", text, r)
			}
		}
	}
	// A claim and an action in one message: both, in order.
	got := e.Read("I CoE on life/report/2026-W50: cell (3, 4)\nis mine in Life.\n\nI join the Life contest.")
	if len(got) != 2 || got[0].Verb != "coe" || got[1].Verb != "join" || got[0].Args["what"] != "cell (3, 4) is mine in Life." {
		t.Errorf("a claim and a join read as %+v", got)
	}
}

// FuzzClaims feeds arbitrary text after claim and denial openings: it never
// panics, and a claim read has what is wrong, a denial its number and reason.
func FuzzClaims(f *testing.F) {
	e := corpusEngine(f)
	for _, s := range []string{"I CoE on life/report/2026-W50: the board is wrong.", "CoE: I own 3 Vials.", "Claim of Error on x: y",
		"I deny CoE #3: right.", "I deny CoE one.", "I CoE", "CoE on <a@b>: \n\nI join Life.", "- I make a claim of error: z", "preview\nI CoE: w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range e.Read(text) {
			switch r.Verb {
			case "coe":
				if strings.TrimSpace(r.Args["what"]) == "" {
					t.Fatalf("%q: a claim without what is wrong: %+v", text, r)
				}
			case "deny coe":
				if r.Args["id"] == "" || strings.TrimSpace(r.Args["reason"]) == "" {
					t.Fatalf("%q: a denial without number or reason: %+v", text, r)
				}
			}
		}
	})
}

// TestClaimSilenceKeepsItOpen: a claim's ruling request left unanswered keeps
// the claim open and the report unratified; the game hears nothing of it, and
// "I rule on" is pointed to the denial's form.
func TestClaimSilenceKeepsItOpen(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Advance("2026-12-07T00:00:00Z")
	r := h.Public("2026-12-07T10:00:00Z", alice, "I CoE on toy/report/2026-W50: my coins.")
	if r == nil || !strings.Contains(r.Body, "Claim of Error #1 recorded on toy/report/2026-W50") {
		t.Fatalf("claim receipt: %v", r)
	}
	r = h.Private("2026-12-07T11:00:00Z", cm, "I rule on #1: denied.")
	if r == nil || !strings.Contains(strings.Join(strings.Fields(r.Body), " "), "answer it with \"I deny CoE #1: <reason>\"") {
		t.Errorf("a ruling on a claim's request: %v", r)
	}
	h.Advance("2026-12-20T00:00:00Z")
	st := h.Data("toy").(*toyState)
	if len(st.Rulings) != 0 {
		t.Errorf("the game heard a claim's ruling: %v", st.Rulings)
	}
	if len(h.S.Claims) != 1 || h.S.Claims[0].Status != "open" {
		t.Errorf("claims after the deadline: %+v", h.S.Claims)
	}
	for _, x := range h.S.Cites() {
		if x.ID == "toy/report/2026-W50" && x.Status != "claimed" {
			t.Errorf("the claimed report is %s", x.Status)
		}
	}
	// Once denied, it ratifies a whole period after the denial; a claim on
	// it after that is refused.
	h.Private("2026-12-20T10:00:00Z", cm, "I deny CoE #1: no error.")
	h.Advance("2026-12-28T00:00:00Z")
	r = h.Public("2026-12-28T10:00:00Z", alice, "I CoE on toy/report/2026-W50: still wrong.")
	if r == nil || !strings.Contains(strings.Join(strings.Fields(r.Body), " "), "toy/report/2026-W50 self-ratified on 2026-12-27 10:00 UTC") {
		t.Errorf("a claim on a ratified report: %v", r)
	}
}

// ratifyingToy is the toy game whose text says a part of its reports does
// not self-ratify.
type ratifyingToy struct{ toy }

func (g *ratifyingToy) Spec() contract.Spec {
	s := g.toy.Spec()
	s.NotRatifying = []string{"the list of rounds (T13)"}
	return s
}

// TestRatificationPeriodAndExclusions: the game's ratification parameter sets
// the date a report names, and a report names the parts that do not
// self-ratify.
func TestRatificationPeriodAndExclusions(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &ratifyingToy{})
	h.S.Games["toy"].Params["ratification"] = "72h"
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	rep := reportAt(t, h, "2026-12-07T00:00:00Z")
	for _, want := range []string{"Cite as: toy/report/2026-W50", "This report self-ratifies on 2026-12-10 00:00 UTC",
		"These parts do not self-ratify: the list of rounds (T13)."} {
		if !strings.Contains(strings.Join(strings.Fields(rep.Body), " "), want) {
			t.Errorf("report lacks %q:\n%s", want, rep.Body)
		}
	}
	h.Advance("2026-12-10T00:00:00Z")
	for _, x := range h.S.Cites() {
		if x.ID == "toy/report/2026-W50" && (x.Status != "ratified" || len(x.Excluded) != 1) {
			t.Errorf("after its period: %+v", x)
		}
	}
}

// TestPreviewChangesNothing: a preview, by Subject or first line, is answered
// privately with the receipt it would get and what it would send to the
// lists, and leaves the state as it was but for the memory of the message
// and the receipt counter.
func TestPreviewChangesNothing(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	before, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	r := h.Private("2026-12-01T11:00:00Z", alice, "Preview\nI transfer 3 coins to Bob.\nI seal 7.\nI CoE on toy/nothing: x.")
	if r == nil || r.Channel != contract.ChanPrivate || r.ID != "preview/m3@example.test" {
		t.Fatalf("preview reply: %+v", r)
	}
	for _, want := range []string{"Preview: nothing was performed", "> I transfer 3 coins to Bob.", "Done: 3 coins moved from Alice to Bob",
		"> I seal 7.", "Done: sealed", "Not done: there is no report or notice \"toy/nothing\"", "2 done, 1 not done."} {
		if !strings.Contains(strings.Join(strings.Fields(r.Body), " "), want) {
			t.Errorf("preview lacks %q:\n%s", want, r.Body)
		}
	}
	m := &contract.Message{From: "alice@example.test", Name: "Alice", Arrived: contracttest.At(t, "2026-12-01T11:05:00Z"),
		Subject: "PREVIEW", Channel: contract.ChanPrivate, Authenticated: true, Text: "I transfer 2 coins to Bob."}
	if ns := h.Send(m); len(ns) != 1 || !strings.Contains(ns[0].Body, "Done: 2 coins moved") {
		t.Errorf("preview by Subject: %+v", ns)
	}
	after, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	if d := stripMemory(before) != stripMemory(after); d {
		t.Errorf("a preview changed the state:\n%s\n---\n%s", before, after)
	}
	if got := h.S.Ledger.Balance("toy/coin", "Alice"); got != 5 {
		t.Errorf("Alice owns %d coins after the previews, want 5", got)
	}
}

// stripMemory drops what a message changes however it is read: the memory,
// the receipt counter, the clock, the journal number, the last Message-ID.
func stripMemory(b []byte) string {
	var keep []string
	skip := false
	for _, l := range strings.Split(string(b), "\n") {
		for _, k := range []string{"seen:", "receipts:", "clock:", "journal_seq:", "last_msgid:"} {
			if strings.HasPrefix(l, k) {
				skip = true
				goto next
			}
		}
		if skip && strings.HasPrefix(l, " ") {
			continue
		}
		skip = false
		keep = append(keep, l)
	next:
	}
	return strings.Join(keep, "\n")
}

// TestPreviewForms: "preview" alone as the Subject or the first line (any
// case, a final stop or colon) makes a preview; a reply to one ("Re:
// preview") or the word in a sentence does not.
func TestPreviewForms(t *testing.T) {
	for _, c := range []struct {
		subject, text string
		preview       bool
	}{
		{"preview", "I join the Toy game.", true},
		{"  Preview. ", "I join the Toy game.", true},
		{"actions", "PREVIEW:\nI join the Toy game.", true},
		{"actions", "\n\npreview\nI join the Toy game.", true},
		{"Re: preview", "I join the Toy game.", false},
		{"actions", "preview of my move: I join the Toy game.", false},
		{"actions", "I join the Toy game.\npreview", false},
	} {
		h := newToy(t)
		m := &contract.Message{From: "alice@example.test", Name: "Alice", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"),
			Subject: c.subject, Channel: contract.ChanPublic, Text: c.text}
		ns := h.Send(m)
		joined := h.S.PlayerByAddress("alice@example.test") != nil && h.S.PlayerByAddress("alice@example.test").In("toy")
		isPreview := len(ns) == 1 && strings.HasPrefix(ns[0].ID, "preview/")
		if isPreview != c.preview || joined == c.preview {
			t.Errorf("subject %q, text %q: preview %v, joined %v; want preview %v", c.subject, c.text, isPreview, joined, c.preview)
		}
	}
}

// TestClaimOnReceipt: a claim sent as a reply to a receipt is on the latest
// receipt its References name; it goes to the game named in it, or to the
// claimant's only game, and a claimant of no game who names none, on a
// receipt of no game's actions (a currency no game has), is told to name
// one.
func TestClaimOnReceipt(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")           // m1
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")             // m2
	h.Public("2026-12-01T10:07:00Z", carol, "I am here.")                     // m3
	h.Public("2026-12-01T10:08:00Z", alice, "I transfer 1 coin to Bob.")      // m4
	h.Public("2026-12-01T10:09:00Z", carol, "I transfer 1 coin to Alice.")    // m5
	h.Public("2026-12-01T10:10:00Z", carol, "I transfer 1 zorkmid to Alice.") // m6: no game's
	rid := func(n int) string {
		return "<" + contract.MessageID(fmt.Sprintf("receipt/m%d@example.test", n), "example.test") + ">"
	}
	claim := func(id, from, text string, refs ...string) *contract.Notice {
		at := contracttest.At(t, "2026-12-01T11:00:00Z")
		return contracttest.Receipt(h.Send(&contract.Message{ID: id, From: from, Arrived: at, Date: at, Channel: contract.ChanPrivate,
			Authenticated: true, Subject: "Re: Receipt", InReplyTo: refs[len(refs)-1:], References: refs, Text: text}))
	}
	r := claim("c1@example.test", "alice@example.test", "CoE: my transfer was misread.", "<m1@example.test>", rid(1), "<m4@example.test>", rid(4))
	if r == nil || !strings.Contains(flat(r.Body), "Claim of Error #1 recorded on receipt/m4@example.test") {
		t.Fatalf("a claim replying to the latest receipt: %v", r)
	}
	if cl := h.S.Claims[0]; cl.Game != "toy" {
		t.Errorf("the claim of a player of Toy alone went to %q", cl.Game)
	}
	r = claim("c2@example.test", "carol@example.test", "CoE: my transfer.", "<m6@example.test>", rid(6))
	if r == nil || !strings.Contains(flat(r.Body), "belongs to no one game: say which game's contestmaster should answer") || len(h.S.Claims) != 1 {
		t.Fatalf("a claim of a player of no game naming none, on a receipt of no game: %v", r)
	}
	r = claim("c3@example.test", "carol@example.test", "CoE: my transfer in Toy.", "<m5@example.test>", rid(5))
	if r == nil || !strings.Contains(flat(r.Body), "Claim of Error #2 recorded on receipt/m5@example.test") || len(h.S.Claims) != 2 || h.S.Claims[1].Game != "toy" {
		t.Fatalf("a claim naming its game: %v, claims %+v", r, h.S.Claims)
	}
	r = claim("c4@example.test", "carol@example.test", "CoE in Toy: my transfer.", "<m5@example.test>", rid(5))
	if r == nil || !strings.Contains(flat(r.Body), "Claim of Error #3 recorded on receipt/m5@example.test") || len(h.S.Claims) != 3 || h.S.Claims[2].Game != "toy" {
		t.Fatalf("a claim naming its game before the colon: %v, claims %+v", r, h.S.Claims)
	}
	r = claim("c5@example.test", "carol@example.test", "CoE for my receipt: my transfer.", "<m6@example.test>", rid(6))
	if r == nil || !strings.Contains(flat(r.Body), "belongs to no one game") || len(h.S.Claims) != 3 {
		t.Fatalf("a claim naming no game before the colon: %v", r)
	}
}

// TestDenyWithOtherClaimsOpen: a report claimed twice stays unratified
// until both claims are answered; the last denial restarts its clock.
func TestDenyWithOtherClaimsOpen(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	h.Advance("2026-12-07T00:00:00Z")
	h.Public("2026-12-07T10:00:00Z", alice, "I CoE on toy/report/2026-W50: my coins.")
	h.Public("2026-12-07T10:01:00Z", bob, "I CoE on toy/report/2026-W50: my coins too.")
	said := func(text string) bool {
		for _, o := range h.Sent[len(h.Sent)-3:] {
			if strings.Contains(flat(o.Body), text) {
				return true
			}
		}
		return false
	}
	h.Private("2026-12-08T10:00:00Z", cm, "I deny CoE #1: no error.")
	if !said("toy/report/2026-W50 stays unratified while other claims on it are open.") {
		t.Errorf("the first denial does not say the report stays unratified")
	}
	h.Private("2026-12-09T10:00:00Z", cm, "I deny CoE #2: no error.")
	if !said("toy/report/2026-W50 now self-ratifies on 2026-12-16 10:00 UTC") {
		t.Errorf("the last denial does not restart the report's clock")
	}
}

// TestClaimRefusalSaysWhatCanBeClaimed: a claim naming nothing that can be
// claimed is refused with the records still waiting to self-ratify, the
// ratified ones left out.
func TestClaimRefusalSaysWhatCanBeClaimed(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Advance("2026-12-07T00:00:00Z")
	r := h.Public("2026-12-07T10:00:00Z", alice, "I CoE on toy/report/2026-W99: my coins.")
	if r == nil || !strings.Contains(flat(r.Body), `there is no report or notice "toy/report/2026-W99" that can still be claimed against; those not yet ratified are randomness/2026-W49/20261201T100000, randomness/2026-W50/20261207T000000, toy/report/2026-W50 (CoE)`) {
		t.Fatalf("a claim naming no record: %v", r)
	}
	h.Advance("2026-12-21T00:00:00Z")
	r = h.Public("2026-12-21T10:00:00Z", alice, "I CoE on toy/report/2026-W99: my coins.")
	if r == nil || !strings.Contains(flat(r.Body), "those not yet ratified are randomness/2026-W52/20261221T000000, toy/report/2026-W52 (CoE)") {
		t.Fatalf("a claim naming no record, two weeks on (the older records ratified): %v", r)
	}
}

// TestClaimFindsReceiptByReferencesAlone: a claim whose mail carries
// References (the message, then its receipt) but no In-Reply-To is
// recorded on that receipt.
func TestClaimFindsReceiptByReferencesAlone(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.") // m1
	at := contracttest.At(t, "2026-12-01T11:00:00Z")
	rid := "<" + contract.MessageID("receipt/m1@example.test", "example.test") + ">"
	r := contracttest.Receipt(h.Send(&contract.Message{ID: "c1@example.test", From: "alice@example.test", Arrived: at, Date: at,
		Channel: contract.ChanPrivate, Authenticated: true, Subject: "Re: Receipt",
		References: []string{"<m1@example.test>", rid}, Text: "CoE: my joining was misread."}))
	if r == nil || !strings.Contains(flat(r.Body), "Claim of Error #1 recorded on receipt/m1@example.test") {
		t.Fatalf("a claim with References alone: %v", r)
	}
}

// TestClaimFindsReceiptByInReplyToAlone: a claim whose mail names the
// receipt in In-Reply-To alone, without References (a client that sets
// only that), is recorded on that receipt; it was told to reply to the
// receipt it had replied to.
func TestClaimFindsReceiptByInReplyToAlone(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")      // m1
	h.Public("2026-12-01T10:06:00Z", alice, "I transfer 1 coin to Bob.") // m2
	at := contracttest.At(t, "2026-12-01T11:00:00Z")
	rid := "<" + contract.MessageID("receipt/m1@example.test", "example.test") + ">"
	r := contracttest.Receipt(h.Send(&contract.Message{ID: "c1@example.test", From: "alice@example.test", Arrived: at, Date: at,
		Channel: contract.ChanPublic, Authenticated: true, Subject: "Re: Receipt",
		InReplyTo: []string{rid}, Text: "CoE: my joining was misread."}))
	if r == nil || !strings.Contains(flat(r.Body), "Claim of Error #1 recorded on receipt/m1@example.test") {
		t.Fatalf("a claim with In-Reply-To alone: %v", r)
	}
}

// TestClaimAndDenialWording: what a claim on a report, a claim on a
// receipt and their denials say, to the claimant, the contestmaster and
// the list: a report's self-ratification is stopped and stays stopped
// without an answer, a receipt has none to stop; a private claim's words
// stay out of the published denial; the contestmaster's receipt says
// when the report now self-ratifies; a denied claim's ruling request is
// dropped (no reminder or lapse follows).
func TestClaimAndDenialWording(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.") // m1
	h.Advance("2026-12-07T00:00:00Z")
	n := len(h.Sent)
	r := h.Public("2026-12-07T10:00:00Z", alice, "I CoE on toy/report/2026-W50: my coins.")
	if r == nil || !strings.Contains(flat(r.Body), "Claim of Error #1 recorded on toy/report/2026-W50; its self-ratification is stopped until the contestmaster of Toy answers") {
		t.Fatalf("a claim on a report: %v", r)
	}
	r = h.Private("2026-12-07T10:01:00Z", alice, "CoE on toy/report/2026-W50: my secret coins.")
	if r == nil || !strings.Contains(flat(r.Body), "Claim of Error #2 recorded on toy/report/2026-W50; its self-ratification is stopped") {
		t.Fatalf("a second claim on the report: %v", r)
	}
	at := contracttest.At(t, "2026-12-07T11:00:00Z")
	rid := "<" + contract.MessageID("receipt/m1@example.test", "example.test") + ">"
	r = contracttest.Receipt(h.Send(&contract.Message{ID: "c3@example.test", From: "alice@example.test", Arrived: at, Date: at,
		Channel: contract.ChanPrivate, Authenticated: true, Subject: "Re: Receipt", InReplyTo: []string{rid},
		References: []string{"<m1@example.test>", rid}, Text: "CoE: my joining was misread."}))
	if r == nil || !strings.Contains(flat(r.Body), "Claim of Error #3 recorded on receipt/m1@example.test until the contestmaster of Toy answers") {
		t.Fatalf("a claim on a receipt: %v", r)
	}
	var asked []string
	for _, o := range h.Sent[n:] {
		if strings.HasPrefix(o.Subject, "[Toy] Ruling requested") {
			asked = append(asked, flat(o.Body))
		}
	}
	if len(asked) != 3 || !strings.Contains(asked[0], "Without an answer by then: the claim stays open and toy/report/2026-W50 does not self-ratify (ruling G8)") ||
		!strings.Contains(asked[2], "Without an answer by then: the claim stays open (ruling G8)") {
		t.Fatalf("the ruling requests' defaults: %q", asked)
	}
	h.Private("2026-12-08T09:00:00Z", cm, "I deny CoE #1: no error.")
	n = len(h.Sent)
	r = h.Private("2026-12-08T09:01:00Z", cm, "I deny CoE #2: still none.")
	if r == nil || !strings.Contains(flat(r.Body), "toy/report/2026-W50 now self-ratifies on 2026-12-15 09:01 UTC unless another Claim of Error is made before then.") {
		t.Fatalf("the contestmaster's receipt for the last denial: %v", r)
	}
	var denial1, denial2 string
	for _, o := range h.Sent {
		switch o.Subject {
		case "[Toy] Claim of Error #1 denied":
			denial1 = flat(o.Body)
		case "[Toy] Claim of Error #2 denied":
			denial2 = flat(o.Body)
		}
	}
	if !strings.Contains(denial1, "> my coins.") || !strings.Contains(denial1, "toy/report/2026-W50 stays unratified while other claims on it are open.") {
		t.Errorf("the denial of a public claim, another still open: %s", denial1)
	}
	if !strings.Contains(denial2, "toy/report/2026-W50 now self-ratifies on 2026-12-15 09:01 UTC") {
		t.Errorf("the last denial does not say when the report self-ratifies: %s", denial2)
	}
	if denial2 == "" || strings.Contains(denial2, "secret coins") {
		t.Errorf("the denial of a private claim quotes it, or was not published: %s", denial2)
	}
	h.Advance("2026-12-10T00:00:00Z")
	for _, o := range h.Sent[n:] {
		if b := flat(o.Body); strings.Contains(b, "ruling #1") || strings.Contains(b, "ruling #2") || strings.Contains(o.Subject, "(#1)") || strings.Contains(o.Subject, "(#2)") {
			t.Errorf("a denied claim's ruling request still runs: %s: %s", o.Subject, b)
		}
	}
}

// TestClaimRefusalListsEightAtMost: the refusal of a claim naming nothing
// claimable lists at most the 8 newest records waiting to self-ratify, and
// says "(and older ones)" only when there are more.
func TestClaimRefusalListsEightAtMost(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	waiting := func() []string {
		var ids []string
		for _, x := range h.S.Cites() {
			if x.Status != "ratified" {
				ids = append(ids, x.ID)
			}
		}
		return ids
	}
	at := contracttest.At(t, "2026-12-01T12:00:00Z")
	seen8, seen9 := false, false
	for day := 0; day < 60 && !(seen8 && seen9); day++ {
		now := at.Add(time.Duration(day) * 24 * time.Hour)
		h.Advance(now.Format(time.RFC3339))
		ids := waiting()
		r := h.Public(now.Add(time.Hour).Format(time.RFC3339), alice, "I CoE on toy/report/1999-W01: my coins.")
		body := flat(r.Body)
		switch {
		case len(ids) == 8:
			seen8 = true
			if strings.Contains(body, "(and older ones)") || !strings.Contains(body, strings.Join(ids, ", ")) {
				t.Fatalf("8 waiting %v, refusal: %s", ids, body)
			}
		case len(ids) > 8:
			seen9 = true
			if !strings.Contains(body, strings.Join(ids[len(ids)-8:], ", ")+", (and older ones)") {
				t.Fatalf("%d waiting %v, refusal: %s", len(ids), ids, body)
			}
		}
		// Keep the records from ratifying: claim the newest.
		if len(ids) > 0 {
			h.Public(now.Add(2*time.Hour).Format(time.RFC3339), alice, "I CoE on "+ids[len(ids)-1]+": kept open.")
		}
	}
	if !seen8 || !seen9 {
		t.Fatalf("never 8 (%v) and more than 8 (%v) records waiting", seen8, seen9)
	}
}

// TestClaimOnReceiptOfOneGame: a claim replying to a receipt whose actions
// are one game's is a claim in that game, though its claimant plays two
// games, or none: Alice, in Toy and Chaos, replying "CoE: ..." to the
// receipt of her Toy transfer was told to name the game, and so was the
// contestmaster replying to it, who plays no game. A receipt of two games'
// actions still needs the game named.
func TestClaimOnReceiptOfOneGame(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &toy{}, &chaos{})
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game. I join chaos.") // m1
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")                 // m2
	h.Public("2026-12-01T10:07:00Z", alice, "I transfer 1 coin to Bob.")          // m3
	h.Public("2026-12-01T10:08:00Z", alice, "I transfer 100 coins to Bob.")       // m4, refused
	rid := func(n int) string {
		return "<" + contract.MessageID(fmt.Sprintf("receipt/m%d@example.test", n), "example.test") + ">"
	}
	claim := func(id, from, text string, n int) *contract.Notice {
		at := contracttest.At(t, "2026-12-01T11:00:00Z")
		refs := []string{fmt.Sprintf("<m%d@example.test>", n), rid(n)}
		return contracttest.Receipt(h.Send(&contract.Message{ID: id, From: from, Arrived: at, Date: at, Channel: contract.ChanPrivate,
			Authenticated: true, Subject: "Re: Receipt", InReplyTo: refs[1:], References: refs, Text: text}))
	}
	r := claim("c1@example.test", "alice@example.test", "CoE: my transfer was misread.", 3)
	if r == nil || !strings.Contains(flat(r.Body), "Claim of Error #1 recorded on receipt/m3@example.test until the contestmaster of Toy answers") {
		t.Fatalf("a claim on the receipt of one game's actions, by a player of two: %v", r)
	}
	r = claim("c2@example.test", cm, "CoE: Alice's transfer was misread.", 3)
	if r == nil || !strings.Contains(flat(r.Body), "Claim of Error #2 recorded on receipt/m3@example.test until the contestmaster of Toy answers") {
		t.Fatalf("the contestmaster's claim on a player's receipt: %v", r)
	}
	if len(h.S.Claims) != 2 || h.S.Claims[1].Game != "toy" || !strings.Contains(h.S.Claims[1].From, contracttest.Contestmaster) {
		t.Fatalf("the claims are %+v", h.S.Claims)
	}
	// A transfer refused is the game of its currency's, though its
	// refusal is journaled without a game.
	r = claim("c3@example.test", cm, "CoE: Alice meant 1 coin.", 4)
	if r == nil || !strings.Contains(flat(r.Body), "Claim of Error #3 recorded on receipt/m4@example.test until the contestmaster of Toy answers") {
		t.Fatalf("the contestmaster's claim on the receipt of a refused transfer: %v", r)
	}
	r = claim("c4@example.test", "alice@example.test", "CoE: my joins were misread.", 1)
	if r == nil || !strings.Contains(flat(r.Body), "belongs to no one game") || len(h.S.Claims) != 3 {
		t.Fatalf("a claim on the receipt of two games' actions naming none: %v", r)
	}
	r = h.Private("2026-12-01T12:00:00Z", cm, "I deny CoE #2: the transfer was read right.")
	if r == nil || !strings.Contains(flat(r.Body), "Done") || len(h.S.Claims) != 2 {
		t.Fatalf("the contestmaster's denial of eir own claim: %v, claims %+v", r, h.S.Claims)
	}
}

// TestDenialThroughList: a contestmaster's denial posted to the list by
// mistake does not count and is told to go privately, without the advice
// for a sealed choice the list has seen ("consider changing it"), which
// fits a bid, not a denial; the claim stays open until the private one.
func TestDenialThroughList(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Advance("2026-12-07T00:00:00Z")
	h.Public("2026-12-07T10:00:00Z", alice, "I CoE on toy/report/2026-W50: my coins.")
	r := h.Public("2026-12-07T11:00:00Z", cm, "I deny CoE #1: no error.")
	if got := flat(r.Body); !strings.Contains(got, "this is a private action and does not count from a list; send it privately to referee@example.test (G4)") || strings.Contains(got, "consider changing it") {
		t.Errorf("a denial through the list:\n%s", r.Body)
	}
	if len(h.S.Claims) != 1 || h.S.Claims[0].Status != "open" {
		t.Errorf("claims after a denial through the list: %+v", h.S.Claims)
	}
	if r := h.Private("2026-12-07T11:10:00Z", cm, "I deny CoE #1: no error."); r == nil || !strings.Contains(r.Body, "Done: Claim of Error #1 denied") {
		t.Errorf("the denial sent privately: %v", r)
	}
}
