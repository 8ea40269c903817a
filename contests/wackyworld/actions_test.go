package wackyworld

import (
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"referee/contests/life"
	"referee/contract"
)

const (
	alice = "Alice <alice@example.test>"
	bob   = "Bob <bob@example.test>"
	carol = "Carol <carol@example.test>"
	aAddr = "alice@example.test"
	bAddr = "bob@example.test"
	cAddr = "carol@example.test"
)

// gameSnap is everything a Wacky World action may change.
func (h *harness) gameSnap() string {
	h.t.Helper()
	var members []string
	for _, p := range h.s.Members(ID) {
		members = append(members, p.Name)
	}
	b, err := yaml.Marshal(map[string]any{"game": h.data(), "ledger": h.s.Ledger, "points": h.s.Points,
		"members": members, "params": h.s.Games[ID].Params})
	if err != nil {
		h.t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

// world starts a game on Tuesday 2026-12-01 with Alice and Bob joined, the
// terrain all Fallow, Alice at (5, 5) and Bob at (9, 9).
func world(t *testing.T) *harness {
	h := newHarness(t, "2026-12-01T09:00:00Z")
	for i, who := range []string{alice, bob} {
		if r := h.public(fmt.Sprintf("2026-12-01T10:0%d:00Z", i), who, "I join Wacky World."); !done(r) {
			t.Fatalf("join %s: %v", who, r)
		}
	}
	h.data().resize(0, 0)
	h.data().resize(16, 16)
	h.place(aAddr, 5, 5)
	h.place(bAddr, 9, 9)
	return h
}

func TestJoin(t *testing.T) {
	h := newHarness(t, "2026-12-01T09:00:00Z")
	r := h.public("2026-12-01T10:00:00Z", alice, "I join the Wacky World contract.")
	if !done(r) {
		t.Fatalf("join: %v", r)
	}
	st := h.data()
	p := h.party(aAddr)
	if p.At == nil || !st.on(*p.At) || st.at(*p.At) == Wall {
		t.Fatalf("location %v is not a non-Wall tile (W4)", p.At)
	}
	if st.Turn != 1 || !st.Began.Equal(mustTime(t, "2026-12-01T10:00:00Z")) {
		t.Errorf("turn %d began %v, want turn 1 at the first join", st.Turn, st.Began)
	}
	// Wacky 5: the first join makes one random tile Fertile; the draw is the
	// committed one (G5).
	seed := contract.SeedFor(testSecret, "2026-W49")
	tiles := st.nonWall()
	want := tiles[contract.Intn(seed, ID+"/2026-W49/turn/1/party/1/fertile", len(tiles))]
	if st.at(want) != Fertile {
		t.Errorf("tile %v is %c, want Fertile", want, st.at(want))
	}
	wantLoc := tiles[contract.Intn(seed, ID+"/2026-W49/turn/1/party/1/location", len(tiles))]
	if *p.At != wantLoc {
		t.Errorf("location %v, want the drawn %v", *p.At, wantLoc)
	}
	fertile := strings.Count(strings.Join(st.Terrain, ""), string(Fertile))
	if fertile != 1 {
		t.Errorf("%d Fertile tiles after one first join, want 1", fertile)
	}

	// Rejoining without having moved: the join's own location is the most
	// recent one (Wacky 5).
	first := *p.At
	if r := h.public("2026-12-01T10:10:00Z", alice, "I leave Wacky World."); !done(r) {
		t.Fatalf("leave: %v", r)
	}
	if r := h.public("2026-12-01T10:20:00Z", alice, "I join Wacky World."); !done(r) || !strings.Contains(strings.Join(strings.Fields(r.Body), " "), fmt.Sprintf("located at %s, your last location", first)) {
		t.Errorf("rejoin without a move, want %s, your last location: %v", first, r)
	}

	// Leaving sets the location to Null; rejoining restores it, with no new
	// Fertile tile (not a first join).
	h.place(aAddr, 3, 4)
	if r := h.public("2026-12-01T11:00:00Z", alice, "I leave Wacky World."); !done(r) {
		t.Fatalf("leave: %v", r)
	}
	// Read again: a message may replace the game's data (an undo does).
	p = h.party(aAddr)
	if p.At != nil {
		t.Fatalf("location after leaving %v, want Null", p.At)
	}
	if r := h.public("2026-12-01T12:00:00Z", alice, "I join Wacky World."); !done(r) {
		t.Fatalf("rejoin: %v", r)
	}
	p, st = h.party(aAddr), h.data()
	if *p.At != (Pos{3, 4}) {
		t.Errorf("rejoined at %v, want the last location (3, 4)", *p.At)
	}
	if n := strings.Count(strings.Join(st.Terrain, ""), string(Fertile)); n != fertile {
		t.Errorf("rejoin changed the Fertile count to %d", n)
	}
	// A last location that became Wall is replaced by a random non-Wall tile.
	h.public("2026-12-01T13:00:00Z", alice, "I leave Wacky World.")
	h.terrain("3,4=#")
	h.public("2026-12-01T14:00:00Z", alice, "I join Wacky World.")
	p, st = h.party(aAddr), h.data()
	if *p.At == (Pos{3, 4}) || st.at(*p.At) == Wall {
		t.Errorf("rejoined on %v, a Wall", *p.At)
	}
	// Joining twice and leaving when not a party are rejected (Wacky 5).
	before := h.gameSnap()
	if r := h.public("2026-12-01T15:00:00Z", alice, "I join Wacky World."); done(r) || !strings.Contains(r.Body, "Wacky 5") {
		t.Errorf("second join: %v", r.Body)
	}
	if r := h.public("2026-12-01T15:01:00Z", bob, "I leave Wacky World."); done(r) || !strings.Contains(r.Body, "Wacky 5") {
		t.Errorf("leave by a non-party: %v", r.Body)
	}
	if after := h.gameSnap(); after != before {
		t.Errorf("rejected actions changed the state")
	}
}

// TestActions covers each Game Action rule and its bad input: each rejection
// names the section and changes nothing.
func TestActions(t *testing.T) {
	type step struct {
		who, text string
		ok        bool
		rule      string // cited in the rejection
	}
	tests := []struct {
		name  string
		setup func(h *harness)
		steps []step
		check func(t *testing.T, h *harness)
	}{
		{name: "move north", steps: []step{{alice, "I move north in Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) { wantAt(t, h, aAddr, 5, 4) }},
		// The target one tile away, said so: "one" is read as "1" too.
		{name: "move one tile north", steps: []step{{alice, "I move one tile north in Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) { wantAt(t, h, aAddr, 5, 4) }},
		{name: "move a step west", steps: []step{{alice, "I move a step to the west in Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) { wantAt(t, h, aAddr, 4, 5) }},
		{name: "move to coordinates", steps: []step{{alice, "I move to (6, 5) in Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) { wantAt(t, h, aAddr, 6, 5) }},
		{name: "second game action in a turn", steps: []step{
			{alice, "I move west in Wacky World.", true, ""},
			{alice, "I move west in Wacky World.", false, "Wacky 6"},
			{alice, "I search in Wacky World.", false, "Wacky 6"}},
			check: func(t *testing.T, h *harness) { wantAt(t, h, aAddr, 4, 5) }},
		{name: "leaving and rejoining does not give a second action", steps: []step{
			{alice, "I move west in Wacky World.", true, ""},
			{alice, "I leave Wacky World.", true, ""},
			{alice, "I join Wacky World.", true, ""},
			{alice, "I move west in Wacky World.", false, "Wacky 6"}}},
		{name: "move into a wall", setup: func(h *harness) { h.terrain("5,4=#") },
			steps: []step{{alice, "I move north in Wacky World.", false, "Wacky 6a"}}},
		{name: "move off the map", setup: func(h *harness) { h.place(aAddr, 0, 0) },
			steps: []step{{alice, "I move west in Wacky World.", false, "Wacky 6a, 3"}},
			check: func(t *testing.T, h *harness) {
				// Wacky 3: the refusal names the World's bounds.
				wantReceipt(t, h, "(-1, 0) is off the map (the World is 16 by 16, from (0, 0) to (15, 15))")
			}},
		// Wacky 3: the edges are on the map, the tiles beyond them are not.
		{name: "move to the west edge", setup: func(h *harness) { h.place(aAddr, 1, 1) },
			steps: []step{{alice, "I move west in Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) { wantAt(t, h, aAddr, 0, 1) }},
		{name: "move to the north edge", setup: func(h *harness) { h.place(aAddr, 1, 1) },
			steps: []step{{alice, "I move north in Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) { wantAt(t, h, aAddr, 1, 0) }},
		{name: "move off the east edge", setup: func(h *harness) { h.place(aAddr, 15, 14) },
			steps: []step{{alice, "I move east in Wacky World.", false, "Wacky 6a, 3"}}},
		{name: "move off the south edge", setup: func(h *harness) { h.place(aAddr, 14, 15) },
			steps: []step{{alice, "I move south in Wacky World.", false, "Wacky 6a, 3"}}},
		{name: "move not adjacent", steps: []step{{alice, "I move to (6, 6) in Wacky World.", false, "Wacky 6a, 3"}}},
		{name: "move from a wall", setup: func(h *harness) { h.terrain("5,5=#") },
			steps: []step{{alice, "I move south in Wacky World.", false, "Wacky 6a"}}},
		{name: "non-party", steps: []step{{carol, "I move north in Wacky World.", false, "Wacky 6"}}},
		{name: "drop and pick up with the donor award", steps: []step{
			{alice, "I drop my red hat in Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) {
				st := h.data()
				if len(st.Assets) != 1 || st.Assets[0].Name != "red hat" || st.Assets[0].At != (Pos{5, 5}) || st.Assets[0].Donor != aAddr {
					t.Fatalf("assets %+v", st.Assets)
				}
				h.place(bAddr, 5, 5)
				if r := h.public("2026-12-01T12:00:00Z", bob, "I pick up the red hat in Wacky World."); !done(r) {
					t.Fatalf("pick up: %s", r.Body)
				}
				if len(st.Assets) != 0 {
					t.Errorf("the hat is still in the World")
				}
				if got := h.s.Score("Alice", ID); got != 2 {
					t.Errorf("donor's score %d, want 2 y-points (Wacky 6c)", got)
				}
				if got := h.s.Score("Bob", ID); got != 0 {
					t.Errorf("magpie's score %d, want 0", got)
				}
				// The report's Parties table: x-points held, y-points, score.
				rep, err := h.e.Report(h.s, ID, mustTime(t, "2026-12-02T00:00:00Z"))
				if err != nil {
					t.Fatal(err)
				}
				for who, want := range map[string]string{"Alice": "0 2 2", "Bob": "0 0 0"} {
					if got := partyRow(rep.Body, who); got != want {
						t.Errorf("report row of %s ends %q, want %q:\n%s", who, got, want, rep.Body)
					}
				}
			}},
		{name: "own pick-up earns nothing", steps: []step{{alice, "I transfer a shiny stone to Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) {
				h.advance("2026-12-07T00:00:00Z")
				if r := h.public("2026-12-07T01:00:00Z", alice, "I pick up asset #1 in Wacky World."); !done(r) {
					t.Fatalf("pick up: %s", r.Body)
				}
				if got := h.s.Score("Alice", ID); got != 0 {
					t.Errorf("score %d, want 0: the donor is the magpie", got)
				}
			}},
		{name: "pick up takes the oldest of a name", steps: []step{{alice, "I drop a hat in Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) {
				h.advance("2026-12-07T00:00:00Z")
				if r := h.public("2026-12-07T01:00:00Z", alice, "I drop a hat in Wacky World."); !done(r) {
					t.Fatalf("second drop: %s", r.Body)
				}
				h.place(bAddr, 5, 5)
				if r := h.public("2026-12-07T02:00:00Z", bob, "I pick up the hat in Wacky World."); !done(r) || !strings.Contains(r.Body, "hat (#1)") {
					t.Errorf("the pick-up is not of the oldest hat (#1):\n%s", r.Body)
				}
			}},
		{name: "pick up what is not there", setup: func(h *harness) {
			h.data().Assets = append(h.data().Assets, &Asset{ID: 1, Name: "hat", Donor: bAddr, At: Pos{9, 9}, Public: true})
		}, steps: []step{{alice, "I pick up the hat in Wacky World.", false, "Wacky 6c"}}},
		{name: "drop a ledger currency", steps: []step{{alice, "I drop 2 x-points in Wacky World.", false, "Wacky 6b"}}},
		{name: "drop another game's currency", setup: func(h *harness) {
			if err := h.s.Ledger.Mint(life.Vial, "Alice", 5); err != nil {
				t.Fatal(err)
			}
		}, steps: []step{{alice, "I drop 3 Vials in Wacky World.", false, "Wacky 6b, W6"}},
			check: func(t *testing.T, h *harness) {
				wantReceipt(t, h, "this contract CANNOT own 3 Vials ("+life.Vial+")")
			}},
		// An amount with commas between thousands is an amount of the
		// currency too, not the name of a new asset.
		{name: "drop thousands of another game's currency", setup: func(h *harness) {
			if err := h.s.Ledger.Mint(life.Vial, "Alice", 5000); err != nil {
				t.Fatal(err)
			}
		}, steps: []step{{alice, "I drop 1,000 Vials in Wacky World.", false, "Wacky 6b, W6"}},
			check: func(t *testing.T, h *harness) {
				wantReceipt(t, h, "this contract CANNOT own 1,000 Vials ("+life.Vial+")")
				if n := len(h.data().Assets); n != 0 {
					t.Errorf("%d assets in the world, want none", n)
				}
			}},
		{name: "reap", setup: func(h *harness) { h.terrain(`6,5="`) },
			steps: []step{{alice, "I reap (6, 5) in Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) {
				if h.data().at(Pos{6, 5}) != Fallow {
					t.Errorf("reaped tile is not Fallow")
				}
				if h.s.Ledger.Balance(XPoint, "Alice") != 1 || h.s.Score("Alice", ID) != 1 {
					t.Errorf("x-points %d, score %d, want 1 and 1", h.s.Ledger.Balance(XPoint, "Alice"), h.s.Score("Alice", ID))
				}
			}},
		{name: "reap a non-Fertile tile", steps: []step{{alice, "I reap the tile east in Wacky World.", false, "Wacky 6d"}}},
		{name: "reap a non-adjacent tile", setup: func(h *harness) { h.terrain(`7,5="`) },
			steps: []step{{alice, "I reap (7, 5) in Wacky World.", false, "Wacky 6d, 3"}}},
		{name: "build", setup: func(h *harness) { mint(h, "Alice", 1) },
			steps: []step{{alice, "I build a wall to the east in Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) {
				if h.data().at(Pos{6, 5}) != Wall {
					t.Errorf("no wall on (6, 5) (W3: the target tile)")
				}
				if h.s.Ledger.Balance(XPoint, "Alice") != 0 || h.s.Score("Alice", ID) != 0 {
					t.Errorf("the x-point was not revoked")
				}
			}},
		{name: "build without an x-point", steps: []step{{alice, "I build a wall on (5, 6) in Wacky World.", false, "Wacky 6e, W3"}}},
		{name: "build where a party stands", setup: func(h *harness) { mint(h, "Alice", 1); h.place(bAddr, 5, 6) },
			steps: []step{{alice, "I build a wall on (5, 6) in Wacky World.", false, "Wacky 6e"}}},
		{name: "push removes the parties on the far tile", setup: func(h *harness) { h.terrain("5,4=#"); h.place(bAddr, 5, 3) },
			steps: []step{{alice, "I push the wall north in Wacky World.", true, ""}},
			check: func(t *testing.T, h *harness) {
				st := h.data()
				if st.at(Pos{5, 3}) != Wall || st.at(Pos{5, 4}) != Fallow {
					t.Errorf("terrain after push: far %c near %c", st.at(Pos{5, 3}), st.at(Pos{5, 4}))
				}
				if h.party(bAddr).At != nil || h.s.PlayerByName("Bob").In(ID) {
					t.Errorf("Bob on the far tile is still a party (Wacky 6f)")
				}
				told := false
				for _, o := range h.H.Sent {
					if strings.HasPrefix(o.ID, ID+"/pushed/") && o.Channel == contract.ChanPrivate && o.To[0] == bAddr {
						told = true
					}
				}
				if !told {
					t.Errorf("Bob was not told privately that he was pushed out")
				}
			}},
		{name: "push with a wall on the far tile", setup: func(h *harness) { h.terrain("5,4=#", "5,3=#") },
			steps: []step{{alice, "I push the wall at (5, 4) in Wacky World.", false, "Wacky 6f"}}},
		{name: "push off the map", setup: func(h *harness) { h.place(aAddr, 1, 0); h.terrain("0,0=#") },
			steps: []step{{alice, "I push the wall west in Wacky World.", false, "Wacky 6f"}}},
		{name: "push a non-wall", steps: []step{{alice, "I push the wall south in Wacky World.", false, "Wacky 6f"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := world(t)
			if tt.setup != nil {
				tt.setup(h)
			}
			for i, s := range tt.steps {
				before := h.gameSnap()
				r := h.public(fmt.Sprintf("2026-12-01T11:%02d:00Z", i), s.who, s.text)
				if r == nil {
					t.Fatalf("%q: no receipt", s.text)
				}
				if done(r) != s.ok {
					t.Fatalf("%q: done %v, want %v:\n%s", s.text, done(r), s.ok, r.Body)
				}
				if !s.ok {
					if !strings.Contains(strings.Join(strings.Fields(r.Body), " "), "("+s.rule) {
						t.Errorf("%q: rejection does not cite %q:\n%s", s.text, s.rule, r.Body)
					}
					if after := h.gameSnap(); after != before {
						t.Errorf("%q: a rejected action changed the state", s.text)
					}
				}
			}
			if tt.check != nil {
				tt.check(t, h)
			}
		})
	}
}

// wantReceipt checks that the last receipt sent says want (its lines joined).
func wantReceipt(t *testing.T, h *harness, want string) {
	t.Helper()
	for i := len(h.H.Sent) - 1; i >= 0; i-- {
		if o := h.H.Sent[i]; o.Kind == "receipt" {
			if got := strings.Join(strings.Fields(o.Body), " "); !strings.Contains(got, want) {
				t.Errorf("the receipt does not say %q:\n%s", want, o.Body)
			}
			return
		}
	}
	t.Errorf("no receipt sent")
}

// partyRow is the last three columns (x-points held, y-points, score) of a
// party's row in the report's Parties table.
func partyRow(report, who string) string {
	for _, l := range strings.Split(report, "\n") {
		if f := strings.Fields(l); len(f) >= 4 && f[0] == who {
			return strings.Join(f[len(f)-3:], " ")
		}
	}
	return ""
}

func wantAt(t *testing.T, h *harness, addr string, x, y int) {
	t.Helper()
	p := h.party(addr)
	if p.At == nil || *p.At != (Pos{x, y}) {
		t.Errorf("%s at %v, want (%d, %d)", addr, p.At, x, y)
	}
}

func mint(h *harness, who string, n int64) {
	h.t.Helper()
	if err := h.s.Ledger.Mint(XPoint, who, n); err != nil {
		h.t.Fatal(err)
	}
	if h.s.Points == nil {
		h.s.Points = map[string]map[string]int{}
	}
	h.s.Points[who] = map[string]int{ID: int(n)}
}

// TestMapMarks: each party's mark on the report's map is the first unused
// letter of eir name, Z included, else the first unused digit, in joining
// order.
func TestMapMarks(t *testing.T) {
	h := world(t)
	for i, who := range []string{"Zed <zed@example.test>", "Ab <ab@example.test>", "Ba <ba@example.test>"} {
		if r := h.public(fmt.Sprintf("2026-12-01T10:3%d:00Z", i), who, "I join Wacky World."); !done(r) {
			t.Fatalf("join %s: %v", who, r.Body)
		}
	}
	rep, err := h.e.Report(h.s, ID, mustTime(t, "2026-12-02T00:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n  A  Alice\n", "\n  B  Bob\n", "\n  Z  Zed\n", "\n  0  Ab\n", "\n  1  Ba\n"} {
		if !strings.Contains(rep.Body, want) {
			t.Errorf("the report's legend lacks %q:\n%s", strings.TrimSpace(want), rep.Body)
		}
	}
}

// TestMapMarksRunOutOfDigits: the tenth party whose name's letters are all
// taken gets the digit 9, and the next one a question mark.
func TestMapMarksRunOutOfDigits(t *testing.T) {
	h := world(t)
	names := []string{"Ab", "Ba", "Abb", "Bab", "Bba", "Aab", "Aba", "Baa", "Abab", "Baba", "Abba"}
	for i, n := range names {
		who := fmt.Sprintf("%s <%s@example.test>", n, strings.ToLower(n))
		if r := h.public(fmt.Sprintf("2026-12-01T10:%02d:00Z", 10+i), who, "I join Wacky World."); !done(r) {
			t.Fatalf("join %s: %v", who, r.Body)
		}
	}
	rep, err := h.e.Report(h.s, ID, mustTime(t, "2026-12-02T00:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		mark := "?"
		if i < 10 {
			mark = fmt.Sprint(i)
		}
		if want := fmt.Sprintf("\n  %s  %s\n", mark, n); !strings.Contains(rep.Body, want) {
			t.Errorf("the report's legend lacks %q:\n%s", strings.TrimSpace(want), rep.Body)
		}
	}
}

// A drop or a pick-up that names no thing ("I drop in Wacky World": the
// game's name is no thing; "I drop it") is refused as syntax, records no
// asset and leaves the turn's Game Action unused (Wacky 6b, 6c).
func TestDropOrPickUpWithoutAThing(t *testing.T) {
	for _, text := range []string{
		"I drop in Wacky World.",
		"I drop in the Wacky World contest.",
		"I drop it in Wacky World.",
		"I drop nothing in Wacky World.",
		"I pick up in Wacky World.",
		"I pick up it in Wacky World.",
	} {
		t.Run(text, func(t *testing.T) {
			h := world(t)
			before := h.gameSnap()
			r := h.public("2026-12-01T11:00:00Z", alice, text)
			if r == nil || !strings.Contains(r.Body, "Not done: name the thing you") || !strings.Contains(r.Body, "(syntax)") {
				t.Fatalf("receipt:\n%v", r)
			}
			if after := h.gameSnap(); after != before {
				t.Errorf("the refusal changed the game:\nbefore %s\nafter %s", before, after)
			}
			if r := h.public("2026-12-01T11:05:00Z", alice, "I drop a red hat in Wacky World."); !done(r) {
				t.Errorf("the Game Action of the turn is used up: %v", r)
			}
		})
	}
}
