package contract_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestRedoReproducesTheState records every input of a chaos game (messages,
// clock advances, sends accepted, failed and failed for good, mailbox
// positions) as JSON, as the journal keeps them, then re-does them on the
// starting state: the entries and the encoded state are the same, byte for
// byte, after every input.
func TestRedoReproducesTheState(t *testing.T) {
	cfg := contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster, SeenHorizon: 5 * 24 * time.Hour}
	start := contracttest.At(t, "2026-12-01T09:00:00Z")
	e, err := contract.NewEngine(cfg, &chaos{})
	if err != nil {
		t.Fatal(err)
	}
	live, _, err := e.NewState(contracttest.Secret[:], start)
	if err != nil {
		t.Fatal(err)
	}
	first, err := contract.Encode(live)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 1))
	at := start
	var wal [][]byte
	var want [][]contract.Entry
	var states [][]byte
	kinds := map[contract.InputKind]int{}
	for n := 0; n < many(200, 80); n++ {
		at = at.Add(time.Duration(r.IntN(9*60)) * time.Minute)
		in := contract.Input{At: at}
		switch k := r.IntN(10); {
		case k < 5:
			in.Kind, in.Msg = contract.InMessage, chaosMail(r, n, at)
			in.IMAP = &contract.Checkpoint{UIDValidity: 9, LastUID: uint32(n + 1)}
		case k < 6:
			in.Kind = contract.InAdvance
		case k < 7:
			in.Kind, in.IMAP = contract.InPosition, &contract.Checkpoint{UIDValidity: 9, LastUID: uint32(n + 1)}
		default:
			if len(live.Outbox) == 0 {
				in.Kind = contract.InAdvance
				break
			}
			in.Notice = live.Outbox[r.IntN(len(live.Outbox))].ID
			switch k {
			case 7, 8:
				in.Kind = contract.InSent
			default:
				in.Kind, in.Error, in.Permanent = contract.InFailed, "451 try again later", r.IntN(2) == 0
				in.NextTry = at.Add(time.Minute)
			}
		}
		kinds[in.Kind]++
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		wal = append(wal, b)
		ent, err := e.Redo(live, &in)
		if err != nil {
			t.Fatalf("input %d: %v", n, err)
		}
		want = append(want, ent)
		enc, err := contract.Encode(live)
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, enc)
	}
	for _, k := range []contract.InputKind{contract.InMessage, contract.InAdvance, contract.InPosition, contract.InSent, contract.InFailed} {
		if kinds[k] == 0 {
			t.Fatalf("no %s input drawn: %v", k, kinds)
		}
	}

	s, err := e.Decode(first)
	if err != nil {
		t.Fatal(err)
	}
	for n, b := range wal {
		var in contract.Input
		if err := json.Unmarshal(b, &in); err != nil {
			t.Fatal(err)
		}
		ent, err := e.Redo(s, &in)
		if err != nil {
			t.Fatalf("redo %d: %v", n, err)
		}
		if !entriesEqual(ent, want[n]) {
			t.Fatalf("input %d (%s): redo made entries\n%v\nthe first time\n%v", n, in.Kind, ent, want[n])
		}
		got, err := contract.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, states[n]) {
			t.Fatalf("after input %d (%s) the redone state differs:\n%s", n, in.Kind, lineDiff(string(states[n]), string(got)))
		}
	}
}

// entriesEqual compares entries as the journal writes them.
func entriesEqual(a, b []contract.Entry) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb) || (len(a) == 0 && len(b) == 0)
}

// TestSendsAreUndone: the outbox changes of a send's outcome are undone with
// the transaction they were made in, and leave the notice as it was.
func TestSendsAreUndone(t *testing.T) {
	s := &contract.State{}
	for i := range 3 {
		s.Outbox = append(s.Outbox, &contract.Outgoing{Notice: contract.Notice{ID: fmt.Sprintf("n%d", i)}})
	}
	before := fmt.Sprint(outboxView(s))
	for _, do := range []func(){
		func() { s.Sent("n1") },
		func() { s.SendFailed("n0", "451 later", false, time.Unix(100, 0)) },
		func() { s.SendFailed("n2", "550 no such user", true, time.Time{}) },
	} {
		tx := s.Begin()
		do()
		if fmt.Sprint(outboxView(s)) == before {
			t.Fatal("the change did nothing")
		}
		tx.Undo()
		if got := fmt.Sprint(outboxView(s)); got != before {
			t.Fatalf("after undo: %s, want %s", got, before)
		}
	}
	if o := s.Sent("n9"); o != nil {
		t.Fatal("a notice not in the outbox was sent")
	}
	o := s.SendFailed("n2", "550 no such user", true, time.Time{})
	if o == nil || len(s.Failed) != 1 || s.Failed[0].Attempts != 1 || len(s.Outbox) != 2 || !reflect.DeepEqual(s.Failed[0], o) {
		t.Fatalf("a permanent failure: outbox %v, failed %v", outboxView(s), s.Failed)
	}
}

func outboxView(s *contract.State) []string {
	var v []string
	for _, o := range s.Outbox {
		v = append(v, fmt.Sprintf("%s/%d/%s/%s", o.ID, o.Attempts, o.LastError, o.NextTry.UTC().Format(time.RFC3339)))
	}
	for _, o := range s.Failed {
		v = append(v, "failed:"+o.ID)
	}
	return v
}

// TestRedoRefusesBrokenInputs: a journal input the referee cannot perform
// (a correction without its correction, a kind it does not know) is an
// error naming what is wrong, and changes nothing.
func TestRedoRefusesBrokenInputs(t *testing.T) {
	h := newToy(t)
	before, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	at := contracttest.At(t, "2026-12-01T11:00:00Z")
	for in, want := range map[*contract.Input]string{
		{Kind: contract.InCorrect, At: at}: "a correction input without its correction",
		{Kind: "dance", At: at}:            `unknown input kind "dance"`,
	} {
		if _, err := h.E.Redo(h.S, in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("redo of %s: %v, want %q", in.Kind, err, want)
		}
	}
	if after, _ := contract.Encode(h.S); !bytes.Equal(after, before) {
		t.Errorf("a refused input changed the state:\n%s", lineDiff(string(before), string(after)))
	}
}
