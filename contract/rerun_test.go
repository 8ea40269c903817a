package contract_test

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
	"referee/contract/text"
)

// chaosHistory is a random game of chaos: the engine, its starting state,
// every input after it (messages, clock advances, sends accepted and failed)
// and the state they led to.
type chaosHistory struct {
	e       *contract.Engine
	base    *contract.State
	inputs  []contract.Input
	current *contract.State
}

func newChaosHistory(t *testing.T, seed uint64, steps int) *chaosHistory {
	t.Helper()
	return newChaosHistoryOf(t, &chaos{}, seed, steps)
}

// newChaosHistoryOf is newChaosHistory of the game g.
func newChaosHistoryOf(t *testing.T, g *chaos, seed uint64, steps int) *chaosHistory {
	t.Helper()
	cfg := contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster}
	start := contracttest.At(t, "2026-12-01T09:00:00Z")
	e, err := contract.NewEngine(cfg, g)
	if err != nil {
		t.Fatal(err)
	}
	live, _, err := e.NewState(contracttest.Secret[:], start)
	if err != nil {
		t.Fatal(err)
	}
	h := &chaosHistory{e: e, base: contract.Snapshot(live)}
	r := rand.New(rand.NewPCG(seed, 3))
	at := start
	for n := 0; n < steps; n++ {
		at = at.Add(time.Duration(r.IntN(12*60)) * time.Minute)
		in := contract.Input{At: at}
		switch k := r.IntN(10); {
		case k < 6:
			in.Kind, in.Msg = contract.InMessage, chaosMail(r, n, at)
			if r.IntN(4) == 0 {
				in.Msg.Channel = contract.ChanPrivate
			}
			in.IMAP = &contract.Checkpoint{UIDValidity: 9, LastUID: uint32(n + 1)}
		case k < 7 || len(live.Outbox) == 0:
			in.Kind = contract.InAdvance
		default:
			in.Notice = live.Outbox[r.IntN(len(live.Outbox))].ID
			if k < 9 {
				in.Kind = contract.InSent
			} else {
				in.Kind, in.Error, in.NextTry = contract.InFailed, "451 later", at.Add(time.Minute)
			}
		}
		if _, err := e.Redo(live, &in); err != nil {
			t.Fatalf("input %d: %v", n, err)
		}
		h.inputs = append(h.inputs, in)
	}
	h.current = live
	return h
}

// messages are the indexes of the inputs that carry a message.
func (h *chaosHistory) messages() []int {
	var out []int
	for i, in := range h.inputs {
		if in.Kind == contract.InMessage {
			out = append(out, i)
		}
	}
	return out
}

// fresh replays inputs on the starting state, as the referee would have run
// them from the start.
func (h *chaosHistory) fresh(t *testing.T, inputs []contract.Input) *contract.State {
	t.Helper()
	s := contract.Snapshot(h.base)
	for i := range inputs {
		if _, err := h.e.Redo(s, &inputs[i]); err != nil {
			t.Fatalf("fresh replay, input %d: %v", i, err)
		}
	}
	return s
}

