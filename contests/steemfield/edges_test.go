package steemfield

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// flat is a notice's body on one line.
func flat(n *contract.Notice) string { return strings.Join(strings.Fields(n.Body), " ") }

// TestMapLetters: each player's map letter is one of eir name's letters
// while one is free, then the first free capital, then the first free small
// letter, and "?" once all 52 are taken; the join receipt names it.
func TestMapLetters(t *testing.T) {
	letters := func(from, to rune) []string {
		var out []string
		for r := from; r <= to; r++ {
			out = append(out, string(r))
		}
		return out
	}
	caps, smalls := letters('A', 'Z'), letters('a', 'z')
	tests := []struct {
		name, player string
		used         []string
		want         string
	}{
		{"a letter of the name", "Qq", letters('A', 'D'), "Q"},
		{"a Z of the name", "Zq", letters('A', 'D'), "Z"},
		{"the last capital", "Qq", append(letters('A', 'Y'), "q"), "Z"},
		{"the first small letter", "Qq", caps, "a"},
		{"the next small letter", "Qq", append(append([]string(nil), caps...), "a", "c"), "b"},
		{"the last small letter", "Qq", append(append([]string(nil), caps...), smalls[:25]...), "z"},
		{"none left", "Qq", append(append([]string(nil), caps...), smalls...), "?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			st := data0(h)
			// Players already in the game hold the letters used.
			for i, l := range tt.used {
				st.Players = append(st.Players, &Member{Name: fmt.Sprintf("P%d", i), Addr: fmt.Sprintf("p%d@example.test", i), Letter: l, Power: 1000})
			}
			r := h.Public("2026-12-01T11:00:00Z", tt.player+" <new@example.test>", "{DELEGATE: 1}")
			mustContain(t, r, "you joined Steemfield as "+tt.player+" ("+tt.want+")")
		})
	}
}

// TestLeaverVoteDropped: a player who leaves during the voting period takes
// eir vote out of the tally (Participation 2, S5).
func TestLeaverVoteDropped(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 4)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[0], "{YES}", p1), "Done: your vote YES")
	mustContain(t, reply(t, h, "2026-12-02T11:01:00Z", players[1], "{YES}", p1), "Done: your vote YES")
	mustContain(t, reply(t, h, "2026-12-02T11:02:00Z", players[2], "{NO}", p1), "Done: your vote NO")
	mustContain(t, reply(t, h, "2026-12-02T11:03:00Z", players[1], "{UNDELEGATE}", p1), "you left Steemfield")
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	if b := flat(post); !strings.Contains(b, "in favor: 1.000 against: 1.000") {
		t.Errorf("the tally still counts the leaver's vote:\n%s", post.Body)
	}
}

// TestRenameFollows: a player's new name follows eir cell on the map, eir
// proposal and eir vote, and the winner's line of the report.
func TestRenameFollows(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	give(t, h, "Alice", 3)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	mustContain(t, reply(t, h, "2026-12-01T11:01:00Z", players[0], "{PLACE: L(2, 2)}", r1), "Done: your LAND is placed at (2, 2)")
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[0], "{YES}", p1), "Done: your vote YES")
	mustContain(t, h.Public("2026-12-02T11:01:00Z", players[0], "I change my name to Alys."), "Done")
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	b := flat(post)
	for _, w := range []string{"The proposal of Alys", "Alys YES 1.000", "in favor: 1.000 against: 0.000", "1 LAND from the totem to Alys, whose proposal passed", "Alys (A)", "empty A Alys"} {
		if !strings.Contains(b, w) {
			t.Errorf("results post lacks %q:\n%s", w, post.Body)
		}
	}
	if !strings.Contains(post.Body, " 2 .A........ 2") {
		t.Errorf("the map lost Alys's cell:\n%s", post.Body)
	}
	// The winner is renamed too.
	give(t, h, "Alys", 60)
	if findNotice(h.Advance("2026-12-07T10:30:00Z"), ID+"/final-post") == nil {
		t.Fatal("no final post")
	}
	mustContain(t, h.Public("2026-12-07T11:00:00Z", players[0], "I change my name to Alix."), "Done")
	n, err := h.E.Report(h.S, ID, contracttest.At(t, "2026-12-07T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(n.Body, "The game is over: Alix won.") {
		t.Errorf("report:\n%s", n.Body)
	}
}

