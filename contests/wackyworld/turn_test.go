package wackyworld

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/contract"
)

func TestNextTurn(t *testing.T) {
	tests := []struct{ last, want string }{
		{"2026-12-01T10:00:00Z", "2026-12-07T00:00:00Z"}, // Thursday is only 38 h away
		{"2026-12-07T00:00:00Z", "2026-12-10T00:00:00Z"},
		{"2026-12-10T00:00:00Z", "2026-12-14T00:00:00Z"},
		{"2026-12-08T00:00:00Z", "2026-12-10T00:00:00Z"}, // exactly 48 h
		{"2026-12-08T00:00:01Z", "2026-12-14T00:00:00Z"},
	}
	for _, tt := range tests {
		last, want := mustTime(t, tt.last), mustTime(t, tt.want)
		got := nextTurn(last)
		if !got.Equal(want) {
			t.Errorf("nextTurn(%s) = %s, want %s", tt.last, got, tt.want)
		}
		// Wacky 4, W2: never within 48 h, at least once per Agoran week.
		if got.Sub(last) < 48*time.Hour || got.After(contract.NextWeekStart(last).AddDate(0, 0, 7)) {
			t.Errorf("nextTurn(%s) = %s breaks the 48 h / weekly bounds", tt.last, got)
		}
	}
}

// TestTurnsAndPollination: turns on Monday and Thursday; pollination from the
// Fertile set at the turn's start with the committed draws (fixed seed, G5).
func TestTurnsAndPollination(t *testing.T) {
	h := world(t)
	h.terrain(`0,0="`, `5,7="`, `5,8="`, `10,10="`, `10,9=#`, `11,10=#`, `10,11=#`, `9,10="`)
	start := append([]string(nil), h.data().Terrain...)
	ns := h.advance("2026-12-07T00:00:00Z")
	st := h.data()
	if st.Turn != 2 || !st.TurnStart.Equal(mustTime(t, "2026-12-07T00:00:00Z")) {
		t.Fatalf("turn %d at %s, want turn 2 on Monday", st.Turn, st.TurnStart)
	}
	// Expected: recomputed from the seed alone.
	seed := contract.SeedFor(testSecret, "2026-W50")
	at := func(rows []string, p Pos) byte { return rows[p.Y][p.X] }
	want := append([]string(nil), start...)
	made := 0
	for y, row := range start {
		for x := range row {
			if row[x] != Fertile {
				continue
			}
			nb := st.neighbours(Pos{x, y})
			k := contract.Intn(seed, fmt.Sprintf("%s/2026-W50/turn/2/pollen/%d,%d", ID, x, y), len(nb))
			tg := nb[k]
			if at(start, tg) == Fallow {
				r := []byte(want[tg.Y])
				if r[tg.X] != Fertile {
					made++
				}
				r[tg.X] = Fertile
				want[tg.Y] = string(r)
			}
		}
	}
	if strings.Join(st.Terrain, "\n") != strings.Join(want, "\n") {
		t.Errorf("terrain after pollination:\n%s\nwant:\n%s", strings.Join(st.Terrain, "\n"), strings.Join(want, "\n"))
	}
	if made == 0 {
		t.Errorf("the fixture made no tile Fertile; choose another")
	}
	// The turn notice is public and lists the pollination.
	var turn *contract.Notice
	for _, n := range ns {
		if n.ID == ID+"/turn/2" {
			turn = n
		}
	}
	if turn == nil || turn.Channel != contract.ChanPublic || !strings.Contains(turn.Body, "Pollination") {
		t.Fatalf("no public turn notice: %+v", ns)
	}
	// One Game Action per turn: Alice acted in turn 1, may act again in turn 2.
	h2 := world(t)
	h2.public("2026-12-01T11:00:00Z", alice, "I move north in Wacky World.")
	h2.advance("2026-12-07T00:00:00Z")
	if r := h2.public("2026-12-07T00:01:00Z", alice, "I move north in Wacky World."); !done(r) {
		t.Errorf("move in the next turn: %s", r.Body)
	}
	h2.advance("2026-12-10T00:00:00Z")
	if h2.data().Turn != 3 {
		t.Errorf("Thursday turn: got turn %d, want 3", h2.data().Turn)
	}
}

// TestPollinationNoChains: a tile made Fertile in a turn does not pollinate in
// that turn (W2).
func TestPollinationNoChains(t *testing.T) {
	h := world(t)
	h.terrain(`8,8="`)
	h.advance("2026-12-07T00:00:00Z")
	if n := strings.Count(strings.Join(h.data().Terrain, ""), string(Fertile)); n > 2 {
		t.Errorf("%d Fertile tiles from one, want at most 2", n)
	}
}

// TestPollinationSparesWalls: pollination makes only a Fallow target
// Fertile (Wacky 4): a Fertile tile walled in on every side leaves its walls
// standing, and the turn notice says the target was already a Wall.
func TestPollinationSparesWalls(t *testing.T) {
	h := world(t)
	h.terrain(`8,8="`, `8,7=#`, `9,8=#`, `8,9=#`, `7,8=#`)
	ns := h.advance("2026-12-07T00:00:00Z")
	st := h.data()
	for _, p := range []Pos{{8, 7}, {9, 8}, {8, 9}, {7, 8}} {
		if got := st.at(p); got != Wall {
			t.Errorf("pollination made the Wall at %s %q", p, terrainName(got))
		}
	}
	if n := strings.Count(strings.Join(st.Terrain, ""), string(Fertile)); n != 1 {
		t.Errorf("%d Fertile tiles after pollinating from a walled-in one, want 1", n)
	}
	var body string
	for _, n := range ns {
		if n.ID == ID+"/turn/2" {
			body = n.Body
		}
	}
	if !strings.Contains(body, "already Wall") {
		t.Errorf("the turn notice does not say the target was a Wall:\n%s", body)
	}
}

// TestTurnEventsInTheJournal: each turn's event line in the journal, which
// operators read, carries the number of the turn it starts (Wacky 4).
func TestTurnEventsInTheJournal(t *testing.T) {
	h := world(t)
	ents, err := h.e.Advance(h.s, mustTime(t, "2026-12-11T00:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range ents {
		if e.Game == ID && e.Verb == evTurn {
			keys = append(keys, fmt.Sprint(e.Detail["key"]))
		}
	}
	// Turn 1 began with the game; Monday 7 and Thursday 10 December start
	// turns 2 and 3.
	if got := strings.Join(keys, ","); got != "2,3" {
		t.Errorf("turn events keyed %q, want \"2,3\"", got)
	}
	if h.data().Turn != 3 {
		t.Errorf("turn %d after Thursday, want 3", h.data().Turn)
	}
}