// TestCorrectionProperties: for random games, correcting message k to its
// own text changes nothing (no outcome, no fact, no notice, the same state
// and outbox); correcting it to another text gives the state a fresh replay
// of the edited archive gives, but for the numbers of the ruling requests,
// claims and the game's series (numberless): the correction keeps the
// recorded history's numbers, which the contestmaster and the players
// answer by, where the fresh replay numbers them anew.
func TestCorrectionProperties(t *testing.T) {
	// The re-runs redo thousands of inputs: the undo checks, which run
	// every message twice and copy the state at every transaction, are
	// the undo tests' business.
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	texts := []string{"I join chaos.", "I stir 7. I stir 8.", "I transfer 2 chips to ann.", "Nothing here.", "I stir 9."}
	changed, renumbered := 0, 0
	for seed := range uint64(many(12, 4)) {
		h := newChaosHistoryOf(t, &chaos{series: true}, seed, 60)
		msgs := h.messages()
		r := rand.New(rand.NewPCG(seed, 11))
		for range 4 {
			k := msgs[r.IntN(len(msgs))]
			m := h.inputs[k].Msg
			// A message sent again under the same Message-ID is the
			// first one's copy: the correction names the first.
			if first := slices.IndexFunc(h.inputs, func(in contract.Input) bool {
				return in.Kind == contract.InMessage && in.Msg.ID == m.ID
			}); first != k {
				continue
			}
			t.Run(fmt.Sprintf("seed%d/%s/same", seed, m.ID), func(t *testing.T) {
				s, rev, err := h.e.Rerun(&contract.Rerun{Base: h.base, Inputs: h.inputs, Current: h.current,
					Fix: contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: m.ID, Text: m.Text}})
				if err != nil {
					t.Fatal(err)
				}
				if rev.Changed() {
					t.Fatalf("correcting %s to its own text changed something:\n%s", m.ID, rev.Text())
				}
				if contract.StateDigest(s) != contract.StateDigest(h.current) {
					t.Fatal("the state's hash changed")
				}
				if got, want := outboxView(s), outboxView(h.current); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("the outbox changed: %v, was %v", got, want)
				}
				if s.JournalSeq != h.current.JournalSeq+int64(len(rev.Entries)) {
					t.Fatalf("journal number %d after %d entries from %d", s.JournalSeq, len(rev.Entries), h.current.JournalSeq)
				}
			})
			other := texts[r.IntN(len(texts))]
			t.Run(fmt.Sprintf("seed%d/%s/other", seed, m.ID), func(t *testing.T) {
				s, rev, err := h.e.Rerun(&contract.Rerun{Base: h.base, Inputs: h.inputs, Current: h.current,
					Fix: contract.Correction{CoE: 2, Kind: contract.FixReads, MsgID: m.ID, Text: other}})
				if err != nil {
					t.Fatal(err)
				}
				edited := slices.Clone(h.inputs)
				em := *m
				em.Text = other
				edited[k].Msg = &em
				want := h.fresh(t, edited)
				if msg := keptNumbers(h.current, s); msg != "" {
					t.Fatal(msg)
				}
				if contract.StateDigest(s) != contract.StateDigest(want) {
					if numberless(s) != numberless(want) {
						t.Fatalf("the corrected state differs from a fresh replay of the edited archive")
					}
					renumbered++
				}
				if rev.NewHash != contract.StateDigest(s) || rev.OldHash != contract.StateDigest(h.current) {
					t.Fatal("the revision's hashes are not the states'")
				}
				if rev.Changed() {
					changed++
				}
				// Every changed receipt is the corrected message's or
				// one made after it.
				for _, rc := range rev.Receipts {
					n := rc.New
					if n == nil {
						n = rc.Old
					}
					if n.Time.Before(m.Arrived) {
						t.Errorf("receipt %s of %s changed, before the corrected message", rc.ID, contract.Stamp(n.Time))
					}
				}
			})
		}
	}
	if changed == 0 {
		t.Fatal("no correction to another text changed anything: the property was not exercised")
	}
	t.Logf("%d corrections kept numbers a fresh replay gives otherwise", renumbered)
}

// keptNumbers says how the corrected state s numbers otherwise a claim or a
// ruling request open in both it and current (the same message and report;
// the same game, key and time asked), which the contestmaster answers by
// its recorded number, or gives two open ones, or two of the game's series,
// one number; "" when it does not. numberless leaves the numbers out: this is what holds them.
func keptNumbers(current, s *contract.State) string {
	claims, rulings := map[string]int{}, map[string]int{}
	for _, c := range current.Claims {
		claims[c.MsgID+"\x00"+c.Report] = c.ID
	}
	for _, r := range current.Rulings {
		rulings[r.Game+"\x00"+r.Key+"\x00"+r.Asked.String()] = r.ID
	}
	if st, ok := s.Games["chaos"].Data.(*chaosState); ok {
		seen := map[int]bool{}
		for _, n := range st.Numbered {
			if seen[n] {
				return fmt.Sprintf("two of the game's series are #%d", n)
			}
			seen[n] = true
		}
	}
	seenClaim, seenRuling := map[int]bool{}, map[int]bool{}
	for _, c := range s.Claims {
		if id, ok := claims[c.MsgID+"\x00"+c.Report]; ok && id != c.ID {
			return fmt.Sprintf("claim #%d (%s) is #%d in the corrected state", id, c.MsgID, c.ID)
		}
		if seenClaim[c.ID] {
			return fmt.Sprintf("two open claims are #%d", c.ID)
		}
		seenClaim[c.ID] = true
	}
	for _, r := range s.Rulings {
		if id, ok := rulings[r.Game+"\x00"+r.Key+"\x00"+r.Asked.String()]; ok && id != r.ID {
			return fmt.Sprintf("ruling request #%d (%s %s) is #%d in the corrected state", id, r.Game, r.Key, r.ID)
		}
		if seenRuling[r.ID] {
			return fmt.Sprintf("two open ruling requests are #%d", r.ID)
		}
		seenRuling[r.ID] = true
	}
	return ""
}

// numberless is StateDigest of s without the numbers of its ruling requests,
// claims and the game's series: each open request or claim is numbered by
// its place in the order asked or filed (then by game and key, or message
// and report), a claim's ruling request by that numbering, each of the
// series by its place, and the next numbers and the citations' state
// hashes (an HMAC of the requests with their numbers) are left out.
// Everything else is compared as StateDigest compares it.
func numberless(s *contract.State) string {
	c := contract.Snapshot(s)
	slices.SortStableFunc(c.Rulings, func(a, b *contract.Ruling) int {
		return cmp.Or(a.Asked.Compare(b.Asked), strings.Compare(a.Game, b.Game), strings.Compare(a.Key, b.Key))
	})
	ruling := map[int]int{}
	for i, r := range c.Rulings {
		ruling[r.ID] = i + 1
		r.ID = i + 1
	}
	slices.SortStableFunc(c.Claims, func(a, b *contract.Claim) int {
		return cmp.Or(a.Filed.Compare(b.Filed), strings.Compare(a.MsgID, b.MsgID), strings.Compare(a.Report, b.Report))
	})
	for i, cl := range c.Claims {
		cl.ID, cl.Ruling = i+1, ruling[cl.Ruling]
	}
	c.NextRuling, c.NextClaim = 0, 0
	if st, ok := c.Games["chaos"].Data.(*chaosState); ok {
		for i := range st.Numbered {
			st.Numbered[i] = i + 1
		}
	}
	for _, x := range c.Cited {
		x.Hash = ""
	}
	return contract.StateDigest(c)
}