// TestRenameFollowsAfterLoad: a name changed by a message with no Steemfield
// action in it, the state saved and loaded, is followed by the next action
// (the game remembers in no file which changes it followed).
func TestRenameFollowsAfterLoad(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	give(t, h, "Alice", 1)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], "{PLACE: L(2, 2)}", r1), "Done: your LAND is placed at (2, 2)")
	mustContain(t, h.Public("2026-12-01T11:01:00Z", players[0], "I change my name to Alys."), "Done")
	b, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	if h.S, err = h.E.Decode(b); err != nil {
		t.Fatal(err)
	}
	give(t, h, "Bob", 1)
	mustContain(t, reply(t, h, "2026-12-01T11:02:00Z", players[1], `{GIFT_1_LAND_TO:"Alys"}`, r1), "Done: you gave 1 LAND to Alys")
	n, err := h.E.Report(h.S, ID, contracttest.At(t, "2026-12-01T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if b := strings.Join(strings.Fields(n.Body), " "); !strings.Contains(b, "Alys (A) 2") || !strings.Contains(b, "A Alys") {
		t.Errorf("the report lost Alys's LAND or cell:\n%s", n.Body)
	}
}

// TestLateJoinerRolls: a player who joins during the voting period has no
// roll of eir own; the referee draws eir 1d6 at the round end from the
// week's committed seed (Gameplay 15, G5, S6 (4)).
func TestLateJoinerRolls(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, h.Public("2026-12-02T11:00:00Z", players[3], "{DELEGATE: 1}"), "you joined Steemfield")
	give(t, h, "Dave", 10)
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	roll := contract.Intn(contract.SeedFor(contracttest.Secret[:], "2026-W49"), ID+"/2026-W49/round/1/roll/Dave", 6) + 1
	w := fmt.Sprintf("Dave rolled %d and returns %d unplaced LAND to the totem", roll, roll)
	if !strings.Contains(flat(post), w) {
		t.Errorf("results post lacks %q:\n%s", w, post.Body)
	}
}

// TestRulingAppliesParams: the totem controller's "SET" ruling on a passed
// rule applies it: a smaller map returns the cells outside it to their
// owners' unplaced LAND (cells on its last row and column stay), a lower cap
// shrinks the totem's pool, by no more than the pool holds, a higher one
// grows it (G8, G9, S11).
func TestRulingAppliesParams(t *testing.T) {
	tests := []struct {
		name, answer string
		// want is formatted with the totem's pool and the LAND in
		// existence when the ruling arrives.
		want func(pool, supply int64) string
		not  []string
	}{
		{"smaller map", "SET GridSize = 5", func(_, _ int64) string {
			return "GridSize is now 5 (was 10). 1 cells outside the new map return to their owners' unplaced LAND."
		}, nil},
		{"no cell outside", "SET GridSize = 9", func(_, _ int64) string { return "GridSize is now 9 (was 10)." }, []string{"cells outside"}},
		{"lower cap", "SET LANDCap = 50", func(_, s int64) string {
			return fmt.Sprintf("LANDCap is now 50 (was 100). The totem's pool shrinks by %d LAND", s-50)
		}, nil},
		{"cap below the players' LAND", "SET LANDCap = 3", func(p, _ int64) string {
			return fmt.Sprintf("LANDCap is now 3 (was 100). The totem's pool shrinks by %d LAND (LAND players own stays theirs)", p)
		}, nil},
		{"cap unchanged", "SET LANDCap = 100", func(_, _ int64) string { return "LANDCap is now 100 (was 100)." }, []string{"pool grows", "pool shrinks"}},
		{"higher cap", "SET LANDCap = 120", func(_, s int64) string {
			return fmt.Sprintf("LANDCap is now 120 (was 100). The totem's pool grows by %d LAND.", 120-s)
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			joinAll(t, h, 3)
			give(t, h, "Bob", 6)
			mustContain(t, reply(t, h, "2026-12-01T10:50:00Z", players[1], "{PLACE: L(5, 5)}", r1), "Done")
			prop := "---\n{PROPOSAL:ADDITION}\nAddition: Participation\nPlayers must be polite.\n---"
			mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[1], prop, r1), "Done: your proposal is recorded")
			h.Advance("2026-12-02T10:30:00Z")
			reply(t, h, "2026-12-02T11:00:00Z", players[1], "{YES}", p1)
			h.Advance("2026-12-04T10:30:00Z")
			// A second lone cell, outside a 5x5 map and inside a 9x9.
			give(t, h, "Carol", 1)
			mustContain(t, reply(t, h, "2026-12-04T11:00:00Z", players[2], "{PLACE: L(9, 9)}", "steemfield/round/2/results-post"), "Done")
			pool, supply := h.S.Ledger.Balance(LAND, Totem), h.S.Ledger.Supply[LAND]
			if pool >= supply-3 {
				t.Fatalf("the players hold too little LAND (%d of %d) to tell a capped shrink", supply-pool, supply)
			}
			mustContain(t, h.Private("2026-12-04T12:00:00Z", "cm@example.test", "I rule on #1: "+tt.answer), "Done")
			post := findNotice(h.Advance("2026-12-07T10:30:00Z"), "steemfield/round/3/results-post")
			if post == nil {
				t.Fatal("no results post")
			}
			b := flat(post)
			if w := tt.want(pool, supply); !strings.Contains(b, w) {
				t.Errorf("results post lacks %q:\n%s", w, post.Body)
			}
			for _, w := range tt.not {
				if strings.Contains(b, w) {
					t.Errorf("results post says %q:\n%s", w, post.Body)
				}
			}
		})
	}
}

