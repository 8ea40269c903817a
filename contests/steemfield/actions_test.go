package steemfield

import (
	"fmt"
	"net/mail"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"gopkg.in/yaml.v3"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestBadInput: each bad action is answered with the rule broken; rejections
// change nothing, violations are recorded (S10).
func TestBadInput(t *testing.T) {
	tests := []struct {
		name      string
		at        string
		who       int
		text      string
		post      string
		want      []string
		violation bool
	}{
		{"vote in the proposal period", "2026-12-01T12:00:00Z", 0, "{YES}", r1, []string{"Not done", "voting period", "Meta 9, S5"}, false},
		{"vote after the voting period", "2026-12-03T11:00:00Z", 0, "{NO}", p1, []string{"Not done", "voting period"}, false},
		{"outside the map", "2026-12-01T12:00:00Z", 0, "{PLACE: L(0, 4)}", r1, []string{"Not done", "outside the map", "Gameplay 11, S7"}, false},
		{"outside the map high", "2026-12-01T12:00:00Z", 0, "{PLACE: L(3, 11)}", r1, []string{"Not done", "outside the map"}, false},
		{"no unplaced LAND", "2026-12-01T12:00:00Z", 1, "{PLACE: L(2, 2)}", r1, []string{"Not done: A placement at (2, 2) without unplaced LAND is a rules violation, so it is ignored", "0 done, 1 not done", "S10"}, true},
		{"gift too much", "2026-12-01T12:00:00Z", 0, `{GIFT_9_LAND_TO:"Bob"}`, r1, []string{"Not done", "you own 3 LAND, fewer than 9", "Gameplay 6"}, false},
		{"gift to self", "2026-12-01T12:00:00Z", 0, `{GIFT_1_LAND_TO:"Alice"}`, r1, []string{"Not done", "another player"}, false},
		{"burn nothing", "2026-12-01T12:00:00Z", 0, "{BURN:0}", r1, []string{"Not done", "the amount must be a whole number above 0"}, false},
		{"gift nothing", "2026-12-01T12:00:00Z", 0, `{GIFT_0_LAND_TO:"Bob"}`, r1, []string{"Not done", "the amount must be a whole number above 0"}, false},
		{"no power", "2026-12-01T12:00:00Z", 0, "{DELEGATE: 0}", r1, []string{"Not done", "the delegated power must be more than 0"}, false},
		// A power or an amount below 0 is read and refused for its value,
		// as 0 is, not as a tag the reader does not know.
		{"negative power", "2026-12-01T12:00:00Z", 0, "{DELEGATE: -1}", r1, []string{"Not done", "the delegated power must be more than 0", "(S1)"}, false},
		{"negative decimal power", "2026-12-01T12:00:00Z", 0, "{DELEGATE: -0.5}", r1, []string{"Not done", "the delegated power must be more than 0", "(S1)"}, false},
		{"burn a negative amount", "2026-12-01T12:00:00Z", 0, "{BURN: -2}", r1, []string{"Not done", "the amount must be a whole number above 0"}, false},
		{"burn too much", "2026-12-01T12:00:00Z", 0, "{BURN:4}", r1, []string{"Not done", "only unplaced LAND can be burnt", "3 unplaced"}, false},
		// Commas between thousands are read as Agora writes amounts; a
		// comma that does not group three digits is refused with the form.
		{"gift thousands", "2026-12-01T12:00:00Z", 0, `{GIFT_1,000_LAND_TO:"Bob"}`, r1, []string{"Not done", "you own 3 LAND, fewer than 1000", "Gameplay 6"}, false},
		{"burn thousands", "2026-12-01T12:00:00Z", 0, "{BURN: 1,000}", r1, []string{"Not done", "only unplaced LAND can be burnt", "3 unplaced"}, false},
		{"burn a decimal comma", "2026-12-01T12:00:00Z", 0, "{BURN: 1,5}", r1, []string{"Not done", "write {BURN:2}", "syntax"}, false},
		{"broken tag", "2026-12-01T12:00:00Z", 0, "{PLACE: (3,4)}", r1, []string{"Not done", "write {PLACE: L(3, 4)}", "syntax"}, false},
		{"non-player vote", "2026-12-02T12:00:00Z", -1, "{YES}", p1, []string{"Not done", "only players can vote"}, false},
		{"proposal cites no rule", "2026-12-01T12:00:00Z", 0, "---\n{PROPOSAL:REPLACEMENT}\nReplacement\nx\n---", r1, []string{"Not done", `a replacement must name the affected rule, as in "Replacement: Gameplay, Rule 4"`}, false},
		{"proposal on a missing rule", "2026-12-01T12:00:00Z", 0, "---\n{PROPOSAL:SUBTRACTION}\nSubtraction: Gameplay 40\n---", r1, []string{"Not done", "no rule Gameplay 40"}, false},
		{"proposal on a meta rule", "2026-12-01T12:00:00Z", 0, "---\n{PROPOSAL:SUBTRACTION}\nSubtraction: Meta 1\n---", r1, []string{"Not done", "Meta Rules stay the same"}, false},
		{"proposal tag after another tag", "2026-12-01T12:00:00Z", 0, "{PLACE: (3,4)} {PROPOSAL:ADDITION}", r1, []string{"Not done", "first tag of its line", "Implementation Details, Proposals"}, false},
		{"reply to another post", "2026-12-01T12:00:00Z", 0, "{PLACE: L(2, 2)}", "somewhere/else", []string{"Not done", "comment under the totem's post"}, false},
		{"private tag", "", 0, "{BURN:1}", "", []string{"Not done", "G4"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			joinAll(t, h, 5)
			give(t, h, "Alice", 3)
			if tt.at > "2026-12-02T10:02:00Z" {
				h.Advance("2026-12-02T10:30:00Z")
			}
			if tt.post == p1 {
				// A proposal up for the vote, so that only the period or
				// the voter is wrong.
				data0(h).Proposals = append(data0(h).Proposals, &Proposal{Player: "Carol", Type: "ADDITION", Text: "x"})
				data0(h).Chosen = 1
			}
			before := gameSnapshot(t, h)
			from := "Zed <zed@example.test>"
			if tt.who >= 0 {
				from = players[tt.who]
			}
			var r *contract.Notice
			switch {
			case tt.at == "":
				r = h.Private("2026-12-01T12:00:00Z", from, tt.text)
			case tt.post == "somewhere/else":
				r = reply(t, h, tt.at, from, tt.text, "steemfield/round/9/results-post")
			default:
				r = reply(t, h, tt.at, from, tt.text, tt.post)
			}
			mustContain(t, r, tt.want...)
			m := data0(h).member(strings.SplitN(from, " ", 2)[0])
			if tt.violation {
				if m == nil || len(m.Violations) != 1 {
					t.Errorf("violation not recorded: %+v", m)
				}
				return
			}
			if m != nil && len(m.Violations) > 0 {
				t.Errorf("unexpected violation %v", m.Violations)
			}
			if diff := cmp.Diff(before, gameSnapshot(t, h)); diff != "" {
				t.Errorf("a rejection changed the game state (-before +after):\n%s", diff)
			}
		})
	}
}

// gameSnapshot is the game's own state and the LAND ledger, as YAML.
func gameSnapshot(t *testing.T, h *contracttest.Harness) string {
	t.Helper()
	b, err := yaml.Marshal(map[string]any{"game": data0(h), "land": h.S.Ledger.Balances[LAND], "supply": h.S.Ledger.Supply})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSecondActions: a second proposal, vote or placement in one period is
// a violation: ignored, and no end-of-round LAND (S10).
func TestSecondActions(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 5)
	give(t, h, "Alice", 2)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	mustContain(t, reply(t, h, "2026-12-01T11:05:00Z", players[0], prop, r1), "Not done: A second proposal in one proposal period is a rules violation", "0 done, 1 not done", "S10")
	mustContain(t, reply(t, h, "2026-12-01T11:10:00Z", players[0], "{PLACE: L(2, 2)}\n{UNPLACE: L(2, 2)}", r1),
		"Done: your LAND is placed at (2, 2)", "Not done: A second placement action, an unplacement at (2, 2), in one proposal period is a rules violation", "1 done, 1 not done")
	if n := len(data0(h).Proposals); n != 1 {
		t.Errorf("%d proposals, want 1", n)
	}
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[1], "{YES}", p1), "Done: your vote YES")
	mustContain(t, reply(t, h, "2026-12-02T11:01:00Z", players[1], "{NO}", p1), "Not done: A second vote in one voting period is a rules violation", "0 done, 1 not done")
	if diff := cmp.Diff([]Vote{{Player: "Bob", Yes: true, Weight: 1000000}}, data0(h).Votes); diff != "" {
		t.Errorf("votes (-want +got):\n%s", diff)
	}
	bobBefore := land(h, "Bob")
	ns := h.Advance("2026-12-04T10:30:00Z")
	post := findNotice(ns, "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	// Alice's proposal passed (1 LAND from the totem), but neither she nor
	// Bob gets the end-of-round LAND.
	for _, w := range []string{"1 LAND from the totem to Alice, whose proposal passed", "no end-of-round LAND for Alice, Bob", "Alice broke the rules this round (a second proposal"} {
		if !strings.Contains(strings.Join(strings.Fields(post.Body), " "), w) {
			t.Errorf("results post lacks %q", w)
		}
	}
	if got := land(h, "Bob"); got != bobBefore {
		t.Errorf("Bob has %d LAND, want %d (no end-of-round LAND)", got, bobBefore)
	}
}

