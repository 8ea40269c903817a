package contract_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/contract/contracttest"
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
	contract.SetVerifyUndo(false)
	defer contract.SetVerifyUndo(true)
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
		t0 := processCPU()
		for _, m := range mail {
			e.ReadAhead(m)
			if _, err := e.Apply(s, m); err != nil {
				b.Fatal(err)
			}
			s.Outbox = nil // sent
		}
		cpu += processCPU() - t0
		n += msgs
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n)/1000, "cpu-µs/msg")
}

// processCPU is the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// stream makes the archive's messages as bench/replay's generator does,
// as the engine receives them.
type stream struct {
	r       *rand.Rand
	players []streamPlayer
	at      time.Time
	n       int
}

type streamPlayer struct {
	name, addr string
	joined     bool
}

var streamChatter = []string{
	"I think the last round went badly for everyone who bet on gliders.",
	"Has anyone worked out whether a blinker near the edge wraps around the torus?",
	"Will I claim (3, 4) next week? Probably not, it looks crowded there.",
	"The report says the contest holds most of the Vials now. Is that intended?",
	"I would support a suggestion to raise VPP, if someone writes one.",
	"Thanks for the summary, that clears it up.",
	"Could the referee's receipts be shorter? Mine are three screens long.",
	"I disagree: the amended R21 is the better reading, and the rulings say so.",
	"If you claim cells in a line they die at once, so do not do that.",
	"Does anybody know when the next monthly award is counted?",
	"Speaking as a former contestmaster, this was always contested.",
	"My last message was a joke, please do not take it as an action.",
	"Someone should write a guide for new players about still lifes.",
	"Interesting. I had not noticed that the corners are neighbours.",
}

func newStream(seed uint64, players int) *stream {
	g := &stream{r: rand.New(rand.NewPCG(seed, 14)), at: time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)}
	first := []string{"Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy",
		"Mallory", "Niaj", "Olivia", "Peggy", "Rupert", "Sybil", "Trent", "Victor", "Walter", "Zelda"}
	domains := []string{"example.test", "mail.example.net", "agora.example.org", "post.example.com"}
	for i := 0; i < players; i++ {
		fn := first[i%len(first)]
		g.players = append(g.players, streamPlayer{name: fmt.Sprintf("%s%03d", fn, i),
			addr: fmt.Sprintf("%s%03d@%s", strings.ToLower(fn), i, domains[i%len(domains)])})
	}
	return g
}

func (g *stream) cell() string {
	x, y := g.r.IntN(51), g.r.IntN(51)
	switch g.r.IntN(40) {
	case 0:
		return fmt.Sprintf("(%d, %d, 1)", x, y)
	case 1:
		return fmt.Sprintf("(%d,%d)", x, y+60)
	}
	return fmt.Sprintf("(%d, %d)", x, y)
}

func (g *stream) action(p *streamPlayer) (subject, text string) {
	if !p.joined {
		p.joined = true
		return "Joining Life", "Hello all,\n\nI join the Life contest."
	}
	switch k := g.r.IntN(10); {
	case k < 5:
		return "Life", fmt.Sprintf("I claim cell %s in Life.", g.cell())
	case k < 7:
		return "Life claims", fmt.Sprintf("I claim cells %s, %s and %s in Life.", g.cell(), g.cell(), g.cell())
	case k < 8:
		return "Life", fmt.Sprintf("I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell %s.", g.cell())
	default:
		to := &g.players[g.r.IntN(len(g.players))]
		return "Life: a gift", fmt.Sprintf("I transfer %d Vials to %s.", 1+g.r.IntN(2), to.name)
	}
}

// next is the stream's next message; the first of each player's actions
// is their joining, the first messages being joinings until all joined.
func (g *stream) next() *contract.Message {
	g.n++
	g.at = g.at.Add(time.Duration(30+g.r.IntN(240)) * time.Second)
	var p *streamPlayer
	if g.n <= len(g.players) {
		p = &g.players[g.n-1]
	} else {
		p = &g.players[g.r.IntN(len(g.players))]
	}
	isAction := !p.joined || g.n%5 == 0
	ch, tag := contract.ChanPublic, "BUS: "
	if !isAction && g.r.IntN(5) < 2 {
		ch, tag = contract.ChanDiscussion, "DIS: "
	}
	var subject, text string
	if isAction {
		subject, text = g.action(p)
	} else {
		subject = "Re: " + []string{"Life strategy", "the last report", "a question about rounds", "regulations"}[g.r.IntN(4)]
		var paras []string
		for i := 0; i < 1+g.r.IntN(4); i++ {
			paras = append(paras, streamChatter[g.r.IntN(len(streamChatter))]+" "+streamChatter[g.r.IntN(len(streamChatter))])
		}
		text = strings.Join(paras, "\n\n")
	}
	return &contract.Message{ID: fmt.Sprintf("%d.%08x@example.test", g.n, g.r.Uint32()), From: p.addr, Name: p.name,
		Date: g.at.Add(-5 * time.Second), Arrived: g.at, Subject: tag + subject, Channel: ch, Authenticated: true, Text: text}
}
