package steemfield

import (
	"fmt"
	"slices"
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
	post := penaltyRound(t, players[0])
	if w := "Bob made no proposal and gives half eir LAND, 5: 5 to Alice (Gameplay 8)"; !strings.Contains(flat(post), w) {
		t.Errorf("results post lacks %q:\n%s", w, post.Body)
	}
	if strings.Contains(flat(post), "cells change owner") {
		t.Errorf("results post names cells changing owner, but none moved:\n%s", post.Body)
	}
}

// Gameplay 8, ruling S8: a non-proposer's half goes to the proposers one
// LAND at a time, the oldest proposer first, round and round: Bob's 5 from
// 10 are 3 to Alice and 2 to Carol.
func TestPenaltyToTwoProposers(t *testing.T) {
	post := penaltyRound(t, players[0], players[2])
	if w := "Bob made no proposal and gives half eir LAND, 5: 3 to Alice, 2 to Carol (Gameplay 8)"; !strings.Contains(flat(post), w) {
		t.Errorf("results post lacks %q:\n%s", w, post.Body)
	}
}

// penaltyRound plays round 1 of three players in which the players named
// propose and Bob, who does not, holds 10 unplaced LAND after eir roll
// (S6 (4)), and returns round 1's results post.
func penaltyRound(t *testing.T, proposers ...string) *contract.Notice {
	t.Helper()
	h := newHarness(t)
	joinAll(t, h, 3)
	for i, who := range proposers {
		prop := fmt.Sprintf("---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing verse %d.\n---", i+1)
		mustContain(t, reply(t, h, fmt.Sprintf("2026-12-01T11:0%d:00Z", i), who, prop, r1), "Done: your proposal is recorded")
	}
	seed := contract.SeedFor(contracttest.Secret[:], "2026-W49")
	roll := int64(contract.Intn(seed, ID+"/2026-W49/round/1/roll/Bob", 6) + 1)
	give(t, h, "Bob", 10+roll-land(h, "Bob"))
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	return post
}

// Ruling S6, S11: a round end that moves no LAND has no "LAND movements"
// heading in its results post. Proposals remove Gameplay 15 (the 1d6
// returns) and Gameplay 1 (the round LAND); in the round after, nobody
// proposes (no penalty), nothing is placed (no growth, no death) and
// nothing passes, so nothing moves.
func TestResultsWithoutMovements(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	for i, rule := range []string{"Gameplay 15", "Gameplay 1"} {
		round := i + 1
		day := func(d int) string { return fmt.Sprintf("2026-12-%02dT", 1+3*i+d) }
		results := fmt.Sprintf("steemfield/round/%d/results-post", round)
		proposals := fmt.Sprintf("steemfield/round/%d/proposal-post", round)
		prop := "---\n{PROPOSAL:SUBTRACTION}\nSubtraction: " + rule + "\n---"
		mustContain(t, reply(t, h, day(0)+"11:00:00Z", players[0], prop, results), "Done: your proposal is recorded: SUBTRACTION of "+rule)
		h.Advance(day(1) + "10:30:00Z")
		mustContain(t, reply(t, h, day(1)+"11:00:00Z", players[0], "{YES}", proposals), "Done: your vote YES")
		post := findNotice(h.Advance(day(3)+"10:30:00Z"), fmt.Sprintf("steemfield/round/%d/results-post", round+1))
		if post == nil {
			t.Fatalf("no results post of round %d", round)
		}
		if w := rule + " is removed from the rule set"; !strings.Contains(flat(post), w) {
			t.Fatalf("round %d's results post lacks %q:\n%s", round, w, post.Body)
		}
	}
	before := map[string]int64{}
	for _, p := range []string{"Alice", "Bob", "Carol", Totem} {
		before[p] = land(h, p)
	}
	post := findNotice(h.Advance("2026-12-10T10:30:00Z"), "steemfield/round/4/results-post")
	if post == nil {
		t.Fatal("no results post of round 3")
	}
	if w := "No proposal was made in round 3"; !strings.Contains(flat(post), w) {
		t.Errorf("results post lacks %q:\n%s", w, post.Body)
	}
	if strings.Contains(post.Body, "LAND movements") {
		t.Errorf("results post has a LAND movements heading, but no LAND moved:\n%s", post.Body)
	}
	for p, n := range before {
		if got := land(h, p); got != n {
			t.Errorf("%s has %d LAND after round 3, had %d", p, got, n)
		}
	}
}

// Voting and Proposals 3, ruling S5: a proposal nobody votes on fails as a
// tie of no weight, and the results post has no table of votes.
func TestResultsWithoutVotes(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	body := flat(post)
	for _, w := range []string{"The final vote (by weight): in favor: 0.000 against: 0.000", "The proposal fails: a tie is not a pass"} {
		if !strings.Contains(body, w) {
			t.Errorf("results post lacks %q:\n%s", w, post.Body)
		}
	}
	if strings.Contains(body, "Voter Vote Weight") {
		t.Errorf("results post has a table of votes, but nobody voted:\n%s", post.Body)
	}
}