func findNotice(ns []*contract.Notice, id string) *contract.Notice {
	for _, n := range ns {
		if n.ID == id {
			return n
		}
	}
	return nil
}

// TestPlacementConflict: two placements on one cell: the first placer wins
// (Implementation Details), the second is ignored and keeps eir action.
func TestPlacementConflict(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 5)
	give(t, h, "Alice", 1)
	give(t, h, "Bob", 1)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[1], "{PLACE: L(3, 4)}", r1), "Done: your LAND is placed at (3, 4)")
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], "{PLACE: L(3, 4)}", r1), "Not done", "already taken by Bob")
	mustContain(t, reply(t, h, "2026-12-01T11:01:00Z", players[0], "{PLACE: L(4, 4)}", r1), "Done: your LAND is placed at (4, 4)")
	want := []Cell{{X: 3, Y: 4, Owner: "Bob", Seq: 1}, {X: 4, Y: 4, Owner: "Alice", Seq: 2}}
	if diff := cmp.Diff(want, data0(h).Cells); diff != "" {
		t.Errorf("cells (-want +got):\n%s", diff)
	}
	// Unplacing another's LAND: the owner keeps it, unplaced (Gameplay 13).
	give(t, h, "Carol", 1)
	mustContain(t, reply(t, h, "2026-12-01T11:02:00Z", players[2], "{UNPLACE: L(3, 4)}", r1), "Bob keeps it, unplaced")
	if land(h, "Bob") != 1 || data0(h).placed("Bob") != 0 {
		t.Errorf("Bob should keep 1 unplaced LAND")
	}
}