// TestCorrectionArrivedMovesTheMessage: a message corrected to an earlier
// arrival gives the state of a fresh replay with the message in its new
// place, and the mailbox position stays where it was.
func TestCorrectionArrivedMovesTheMessage(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	for seed := range uint64(many(6, 2)) {
		h := newChaosHistory(t, seed, 50)
		msgs := h.messages()
		k := msgs[len(msgs)-3]
		m := h.inputs[k].Msg
		if slices.IndexFunc(h.inputs, func(in contract.Input) bool { return in.Kind == contract.InMessage && in.Msg.ID == m.ID }) != k {
			continue
		}
		earlier := h.inputs[msgs[len(msgs)/2]].Msg.Arrived.Add(time.Minute)
		fix := contract.Correction{CoE: 3, Kind: contract.FixArrived, MsgID: m.ID, Arrived: earlier}
		s, rev, err := h.e.Rerun(&contract.Rerun{Base: h.base, Inputs: h.inputs, Current: h.current, Fix: fix})
		if err != nil {
			t.Fatal(err)
		}
		// The edited archive, by hand: the message at its new time.
		var edited []contract.Input
		em := *m
		em.Arrived = earlier
		placed := false
		for i, in := range h.inputs {
			if !placed && in.Kind != contract.InSent && in.Kind != contract.InFailed && inputTime(in).After(earlier) {
				edited = append(edited, contract.Input{Kind: contract.InMessage, At: earlier, Msg: &em})
				placed = true
			}
			if i == k {
				edited = append(edited, contract.Input{Kind: contract.InPosition, At: in.At, IMAP: in.IMAP})
				continue
			}
			edited = append(edited, in)
		}
		want := h.fresh(t, edited)
		if contract.StateDigest(s) != contract.StateDigest(want) {
			t.Fatalf("seed %d: the corrected state differs from a fresh replay with the message moved", seed)
		}
		if s.IMAP != h.current.IMAP {
			t.Fatalf("the mailbox position moved: %v, was %v", s.IMAP, h.current.IMAP)
		}
		if !rev.From.Equal(earlier) {
			t.Fatalf("the revision starts at %s, want %s", rev.From, earlier)
		}
	}
}

func inputTime(in contract.Input) time.Time {
	if in.Kind == contract.InMessage {
		return in.Msg.Arrived
	}
	return in.At
}