// TestLeaverProposal: the proposal of a player who left before the proposal
// post is put behind every player's; among the others the lowest score
// comes first (S4).
func TestLeaverProposal(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 4)
	// Scores: Alice -2, Carol -1, Bob 0.
	give(t, h, "Alice", 2)
	give(t, h, "Carol", 1)
	mustContain(t, reply(t, h, "2026-12-01T10:50:00Z", players[0], "{BURN:2}", r1), "Done: you burnt 2 LAND")
	mustContain(t, reply(t, h, "2026-12-01T10:51:00Z", players[2], "{BURN:1}", r1), "Done: you burnt 1 LAND")
	for i, who := range []int{0, 1, 2} {
		prop := fmt.Sprintf("---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing %d.\n---", i)
		mustContain(t, reply(t, h, fmt.Sprintf("2026-12-01T11:0%d:00Z", i), players[who], prop, r1), "Done: your proposal is recorded")
	}
	// Alice, the lowest score, would come first; she leaves.
	mustContain(t, reply(t, h, "2026-12-01T12:00:00Z", players[0], "{UNDELEGATE}", r1), "you left Steemfield")
	if findNotice(h.Advance("2026-12-02T10:30:00Z"), p1) == nil {
		t.Fatal("no proposal post")
	}
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil || !strings.Contains(flat(post), "The proposal of Carol: ADDITION to Gameplay: \"Players may sing 2.\"") {
		t.Errorf("the vote was not on Carol's proposal: %v", post)
	}
}

// TestLastPlayerLeaves: the last player's LAND, placed cells included, goes
// back to the totem and the cells leave the map (Participation 3, S8).
func TestLastPlayerLeaves(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	give(t, h, "Carol", 2)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[2], "{PLACE: L(7, 7)}", r1), "Done")
	h.Advance("2026-12-04T10:30:00Z")
	give(t, h, "Carol", 1)
	// The newer cell comes first on the map: taking it moves the other.
	mustContain(t, reply(t, h, "2026-12-04T11:00:00Z", players[2], "{PLACE: L(2, 2)}", "steemfield/round/2/results-post"), "Done")
	// Carol now holds her two cells and nothing unplaced.
	if err := h.S.Ledger.Move(LAND, "Carol", Totem, land(h, "Carol")-2); err != nil {
		t.Fatal(err)
	}
	mustContain(t, reply(t, h, "2026-12-04T11:10:00Z", players[0], "{UNDELEGATE}", "steemfield/round/2/results-post"), "you left Steemfield")
	// The referee's player records say she left Steemfield (Participation 3).
	if p := h.S.PlayerByName("Alice"); p == nil || p.In(ID) || p.Left[ID].IsZero() {
		t.Errorf("Alice's records after leaving: %+v", p)
	}
	mustContain(t, reply(t, h, "2026-12-04T11:11:00Z", players[1], "{UNDELEGATE}", "steemfield/round/2/results-post"), "you left Steemfield")
	// The others' LAND went to her, unplaced; all of it, cells last, goes
	// to the totem.
	want := fmt.Sprintf("you left Steemfield; your LAND went to the totem %d", land(h, "Carol"))
	mustContain(t, reply(t, h, "2026-12-04T11:12:00Z", players[2], "{UNDELEGATE}", "steemfield/round/2/results-post"), want)
	// Her cells are free again: a new player places LAND on one.
	mustContain(t, h.Public("2026-12-04T11:20:00Z", players[3], "{DELEGATE: 1}"), "you joined Steemfield")
	give(t, h, "Dave", 1)
	mustContain(t, reply(t, h, "2026-12-04T11:21:00Z", players[3], "{PLACE: L(2, 2)}", "steemfield/round/2/results-post"), "Done: your LAND is placed at (2, 2)")
}