// TestAdditionNamesItsSection: an addition goes to the section it names, and
// to Gameplay when it names none (Implementation Details, Proposals); the
// receipt says which.
func TestAdditionNamesItsSection(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], "---\n{PROPOSAL:ADDITION}\nAddition: Participation\nPlayers may sing.\n---", r1),
		`Done: your proposal is recorded: ADDITION to Participation: "Players may sing."`)
	mustContain(t, reply(t, h, "2026-12-01T11:01:00Z", players[1], "---\n{PROPOSAL:ADDITION}\nAddition\nPlayers may dance.\n---", r1),
		`Done: your proposal is recorded: ADDITION to Gameplay: "Players may dance."`)
}

// TestPlaceAtTheEdges: the map runs from L(1, 1) to L(10, 10), both corners
// on it (S7).
func TestPlaceAtTheEdges(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	give(t, h, "Alice", 1)
	give(t, h, "Bob", 1)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], "{PLACE: L(1, 1)}", r1), "Done: your LAND is placed at (1, 1)")
	mustContain(t, reply(t, h, "2026-12-01T11:01:00Z", players[1], "{PLACE: L(10, 10)}", r1), "Done: your LAND is placed at (10, 10)")
	if diff := cmp.Diff([]Cell{{X: 1, Y: 1, Owner: "Alice", Seq: 1}, {X: 10, Y: 10, Owner: "Bob", Seq: 2}}, data0(h).Cells); diff != "" {
		t.Errorf("cells (-want +got):\n%s", diff)
	}
}

