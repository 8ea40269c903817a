// Package benchgames is the play of Rumble, Steemfield and Wacky World that
// the cost benchmarks time: each game set up with 20 to 2,000 players and a
// stretch of play behind them (Game.Setup), then the players' mail, actions
// of the game as players write them, valid or not, and chatter on the public
// list (Mail). contract's BenchmarkGameCost hands it to Engine.Apply, the
// daemon's BenchmarkLiveSave to the daemon's transaction; contract's tests
// of the state hash's text play it too.
package benchgames

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/contract/contracttest"
)

// A Game builds a game's state at a size and writes its players' mail.
type Game struct {
	Name, ID, Subject string
	// Setup returns an engine of the three games made with cfg (its
	// Referee and Contestmaster set to contracttest's), a state with
	// players joined and the stretch of play behind them, and the time
	// the timed mail begins.
	Setup func(b testing.TB, cfg contract.Config, players int) (*contract.Engine, *contract.State, time.Time)
	// Action is the i-th action message of the timed mail: its sender, its
	// channel and its text. Sender -1 is the contestmaster.
	Action func(r *rand.Rand, players int) (int, contract.Channel, string)
}

// Games are Rumble, Steemfield and Wacky World.
var Games = []Game{
	{Name: "Rumble", ID: "rumble", Subject: "Rumble", Setup: rumbleSetup, Action: rumbleAction},
	{Name: "Steemfield", ID: "steemfield", Subject: "Steemfield", Setup: steemSetup, Action: steemAction},
	{Name: "Wacky World", ID: "wackyworld", Subject: "Wacky World", Setup: wackySetup, Action: wackyAction},
}

// Mail is the timed mail: 1,000 messages 20 seconds apart from at, one in
// two an action (Game.Action), the others chatter of a random player.
func Mail(g Game, players int, at time.Time) []*contract.Message {
	r := rand.New(rand.NewPCG(uint64(players), 7))
	var mail []*contract.Message
	for i := 0; i < 1000; i++ {
		at = at.Add(20 * time.Second)
		who, ch, text := 1+r.IntN(players-1), contract.ChanPublic, ""
		if i%2 == 0 {
			who, ch, text = g.Action(r, players)
		}
		mail = append(mail, Msg(fmt.Sprintf("t%d", i), who, ch, at, g.Subject, text))
	}
	return mail
}

// Addr is player i's address.
func Addr(i int) string { return fmt.Sprintf("p%04d@example.test", i) }

// PlayerName is player i's name.
func PlayerName(i int) string { return fmt.Sprintf("P%04d", i) }

// Msg is a message from player i (-1: the contestmaster).
func Msg(id string, i int, ch contract.Channel, at time.Time, subject, text string) *contract.Message {
	from, name := Addr(i), PlayerName(i)
	if i < 0 {
		from, name = contracttest.Contestmaster, "Mars"
	}
	return &contract.Message{ID: id + "@example.test", From: from, Name: name, Arrived: at, Date: at,
		Subject: subject, Channel: ch, ListCopy: ch.IsPublic(), Authenticated: true, Text: text}
}

