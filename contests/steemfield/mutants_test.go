package steemfield

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// Gameplay 5, ruling S6 (7): when two players reach the winning LAND in the
// same round, the one with more LAND wins, and on equal LAND the one who
// joined first. The win is lowered to 20 so that two can reach it under
// the cap.
func TestVictoryBetweenTwo(t *testing.T) {
	tests := []struct {
		name       string
		bob, carol int64 // LAND at the round's end
		winner     string
	}{
		{"equal LAND: the older player", 30, 30, "Bob"},
		{"more LAND: the younger player", 30, 31, "Carol"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			joinAll(t, h, 3)
			h.S.Games[ID].Params[PWin] = "20"
			// Each returns eir roll (S6 (4)) and gets 1 LAND (S6 (6)).
			seed := contract.SeedFor(contracttest.Secret[:], "2026-W49")
			roll := func(who string) int64 {
				return int64(contract.Intn(seed, ID+"/2026-W49/round/1/roll/"+who, 6) + 1)
			}
			give(t, h, "Bob", tc.bob+roll("Bob")-1)
			give(t, h, "Carol", tc.carol+roll("Carol")-1)
			ns := h.Advance("2026-12-04T10:30:00Z")
			if land(h, "Bob") != tc.bob || land(h, "Carol") != tc.carol {
				t.Fatalf("Bob %d, Carol %d LAND; want %d, %d", land(h, "Bob"), land(h, "Carol"), tc.bob, tc.carol)
			}
			final := findNotice(ns, ID+"/final-post")
			if final == nil {
				t.Fatal("no final post")
			}
			if want := "[Steemfield] Final results: " + tc.winner + " wins"; final.Subject != want {
				t.Errorf("final post %q, want %q", final.Subject, want)
			}
			if w := "Congrats to " + tc.winner + " for achieving the victory condition"; !strings.Contains(flat(final), w) {
				t.Errorf("final post lacks %q:\n%s", w, final.Body)
			}
		})
	}
}

// Voting and Proposals 9: a passed proposal's LAND comes from the totem;
// with the totem empty the results post says so and the proposer gets
// nothing, and the round ends all the same.
func TestPassWithEmptyTotem(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[1], "{YES}", p1), "Done: your vote YES")
	if err := h.S.Ledger.Destroy(LAND, Totem, land(h, Totem)); err != nil {
		t.Fatal(err)
	}
	before := land(h, "Alice")
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	if w := "Alice's proposal passed, but the totem has no LAND to give (Voting and Proposals 9)"; !strings.Contains(flat(post), w) {
		t.Errorf("results post lacks %q:\n%s", w, post.Body)
	}
	if got := land(h, "Alice"); got > before {
		t.Errorf("Alice has %d LAND, had %d: the empty totem gave LAND", got, before)
	}
}

// Gameplay 8, ruling S8: a non-proposer who holds only unplaced LAND gives
// half of it to the proposer, and the results post names no cell changing
// owner.
func TestPenaltyFromUnplacedLAND(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	seed := contract.SeedFor(contracttest.Secret[:], "2026-W49")
	roll := int64(contract.Intn(seed, ID+"/2026-W49/round/1/roll/Bob", 6) + 1)
	give(t, h, "Bob", 10+roll-land(h, "Bob")) // 10 left after eir roll (S6 (4))
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	body := flat(post)
	if w := "Bob made no proposal and gives half eir LAND, 5: 5 to Alice (Gameplay 8)"; !strings.Contains(body, w) {
		t.Errorf("results post lacks %q:\n%s", w, post.Body)
	}
	if strings.Contains(body, "cells change owner") {
		t.Errorf("results post names cells changing owner, but none moved:\n%s", post.Body)
	}
}