// TestGiftOfAllOnesLAND: a player may gift all the LAND e owns, no more
// (Gameplay 6).
func TestGiftOfAllOnesLAND(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	give(t, h, "Alice", 2)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], `{GIFT_2_LAND_TO:"Bob"}`, r1), "Done: you gave 2 LAND to Bob; you now own 0")
	if land(h, "Alice") != 0 || land(h, "Bob") != 2 {
		t.Errorf("LAND after the gift: Alice %d, Bob %d; want 0 and 2", land(h, "Alice"), land(h, "Bob"))
	}
}

// TestGiftAndLeave: gifts take unplaced LAND first, then the newest cells,
// which change owner on the map (S8); a leaving player's LAND goes one by one
// to the youngest player, the next youngest, ... (Participation 3).
func TestGiftAndLeave(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 5)
	st := data0(h)
	give(t, h, "Alice", 4)
	st.Cells = []Cell{{X: 1, Y: 1, Owner: "Alice", Seq: 1}, {X: 5, Y: 5, Owner: "Alice", Seq: 2}}
	st.NextSeq = 2
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], `{GIFT_3_LAND_TO:"Bob"}`, r1), "you gave 3 LAND to Bob, with the cell (5, 5) (ruling S8)")
	st = data0(h)
	if diff := cmp.Diff([]Cell{{X: 1, Y: 1, Owner: "Alice", Seq: 1}, {X: 5, Y: 5, Owner: "Bob", Seq: 2}}, st.Cells); diff != "" {
		t.Errorf("cells after the gift (-want +got):\n%s", diff)
	}
	give(t, h, "Alice", 3) // Alice: 1 placed + 3 unplaced = 4
	mustContain(t, reply(t, h, "2026-12-01T11:10:00Z", players[0], "{UNDELEGATE}", r1), "Erin 1, Dave 1, Carol 1, Bob 1")
	st = data0(h)
	if st.member("Alice") != nil {
		t.Errorf("Alice is still a member")
	}
	want := map[string]int64{"Bob": 4, "Carol": 1, "Dave": 1, "Erin": 1}
	for who, n := range want {
		if got := land(h, who); got != n {
			t.Errorf("%s has %d LAND, want %d", who, got, n)
		}
	}
	// Her last cell went to Bob, the fourth youngest, and stays on the map.
	if diff := cmp.Diff([]Cell{{X: 1, Y: 1, Owner: "Bob", Seq: 1}, {X: 5, Y: 5, Owner: "Bob", Seq: 2}}, st.Cells); diff != "" {
		t.Errorf("cells after leaving (-want +got):\n%s", diff)
	}
}

// TestRoundLANDToOne: the end-of-round LAND for a single player reads "to
// Carol", not "to each of Carol".
func TestRoundLANDToOne(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	mustContain(t, reply(t, h, "2026-12-01T11:05:00Z", players[0], prop, r1), "Not done")
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[1], "{YES}", p1), "Done: your vote YES")
	mustContain(t, reply(t, h, "2026-12-02T11:01:00Z", players[1], "{NO}", p1), "Not done")
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	body := strings.Join(strings.Fields(post.Body), " ")
	if !strings.Contains(body, "1 LAND from the totem to Carol (") || strings.Contains(body, "to each of Carol") {
		t.Errorf("results post:\n%s", post.Body)
	}
}