// TestCorrectionVoid: a void message performs nothing and its receipt is
// corrected; the player is told.
func TestCorrectionVoid(t *testing.T) {
	h := newChaosHistory(t, 4, 40)
	var k = -1
	for _, i := range h.messages() {
		if strings.Contains(h.inputs[i].Msg.Text, "join") && h.inputs[i].Msg.Channel.IsPublic() {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatal("no join in the game")
	}
	m := h.inputs[k].Msg
	s, rev, err := h.e.Rerun(&contract.Rerun{Base: h.base, Inputs: h.inputs, Current: h.current,
		Fix: contract.Correction{CoE: 4, Kind: contract.FixVoid, MsgID: m.ID}})
	if err != nil {
		t.Fatal(err)
	}
	before := len(s.Outbox)
	ent := h.e.PublishRevision(s, rev, s.Clock)
	if ent.Verb != "revision" || ent.Seq != s.JournalSeq {
		t.Fatalf("revision entry %+v", ent)
	}
	var corrected, revision *contract.Outgoing
	for _, o := range s.Outbox[before:] {
		switch o.Kind {
		case "revision":
			revision = o
		case "receipt":
			if o.InReplyTo == m.ID {
				corrected = o
			}
		}
	}
	if corrected == nil || !strings.HasPrefix(corrected.Subject, "Corrected: ") || !strings.Contains(corrected.Body, "nothing of it was done") {
		t.Fatalf("no corrected receipt to %s saying nothing was done: %+v", m.From, corrected)
	}
	if revision == nil || revision.Channel != contract.ChanOfficial || !strings.Contains(revision.Body, "message "+m.ID+" is void") {
		t.Fatalf("no revision on the official list naming the correction: %+v", revision)
	}
	for _, c := range rev.Outcomes {
		if c.Old != nil && c.Old.MsgID == m.ID && c.New != nil {
			t.Fatalf("the void message still has an outcome: %+v", c.New)
		}
	}
}

// TestCorrectionRefusedAfterRatification: a correction that changes a
// ratified notice is refused, naming it, unless it overrides ratification;
// the revision then says so.
func TestCorrectionRefusedAfterRatification(t *testing.T) {
	// As in TestCorrectionProperties: the undo checks are the undo tests'.
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	for seed := range uint64(20) {
		h := newChaosHistory(t, seed, 60)
		var k = -1
		for _, i := range h.messages() {
			if strings.Contains(h.inputs[i].Msg.Text, "I join chaos") && h.inputs[i].Msg.Channel.IsPublic() {
				k = i
				break
			}
		}
		if k < 0 {
			continue
		}
		m := h.inputs[k].Msg
		ratified := func(id string) bool { return strings.HasPrefix(id, "chaos/report/") }
		fix := contract.Correction{CoE: 5, Kind: contract.FixReads, MsgID: m.ID, Text: "I stir 1. I stir 2. I stir 4."}
		_, rev, err := h.e.Rerun(&contract.Rerun{Base: h.base, Inputs: h.inputs, Current: h.current, Fix: fix, Ratified: ratified})
		var refused *contract.RefusedError
		if !errors.As(err, &refused) {
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range rev.Notices {
				if ratified(n.ID) {
					t.Fatalf("a change to ratified notice %s was not refused", n.ID)
				}
			}
			continue
		}
		if !strings.Contains(err.Error(), "chaos/report/") || !strings.Contains(err.Error(), "overriding ratification") {
			t.Fatalf("the refusal does not name the report or the way out: %v", err)
		}
		fix.Override = true
		_, rev, err = h.e.Rerun(&contract.Rerun{Base: h.base, Inputs: h.inputs, Current: h.current, Fix: fix, Ratified: ratified})
		if err != nil {
			t.Fatal(err)
		}
		if len(rev.Overrides) == 0 || !strings.Contains(rev.Text(), "overrides ratification") {
			t.Fatalf("the revision does not say it overrides ratification:\n%s", rev.Text())
		}
		return
	}
	t.Fatal("no game had a ratified report to change")
}

// TestRerunRefusesABrokenRecord: inputs that do not lead to the current
// state are a broken record, and nothing is corrected.
func TestRerunRefusesABrokenRecord(t *testing.T) {
	h := newChaosHistory(t, 1, 30)
	k := h.messages()[2]
	_, _, err := h.e.Rerun(&contract.Rerun{Base: h.base, Inputs: h.inputs[:len(h.inputs)-5], Current: h.current,
		Fix: contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: h.inputs[k].Msg.ID, Text: "I stir 5."}})
	if err == nil || !strings.Contains(err.Error(), "does not lead to the current state") {
		t.Fatalf("a truncated record was re-run: %v", err)
	}
}

// TestRevisionGolden: the revision and the corrected receipts of a
// correction, as their readers get them.
func TestRevisionGolden(t *testing.T) {
	h := newChaosHistory(t, 2, 60)
	m := h.inputs[h.messages()[3]].Msg
	s, rev, err := h.e.Rerun(&contract.Rerun{Base: h.base, Inputs: h.inputs, Current: h.current,
		Fix: contract.Correction{CoE: 2, Kind: contract.FixReads, MsgID: m.ID, Text: "I stir 7. I stir 8."}})
	if err != nil {
		t.Fatal(err)
	}
	before := len(s.Outbox)
	h.e.PublishRevision(s, rev, s.Clock)
	contracttest.Golden(t, "testdata/revision.golden", contracttest.Transcript(s.Outbox[before:]))
}

// TestRevisionQuotesTheCorrectedMessage: the revision shows the text a
// message now reads as its sender wrote it, quoted and wrapped to the
// house width: a message of two paragraphs, the second longer than a
// line, read as one line ("reads `I stir 7. I stir 8. ...`").
func TestRevisionQuotesTheCorrectedMessage(t *testing.T) {
	h := newChaosHistory(t, 2, 60)
	m := h.inputs[h.messages()[3]].Msg
	second := "I stir 8. " + strings.Repeat("I stir 9. ", 8)
	_, rev, err := h.e.Rerun(&contract.Rerun{Base: h.base, Inputs: h.inputs, Current: h.current,
		Fix: contract.Correction{CoE: 2, Kind: contract.FixReads, MsgID: m.ID, Text: "I stir 7.\n\n" + second + "\n"}})
	if err != nil {
		t.Fatal(err)
	}
	got := rev.Text()
	want := "message " + m.ID + " now reads:\n\n> I stir 7.\n>\n" + text.WrapIndent(second, 0, "> ", "> ") + "\nThe record was re-run"
	if !strings.Contains(got, want) || strings.Count(text.WrapIndent(second, 0, "> ", "> "), "\n") < 2 {
		t.Errorf("the revision does not quote the message as written; want\n%s\nin\n%s", want, got)
	}
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, ">") && len(l) > text.Width {
			t.Errorf("a quoted line wider than %d columns: %q", text.Width, l)
		}
	}
}

