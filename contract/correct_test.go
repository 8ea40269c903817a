package contract_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

const cmAddr = "The Contestmaster <" + contracttest.Contestmaster + ">"

// claimed is a toy game with Alice and Bob and an open claim of error #1
// about it, as a player's "CoE: ..." leaves it.
func claimed(t *testing.T) *contracttest.Harness {
	t.Helper()
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	h.S.Claims = append(h.S.Claims, &contract.Claim{ID: 1, Game: "toy", Report: "receipt/m1@example.test",
		Claimant: "alice", From: "alice@example.test", What: "misread", Status: "open"})
	return h
}

// TestCorrectionCommands: each form of the contestmaster's correction is
// read whole (the quoted sentences are never performed as the
// contestmaster's), acknowledged, and journaled for the re-run.
func TestCorrectionCommands(t *testing.T) {
	at := contracttest.At(t, "2026-12-02T09:00:00Z")
	for _, tc := range []struct {
		text string
		want contract.Correction
	}{
		{"I correct CoE #1: message <m1@example.test> reads `I poke Bob in Toy.\nI join the Toy game.`",
			contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m1@example.test", Text: "I poke Bob in Toy.\nI join the Toy game."}},
		{"Having looked again:\n\nI correct CoE #1: message m1@example.test is void.",
			contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m1@example.test"}},
		{"I correct CoE #1: message <m1@example.test> arrived at 2026-12-01 09:59, overriding ratification.",
			contract.Correction{CoE: 1, Kind: contract.FixArrived, MsgID: "m1@example.test", Arrived: contracttest.At(t, "2026-12-01T09:59:00Z"), Override: true}},
		{"I correct CoE #1: at 2026-12-01 11:00, Alice has 9 coins (T1).",
			contract.Correction{CoE: 1, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{At: contracttest.At(t, "2026-12-01T11:00:00Z"), Game: "toy", Owner: "Alice", Currency: "toy/coin", Amount: 9, Rule: "T1", CoE: 1}}},
		// An amount with commas between thousands (1,200) is a number of coins.
		{"I correct CoE #1: at 2026-12-01 11:00, Alice has 1,200 coins (T1).",
			contract.Correction{CoE: 1, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{At: contracttest.At(t, "2026-12-01T11:00:00Z"), Game: "toy", Owner: "Alice", Currency: "toy/coin", Amount: 1200, Rule: "T1", CoE: 1}}},
		// A game's change with a position in parentheses: the rule is the
		// parenthesised text that names one.
		{"I correct CoE #1: at 2026-12-01 11:00, Cell (2, 3) is Dead (T1).",
			contract.Correction{CoE: 1, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{At: contracttest.At(t, "2026-12-01T11:00:00Z"), Game: "toy", Change: "Cell (2, 3) is Dead", Rule: "T1", CoE: 1}}},
	} {
		h := claimed(t)
		m := &contract.Message{From: contracttest.Contestmaster, Name: "The Contestmaster", Date: at, Arrived: at,
			Subject: "CoE #1", Channel: contract.ChanPrivate, Authenticated: true, Text: tc.text}
		ent, err := h.E.Apply(h.S, m)
		if err != nil {
			t.Fatal(err)
		}
		fixes := contract.Corrections(ent)
		if len(fixes) != 1 {
			t.Fatalf("%q: %d corrections read, entries %+v", tc.text, len(fixes), ent)
		}
		if got, want := fixes[0].Describe(), tc.want.Describe(); got != want || fixes[0].Override != tc.want.Override {
			t.Errorf("%q read as %s (override %v), want %s (override %v)", tc.text, got, fixes[0].Override, want, tc.want.Override)
		}
		for _, en := range ent {
			if en.Verb != "correct" && en.Outcome == "applied" {
				t.Errorf("%q: the quoted text was performed: %+v", tc.text, en)
			}
		}
		var ns []*contract.Notice
		for _, o := range h.S.Outbox {
			ns = append(ns, &o.Notice)
		}
		r := contracttest.Receipt(ns)
		if r == nil || !strings.Contains(r.Body, "correction of CoE #1 accepted") {
			t.Errorf("%q: no receipt acknowledging the correction: %v", tc.text, r)
		}
	}
}

// TestCorrectionRefusals: a correction from anyone but the game's
// contestmaster, of a claim not open, in public, or not in a known form, is
// refused with the reason and the syntax, and journals nothing to re-run.
func TestCorrectionRefusals(t *testing.T) {
	for _, tc := range []struct {
		from, text, want string
		public           bool
	}{
		{alice, "I correct CoE #1: message <m1@example.test> is void.", "only the contestmaster", false},
		{cmAddr, "I correct CoE #7: message <m1@example.test> is void.", "no open claim of error #7", false},
		{cmAddr, "I correct CoE #1: message <m1@example.test> is void.", "private action", true},
		{cmAddr, "I correct CoE #1: the round was wrong.", "a correction is written as", false},
		{cmAddr, "I correct CoE #1: message <m1@example.test> arrived at 2027-01-01 00:00.", "cannot have arrived after", false},
		{cmAddr, "I correct CoE #1: message <m1@example.test> arrived at 2026-13-01 00:00.", "is not a time", false},
	} {
		h := claimed(t)
		var r *contract.Notice
		if tc.public {
			r = h.Public("2026-12-02T09:00:00Z", tc.from, tc.text)
		} else {
			r = h.Private("2026-12-02T09:00:00Z", tc.from, tc.text)
		}
		if r == nil || !strings.Contains(r.Body, "Not done") || !strings.Contains(r.Body, tc.want) {
			t.Errorf("%q from %s: want a refusal saying %q, got %v", tc.text, tc.from, tc.want, r)
		}
		if fixes := contract.Corrections(h.Entries); len(fixes) != 0 {
			t.Errorf("%q: a refused correction was journaled for a re-run: %v", tc.text, fixes)
		}
	}
}

// TestAdjustmentRerun: an explicit adjustment of a balance re-runs the
// history with the balance set at its time, and the revision shows it.
func TestAdjustmentRerun(t *testing.T) {
	h := newChaosHistory(t, 5, 40)
	var who string
	for _, p := range h.current.Members("chaos") {
		who = p.Name
		break
	}
	if who == "" {
		t.Fatal("nobody in the game")
	}
	at := h.inputs[len(h.inputs)-1].At.Add(-time.Hour)
	fix := contract.Correction{CoE: 6, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{At: at, Game: "chaos", Owner: who, Currency: chaosCoin, Amount: 77, Rule: "C2", CoE: 6}}
	_, rev, err := h.e.Rerun(&contract.Rerun{Base: h.base, Inputs: h.inputs, Current: h.current, Fix: fix})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range rev.State {
		if c.What == "chips of "+who && c.New == "77" {
			found = true
		}
	}
	if !found {
		t.Fatalf("the revision does not show %s's chips set to 77:\n%s", who, rev.Text())
	}
	fix.Adjust.Owner = "nobody-at-all"
	if _, _, err := h.e.Rerun(&contract.Rerun{Base: h.base, Inputs: h.inputs, Current: h.current, Fix: fix}); err == nil || !strings.Contains(err.Error(), "nobody-at-all") {
		t.Fatalf("an adjustment of an unknown owner was not refused with its name: %v", err)
	}
}

// FuzzExtractCorrections: any text is read without a panic, and the text
// left for the sentences keeps the original's length and lines.
func FuzzExtractCorrections(f *testing.F) {
	for _, s := range []string{
		"I correct CoE #1: message <a@b> reads `I join.`",
		"I correct CoE #2: message a@b is void. I correct CoE #3: at 2026-12-01, Alice has 3 Vials (Life R15)",
		"I correct claim of error no. 4: message <x> arrived at 2026-12-01T10:00:00Z (overriding ratification)",
		"I correct CoE #5: message <x> reads `unterminated",
		"correct correct I correct CoE #",
	} {
		f.Add(s)
	}
	e, err := contract.NewEngine(contract.Config{Referee: contracttest.Referee}, &toy{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		acts, rest := contract.ExtractCorrections(e, text)
		if len(rest) != len(text) || strings.Count(rest, "\n") != strings.Count(text, "\n") {
			t.Fatalf("the text left changed its length or lines: %q -> %q", text, rest)
		}
		for _, a := range acts {
			if a.Offset < 0 || a.Offset >= len(text) {
				t.Fatalf("an action at offset %d of %d", a.Offset, len(text))
			}
		}
	})
}

// TestCorrectionAnswersTheClaim: the contestmaster's correction, once
// re-run, answers the claim: the claim and its ruling request leave the
// state, the report it held self-ratifies again a period after the
// correction, and nothing is left pending. A correction the re-run refuses
// is told to the game's contestmaster with the reason, and the claim stays
// open.
func TestCorrectionAnswersTheClaim(t *testing.T) {
	for _, refused := range []bool{false, true} {
		h := newToy(t)
		// The game's contestmaster is no longer the configured one.
		h.S.Games["toy"].Contestmaster = "judge@example.test"
		h.Record()
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
		h.Public("2026-12-01T10:07:00Z", alice, "I transfer 2 coins to Bob.") // m3
		h.Advance("2026-12-07T00:00:00Z")
		r := h.Public("2026-12-07T10:00:00Z", alice, "I CoE on toy/report/2026-W50: my transfer.")
		if r == nil || !strings.Contains(r.Body, "Claim of Error #1 recorded") || len(h.S.Rulings) != 1 {
			t.Fatalf("claim receipt: %v, ruling requests %+v", r, h.S.Rulings)
		}
		msg := "m3@example.test"
		if refused {
			msg = "m99@example.test"
		}
		r = h.Private("2026-12-07T11:00:00Z", "Judge <judge@example.test>", "I correct CoE #1: message <"+msg+"> is void.")
		fixes := h.S.PendingCorrections()
		if r == nil || !strings.Contains(r.Body, "correction of CoE #1 accepted") || len(fixes) != 1 {
			t.Fatalf("correction receipt %v, pending %v", r, fixes)
		}
		before := h.S.Ledger.Balance("toy/coin", "Bob")
		_, ns, err := h.Correct("2026-12-07T11:00:00Z", fixes[0], nil)
		if len(h.S.PendingCorrections()) != 0 {
			t.Errorf("refused %v: a correction is still pending after its re-run", refused)
		}
		var report contract.Cited
		for _, x := range h.S.Cites() {
			if x.ID == "toy/report/2026-W50" {
				report = x
			}
		}
		if refused {
			var told *contract.Notice
			for _, n := range ns {
				if n.Subject == "Correction of CoE #1 refused" && n.Channel == contract.ChanPrivate && slices.Equal(n.To, []string{"judge@example.test"}) {
					told = n
				}
			}
			if err == nil || told == nil || !strings.Contains(flat(told.Body), "was not made: "+flat(err.Error())) || !strings.Contains(flat(told.Body), "the claim stays open") {
				t.Fatalf("a refused correction (%v) was not told to the contestmaster: %+v", err, ns)
			}
			if len(h.S.Claims) != 1 || h.S.Claims[0].ID != 1 || report.Status != "claimed" {
				t.Errorf("a refused correction answered the claim: %+v, report %s", h.S.Claims, report.Status)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(h.S.Claims) != 0 || len(h.S.Rulings) != 0 {
			t.Errorf("the corrected claim or its ruling request stays: %+v %+v", h.S.Claims, h.S.Rulings)
		}
		if want := contracttest.At(t, "2026-12-14T11:00:00Z"); report.Status != "pending" || !report.Ratifies.Equal(want) {
			t.Errorf("the report is %s, ratifying %s; want pending, ratifying %s", report.Status, report.Ratifies, want)
		}
		if got := h.S.Ledger.Balance("toy/coin", "Bob"); got != before-2 {
			t.Errorf("Bob has %d coins after the transfer of 2 was made void, had %d", got, before)
		}
	}
}

// factToy is the toy game telling its public facts by name (Facter), as
// Life tells its Cells: every fact here is Bob's balance.
type factToy struct{ toy }

// factOrder is the order a revision lists factToy's facts in: numbers
// compared as numbers (leading zeros aside), then text; a name may end with
// its number.
// Enough of them that a comparison wrong either way leaves some pair out
// of order, whatever order the map gives them in.
var factOrder = []string{"Cell", "Cell (2, 9)", "Cell (2, 9) b", "Cell (2, 010)", "Cell (2, 11)", "Cell (2, 100)",
	"Cell (3, 1)", "Cell (10, 1)", "Cell (100, 1)", "Coin", "Coin 2", "Coin 10"}

func (g *factToy) Facts(c *contract.Ctx) (map[string]string, error) {
	out := map[string]string{}
	for _, k := range factOrder {
		out[k] = fmt.Sprint(c.State().Ledger.Balance("toy/coin", "Bob"))
	}
	return out, nil
}

// TestRevisionListsFactsInOrder: a game's facts that a correction changed
// are listed in the revision by name, the numbers in a name read as
// numbers, each with its old and new value.
func TestRevisionListsFactsInOrder(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &factToy{})
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	h.Public("2026-12-01T10:07:00Z", alice, "I transfer 2 coins to Bob.") // m3
	h.Public("2026-12-01T10:08:00Z", alice, "CoE: my transfer.")
	rev, _, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m3@example.test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range rev.State {
		if k, ok := strings.CutPrefix(c.What, "Toy: "); ok {
			got = append(got, k)
			if c.Old != "7" || c.New != "5" {
				t.Errorf("fact %s: %s → %s, want 7 → 5", k, c.Old, c.New)
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(factOrder) {
		t.Errorf("the revision lists the facts\n%q\nwant\n%q", got, factOrder)
	}
	if txt := rev.Text(); !strings.Contains(txt, "Toy: Cell (2, 010)") {
		t.Errorf("the revision's text does not name the facts:\n%s", txt)
	}
}

// TestTwoCorrectionsInOneMessage: the contestmaster may answer a claim with
// several corrections in one message: each is read, acknowledged and
// journaled for the re-run.
func TestTwoCorrectionsInOneMessage(t *testing.T) {
	at := contracttest.At(t, "2026-12-02T09:00:00Z")
	h := claimed(t)
	m := &contract.Message{From: contracttest.Contestmaster, Name: "The Contestmaster", Date: at, Arrived: at,
		Subject: "CoE #1", Channel: contract.ChanPrivate, Authenticated: true,
		Text: "I correct CoE #1: message <m1@example.test> is void.\nI correct CoE #1: at 2026-12-01 11:00, Alice has 9 coins (T1)."}
	ent, err := h.E.Apply(h.S, m)
	if err != nil {
		t.Fatal(err)
	}
	fixes := contract.Corrections(ent)
	if len(fixes) != 2 || fixes[0].Kind != contract.FixVoid || fixes[1].Kind != contract.FixAdjust {
		t.Fatalf("%d corrections read: %+v", len(fixes), fixes)
	}
	var ns []*contract.Notice
	for _, o := range h.S.Outbox {
		ns = append(ns, &o.Notice)
	}
	r := contracttest.Receipt(ns)
	if r == nil || strings.Count(r.Body, "correction of CoE #1 accepted") != 2 || !strings.Contains(r.Body, "2 done, 0 not done.") {
		t.Fatalf("the receipt does not acknowledge both corrections: %v", r)
	}
}

// TestCorrectionReceiptQuotesEachWhole: the contestmaster's receipt quotes
// each correction of a message whole, to its final period, and the
// sentences it quotes are not read again as the contestmaster's; a
// correction not in a known form is refused on its own line, and the
// correction on the next line is read.
func TestCorrectionReceiptQuotesEachWhole(t *testing.T) {
	h := claimed(t)
	r := h.Private("2026-12-02T09:00:00Z", cmAddr, "I correct CoE #1: message <m1@example.test> reads `I join the Toy game.\nI poke Bob in Toy.` .\n"+
		"I correct CoE #1: the round was wrong.\nI correct CoE #1: message <m1@example.test> is void.")
	receiptHas(t, r.Body,
		"> I correct CoE #1: message <m1@example.test> reads `I join the Toy > game. I poke Bob in Toy.` . Done: correction of CoE #1 accepted",
		"> I correct CoE #1: the round was wrong. Not done: a correction is written as:",
		"> I correct CoE #1: message <m1@example.test> is void. Done: correction of CoE #1 accepted",
		"2 done, 1 not done.",
	)
}

// TestRefusedCorrectionJournaled: a correction the re-run refuses is
// journaled on the line after the last, which the state's journal number
// then is; a correction made is journaled with the re-run and the
// revision, each on the line after the one before.
func TestRefusedCorrectionJournaled(t *testing.T) {
	h := claimed(t)
	h.Record()
	h.Public("2026-12-02T08:00:00Z", alice, "I transfer 1 coin to Bob.") // m3
	seq := h.S.JournalSeq
	if _, _, err := h.Correct("2026-12-02T09:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m99@example.test"}, nil); err == nil {
		t.Fatal("a correction of a message not in the record was made")
	}
	last := h.Entries[len(h.Entries)-1]
	if last.Verb != "correction" || last.Outcome != "rejected" || last.Seq != seq+1 || h.S.JournalSeq != seq+1 {
		t.Errorf("after journal line %d, the refusal is line %d (%s %s), the state's journal number %d", seq, last.Seq, last.Verb, last.Outcome, h.S.JournalSeq)
	}

	// A correction made: the correction's line, the re-run's, then the
	// revision's, each after the one before.
	seq = h.S.JournalSeq
	n := len(h.Entries)
	if _, _, err := h.Correct("2026-12-02T10:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m3@example.test"}, nil); err != nil {
		t.Fatal(err)
	}
	for i, en := range h.Entries[n:] {
		if en.Seq != seq+int64(i)+1 {
			t.Errorf("after journal line %d, entry %d (%s) is line %d", seq, i+1, en.Verb, en.Seq)
		}
	}
	if last := h.Entries[len(h.Entries)-1]; last.Verb != "revision" || h.S.JournalSeq != last.Seq {
		t.Errorf("the last line is %d (%s), the state's journal number %d", last.Seq, last.Verb, h.S.JournalSeq)
	}
}

// TestAnswerOfAnAnsweredClaim: a second answer to a claim already answered
// (a second correction, a denial after a correction) says that the claim was
// answered and that a further error needs a new claim; it said "there is no
// open claim of error #1", which left the contestmaster looking for one.
func TestAnswerOfAnAnsweredClaim(t *testing.T) {
	h := claimed(t)
	h.S.NextClaim = 1
	if r := h.Private("2026-12-02T09:00:00Z", cmAddr, "I deny CoE #1: the receipt is right."); r == nil || !strings.Contains(r.Body, "Done") {
		t.Fatalf("the denial: %v", r)
	}
	for _, text := range []string{"I correct CoE #1: message <m1@example.test> is void.", "I deny CoE #1: still right."} {
		r := h.Private("2026-12-02T10:00:00Z", cmAddr, text)
		if r == nil || !strings.Contains(flat(r.Body), "Not done: Claim of Error #1 has been answered; an error left in the record needs a new claim") {
			t.Errorf("%q: want a refusal saying the claim was answered, got %v", text, r)
		}
	}
	r := h.Private("2026-12-02T10:00:00Z", cmAddr, "I correct CoE #7: message <m1@example.test> is void.")
	if r == nil || !strings.Contains(r.Body, "no open claim of error #7") {
		t.Errorf("a claim never made: %v", r)
	}
}