// Meta 6, ruling S3: the proposal post quotes the proposal as made, an
// addition with the section it names.
func TestProposalPostNamesTheSection(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Participation\nPlayers must be polite.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[1], prop, r1), "Done: your proposal is recorded")
	post := findNotice(h.Advance("2026-12-02T10:30:00Z"), p1)
	if post == nil {
		t.Fatal("no proposal post")
	}
	if w := "{PROPOSAL:ADDITION} Addition: Participation Players must be polite."; !strings.Contains(flat(post), w) {
		t.Errorf("proposal post lacks %q:\n%s", w, post.Body)
	}
}

// Voting and Proposals 5, ruling S4: burnt LAND lowers the score, so the
// proposal of a player who burnt comes before that of one who did not,
// whichever was made first.
func TestBurnPutsProposalFirst(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	give(t, h, "Alice", 1)
	mustContain(t, reply(t, h, "2026-12-01T10:50:00Z", players[0], "{BURN:1}", r1), "Done: you burnt 1 LAND")
	for i, who := range []int{0, 1} {
		prop := fmt.Sprintf("---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing %d.\n---", i)
		mustContain(t, reply(t, h, fmt.Sprintf("2026-12-01T11:0%d:00Z", i), players[who], prop, r1), "Done: your proposal is recorded")
	}
	post := findNotice(h.Advance("2026-12-02T10:30:00Z"), p1)
	if post == nil {
		t.Fatal("no proposal post")
	}
	if w := "The proposal put to the vote comes from Alice: --- {PROPOSAL:ADDITION} Addition: Gameplay Players may sing 0."; !strings.Contains(flat(post), w) {
		t.Errorf("proposal post lacks %q:\n%s", w, post.Body)
	}
}

// Implementation Details, Proposals: a proposal's tag may stand indented on
// its line (a pasted block often is) and have words after it there; the
// receipt answers the message's tags in the order they are written, the
// roll before the proposal under it, and quotes the proposal's tag alone.
func TestIndentedProposalKeepsItsPlace(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	text := "{ROLL}\n---\n" + strings.Repeat(" ", 16) + "{PROPOSAL:ADDITION} (my first)\nAddition: Gameplay\nPlayers may sing.\n---"
	r := reply(t, h, "2026-12-01T11:00:00Z", players[0], text, r1)
	mustContain(t, r, "Done: your proposal is recorded")
	if got, want := quotedLines(r), []string{"{ROLL}", "{PROPOSAL:ADDITION}"}; !slices.Equal(got, want) {
		t.Errorf("receipt answers %q, want %q:\n%s", got, want, r.Body)
	}
}

// Meta 9, ruling S10, Implementation Details, Proposals: a second proposal
// block right under the first, sharing its closing dash line, is a second
// proposal (a rules violation), and the tags in its text are its text, not
// performed.
func TestSecondProposalBlockUnderTheFirst(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	text := "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing.\n---\n" +
		"{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may {ROLL} dice.\n---"
	r := reply(t, h, "2026-12-01T11:00:00Z", players[0], text, r1)
	mustContain(t, r, `Done: your proposal is recorded: ADDITION to Gameplay: "Players may sing."`,
		"A second proposal in one proposal period is a rules violation")
	if got, want := quotedLines(r), []string{"{PROPOSAL:ADDITION}", "{PROPOSAL:ADDITION}"}; !slices.Equal(got, want) {
		t.Errorf("receipt answers %q, want %q:\n%s", got, want, r.Body)
	}
}

// quotedLines is the lines a receipt quotes of the message, in its order.
func quotedLines(r *contract.Notice) []string {
	var out []string
	for _, l := range strings.Split(r.Body, "\n") {
		if q, ok := strings.CutPrefix(l, "> "); ok {
			out = append(out, strings.TrimSpace(q))
		}
	}
	return out
}

// Syntax: a tag not closed with "}" is refused naming the form expected,
// and the receipt quotes its line alone, not the text under it; at the
// very end of a message (no line break after it) the same.
func TestUnclosedTagQuotedAlone(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	for i, text := range []string{"{ROLL\nI roll now.", "I roll now. {ROLL"} {
		r := reply(t, h, fmt.Sprintf("2026-12-01T11:0%d:00Z", i), players[0], text, r1)
		mustContain(t, r, `Not done: the tag is not closed with "}"; write {ROLL}`)
		if got, want := quotedLines(r), []string{"{ROLL"}; !slices.Equal(got, want) {
			t.Errorf("receipt for %q quotes %q, want %q:\n%s", text, got, want, r.Body)
		}
	}
}