// lateRead is a toy game's record after a snapshot in which the referee read
// a message two hours after it arrived. The starting state: Alice and Bob
// joined Toy with 5 coins each, and the clock was brought to 2026-12-02
// 11:00. Then Alice's "I transfer 5 coins to Bob.", arrived at 10:00 and read
// at 12:00 (mailbox position 7), and Bob's "I transfer 1 coin to Alice.",
// arrived and read at 12:30 (position 8). Without positions, the messages
// are recorded as a replayed archive records them.
func lateRead(t *testing.T, positions bool) (*contract.Engine, *contract.Rerun) {
	t.Helper()
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	h.Advance("2026-12-02T11:00:00Z")
	r := &contract.Rerun{Base: contract.Snapshot(h.S)}
	for _, m := range []struct {
		id, from, name, arrived, read, text string
		uid                                 uint32
	}{
		{"late@example.test", "alice@example.test", "Alice", "2026-12-02T10:00:00Z", "2026-12-02T12:00:00Z", "I transfer 5 coins to Bob.", 7},
		{"next@example.test", "bob@example.test", "Bob", "2026-12-02T12:30:00Z", "2026-12-02T12:30:00Z", "I transfer 1 coin to Alice.", 8},
	} {
		arrived := contracttest.At(t, m.arrived)
		in := contract.Input{Kind: contract.InMessage, At: contracttest.At(t, m.read), Msg: &contract.Message{ID: m.id, From: m.from, Name: m.name,
			Date: arrived, Arrived: arrived, Subject: "actions", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: m.text}}
		if positions {
			in.IMAP = &contract.Checkpoint{UIDValidity: 1, LastUID: m.uid}
		}
		if _, err := h.E.Redo(h.S, &in); err != nil {
			t.Fatal(err)
		}
		r.Inputs = append(r.Inputs, in)
	}
	r.Current = h.S
	return h.E, r
}

// coins is what the players hold of Toy's coins, as "Alice 3, Bob 7".
func coins(s *contract.State) string {
	return fmt.Sprintf("Alice %d, Bob %d", s.Ledger.Balance("toy/coin", "Alice"), s.Ledger.Balance("toy/coin", "Bob"))
}

// TestCorrectionPlacesByArrival: an adjustment takes its place among the
// messages by the time they arrived, not the time the referee read them:
// set at 11:30, Alice's balance is set after her transfer of 10:00 (read at
// 12:00), which stands, and before Bob's of 12:30.
func TestCorrectionPlacesByArrival(t *testing.T) {
	e, r := lateRead(t, true)
	if got := coins(r.Current); got != "Alice 1, Bob 9" {
		t.Fatalf("the record: %s", got)
	}
	r.Fix = contract.Correction{CoE: 1, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{At: contracttest.At(t, "2026-12-02T11:30:00Z"),
		Game: "toy", Owner: "Alice", Currency: "toy/coin", Amount: 2, Rule: "T1", CoE: 1}}
	s, rev, err := e.Rerun(r)
	if err != nil {
		t.Fatal(err)
	}
	if got := coins(s); got != "Alice 3, Bob 9" {
		t.Errorf("after Alice's balance set to 2 at 11:30: %s, want Alice 3, Bob 9", got)
	}
	for _, rc := range rev.Receipts {
		t.Errorf("receipt %s corrected: the transfers stand:\n%s", rc.ID, rev.Text())
	}
}

// TestCorrectionBeforeTheStartingState: a new arrival time or an adjustment
// before the starting state's clock is refused, saying to start from an
// earlier state (G2: nothing enters there any more); a message read
// otherwise may have arrived before that clock, if it was read after it,
// and is corrected from its arrival.
func TestCorrectionBeforeTheStartingState(t *testing.T) {
	for _, tc := range []struct {
		fix  contract.Correction
		when string
	}{
		{contract.Correction{CoE: 1, Kind: contract.FixArrived, MsgID: "next@example.test", Arrived: contracttest.At(t, "2026-12-02T10:30:00Z")}, "2026-12-02 10:30"},
		// Before every input after the starting state, too.
		{contract.Correction{CoE: 1, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{At: contracttest.At(t, "2026-12-02T09:30:00Z"),
			Game: "toy", Owner: "Alice", Currency: "toy/coin", Amount: 2, Rule: "T1", CoE: 1}}, "2026-12-02 09:30"},
	} {
		e, r := lateRead(t, true)
		r.Fix = tc.fix
		want := "correction: it touches " + tc.when + " UTC, before the starting state's clock 2026-12-02 11:00 UTC; start from an earlier state"
		if _, _, err := e.Rerun(r); err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %q", tc.fix.Describe(), err, want)
		}
	}

	e, r := lateRead(t, true)
	r.Fix = contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "late@example.test", Text: "I transfer 4 coins to Bob."}
	s, rev, err := e.Rerun(r)
	if err != nil {
		t.Fatalf("the first message after the starting state, read otherwise: %v", err)
	}
	if !strings.Contains(flat(rev.Text()), "re-run from 2026-12-02 10:00 UTC") || coins(s) != "Alice 2, Bob 8" {
		t.Errorf("corrected to a transfer of 4: %s\n%s", coins(s), rev.Text())
	}
}

