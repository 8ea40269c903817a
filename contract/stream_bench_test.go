package contract_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/contract/contracttest"
	"referee/internal/benchanchor"
	"referee/internal/benchgen"
)

// BenchmarkStream times what the engine spends per message of the list
// archive bench/replay generates, as mailin hands it over (quotes and
// signatures gone): 200 players joining Life, then one message in five a
// Life action (claims of Cells, some taken or badly written, transfers of
// Vials) and the rest chatter on the business and discussion lists. Each
// iteration reads and applies a fresh stream of 20,000 messages
// (Engine.ReadAhead, then Engine.Apply, the outbox emptied as if sent), and
// reports the process's CPU time per message (run it with GOMAXPROCS=1, so
// that the garbage collector's work is counted and nothing else's):
//
//	GOMAXPROCS=1 go test ./contract -run '^$' -bench '^BenchmarkStream$' -benchtime 1x -count 3
func BenchmarkStream(b *testing.B) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	const msgs = 20000
	var cpu time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		e, err := contract.NewEngine(contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster},
			life.New(), rumble.New(), steemfield.New(), wackyworld.New())
		if err != nil {
			b.Fatal(err)
		}
		g := newStream(1, 200)
		s, _, err := e.NewState(contracttest.Secret[:], g.at)
		if err != nil {
			b.Fatal(err)
		}
		mail := make([]*contract.Message, msgs)
		for i := range mail {
			mail[i] = g.next()
		}
		runtime.GC()
		b.StartTimer()
		t0 := processCPU(b)
		for _, m := range mail {
			e.ReadAhead(m)
			if _, err := e.Apply(s, m); err != nil {
				b.Fatal(err)
			}
			s.Outbox = nil // sent
		}
		cpu += processCPU(b) - t0
		n += msgs
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n)/1000, "cpu-µs/msg")
}

// processCPU is the CPU time the process has used, user and system.
func processCPU(b *testing.B) time.Duration {
	cpu, err := benchanchor.ProcessCPU()
	if err != nil {
		b.Fatal(err)
	}
	return cpu
}

// stream makes the archive's messages as bench/replay's generator does
// (benchgen), as the engine receives them.
type stream struct {
	r       *rand.Rand
	players []benchgen.Player
	at      time.Time
	n       int
}

func newStream(seed uint64, players int) *stream {
	return &stream{r: rand.New(rand.NewPCG(seed, 14)), at: time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC), players: benchgen.Players(players)}
}

// next is the stream's next message; the first of each player's actions
// is their joining, the first messages being joinings until all joined.
func (g *stream) next() *contract.Message {
	g.n++
	g.at = g.at.Add(time.Duration(30+g.r.IntN(240)) * time.Second)
	var p *benchgen.Player
	if g.n <= len(g.players) {
		p = &g.players[g.n-1]
	} else {
		p = &g.players[g.r.IntN(len(g.players))]
	}
	isAction := !p.Joined || g.n%5 == 0
	ch, tag := contract.ChanPublic, "BUS: "
	if !isAction && g.r.IntN(5) < 2 {
		ch, tag = contract.ChanDiscussion, "DIS: "
	}
	var subject, text string
	if isAction {
		subject, text = benchgen.Action(g.r, p, g.players)
	} else {
		subject = "Re: " + benchgen.Topics[g.r.IntN(len(benchgen.Topics))]
		var paras []string
		for i := 0; i < 1+g.r.IntN(4); i++ {
			paras = append(paras, benchgen.Chatter[g.r.IntN(len(benchgen.Chatter))]+" "+benchgen.Chatter[g.r.IntN(len(benchgen.Chatter))])
		}
		text = strings.Join(paras, "\n\n")
	}
	return &contract.Message{ID: fmt.Sprintf("%d.%08x@example.test", g.n, g.r.Uint32()), From: p.Addr, Name: p.Name,
		Date: g.at.Add(-5 * time.Second), Arrived: g.at, Subject: tag + subject, Channel: ch, Authenticated: true, Text: text}
}