// TestRedelegate: a player's new declared power replaces eir old one, and
// with it eir voting weight (Participation 1, ruling S1).
func TestRedelegate(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], "{DELEGATE: 0.5}", r1),
		"Done: your declared power is now 0.500 (effective 0.500, voting weight 0.250)")
	mustContain(t, reply(t, h, "2026-12-01T11:01:00Z", players[0], "{DELEGATE: 2}", r1),
		"Done: your declared power is now 2.000 (effective 1.000, voting weight 1.000)")
	if m := data0(h).member("Alice"); m == nil || m.Power != 2000 {
		t.Errorf("Alice after two declarations: %+v", m)
	}
}

// TestPlayersTableShowsEffectivePower: the players table of the results
// post and of the report showed a declared power ("2.500") where the
// order of the proposals and the votes' weight use the effective power,
// at most 1 (ruling S1). It shows the effective power, with a note giving
// the declared one where they differ.
func TestPlayersTableShowsEffectivePower(t *testing.T) {
	h := newHarness(t)
	var ns []*contract.Notice
	for i, power := range []string{"1", "2.5", "0.5"} {
		a, _ := mail.ParseAddress(players[i])
		at := contracttest.At(t, "2026-12-01T10:0"+string(rune('0'+i))+":00Z")
		ns = h.Send(&contract.Message{From: a.Address, Name: a.Name, Date: at, Arrived: at, Channel: contract.ChanPublic,
			Authenticated: true, Text: "{DELEGATE: " + power + "}"})
	}
	report, err := h.E.Report(h.S, ID, contracttest.At(t, "2026-12-01T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range map[string]*contract.Notice{"results post": findNotice(ns, r1), "report": report} {
		if n == nil {
			t.Fatalf("no %s", name)
		}
		body := strings.Join(strings.Fields(n.Body), " ")
		for _, w := range []string{"Alice (A) 0 +0 0 0 0 0 1.000 ", "Bob (B) 0 +0 0 0 0 0 1.000[1] ", "Carol (C) 0 +0 0 0 0 0 0.500 ",
			"[1] declared 2.500; the effective power, at most 1, orders the proposals and weighs the votes (ruling S1)."} {
			if !strings.Contains(body, w) {
				t.Errorf("the %s lacks %q:\n%s", name, w, n.Body)
			}
		}
		if strings.Contains(body, "2.500 ") && !strings.Contains(body, "declared 2.500") {
			t.Errorf("the %s shows the declared power as the power:\n%s", name, n.Body)
		}
	}
}

// TestGiftNamesItsCells: a gift that moves placed cells (S8) names them as
// a sentence does: "with the cell (5, 5)", "with the cells (1, 1), (2, 2)
// and (5, 5)", in the receipt and in the recent events.
func TestGiftNamesItsCells(t *testing.T) {
	for _, c := range []struct {
		cells []Cell
		want  string
	}{
		{[]Cell{{X: 5, Y: 5, Owner: "Alice", Seq: 1}}, "you gave 1 LAND to Bob, with the cell (5, 5) (ruling S8); you now own 0"},
		{[]Cell{{X: 5, Y: 5, Owner: "Alice", Seq: 1}, {X: 2, Y: 2, Owner: "Alice", Seq: 2}}, "you gave 2 LAND to Bob, with the cells (2, 2) and (5, 5) (ruling S8); you now own 0"},
		{[]Cell{{X: 5, Y: 5, Owner: "Alice", Seq: 1}, {X: 2, Y: 2, Owner: "Alice", Seq: 2}, {X: 1, Y: 1, Owner: "Alice", Seq: 3}},
			"you gave 3 LAND to Bob, with the cells (1, 1), (2, 2) and (5, 5) (ruling S8); you now own 0"},
	} {
		h := newHarness(t)
		joinAll(t, h, 3)
		st := data0(h)
		give(t, h, "Alice", int64(len(c.cells)))
		st.Cells, st.NextSeq = c.cells, len(c.cells)
		mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], fmt.Sprintf(`{GIFT_%d_LAND_TO:"Bob"}`, len(c.cells)), r1), c.want)
		recent := h.S.Games[ID].Recent
		ev := recent[len(recent)-1].What
		if want := strings.TrimSuffix(strings.TrimPrefix(c.want, "you gave"), "; you now own 0"); !strings.Contains(ev, "gifts"+want) {
			t.Errorf("recent event %q lacks %q", ev, "gifts"+want)
		}
	}
}