// TestCorrectionKeepsTheMailboxPosition: a message moved to another arrival
// time leaves its mailbox position where it was, so the referee does not
// read the mailbox again from an earlier message; a message recorded
// without a position (a replayed archive) is moved alone.
func TestCorrectionKeepsTheMailboxPosition(t *testing.T) {
	for _, positions := range []bool{true, false} {
		e, r := lateRead(t, positions)
		r.Fix = contract.Correction{CoE: 1, Kind: contract.FixArrived, MsgID: "next@example.test", Arrived: contracttest.At(t, "2026-12-02T11:30:00Z")}
		s, rev, err := e.Rerun(r)
		if err != nil {
			t.Fatalf("positions %v: %v", positions, err)
		}
		if s.IMAP != r.Current.IMAP {
			t.Errorf("positions %v: the mailbox position moved from %+v to %+v", positions, r.Current.IMAP, s.IMAP)
		}
		if !rev.From.Equal(contracttest.At(t, "2026-12-02T11:30:00Z")) || coins(s) != "Alice 1, Bob 9" {
			t.Errorf("positions %v: re-run from %s: %s", positions, contract.Stamp(rev.From), coins(s))
		}
	}
}

// TestRerunNamesTheBrokenInput: a recorded input that cannot be re-done
// (here a position without its position, as a damaged journal could hold)
// refuses the correction, naming the input by its place after the starting
// state, its kind and its time.
func TestRerunNamesTheBrokenInput(t *testing.T) {
	e, r := lateRead(t, true)
	r.Inputs = slices.Insert(r.Inputs, 1, contract.Input{Kind: contract.InPosition, At: contracttest.At(t, "2026-12-02T12:10:00Z")})
	r.Fix = contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "next@example.test"}
	_, _, err := e.Rerun(r)
	if want := "the recorded history: re-run input 2 (position at 2026-12-02 12:10): redo: a position input without its position"; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestRevisionIgnoresCitations: a revision lists the notices whose text a