// Engine is the engine of the setups: the three games, with cfg's
// Referee and Contestmaster set to contracttest's.
func Engine(b testing.TB, cfg contract.Config) *contract.Engine {
	b.Helper()
	cfg.Referee, cfg.Contestmaster = contracttest.Referee, contracttest.Contestmaster
	e, err := contract.NewEngine(cfg, rumble.New(), steemfield.New(), wackyworld.New())
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// play applies messages to the state of a setup, failing on an error
// (a rejected action is no error).
type play struct {
	b       testing.TB
	e       *contract.Engine
	s       *contract.State
	subject string
	n       int
}

func newPlay(b testing.TB, cfg contract.Config, subject string, start string) *play {
	b.Helper()
	e := Engine(b, cfg)
	s, _, err := e.NewState(contracttest.Secret[:], contracttest.At(b, start))
	if err != nil {
		b.Fatal(err)
	}
	return &play{b: b, e: e, s: s, subject: subject}
}

func (p *play) send(at time.Time, who int, ch contract.Channel, text string) {
	p.b.Helper()
	p.n++
	if _, err := p.e.Apply(p.s, Msg(fmt.Sprintf("s%d", p.n), who, ch, at, p.subject, text)); err != nil {
		p.b.Fatal(err)
	}
	p.s.Outbox = nil
}

func (p *play) advance(to time.Time) {
	p.b.Helper()
	if _, err := p.e.Advance(p.s, to); err != nil {
		p.b.Fatal(err)
	}
	p.s.Outbox = nil
}

// chatter is the memory of a month's mail: 3,000 messages without actions.
func (p *play) chatter(at time.Time, players int) {
	for i := 0; i < 3000; i++ {
		p.send(at.Add(time.Duration(i)*time.Second), i%players, contract.ChanPublic, "")
	}
}

// rumbleSetup: the players join, the contestmaster announces a game of two
// powers each, everyone submits eir powers (tagged ward, fury, mend or
// thorns), bids on them and keeps them, and fights three rounds, each
// closing when every list is in. The timed mail comes in round 4, which
// player 0 keeps open by sending nothing.
func rumbleSetup(b testing.TB, cfg contract.Config, players int) (*contract.Engine, *contract.State, time.Time) {
	p := newPlay(b, cfg, "Rumble", "2026-12-01T09:00:00Z")
	at := contracttest.At(b, "2026-12-01T10:00:00Z")
	p.chatter(at.Add(-time.Hour), players)
	for i := 0; i < players; i++ {
		p.send(at, i, contract.ChanPublic, "I join Rumble.")
	}
	at = at.Add(time.Hour)
	p.send(at, -1, contract.ChanPublic, "I announce a new game of Rumble with 2 powers per contestant and 0 contestmaster powers.")
	tags := []string{"(ward)", "[fury]", "effect: mend", "(thorns)"}
	st := func() *rumble.State { return p.s.Games["rumble"].Data.(*rumble.State) }
	alive := func() []int { // the living contestants, by number
		var out []int
		for i, f := range st().Fighters {
			if f.Name != PlayerName(i) {
				b.Fatalf("Rumble: contestant %d is %s, want %s", i, f.Name, PlayerName(i))
			}
			if f.Alive {
				out = append(out, i)
			}
		}
		return out
	}
	step := func(phase string, list func(i int) string) {
		round := st().Round
		at = at.Add(time.Hour)
		for _, i := range alive() {
			p.send(at.Add(time.Duration(i)*time.Second), i, contract.ChanPrivate, list(i))
		}
		at = at.Add(time.Hour)
		p.advance(at)
		if st().Phase == phase && st().Round == round {
			b.Fatalf("Rumble: phase %s did not close with %d players (round %d, phase %s close %v deadline %v subs %d %+v)", phase, players, st().Round, st().Phase, st().CloseAt, st().Deadline, len(st().Subs), st().Fighters[0])
		}
	}
	step(rumble.PhasePowers, func(i int) string {
		return fmt.Sprintf("Might %d: strength of P%04d %s\nGuard %d: shield of P%04d %s", i, i, tags[i%4], i, i, tags[(i+1)%4])
	})
	step(rumble.PhaseBids, func(i int) string { return fmt.Sprintf("I bid 10 on Might %d. I bid 5 on Guard %d.", i, i) })
	step(rumble.PhaseDiscard, func(int) string { return "No discard." })
	r := rand.New(rand.NewPCG(uint64(players), 1))
	for round := 1; round <= 3; round++ {
		living := alive() // a contestant killed in a round is attacked no more
		step(rumble.PhaseRound, func(i int) string {
			target := living[r.IntN(len(living))]
			for target == i {
				target = living[r.IntN(len(living))]
			}
			e := st().Fighters[i].Energy // what a list may spend (Rumble 8)
			if e < 8 {
				return fmt.Sprintf("Attack P%04d 1\nDefend %d", target, e-1)
			}
			return fmt.Sprintf("Attack P%04d %d\nDefend %d\nSpend 1 on Might %d\nSpend 1 on Guard %d", target, min(10, e/8), min(20, e/4), i, i)
		})
	}
	if st().Round != 4 || st().Phase != rumble.PhaseRound {
		b.Fatalf("Rumble: round %d phase %q after three rounds, want round 4", st().Round, st().Phase)
	}
	return p.e, p.s, at
}

// rumbleAction: an action list in private (valid, or over the energy, or
// naming a power not held or a stranger), a bid out of its phase, a list
// sent to the public list, a join during the game.
func rumbleAction(r *rand.Rand, players int) (int, contract.Channel, string) {
	who, other := 1+r.IntN(players-1), r.IntN(players)
	switch r.IntN(8) {
	case 0:
		return who, contract.ChanPrivate, fmt.Sprintf("Attack P%04d 500", other)
	case 1:
		return who, contract.ChanPrivate, fmt.Sprintf("Attack P%04d 5 / Spend 3 on Might %d", other, other)
	case 2:
		return who, contract.ChanPrivate, fmt.Sprintf("I bid 10 on Might %d.", who)
	case 3:
		return who, contract.ChanPublic, fmt.Sprintf("Attack P%04d 5 / Defend 10", other)
	case 4:
		return who, contract.ChanPublic, "I join Rumble."
	case 5:
		return who, contract.ChanPrivate, "Attack: 10 to Nobody"
	}
	return who, contract.ChanPrivate, fmt.Sprintf("Attack: 10 to P%04d; Defense: 20 / Might %d: 2\nGuard %d: 1", other, who, who)
}

// steemSetup: the players join ({DELEGATE}), the game starts, and three
// rounds go by: in each, one player in two proposes, others place LAND or
// roll, and every player votes yes. The first proposal put to the vote
// raises the cap (every player then gets LAND at the round's end), the
// second grows the map to 40x40, the third needs the controller's ruling.
// The timed mail comes in round 4's proposal period.
func steemSetup(b testing.TB, cfg contract.Config, players int) (*contract.Engine, *contract.State, time.Time) {
	p := newPlay(b, cfg, "Steemfield", "2026-12-01T09:00:00Z")
	at := contracttest.At(b, "2026-12-01T10:00:00Z")
	p.chatter(at.Add(-time.Hour), players)
	for i := 0; i < players; i++ {
		pw := "1"
		if i%3 == 2 {
			pw = "0.5"
		}
		p.send(at.Add(time.Duration(i)*time.Second), i, contract.ChanPublic, fmt.Sprintf("{DELEGATE: %s}", pw))
	}
	st := func() *steemfield.State { return p.s.Games["steemfield"].Data.(*steemfield.State) }
	chosen := []string{"SET LANDCap = 50000", "SET GridSize = 40", "Players may sing."}
	r := rand.New(rand.NewPCG(uint64(players), 2))
	for round := 1; round <= 3; round++ {
		at = st().RoundStart.Add(time.Hour)
		if at.Before(st().RoundStart) || st().Phase != steemfield.PhaseProposal || st().Round != round {
			b.Fatalf("Steemfield: round %d phase %q, want round %d's proposal period", st().Round, st().Phase, round)
		}
		size := 10
		if round == 3 {
			size = 40
		}
		for i := 0; i < players; i++ {
			var text string
			switch {
			case i == round-1:
				text = "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\n" + chosen[round-1] + "\n---"
			case i%2 == 1:
				text = fmt.Sprintf("I think so.\n---\n{PROPOSAL:ADDITION}\nAddition: Participation\nPlayer %d may sing in round %d.\n---", i, round)
			case i%4 == 0:
				text = "{ROLL}"
			default:
				text = fmt.Sprintf("{PLACE: L(%d, %d)}", 1+r.IntN(size), 1+r.IntN(size))
			}
			p.send(at.Add(time.Duration(i)*time.Second), i, contract.ChanPublic, text)
		}
		p.advance(st().ProposalEnd.Add(time.Minute))
		at = st().ProposalEnd.Add(time.Hour)
		for i := 0; i < players; i++ {
			vote := "{YES}\nWhy not."
			if i%5 == 4 {
				vote = "{NO}"
			}
			p.send(at.Add(time.Duration(i)*time.Second), i, contract.ChanPublic, vote)
		}
		p.advance(st().RoundEnd.Add(time.Minute))
	}
	if st().Round != 4 || st().Phase != steemfield.PhaseProposal {
		b.Fatalf("Steemfield: round %d phase %q after three rounds, want round 4's proposal period", st().Round, st().Phase)
	}
	return p.e, p.s, st().RoundStart.Add(time.Hour)
}

// steemAction: a placement (free or taken, on the map or off it, or a
// second one), a proposal (or a second), a roll, a gift, a burn, a vote
// out of its period, a broken tag.
func steemAction(r *rand.Rand, players int) (int, contract.Channel, string) {
	who := r.IntN(players)
	switch r.IntN(8) {
	case 0, 1:
		return who, contract.ChanPublic, fmt.Sprintf("{PLACE: L(%d, %d)}", 1+r.IntN(40), 1+r.IntN(40))
	case 2:
		return who, contract.ChanPublic, fmt.Sprintf("{PLACE: L(%d, 3)}", 41+r.IntN(10))
	case 3:
		return who, contract.ChanPublic, fmt.Sprintf("---\n{PROPOSAL:REPLACEMENT}\nReplacement: Gameplay, Rule 4\nThe cap on total LAND is %d.\n---", 100+r.IntN(900))
	case 4:
		return who, contract.ChanPublic, "{ROLL}"
	case 5:
		return who, contract.ChanPublic, fmt.Sprintf("{GIFT_1_LAND_TO:\"P%04d\"}", r.IntN(players))
	case 6:
		return who, contract.ChanPublic, "{BURN:1}"
	}
	return who, contract.ChanPublic, "{YES} {PLACE: L(2,"
}

// wackySetup: the players join, Atlas grows the World to 48x48, and three
// turns go by, in which each party moves, reaps, builds a wall, drops a
// thing or searches. The timed mail comes early in turn 4.
func wackySetup(b testing.TB, cfg contract.Config, players int) (*contract.Engine, *contract.State, time.Time) {
	p := newPlay(b, cfg, "Wacky World", "2026-12-01T09:00:00Z")
	at := contracttest.At(b, "2026-12-01T10:00:00Z")
	p.chatter(at.Add(-time.Hour), players)
	for i := 0; i < players; i++ {
		p.send(at.Add(time.Duration(i)*time.Second), i, contract.ChanPublic, "I join Wacky World.")
	}
	p.send(at.Add(2*time.Hour), -1, contract.ChanPublic, "I modify Wacky World: SET Width = 48")
	p.send(at.Add(2*time.Hour), -1, contract.ChanPublic, "I modify Wacky World: SET Height = 48")
	p.send(at.Add(2*time.Hour), -1, contract.ChanPublic, "I create a medal named Gold Star in Wacky World.")
	st := func() *wackyworld.State { return p.s.Games["wackyworld"].Data.(*wackyworld.State) }
	r := rand.New(rand.NewPCG(uint64(players), 3))
	for turn := 2; turn <= 4; turn++ {
		p.advance(at.Add(7 * 24 * time.Hour))
		for st().Turn < turn {
			at = at.Add(time.Hour)
			p.advance(at)
		}
		at = st().TurnStart.Add(time.Hour)
		if turn == 4 {
			break
		}
		for i := 0; i < players; i++ {
			_, _, text := wackyAction(r, players)
			p.send(at.Add(time.Duration(i)*time.Second), i, contract.ChanPublic, text)
		}
	}
	return p.e, p.s, at
}

// wackyAction: a move (which may meet a Wall or the edge), a reap (of a
// tile Fertile or not), a wall built, a thing dropped or picked up, a
// search.
func wackyAction(r *rand.Rand, players int) (int, contract.Channel, string) {
	who := r.IntN(players)
	dirs := []string{"north", "south", "east", "west"}
	var text string
	switch r.IntN(8) {
	case 0, 1, 2:
		text = fmt.Sprintf("I move %s in Wacky World.", dirs[r.IntN(4)])
	case 3:
		text = fmt.Sprintf("I reap the tile %s in Wacky World.", dirs[r.IntN(4)])
	case 4:
		text = fmt.Sprintf("I build a wall to the %s in Wacky World.", dirs[r.IntN(4)])
	case 5:
		text = fmt.Sprintf("I drop a silver spoon %d in Wacky World.", r.IntN(1000))
	case 6:
		text = fmt.Sprintf("I pick up asset #%d in Wacky World.", 1+r.IntN(50))
	default:
		text = "I search in Wacky World."
	}
	return who, contract.ChanPublic, text
}
