package contract_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
)

// TestReadAheadAsApplied applies the same mail to two states, once read
// ahead (Engine.ReadAhead before each Apply, as the daemon and a replay
// do) and once not, and compares what each sent and journaled: joinings,
// claims, a contestmaster's correction (read ahead with the sentences),
// and a message whose text changed after it was read ahead, which must be
// read again.
//
// The checks of undo are off: with them, Apply runs each message twice and
// keeps the second run, which finds nothing read ahead.
func TestReadAheadAsApplied(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	type mail struct {
		from, text string
		ahead      string // the text read ahead, when not text
		private    bool
	}
	cm := contracttest.Contestmaster
	stream := []mail{
		{from: "alice@example.test", text: "I join the Life contest."},
		{from: "bob@example.test", text: "I join the Life contest. I claim cell (3, 4) in Life."},
		{from: "alice@example.test", text: "Hello.\n\nI CoE on the last receipt: it is wrong."},
		{from: cm, text: "I correct CoE #1: message <m2@example.test> is void.\n\nI claim cell (5, 5) in Life.", private: true},
		{from: "carol@example.test", text: "I join the Life contest.", ahead: "I correct CoE #1: message <m1@example.test> is void."},
		{from: "bob@example.test", text: "I correct CoE #1: message <m1@example.test> is void.", ahead: "I transfer 1 Vial to alice."},
		{from: cm, text: "I correct CoE #1: message <m3@example.test> reads `I join the Life contest.`", ahead: "I correct CoE #1: message <m3@example.test> is void.", private: true},
	}
	run := func(ahead bool) string {
		e, err := contract.NewEngine(contract.Config{Referee: contracttest.Referee, Contestmaster: cm}, life.New())
		if err != nil {
			t.Fatal(err)
		}
		at := contracttest.At(t, "2026-11-10T09:00:00Z")
		s, _, err := e.NewState(contracttest.Secret[:], at)
		if err != nil {
			t.Fatal(err)
		}
		var out []any
		for i, ml := range stream {
			at = at.Add(time.Minute)
			m := &contract.Message{ID: fmt.Sprintf("m%d@example.test", i+1), From: ml.from, Arrived: at, Date: at,
				Subject: "Life", Channel: contract.ChanPublic, Authenticated: true, Text: ml.text}
			if ml.private {
				m.Channel = contract.ChanPrivate
			}
			if ahead {
				if ml.ahead != "" {
					m.Text = ml.ahead
				}
				e.ReadAhead(m)
				m.Text = ml.text
			}
			ents, err := e.Apply(s, m)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, ents, s.Outbox)
			s.Outbox = nil
		}
		b, err := json.MarshalIndent(out, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want, got := run(false), run(true)
	if got != want {
		t.Errorf("read ahead, the mail was applied otherwise:\n%s\nwithout reading ahead:\n%s", got, want)
	}
}