// TestLeaveWithoutLAND: a player who holds no LAND leaves; the game's
// recent events, which are public, say so in the third person (they read
// "eir LAND goes to nobody (you held none)").
func TestLeaveWithoutLAND(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 4)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[3], "{UNDELEGATE}", r1), "Done: you left Steemfield; you held no LAND to hand out")
	recent := h.S.Games[ID].Recent
	if ev := recent[len(recent)-1]; ev.Who != "Dave" || ev.What != "leaves the game, holding no LAND" {
		t.Errorf("recent event %s: %q, want Dave: %q", ev.Who, ev.What, "leaves the game, holding no LAND")
	}
}

// TestSecondPlacementReads: the refusal of a second placement names its
// cell inside the sentence, not before its verb ("A second placement in
// one proposal period, at (5, 5) is a rules violation" read as if the
// period were at (5, 5)) (S10).
func TestSecondPlacementReads(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	give(t, h, "Alice", 2)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], "{PLACE: L(4, 4)}\n{PLACE: L(5, 5)}", r1),
		"Not done: A second placement, at (5, 5), in one proposal period is a rules violation")
	if v := data0(h).member("Alice").Violations; len(v) != 1 || v[0] != "a second placement, at (5, 5), in one proposal period" {
		t.Errorf("violations %q", v)
	}
}

// TestVoteUnderTheResultsPostRefused: a vote is a comment below the
// proposal (Implementation Details, Voting; ruling S2). {YES} in reply to
// the round's results post during the voting period was counted; it is
// refused naming the rule, nothing is recorded and the player may still
// vote under the proposal post. A reply threaded below the proposal post
// (References naming the results post and then the proposal post, as mail
// clients write them) and a message replying to nothing are votes.
func TestVoteUnderTheResultsPostRefused(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 4)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[1], "{YES}", r1),
		"Not done: a vote is a comment under the proposal post of round 1 (a reply to it); this replies to the results post, so it was not counted",
		"(Implementation Details, Voting, S2)", "0 done, 1 not done")
	if v := data0(h).Votes; len(v) != 0 {
		t.Fatalf("a vote under the results post was counted: %+v", v)
	}
	if m := data0(h).member("Bob"); m.Voted || len(m.Violations) > 0 {
		t.Errorf("the refused vote used up Bob's vote or was a violation: %+v", m)
	}
	mustContain(t, reply(t, h, "2026-12-02T11:01:00Z", players[1], "{YES}", p1), "Done: your vote YES")
	results, proposal := contract.MessageID(r1, "example.test"), contract.MessageID(p1, "example.test")
	at := contracttest.At(t, "2026-12-02T11:02:00Z")
	r := contracttest.Receipt(h.Send(&contract.Message{From: "carol@example.test", Name: "Carol", Date: at, Arrived: at,
		Subject: "Re: post", Channel: contract.ChanPublic, Authenticated: true, Text: "{NO}",
		InReplyTo: []string{"<dave-comment@example.test>"}, References: []string{results, proposal, "<dave-comment@example.test>"}}))
	mustContain(t, r, "Done: your vote NO")
	at = contracttest.At(t, "2026-12-02T11:03:00Z")
	r = contracttest.Receipt(h.Send(&contract.Message{From: "dave@example.test", Name: "Dave", Date: at, Arrived: at,
		Subject: "Steemfield", Channel: contract.ChanPublic, Authenticated: true, Text: "{NO}"}))
	mustContain(t, r, "Done: your vote NO")
	if n := len(data0(h).Votes); n != 3 {
		t.Errorf("%d votes, want Bob's, Carol's and Dave's", n)
	}
	if g := strings.Join(strings.Fields(New().Spec().Guide), " "); !strings.Contains(g, "a vote in reply to the results post is refused and not counted") {
		t.Error("the players' guide does not say that a vote under the results post is refused")
	}
}
