package contract_test

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"

	"referee/contract"
	"referee/internal/benchgames"
)

// BenchmarkGameCost prints what Engine.Apply costs per message in Rumble,
// Steemfield and Wacky World with 20, 200 and 2,000 players joined to the
// game and a stretch of play behind them (Rumble: a game of two powers each,
// three rounds fought; Steemfield: three rounds of proposals, votes and
// placements, the cap and the map grown by passed proposals; Wacky World:
// a grown World, three turns of moves, reaps, walls and things dropped),
// then 1,000 messages: one in two a player's action of that game as players
// write them, valid or not, the rest chatter on the public list. Then the
// game's events of the next eight days (rounds, posts, turns, reports), each
// timed. Each size is run three times from copies of one state; the tables
// give the median and the spread (lowest to highest), and the 2,000/20
// ratio. The setups and the mail are internal/benchgames's.
//
//	go test -run '^$' -bench GameCost -benchtime 1x ./contract/
func BenchmarkGameCost(b *testing.B) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	sizes := []int{20, 200, 2000}
	if testing.Short() {
		sizes = []int{20, 60, 200} // a quick look
	}
	for _, g := range benchgames.Games {
		b.Run(g.ID, func(b *testing.B) { gameCost(b, g, sizes) })
	}
}

func gameCost(b *testing.B, g benchgames.Game, sizes []int) {
	{
		fmt.Printf("\n%s\n%8s %9s %24s %24s %24s\n", g.Name, "players", "messages", "all µs/msg (spread)", "actions µs/msg (spread)", "chatter µs/msg (spread)")
		var first, firstAct float64
		events := map[string][3][]float64{} // event name: its µs per event at each size
		counts := map[string][3]int{}
		for si, players := range sizes {
			e, base, at := g.Setup(b, contract.Config{}, players)
			mail := benchgames.Mail(g, players, at)
			var all, act, chat []float64
			for run := 0; run < 3; run++ {
				s := contract.Snapshot(base)
				runtime.GC()
				var ta, tc time.Duration
				var na, nc int
				start := time.Now()
				for _, m := range mail {
					t0 := time.Now()
					if _, err := e.Apply(s, m); err != nil {
						b.Fatal(err)
					}
					d := time.Since(t0)
					if m.Text == "" {
						tc, nc = tc+d, nc+1
					} else {
						ta, na = ta+d, na+1
					}
					s.Outbox = nil
				}
				all = append(all, float64(time.Since(start).Microseconds())/float64(len(mail)))
				act = append(act, float64(ta.Microseconds())/float64(na))
				chat = append(chat, float64(tc.Microseconds())/float64(nc))
				// The game's events of the next eight days, hour by hour: a
				// step's time goes to the events it ran.
				per := map[string][]time.Duration{}
				clock := s.Clock
				for h := 1; h <= 8*24; h++ {
					t0 := time.Now()
					ent, err := e.Advance(s, clock.Add(time.Duration(h)*time.Hour))
					if err != nil {
						b.Fatal(err)
					}
					d := time.Since(t0)
					var names []string
					for _, en := range ent {
						if en.Outcome == "event" && en.Game == g.ID {
							names = append(names, en.Verb)
						}
					}
					for _, n := range names {
						per[n] = append(per[n], d/time.Duration(len(names)))
					}
					s.Outbox = nil
				}
				for n, ds := range per {
					var sum time.Duration
					for _, d := range ds {
						sum += d
					}
					ev, cn := events[n], counts[n]
					ev[si] = append(ev[si], float64(sum.Microseconds())/float64(len(ds)))
					cn[si] = len(ds)
					events[n], counts[n] = ev, cn
				}
			}
			slices.Sort(all)
			slices.Sort(act)
			slices.Sort(chat)
			if si == 0 {
				first, firstAct = all[1], act[1]
			}
			fmt.Printf("%8d %9d %9.1f (%5.1f-%6.1f) %9.1f (%5.1f-%6.1f) %9.1f (%5.1f-%6.1f)\n", players, len(mail),
				all[1], all[0], all[2], act[1], act[0], act[2], chat[1], chat[0], chat[2])
			if si == len(sizes)-1 {
				fmt.Printf("%8s %9s %9.1fx %24s\n", fmt.Sprintf("%d/%d", players, sizes[0]), "", all[1]/first, fmt.Sprintf("%.1fx", act[1]/firstAct))
				b.ReportMetric(all[1]/first, g.ID+"-ratio")
			}
		}
		var names []string
		for n := range events {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Printf("%-22s %8s %8s %22s\n", "event", "players", "per run", "µs/event (spread)")
		for _, n := range names {
			for si, players := range sizes {
				v := slices.Clone(events[n][si])
				if len(v) == 0 {
					continue
				}
				slices.Sort(v)
				fmt.Printf("%-22s %8d %8d %9.0f (%5.0f-%6.0f)\n", n, players, counts[n][si], v[len(v)/2], v[0], v[len(v)-1])
			}
		}
	}
}
