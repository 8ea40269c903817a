package contract_test

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"referee/contract"
	"referee/internal/benchgames"
)

// TestHashTextOfGamesData: the text a state hash covers, written with each
// list of a game's data encoded item by item and the items' texts kept, is
// the YAML encoding of the whole, byte for byte: in Rumble, Steemfield and
// Wacky World after a stretch of play with 70 players (more than one
// document of items, itemChunk), and after each of 300 messages of play
// that follow (actions that change an item, add one or none).
func TestHashTextOfGamesData(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	for _, g := range benchgames.Games {
		t.Run(g.ID, func(t *testing.T) {
			e, s, at := g.Setup(t, contract.Config{}, 70)
			var h contract.HashTexter
			same := func(when string) {
				t.Helper()
				parts, whole, err := h.Texts(s, g.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(parts, whole) {
					i := 0
					for i < min(len(parts), len(whole)) && parts[i] == whole[i] {
						i++
					}
					t.Fatalf("%s: the text in parts differs from the whole at byte %d:\n%q\nagainst\n%q", when, i,
						parts[max(0, i-200):min(len(parts), i+200)], whole[max(0, i-200):min(len(whole), i+200)])
				}
			}
			same("after the setup")
			for i, m := range benchgames.Mail(g, 70, at)[:300] {
				if _, err := e.Apply(s, m); err != nil {
					t.Fatal(err)
				}
				s.Outbox = nil
				same(fmt.Sprintf("after message %d (%q)", i, m.Text))
			}
		})
	}
}

// TestPrepareMakesTheFirstNoticeCheap: an engine that read a state with
// Prepare sends the first public notice of a game of 200 players for a
// fifth of what an engine that did not pays (which encodes the whole state
// for its hash then), and the same notice: the same hash.
func TestPrepareMakesTheFirstNoticeCheap(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	var g benchgames.Game
	for _, x := range benchgames.Games {
		if x.ID == "rumble" {
			g = x
		}
	}
	cfg := contract.Config{SeenHorizon: 30 * 24 * time.Hour}
	_, s, at := g.Setup(t, cfg, 200)
	text, err := contract.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	load := func() (*contract.Engine, *contract.State) {
		e := benchgames.Engine(t, cfg)
		s, err := e.Decode(text)
		if err != nil {
			t.Fatal(err)
		}
		return e, s
	}
	coldE, cold := load()
	readyE, ready := load()
	if err := readyE.Prepare(ready); err != nil {
		t.Fatal(err)
	}
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	for i, m := range benchgames.Mail(g, 200, at) {
		var coldOut, readyOut []*contract.Outgoing
		coldCost := allocated(func() {
			if _, err := coldE.Apply(cold, m); err != nil {
				t.Fatal(err)
			}
		})
		readyCost := allocated(func() {
			if _, err := readyE.Apply(ready, m); err != nil {
				t.Fatal(err)
			}
		})
		coldOut, readyOut = cold.Outbox, ready.Outbox
		cold.Outbox, ready.Outbox = nil, nil
		if !slices.ContainsFunc(coldOut, func(o *contract.Outgoing) bool { return o.Channel.IsPublic() }) {
			continue
		}
		for j := range coldOut {
			if coldOut[j].Body != readyOut[j].Body {
				t.Fatalf("message %d: the notice differs after Prepare:\n%s\nagainst\n%s", i, readyOut[j].Body, coldOut[j].Body)
			}
		}
		if readyCost*5 > coldCost {
			t.Errorf("message %d (%q), the first to send a public notice: %d bytes allocated after Prepare, %d without", i, m.Text, readyCost, coldCost)
		}
		return
	}
	t.Fatal("no message of the play sent a public notice")
}

// TestSnapshotOfGamesData: the state file's games, written by an Encoder
// from the parts it keeps (each list's items, the section's head, its
// recent events), are the sections written whole, in Rumble, Steemfield and
// Wacky World after a stretch of play with 70 players and after each of 300
// messages that follow; and so is a snapshot taken after one message and
// encoded after the next, as the daemon writes one while the game goes on.
func TestSnapshotOfGamesData(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	gamesOf := func(b []byte) string {
		i := bytes.Index(b, []byte("\ngames:\n"))
		if i < 0 {
			t.Fatalf("no games in the state file:\n%s", b)
		}
		return string(b[i+1:])
	}
	for _, g := range benchgames.Games {
		t.Run(g.ID, func(t *testing.T) {
			e, s, at := g.Setup(t, contract.Config{}, 70)
			var enc contract.Encoder
			var taken *contract.Taken
			var takenWhole string
			for i, m := range append([]*contract.Message{nil}, benchgames.Mail(g, 70, at)[:300]...) {
				if m != nil {
					if _, err := e.Apply(s, m); err != nil {
						t.Fatal(err)
					}
					s.Outbox = nil
				}
				if taken != nil {
					b, err := taken.Encode()
					if err != nil {
						t.Fatal(err)
					}
					if got := gamesOf(b); got != takenWhole {
						t.Fatalf("message %d: the snapshot taken before it is written\n%s\nwhole when taken\n%s", i, got, takenWhole)
					}
				}
				whole, err := contract.SectionsWhole(s)
				if err != nil {
					t.Fatal(err)
				}
				b, err := enc.Encode(s)
				if err != nil {
					t.Fatal(err)
				}
				if got := gamesOf(b); got != whole {
					t.Fatalf("message %d: the games written from their parts are\n%s\nwhole\n%s", i, got, whole)
				}
				taken, takenWhole = enc.Take(s), whole
			}
		})
	}
}