// TestRoundLANDRunsOut: the end-of-round LAND goes from the oldest player to
// the newest until the totem runs out (Gameplay 1, S6 (6)).
func TestRoundLANDRunsOut(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	// The totem keeps 2 LAND; the rest is gone.
	if err := h.S.Ledger.Destroy(LAND, Totem, land(h, Totem)-2); err != nil {
		t.Fatal(err)
	}
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	for _, w := range []string{"1 LAND from the totem to each of Alice, Bob (Gameplay 1)", "the totem ran out of LAND before Carol (Gameplay 1)"} {
		if !strings.Contains(flat(post), w) {
			t.Errorf("results post lacks %q:\n%s", w, post.Body)
		}
	}
	if land(h, "Carol") != 0 || land(h, Totem) != 0 {
		t.Errorf("Carol %d LAND, the totem %d", land(h, "Carol"), land(h, Totem))
	}
}

// TestLonelyCellsDie: two neighbouring cells, each with one neighbour, die of
// loneliness at the round end and nothing grows; a cell with no neighbour
// lives (Gameplay 14, ruling S7).
func TestLonelyCellsDie(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	for i, at := range []string{"(2, 2)", "(3, 2)", "(7, 7)"} {
		give(t, h, strings.Fields(players[i])[0], 1)
		mustContain(t, reply(t, h, fmt.Sprintf("2026-12-01T11:0%d:00Z", i), players[i], "{PLACE: L"+at+"}", r1), "Done: your LAND is placed at "+at)
	}
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	for _, w := range []string{"death at (2, 2) of loneliness (1 neighbour): the LAND returns to Alice's unplaced pool (Gameplay 14)",
		"death at (3, 2) of loneliness (1 neighbour): the LAND returns to Bob's unplaced pool (Gameplay 14)"} {
		if !strings.Contains(flat(post), w) {
			t.Errorf("results post lacks %q:\n%s", w, post.Body)
		}
	}
	if strings.Contains(post.Body, "growth at") || strings.Contains(post.Body, "death at (7, 7)") {
		t.Errorf("a cell grew, or the lone cell died:\n%s", post.Body)
	}
	if got := data0(h).Cells; len(got) != 1 || got[0].X != 7 || got[0].Y != 7 || got[0].Owner != "Carol" {
		t.Errorf("cells after the round end: %+v, want Carol's at (7, 7) alone", got)
	}
}

// TestJoinInWords: a player who writes, as in the other games, that e
// joins Steemfield is told how one joins it here (Participation 1: by a
// delegation), not pointed at the controller's correction of a power; and
// nothing is done.
func TestJoinInWords(t *testing.T) {
	h := newHarness(t)
	for i, text := range []string{"I join Steemfield.", "I join the Steemfield game."} {
		r := h.Public("2026-12-01T10:0"+string(rune('0'+i))+":00Z", players[0], text)
		if r == nil {
			t.Fatalf("%q: no receipt", text)
		}
		body := strings.Join(strings.Fields(r.Body), " ")
		if want := `not understood; the nearest form is: {DELEGATE: 0.5} (send "help steemfield" for all)`; !strings.Contains(body, want) {
			t.Errorf("%q: the receipt lacks %q:\n%s", text, want, r.Body)
		}
	}
	if n := len(data0(h).Players); n != 0 {
		t.Errorf("%d players joined by words alone", n)
	}
}
