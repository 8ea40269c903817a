package contract_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/contract/contracttest"
)

// BenchmarkApplyCost prints what Engine.Apply costs per message with 20, 200
// and 2,000 players in Life, against the old path in the same run: the same
// Apply preceded by the whole-state copies the engine and the daemon used to
// make (one per message, one per action). Each size is measured three times,
// the two paths alternating; the table gives the median and the spread
// (lowest to highest) of each, and their ratio.
//
//	go test -run '^$' -bench ApplyCost -benchtime 1x ./contract/
func BenchmarkApplyCost(b *testing.B) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	fmt.Printf("%8s %9s %24s %24s %7s\n", "players", "messages", "undo log µs/msg (spread)", "old copy µs/msg (spread)", "ratio")
	for _, players := range []int{20, 200, 2000} {
		const msgs = 1000
		var undo, old []float64
		for run := 0; run < 3; run++ {
			for _, copies := range []bool{false, true} {
				e, s, mail := applySetup(b, players, msgs, uint64(run))
				runtime.GC() // not the last run's garbage
				start := time.Now()
				for _, m := range mail {
					tx := s.Begin()
					if copies {
						_ = contract.Snapshot(s) // the daemon's copy of the message
						if m.Text != "" {
							_ = contract.Snapshot(s) // the engine's copy of the action
						}
					}
					if _, err := e.Apply(s, m); err != nil {
						b.Fatal(err)
					}
					tx.End()
					s.Outbox = nil // sent
				}
				us := float64(time.Since(start).Microseconds()) / msgs
				if copies {
					old = append(old, us)
				} else {
					undo = append(undo, us)
				}
			}
		}
		slices.Sort(undo)
		slices.Sort(old)
		fmt.Printf("%8d %9d %9.1f (%5.1f-%6.1f) %9.1f (%5.1f-%6.1f) %6.1fx\n", players, msgs,
			undo[1], undo[0], undo[2], old[1], old[0], old[2], old[1]/undo[1])
		b.ReportMetric(old[1]/undo[1], fmt.Sprintf("ratio-%d", players))
	}
}

// applySetup makes a state with players in Life, a month of processed
// mail in its memory, and the messages to time: one in five a Life action
// (a claim, which can fail for want of Vials or on a living Cell, or a
// transfer), the rest chatter on the public list.
func applySetup(b *testing.B, players, msgs int, seed uint64) (*contract.Engine, *contract.State, []*contract.Message) {
	b.Helper()
	e, err := contract.NewEngine(contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster},
		life.New(), rumble.New(), steemfield.New(), wackyworld.New())
	if err != nil {
		b.Fatal(err)
	}
	at := contracttest.At(b, "2026-11-10T09:00:00Z")
	s, _, err := e.NewState(contracttest.Secret[:], at)
	if err != nil {
		b.Fatal(err)
	}
	addr := func(i int) string { return fmt.Sprintf("p%04d@example.test", i) }
	n := 0
	msg := func(from int, text string) *contract.Message {
		n++
		at = at.Add(20 * time.Second)
		return &contract.Message{ID: fmt.Sprintf("m%d@example.test", n), From: addr(from), Name: fmt.Sprintf("P%04d", from),
			Arrived: at, Date: at, Subject: "Life", Channel: contract.ChanPublic, Authenticated: true, Text: text}
	}
	for i := 0; i < players; i++ {
		if _, err := e.Apply(s, msg(i, "I join the Life contest.")); err != nil {
			b.Fatal(err)
		}
		s.Outbox = nil
	}
	for i := 0; i < 3000; i++ { // the memory of the month's mail
		if _, err := e.Apply(s, msg(i%players, "")); err != nil {
			b.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(seed, 3))
	var mail []*contract.Message
	for i := 0; i < msgs; i++ {
		who := r.IntN(players)
		text := ""
		switch {
		case i%5 != 0:
		case r.IntN(4) == 0:
			text = fmt.Sprintf("I transfer 1 Vial to P%04d.", r.IntN(players))
		default:
			text = fmt.Sprintf("I claim cell (%d, %d) in Life.", r.IntN(51), r.IntN(51))
		}
		mail = append(mail, msg(who, text))
	}
	return e, s, mail
}
