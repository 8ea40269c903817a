package contract_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
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
	cfg := contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster}
	start := contracttest.At(t, "2026-12-01T09:00:00Z")
	e, err := contract.NewEngine(cfg, &chaos{})
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
// of the edited archive gives.
func TestCorrectionProperties(t *testing.T) {
	// The re-runs redo thousands of inputs: the undo checks, which run
	// every message twice and copy the state at every transaction, are
	// the undo tests' business.
	contract.SetVerifyUndo(false)
	defer contract.SetVerifyUndo(true)
	texts := []string{"I join chaos.", "I stir 7. I stir 8.", "I transfer 2 chips to ann.", "Nothing here.", "I stir 9."}
	changed := 0
	for seed := range uint64(many(12, 4)) {
		h := newChaosHistory(t, seed, 60)
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
				if got, w := contract.StateDigest(s), contract.StateDigest(want); got != w {
					t.Fatalf("the corrected state differs from a fresh replay of the edited archive")
				}
				if rev.NewHash != contract.StateDigest(want) || rev.OldHash != contract.StateDigest(h.current) {
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
}

// TestCorrectionArrivedMovesTheMessage: a message corrected to an earlier
// arrival gives the state of a fresh replay with the message in its new
// place, and the mailbox position stays where it was.
func TestCorrectionArrivedMovesTheMessage(t *testing.T) {
	contract.SetVerifyUndo(false)
	defer contract.SetVerifyUndo(true)
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
	contract.SetVerifyUndo(false)
	defer contract.SetVerifyUndo(true)
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