// correction changed, not those whose Citation block alone changed (the
// journal lines, the state hash, the open claims): here Bob's second claim
// is made void, or a message of Bob's is read as that claim, and the
// referee's notice of the next week's seed lists it among the open claims
// only before, or only after. The claim's ruling request is listed, and so
// are the lines of Toy's report that only the claim made, one of them also
// there once for Bob's first claim.
func TestRevisionIgnoresCitations(t *testing.T) {
	const claim = "I CoE on randomness/2026-W49/20261201T100000: too predictable."
	for _, tc := range []struct {
		text string // Bob's second message, m5
		fix  contract.Correction
	}{
		{claim, contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m5@example.test"}},
		{"Nothing to add.", contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m5@example.test", Text: claim}},
	} {
		h := newToy(t)
		h.Record()
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
		h.Public("2026-12-01T10:07:00Z", alice, "I CoE on randomness/2026-W49/20261201T100000: a wrong seed.")
		h.Public("2026-12-01T10:08:00Z", bob, "I CoE on randomness/2026-W49/20261201T100000: not random enough.")
		h.Public("2026-12-01T10:08:00Z", bob, tc.text)
		var seed *contract.Notice
		for _, n := range h.Advance("2026-12-07T00:00:00Z") {
			if strings.HasPrefix(n.ID, "randomness/2026-W50/") {
				seed = n
			}
		}
		if seed == nil || !strings.Contains(flat(seed.Body), "Open Claims of Error: #1 by Alice") {
			t.Fatalf("the seed's notice before the correction: %v", seed)
		}
		rev, ns, err := h.Correct("2026-12-07T11:00:00Z", tc.fix, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range rev.Notices {
			if c.ID == seed.ID {
				t.Errorf("%s: the seed's notice is listed as changed:\n%s", tc.fix.Describe(), rev.Text())
			}
		}
		if len(rev.Notices) == 0 || !strings.Contains(rev.Text(), "a private ruling to cm@example.test") {
			t.Errorf("%s: the claim's ruling request is not listed:\n%s", tc.fix.Describe(), rev.Text())
		}
		for _, n := range ns {
			if n.ID == seed.ID {
				t.Errorf("%s: the seed's notice sent again: %s", tc.fix.Describe(), n.Body)
			}
		}
		// Toy tells no facts: the state's change is its report's.
		var lines []string
		for _, c := range rev.State {
			switch {
			case c.What == "Toy report" && c.New == "" && tc.fix.Kind == contract.FixVoid:
				lines = append(lines, strings.Join(strings.Fields(c.Old), " "))
			case c.What == "Toy report" && c.Old == "" && tc.fix.Kind == contract.FixReads:
				lines = append(lines, strings.Join(strings.Fields(c.New), " "))
			default:
				t.Errorf("%s: a change of the state besides the claim's lines in Toy's report: %+v", tc.fix.Describe(), c)
			}
		}
		if want := []string{"2026-12-01 10:08 Bob claims an error in", "randomness/2026-W49/20261201T100000 (CoE #3)"}; !slices.Equal(lines, want) {
			t.Errorf("%s: the claim's lines in Toy's report: %q, want %q\n%s", tc.fix.Describe(), lines, want, rev.Text())
		}
	}
}

// TestRevisionKeepsPrivateOutcomes: the revision, published to the list,
// says a private message's action came out otherwise without saying how
// (its changes may hold a sealed value); an event's changes it gives.
func TestRevisionKeepsPrivateOutcomes(t *testing.T) {
	h := newToy(t)
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Private("2026-12-01T10:06:00Z", alice, "I seal 7.") // m2
	h.Public("2026-12-01T10:07:00Z", alice, "CoE: my seal.")
	rev, _, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m2@example.test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	txt := flat(rev.Text())
	if !strings.Contains(txt, "2026-12-01 10:06 Alice toy seal was: applied") || strings.Contains(txt, "sealed") {
		t.Errorf("the revision of a private message's action:\n%s", rev.Text())
	}
}

// TestRerunNamesTheLineThatDiffers: a record that does not lead to the
// current state is refused naming the first line of the state file where
// they differ, never its text (a line can hold a sealed value).
func TestRerunNamesTheLineThatDiffers(t *testing.T) {
	e, r := lateRead(t, true)
	r.Current = contract.Snapshot(r.Current)
	r.Current.Ledger.Balances["toy/coin"]["Bob"] += 100
	r.Current.Ledger.Supply["toy/coin"] += 100
	b, err := contract.Encode(r.Current)
	if err != nil {
		t.Fatal(err)
	}
	line := slices.Index(strings.Split(string(b), "\n"), "      Bob: 109") + 1
	if line == 0 {
		t.Fatalf("no line for Bob's 109 coins:\n%s", b)
	}
	r.Fix = contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "next@example.test"}
	_, _, err = e.Rerun(r)
	if want := fmt.Sprintf("the recorded history does not lead to the current state: line %d of the encoded state differs", line); err == nil || err.Error() != want || strings.Contains(err.Error(), "109") {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// rewordedJoining is the revision of a correction that changes only how
// Alice's joining reads ("I hereby join"), not what it did.
func rewordedJoining(t *testing.T) *contract.Revision {
	t.Helper()
	h := newToy(t)
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", alice, "CoE: my joining.")
	rev, _, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m1@example.test", Text: "I hereby join the Toy game."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

// TestRevisionOfAReceiptAlone: a correction that changes only how a
// message reads, not what it did, changes its receipt alone; the revision
// lists that receipt, does not say nothing changed, and has no heading for
// what did not change.
func TestRevisionOfAReceiptAlone(t *testing.T) {
	rev := rewordedJoining(t)
	if len(rev.Outcomes)+len(rev.State)+len(rev.Draws)+len(rev.Notices) != 0 || len(rev.Receipts) != 1 || !rev.Changed() || strings.Contains(rev.Text(), "Nothing changed.") {
		t.Errorf("a correction of a receipt's wording alone:\n%s", rev.Text())
	}
	for _, h := range []string{"Outcomes that changed", "The state", "Draws whose outcome changed"} {
		if strings.Contains(rev.Text(), text.Heading(h)) {
			t.Errorf("a heading %q over nothing:\n%s", h, rev.Text())
		}
	}
	if !strings.Contains(rev.Text(), text.Heading("Notices that changed")+"2026-12-01 10:05  a private receipt to alice@example.test (changed)\n") {
		t.Errorf("the changed receipt is not listed:\n%s", rev.Text())
	}
}

// TestRevisionOfAnAdjustment: an adjustment changes no receipt: its
// revision says what it did and what the state now says, has no heading
// for notices when none changed, and, when the week's report changed with
// it, lists the report without saying receipts are sent again.
func TestRevisionOfAnAdjustment(t *testing.T) {
	for _, report := range []bool{false, true} {
		h := newToy(t)
		h.Record()
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:06:00Z", alice, "CoE: my coins.")
		if report {
			h.Advance("2026-12-07T00:00:00Z")
		}
		rev, _, err := h.Correct("2026-12-07T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{
			At: contracttest.At(t, "2026-12-01T10:30:00Z"), Game: "toy", Owner: "Alice", Currency: "toy/coin", Amount: 9, Rule: "T1", CoE: 1}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		txt := rev.Text()
		if len(rev.Receipts) != 0 || !strings.Contains(txt, "now: applied: Alice: 5 -> 9 of toy/coin") || strings.Contains(txt, `marked "Corrected:"`) {
			t.Errorf("report %v: the revision of an adjustment:\n%s", report, txt)
		}
		if listed := strings.Contains(txt, text.Heading("Notices that changed")+"2026-12-07 00:00  [Toy] Weekly Report (changed)\n"); listed != report || report != strings.Contains(txt, text.Heading("Notices that changed")) {
			t.Errorf("report %v: the notices that changed:\n%s", report, txt)
		}
	}
}

// TestRevisionOfANewReceipt: a message that performed nothing has no
// receipt; corrected to read as an action, it has one, sent to its player
// as the receipt the corrected record gives it, and the revision lists it
// as made.
func TestRevisionOfANewReceipt(t *testing.T) {
	h := newToy(t)
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "Hello, all.")
	h.Public("2026-12-01T10:06:00Z", alice, "CoE: my greeting was meant as joining.")
	rev, sent, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m1@example.test", Text: "I join the Toy game."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got *contract.Notice
	for _, n := range sent {
		if n.Kind == "receipt" {
			if got != nil {
				t.Fatalf("two receipts sent:\n%s\n%s", got.Body, n.Body)
			}
			got = n
		}
	}
	if got == nil || !slices.Equal(got.To, []string{"alice@example.test"}) || !strings.HasPrefix(got.Subject, "Corrected: ") {
		t.Fatalf("no corrected receipt to %s: %+v", alice, got)
	}
	body := strings.Join(strings.Fields(got.Body), " ")
	intro := "In the record corrected by CoE #1 (message m1@example.test reads `I join the Toy game.`), your message has this receipt."
	if !strings.HasPrefix(body, intro+" Your message dated 2026-12-01 10:05 UTC") || !strings.Contains(body, "> I join the Toy game. Done: you joined Toy with 5 coins") {
		t.Errorf("the receipt the corrected record gives the message:\n%s", got.Body)
	}
	if len(rev.Receipts) != 1 || !strings.Contains(rev.Text(), text.Heading("Notices that changed")+"2026-12-01 10:05  a private receipt to alice@example.test (now made)\nEach changed or new receipt is sent to its player, marked \"Corrected:\".\n") {
		t.Errorf("the new receipt is not listed as made and sent:\n%s", rev.Text())
	}
	// The journal keeps the receipt's summary: none before, its kind,
	// subject and body's hash now.
	last := h.Entries[len(h.Entries)-1]
	b, err := json.Marshal(last.Detail)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Revision struct {
			Receipts []struct {
				ID       string
				Old, New map[string]string
			} `json:"receipts"`
		} `json:"revision"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	sum := sha256.Sum256([]byte(rev.Receipts[0].New.Body))
	want := map[string]string{"kind": "receipt", "subject": "Re: actions", "body_sha256": hex.EncodeToString(sum[:])}
	if last.Verb != "revision" || len(j.Revision.Receipts) != 1 || j.Revision.Receipts[0].ID != "receipt/m1@example.test" || j.Revision.Receipts[0].Old != nil || !maps.Equal(j.Revision.Receipts[0].New, want) {
		t.Errorf("the journaled revision's receipts: %s", b)
	}
}

// TestSecondCorrectionAfterAReport: a correction, then a report, then a
// second correction. The second re-runs the history with the first among
// its inputs; re-done, the first takes the journal past its own lines (the
// re-run's and the revision's), so the report re-made after it covers the
// lines the published one names, the history leads to the current state and
// the second correction is made; its lines follow the last.
func TestSecondCorrectionAfterAReport(t *testing.T) {
	h := newToy(t)
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	h.Public("2026-12-01T10:07:00Z", alice, "I transfer 1 coin to Bob.")  // m3
	h.Public("2026-12-01T10:08:00Z", alice, "I transfer 2 coins to Bob.") // m4
	if _, _, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m3@example.test"}, nil); err != nil {
		t.Fatal(err)
	}
	report := reportAt(t, h, "2026-12-07T00:00:00Z")
	// It covers the journal through its own line, the round's.
	if last := h.Entries[len(h.Entries)-1]; last.Verb != "round" || !strings.Contains(flat(report.Body), fmt.Sprintf("(the record through line %d)", last.Seq)) {
		t.Fatalf("the report does not cover the journal through line %d (%s):\n%s", last.Seq, last.Verb, report.Body)
	}
	bob := h.S.Ledger.Balance("toy/coin", "Bob")
	seq := h.S.JournalSeq
	n := len(h.Entries)
	_, ns, err := h.Correct("2026-12-07T10:00:00Z", contract.Correction{CoE: 2, Kind: contract.FixVoid, MsgID: "m4@example.test"}, nil)
	if err != nil {
		t.Fatalf("the second correction was refused: %v", err)
	}
	if got := h.S.Ledger.Balance("toy/coin", "Bob"); got != bob-2 {
		t.Errorf("Bob owns %d coins after the transfer of 2 was made void, had %d", got, bob)
	}
	revised := false
	for _, x := range ns {
		revised = revised || x.Kind == "revision" && strings.Contains(x.Body, "message m4@example.test is void")
	}
	if !revised {
		t.Errorf("no revision names the second correction: %v", ns)
	}
	for i, en := range h.Entries[n:] {
		if en.Seq != seq+int64(i)+1 {
			t.Errorf("after journal line %d, entry %d (%s) is line %d", seq, i+1, en.Verb, en.Seq)
		}
	}
}
