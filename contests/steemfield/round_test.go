package steemfield

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestStart: the game starts only with 3 players (Meta 10, S1).
func TestStart(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 2)
	if data0(h).Phase != PhaseGathering {
		t.Fatalf("phase %q with 2 players", data0(h).Phase)
	}
	mustContain(t, reply(t, h, "2026-12-01T10:05:00Z", players[0], "{BURN:1}", r1), "Not done", "has not started", "Meta 10")
	if ns := h.Advance("2026-12-20T00:00:00Z"); findNotice(ns, r1) != nil {
		t.Fatal("the game started with 2 players")
	}
	r := h.Public("2026-12-20T10:00:00Z", players[2], "{DELEGATE: 1}")
	mustContain(t, r, "the game now has 3 players and starts")
	s := data0(h)
	if s.Phase != PhaseProposal || s.Round != 1 {
		t.Fatalf("phase %q round %d, want proposal 1", s.Phase, s.Round)
	}
	if got, want := s.RoundEnd.Sub(s.RoundStart).Hours(), 72.0; got != want {
		t.Errorf("round length %vh, want %vh (Meta 5)", got, want)
	}
	if got := s.ProposalEnd.Sub(s.RoundStart).Hours(); got != 24 {
		t.Errorf("proposal period %vh, want 24h", got)
	}
}

// TestReplyUnderPost: a reply to no message counts; a reply to a post of
// an earlier round does not count for round actions; a burn may go under
// any of the totem's posts (S2, decision).
func TestReplyUnderPost(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 5)
	give(t, h, "Alice", 3)
	mustContain(t, h.Public("2026-12-01T11:00:00Z", players[0], "{PLACE: L(2, 2)}"), "Done: your LAND is placed")
	h.Advance("2026-12-04T10:30:00Z")
	give(t, h, "Alice", 3)
	mustContain(t, reply(t, h, "2026-12-04T11:00:00Z", players[0], "{PLACE: L(3, 3)}", r1), "Not done", "current round 2")
	mustContain(t, reply(t, h, "2026-12-04T11:01:00Z", players[0], "{BURN:1}", r1), "Done: you burnt 1 LAND")
	mustContain(t, reply(t, h, "2026-12-04T11:02:00Z", players[0], "{PLACE: L(3, 3)}", "steemfield/round/2/results-post"), "Done: your LAND is placed")
}

// TestReferral: S9: once, before the new player's first proposal period
// ends, naming another player; 1 LAND each from the totem.
func TestReferral(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 4)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[3], `{REFERRED_BY:"Dave"}`, r1), "Not done", "cannot refer yourself")
	mustContain(t, reply(t, h, "2026-12-01T11:01:00Z", players[3], `{REFERRED_BY:"Nobody"}`, r1), "Not done", "no player is known")
	// Once the game runs, a reply is a comment under a post of the totem (S2).
	mustContain(t, reply(t, h, "2026-12-01T11:01:30Z", players[3], `{REFERRED_BY:"Bob"}`, "steemfield/round/9/results-post"), "Not done", "a referral must be a comment under a post of the totem")
	mustContain(t, reply(t, h, "2026-12-01T11:02:00Z", players[3], `{REFERRED_BY:"Bob"}`, r1), "Done: Bob referred you: the totem gives 1 LAND to Dave and Bob")
	mustContain(t, reply(t, h, "2026-12-01T11:03:00Z", players[3], `{REFERRED_BY:"Alice"}`, r1), "Not done", "already named")
	if land(h, "Dave") != 1 || land(h, "Bob") != 1 || land(h, Totem) != 98 {
		t.Errorf("LAND: Dave %d Bob %d totem %d", land(h, "Dave"), land(h, "Bob"), land(h, Totem))
	}
	h.Advance("2026-12-02T10:30:00Z")
	r := h.Public("2026-12-02T11:00:00Z", players[4], "{DELEGATE: 1}\n{REFERRED_BY:\"Alice\"}")
	mustContain(t, r, "Done: you joined", "Done: Alice referred you")
	// Erin's first proposal period is round 2's; Carol's has ended.
	mustContain(t, h.Public("2026-12-02T11:05:00Z", players[2], `{REFERRED_BY:"Alice"}`), "Not done", "before your first proposal period ends")
}

// TestReferralAfterRejoining: a player who left and joins again is no new
// player (Gameplay 9, S9): eir referral is refused and the totem gives no
// LAND, even in the first message of eir new membership.
func TestReferralAfterRejoining(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 4)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[3], `{REFERRED_BY:"Bob"}`, r1), "Done: Bob referred you")
	mustContain(t, reply(t, h, "2026-12-01T11:01:00Z", players[3], "{UNDELEGATE}", r1), "Done: you left Steemfield")
	before, carol := land(h, Totem), land(h, "Carol")
	r := reply(t, h, "2026-12-01T11:02:00Z", players[3], "{DELEGATE: 0.3}\n{REFERRED_BY:\"Carol\"}", r1)
	mustContain(t, r, "Done: you joined", "Not done: only a new player names who referred em, and you played Steemfield before (you left it on 2026-12-01) (S9)")
	if land(h, Totem) != before || land(h, "Dave") != 0 || land(h, "Carol") != carol {
		t.Errorf("LAND: totem %d (was %d), Dave %d, Carol %d (was %d); want the totem's and Carol's unchanged, Dave 0", land(h, Totem), before, land(h, "Dave"), land(h, "Carol"), carol)
	}
}

// TestReferralBeforeTheStart: before the game starts the totem has posted
// nothing, so a referral in a reply to any message counts (S2, S9).
func TestReferralBeforeTheStart(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 2)
	mustContain(t, reply(t, h, "2026-12-01T10:30:00Z", players[1], `{REFERRED_BY:"Alice"}`, "steemfield/round/9/results-post"), "Done: Alice referred you: the totem gives 1 LAND to Bob and Alice")
	if land(h, "Alice") != 1 || land(h, "Bob") != 1 {
		t.Errorf("LAND: Alice %d Bob %d, want 1 each", land(h, "Alice"), land(h, "Bob"))
	}
}

// TestReferralFromAnEmptyTotem: a referral takes 1 LAND each from the totem
// only while it has LAND (Gameplay 9): with 1 left the new player gets it,
// with none nobody gets any, and the referral is still made.
func TestReferralFromAnEmptyTotem(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 5)
	give(t, h, "Alice", land(h, Totem)-1)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[3], `{REFERRED_BY:"Bob"}`, r1), "Done: Bob referred you: the totem gives 1 LAND to Dave (Gameplay 9)")
	mustContain(t, reply(t, h, "2026-12-01T11:01:00Z", players[4], `{REFERRED_BY:"Bob"}`, r1), "Done: Bob referred you, but the totem has no LAND left to give (Gameplay 9)")
	if land(h, "Dave") != 1 || land(h, "Bob") != 0 || land(h, "Erin") != 0 || land(h, Totem) != 0 {
		t.Errorf("LAND: Dave %d, Bob %d, Erin %d, totem %d; want 1, 0, 0, 0", land(h, "Dave"), land(h, "Bob"), land(h, "Erin"), land(h, Totem))
	}
}

// TestCapChange: a passed replacement of Gameplay 4 sets the cap and the
// totem's pool is filled up to it, burnt LAND included (S11, G9); the rule
// set shows the new text.
func TestCapChange(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:REPLACEMENT}\nReplacement: Gameplay, Rule 4\nThe cap on total land is 500.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	// Burnt LAND leaves existence; the raised cap brings it back to the pool,
	// as the guide says.
	give(t, h, "Bob", 3)
	mustContain(t, reply(t, h, "2026-12-01T11:05:00Z", players[1], "{BURN:1}", r1), "Done: you burnt 1 LAND")
	if !strings.Contains(strings.Join(strings.Fields(New().Spec().Guide), " "), "the totem gets the new cap less all LAND that exists (its own and the players'), so LAND burnt earlier comes back to the pool") {
		t.Errorf("the guide does not say what a raised cap gives the totem")
	}
	body := passWithOneYes(t, h)
	for _, w := range []string{"in favor: 1.000 against: 0.000", "sets LANDCap from 100 to 500", "The totem's pool grows by 401 LAND", "Gameplay 4. The cap on total land is 500."} {
		if !strings.Contains(body, w) {
			t.Errorf("results post lacks %q", w)
		}
	}
	if got := h.S.Ledger.Supply[LAND]; got != 500 {
		t.Errorf("supply %d, want 500", got)
	}
	if got := data0(h).member("Alice").Passed; got != 1 {
		t.Errorf("Alice passed %d, want 1", got)
	}
}

// passWithOneYes votes round 1's proposal in with Alice's {YES} and returns
// round 2's results post, its white space made single spaces.
func passWithOneYes(t *testing.T, h *contracttest.Harness) string {
	t.Helper()
	h.Advance("2026-12-02T10:30:00Z")
	reply(t, h, "2026-12-02T11:00:00Z", players[0], "{YES}", p1)
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	return strings.Join(strings.Fields(post.Body), " ")
}

// TestCapChangeThousands: a passed rule that writes the cap with a comma
// between thousands ("1,000") sets the cap to the whole number, not to the
// digits before the comma (S11, G9).
func TestCapChangeThousands(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:REPLACEMENT}\nReplacement: Gameplay, Rule 4\nThe cap on total land is 1,000.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	body := passWithOneYes(t, h)
	for _, w := range []string{"sets LANDCap from 100 to 1000", "Gameplay 4. The cap on total land is 1,000."} {
		if !strings.Contains(body, w) {
			t.Errorf("results post lacks %q:\n%s", w, body)
		}
	}
	if got := h.S.Ledger.Supply[LAND]; got != 1000 {
		t.Errorf("supply %d, want 1000", got)
	}
}

// TestRulingTimeout: a passed rule the referee cannot apply waits for the
// totem controller; silence keeps it as written (G8, G9).
func TestRulingTimeout(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Participation\nPlayers must be polite.\n---"
	reply(t, h, "2026-12-01T11:00:00Z", players[1], prop, r1)
	h.Advance("2026-12-02T10:30:00Z")
	reply(t, h, "2026-12-02T11:00:00Z", players[1], "{YES}", p1)
	ns := h.Advance("2026-12-04T10:30:00Z")
	if n := findNotice(ns, "steemfield/ruling/1"); n == nil || n.Channel != contract.ChanPrivate {
		t.Fatalf("no private ruling request: %v", n)
	}
	if b := findNotice(ns, "steemfield/round/2/results-post").Body; !strings.Contains(strings.Join(strings.Fields(b), " "), "Participation 4. Players must be polite. [needs the totem controller's ruling]") {
		t.Log(b)
		t.Errorf("the new rule is not marked as needing a ruling")
	}
	ns = h.Advance("2026-12-07T10:30:00Z")
	body := strings.Join(strings.Fields(findNotice(ns, "steemfield/round/3/results-post").Body), " ")
	if !strings.Contains(body, "did not rule on the rule passed in round 1") {
		t.Errorf("the timeout is not in the clarifications:\n%s", body)
	}
	if len(data0(h).Pending) != 0 {
		t.Errorf("pending %v", data0(h).Pending)
	}
}

// TestVictory: 51 LAND at the round end wins (Gameplay 5, S6 (7)); the final
// post congratulates and lists the final rules; the game then stops.
func TestVictory(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	// Carol ends the round with exactly 51 LAND: she returns her roll (S6
	// (4)), drawn at the proposal post, and gets 1 LAND (S6 (6)).
	seed := contract.SeedFor(contracttest.Secret[:], "2026-W49")
	roll := func(who string) int64 {
		return int64(contract.Intn(seed, ID+"/2026-W49/round/1/roll/"+who, 6) + 1)
	}
	give(t, h, "Carol", 51+roll("Carol")-1)
	ns := h.Advance("2026-12-04T10:30:00Z")
	if got := land(h, "Carol"); got != 51 {
		t.Fatalf("Carol has %d LAND, want 51", got)
	}
	final := findNotice(ns, ID+"/final-post")
	if final == nil {
		t.Fatalf("no final post; Carol has %d LAND", land(h, "Carol"))
	}
	body := strings.Join(strings.Fields(final.Body), " ")
	for _, w := range []string{"Congrats to Carol for achieving the victory condition established by Rule #5 of Gameplay", "Gameplay 5. Any player to get 51 LAND wins the game."} {
		if !strings.Contains(body, w) {
			t.Errorf("final post lacks %q", w)
		}
	}
	if data0(h).Phase != PhaseOver || data0(h).Winner != "Carol" {
		t.Errorf("phase %q winner %q", data0(h).Phase, data0(h).Winner)
	}
	if ns := h.Advance("2026-12-30T00:00:00Z"); len(ns) > 0 && findNotice(ns, "steemfield/round/4/results-post") != nil {
		t.Errorf("the game went on after the victory")
	}
	mustContain(t, h.Public("2026-12-30T10:00:00Z", players[0], "{DELEGATE: 1}"), "Not done", "the game is over")
}

// TestProposalOrder: S4: lowest score, then higher effective power, then
// the oldest player.
func TestProposalOrder(t *testing.T) {
	st := &State{Players: []*Member{
		{Name: "A", Power: 1000}, {Name: "B", Power: 3000, Passed: 1}, {Name: "C", Power: 500}, {Name: "D", Power: 2000}, {Name: "E", Power: 900, Burnt: 1, Passed: 1},
	}}
	for _, n := range []string{"A", "B", "C", "D", "E"} {
		st.Proposals = append(st.Proposals, &Proposal{Player: n})
	}
	var got []string
	for _, p := range st.order() {
		got = append(got, p.Player)
	}
	// Scores: A 0, B 1, C 0, D 0, E 0. Effective powers: A 1, C 0.5, D 1,
	// E 0.9; A and D tie on power, A joined first.
	if diff := cmp.Diff([]string{"A", "D", "E", "C", "B"}, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// TestGuide: the guide lists every verb's syntax and maps the rulings.
func TestGuide(t *testing.T) {
	contracttest.CheckGuide(t, New(), nil)
	g := New().Spec().Guide
	for _, r := range []string{"S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "S11", "S12", "G9"} {
		if !strings.Contains(g, r) {
			t.Errorf("the guide does not cite %s", r)
		}
	}
}

// TestController: the totem's controller corrects a power (S1), hands the
// totem on (Meta 4) and dissolves it (Meta 3); players cannot.
func TestController(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	mustContain(t, h.Public("2026-12-01T11:00:00Z", players[0], "I dissolve the totem."), "Not done", "only the totem's controller")
	mustContain(t, h.Private("2026-12-01T11:01:00Z", "cm@example.test", "I correct the delegated power of Bob to 0."), "Not done", "the delegated power must be more than 0 (S1)")
	// A power below 0 is refused for its value as 0 is, not passed over as
	// talk that names no action.
	mustContain(t, h.Private("2026-12-01T11:01:00Z", "cm@example.test", "I correct the delegated power of Bob to -1."), "Not done", "the delegated power must be more than 0 (S1)")
	mustContain(t, h.Private("2026-12-01T11:01:00Z", "cm@example.test", "I correct the delegated power of Bob to 0.5."), "the declared power of Bob is now 0.500", "voting weight 0.250")
	// A correction that does not read as one is answered with its form,
	// not passed over as a private letter.
	mustContain(t, h.Private("2026-12-01T11:01:00Z", "cm@example.test", "I correct the delegated power of dave to lots."), "Not done: not understood; the nearest form is: I correct the delegated")
	mustContain(t, h.Public("2026-12-01T11:02:00Z", "cm@example.test", "I relinquish control of the totem to alice@example.test."), "Not done", "not a player")
	mustContain(t, h.Public("2026-12-01T11:03:00Z", "cm@example.test", "I relinquish control of the totem to zoe@example.test."), "control of the totem passes from cm@example.test to zoe@example.test")
	mustContain(t, h.Public("2026-12-01T11:04:00Z", "cm@example.test", "I dissolve the totem."), "Not done", "only the totem's controller (zoe@example.test)")
	ns := h.Send(&contract.Message{ID: "dissolve@example.test", From: "zoe@example.test", Channel: contract.ChanPublic, Authenticated: true,
		Arrived: contracttest.At(t, "2026-12-01T11:05:00Z"), Text: "I dissolve the totem."})
	if n := findNotice(ns, ID+"/dissolved"); n == nil || !strings.Contains(n.Body, "Meta 3") {
		t.Fatalf("no dissolution post: %v", ns)
	}
	if data0(h).Phase != PhaseOver {
		t.Errorf("phase %q after dissolving", data0(h).Phase)
	}
	if n, err := h.E.Report(h.S, ID, contracttest.At(t, "2026-12-01T12:00:00Z")); err != nil || !strings.Contains(n.Body, "The game is over: the totem was dissolved (Meta 3).") {
		t.Errorf("the report does not say the totem was dissolved: %v %v", n, err)
	}
	if ns := h.Advance("2026-12-10T00:00:00Z"); findNotice(ns, "steemfield/round/1/proposal-post") != nil {
		t.Errorf("the game went on after the totem was dissolved")
	}
}

// TestCitations: every "Meta <n>", "Participation <n>", "Voting and
// Proposals <n>", "Totem Behavior <n>", "Gameplay <n>" and "Rewards
// Allocation <n>" in the package names a rule of rules.txt, the rules of a
// section numbered from 1 in their order, and every ruling it cites is one of
// docs/rulings.md.
func TestCitations(t *testing.T) {
	b, err := os.ReadFile("rules.txt")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	var sections []string
	section, n := "", 0
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "# "):
			section, n = strings.TrimPrefix(l, "# "), 0
			sections = append(sections, regexp.QuoteMeta(section))
		case section != "" && strings.TrimSpace(l) != "":
			n++
			known[fmt.Sprintf("%s %d", section, n)] = true
		}
	}
	cite := regexp.MustCompile(`\b((?:` + strings.Join(sections, "|") + `) \d+)\b`)
	contracttest.CheckCitations(t, cite, known)
}

// TestCorrectionReweighsTheVote: the controller's correction of a declared
// power (S1) applies to the vote the player cast this round: Bob's NO,
// cast with a weight of 1.000, counts 0.250 once his power is corrected to
// 0.5, so Alice's YES (1.000) passes, and the results post shows the
// weight that was counted (S5).
func TestCorrectionReweighsTheVote(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[0], "{YES}", p1), "Done: your vote YES is recorded with a weight of 1.000")
	mustContain(t, reply(t, h, "2026-12-02T11:01:00Z", players[1], "{NO}", p1), "Done: your vote NO is recorded with a weight of 1.000")
	mustContain(t, h.Private("2026-12-02T12:00:00Z", "cm@example.test", "I correct the delegated power of Bob to 0.5."),
		"the declared power of Bob is now 0.500", "the vote of Bob in round 1 now counts with the weight 0.250 (was 1.000) (S5)")
	ns := h.Advance("2026-12-04T10:30:00Z")
	post := findNotice(ns, "steemfield/round/2/results-post")
	if post == nil {
		t.Fatal("no results post")
	}
	body := strings.Join(strings.Fields(post.Body), " ")
	for _, want := range []string{"in favor: 1.000 against: 0.250", "The proposal passes", "Bob NO 0.250"} {
		if !strings.Contains(body, want) {
			t.Errorf("results post lacks %q:\n%s", want, post.Body)
		}
	}
}

// TestLeaveWithdrawsTheVote: a player who leaves during the voting period
// is told that eir vote no longer counts, and it does not (guide,
// decisions; Participation 2).
func TestLeaveWithdrawsTheVote(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 4)
	prop := "---\n{PROPOSAL:ADDITION}\nAddition: Gameplay\nPlayers may sing.\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[0], "{YES}", p1), "Done: your vote YES")
	mustContain(t, reply(t, h, "2026-12-02T11:01:00Z", players[1], "{NO}", p1), "Done: your vote NO")
	mustContain(t, reply(t, h, "2026-12-02T11:02:00Z", players[1], "{UNDELEGATE}", p1),
		"Done: you left Steemfield", "your vote NO of round 1 is withdrawn: it no longer counts")
	if r := reply(t, h, "2026-12-02T11:03:00Z", players[2], "{UNDELEGATE}", p1); r == nil || strings.Contains(r.Body, "withdrawn") {
		t.Errorf("Carol, who did not vote, is told of a withdrawn vote:\n%v", r)
	}
	post := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if post == nil || !strings.Contains(strings.Join(strings.Fields(post.Body), " "), "in favor: 1.000 against: 0.000") {
		t.Errorf("results post:\n%v", post)
	}
}

// TestReceiptsCiteRenumberedRules: once a passed subtraction removed
// Gameplay 8, the rules after it are renumbered (S3), and the receipts of a
// roll, an unplacement and a referral, and the refusal of a proposal on a
// Meta Rule, cite them as the rule set now numbers them; they cited Gameplay
// 15, 13, 9 and 10, rules that now say something else or do not exist.
func TestReceiptsCiteRenumberedRules(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:SUBTRACTION}\nSubtraction: Gameplay 8\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded: SUBTRACTION of Gameplay 8")
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[0], "{YES}", p1), "Done: your vote YES")
	if results := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post"); results == nil || !strings.Contains(results.Body, "Gameplay 8 is removed from the rule set") {
		t.Fatalf("results post:\n%v", results)
	}
	r2 := "steemfield/round/2/results-post"
	mustContain(t, reply(t, h, "2026-12-04T11:00:00Z", players[1], "{ROLL}", r2), "unplaced LAND to the totem (Gameplay 14)")
	st := data0(h)
	st.Cells, st.NextSeq = []Cell{{X: 2, Y: 2, Owner: "Alice", Seq: 1}}, 1
	mustContain(t, reply(t, h, "2026-12-04T11:01:00Z", players[2], "{UNPLACE: L(2, 2)}", r2), "Alice keeps it, unplaced (Gameplay 12)")
	mustContain(t, reply(t, h, "2026-12-04T11:02:00Z", players[3], "{DELEGATE: 1}\n{REFERRED_BY:\"Alice\"}", r2), "the totem gives 1 LAND to Dave and Alice (Gameplay 8)")
	mustContain(t, reply(t, h, "2026-12-04T11:03:00Z", players[1], "---\n{PROPOSAL:ADDITION}\nAddition: Meta\nBob wins.\n---", r2), "propose a Game Rule instead (Gameplay 9 lets Game Rules occlude Meta Rules)")
}

// TestNoRollsOnceReturnsRemoved: once a passed subtraction removed the 1d6
// returns (Gameplay 15, S11), the results post no longer invites {ROLL},
// and the proposal post draws no rolls and says no LAND returns, where it
// listed a 1d6 for each player that nothing used.
func TestNoRollsOnceReturnsRemoved(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:SUBTRACTION}\nSubtraction: Gameplay 15\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded: SUBTRACTION of Gameplay 15")
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[0], "{YES}", p1), "Done: your vote YES")
	results := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if results == nil || !strings.Contains(results.Body, "Gameplay 15 is removed from the rule set") {
		t.Fatalf("results post:\n%v", results)
	}
	if strings.Contains(results.Body, "{ROLL}") {
		t.Errorf("the results post invites {ROLL} after the rule was removed:\n%s", results.Body)
	}
	proposal := findNotice(h.Advance("2026-12-05T11:00:00Z"), "steemfield/round/2/proposal-post")
	if proposal == nil {
		t.Fatal("no proposal post")
	}
	body := strings.Join(strings.Fields(proposal.Body), " ")
	if strings.Contains(body, "1d6 ---") || strings.Contains(body, "returns that many") {
		t.Errorf("the proposal post lists rolls after the rule was removed:\n%s", proposal.Body)
	}
	if !strings.Contains(body, "no LAND returns to the totem by 1d6, since that rule was removed from the rule set (S11)") {
		t.Errorf("the proposal post does not say why there are no rolls:\n%s", proposal.Body)
	}
	for _, m := range data0(h).Players {
		if m.Roll != 0 {
			t.Errorf("%s has a roll of %d", m.Name, m.Roll)
		}
	}
}

// TestGameOverCitesRenumberedRules: once a passed subtraction removed
// Gameplay 2, the winning rule is Gameplay 4 and the denial rule Gameplay 6
// (S3); the refusal of a rules violation, the winner's record, the final
// post and the refusal of an action after the game cite them so, where they
// cited Gameplay 7 and 5.
func TestGameOverCitesRenumberedRules(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:SUBTRACTION}\nSubtraction: Gameplay 2\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded: SUBTRACTION of Gameplay 2")
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[0], "{YES}", p1), "Done: your vote YES")
	mustContain(t, reply(t, h, "2026-12-02T11:01:00Z", players[0], "{NO}", p1), "will not receive the end-of-round LAND (ruling S10, Gameplay 7)")
	if results := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post"); results == nil || !strings.Contains(results.Body, "Gameplay 2 is removed from the rule set") {
		t.Fatalf("results post:\n%v", results)
	}
	r2 := "steemfield/round/2/results-post"
	mustContain(t, reply(t, h, "2026-12-04T11:00:00Z", players[1], "{PLACE: L(2, 2)}\n{PLACE: L(3, 3)}", r2), "will not receive the end-of-round LAND (ruling S10, Gameplay 6)")
	give(t, h, "Carol", 70)
	final := findNotice(h.Advance("2026-12-07T10:30:00Z"), ID+"/final-post")
	if final == nil {
		t.Fatal("no final post")
	}
	if body := flat(final); !strings.Contains(body, "established by Rule #4 of Gameplay") {
		t.Errorf("final post:\n%s", final.Body)
	}
	var record string
	for _, ev := range h.S.Games[ID].Recent {
		if ev.Who == "Carol" && strings.HasPrefix(ev.What, "wins the game") {
			record = ev.What
		}
	}
	if !strings.HasSuffix(record, "(Gameplay 4)") {
		t.Errorf("winner's record %q, want it to cite Gameplay 4", record)
	}
	mustContain(t, h.Public("2026-12-07T11:00:00Z", players[0], "{DELEGATE: 1}"), "the game is over", "Gameplay 4")
	mustContain(t, reply(t, h, "2026-12-07T11:01:00Z", players[1], "{BURN:1}", r2), "the game is over", "Gameplay 4")
}

// TestVotingRulesCitedRenumbered: once a passed subtraction removed Voting
// and Proposals 1, the results post, the proposal post and a burn cite the
// vote, the burn and the tie-break rules as Voting and Proposals 2, 4 and 5
// (S3), where they cited 3, 5 and 6; once Participation 1 is removed, a
// non-player's action is refused citing ruling S1 alone.
func TestVotingRulesCitedRenumbered(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	prop := "---\n{PROPOSAL:SUBTRACTION}\nSubtraction: Voting and Proposals 1\n---"
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], prop, r1), "Done: your proposal is recorded")
	h.Advance("2026-12-02T10:30:00Z")
	mustContain(t, reply(t, h, "2026-12-02T11:00:00Z", players[0], "{YES}", p1), "Done: your vote YES")
	results := findNotice(h.Advance("2026-12-04T10:30:00Z"), "steemfield/round/2/results-post")
	if results == nil || !strings.Contains(flat(results), "The proposal passes: more weight in favor than against (Voting and Proposals 2).") {
		t.Fatalf("results post:\n%v", results)
	}
	r2 := "steemfield/round/2/results-post"
	give(t, h, "Bob", 3)
	st := data0(h)
	st.Cells = nil
	mustContain(t, reply(t, h, "2026-12-04T11:00:00Z", players[1], "{BURN:1}", r2), "(Voting and Proposals 4)")
	mustContain(t, reply(t, h, "2026-12-04T11:01:00Z", players[1], "---\n{PROPOSAL:SUBTRACTION}\nSubtraction: Participation 1\n---", r2), "Done: your proposal is recorded")
	proposal := findNotice(h.Advance("2026-12-05T11:00:00Z"), "steemfield/round/2/proposal-post")
	if proposal == nil {
		t.Fatal("no proposal post")
	}
	for _, w := range []string{"exceeds the weight against (Voting and Proposals 2).", "the longest in the game (Voting and Proposals 4 and 5, ruling S4):"} {
		if !strings.Contains(flat(proposal), w) {
			t.Errorf("the proposal post lacks %q:\n%s", w, proposal.Body)
		}
	}
	p2 := "steemfield/round/2/proposal-post"
	for i := 0; i < 3; i++ {
		mustContain(t, reply(t, h, "2026-12-05T12:0"+string(rune('0'+i))+":00Z", players[i], "{YES}", p2), "Done: your vote YES")
	}
	h.Advance("2026-12-07T10:30:00Z")
	r3 := "steemfield/round/3/results-post"
	r := reply(t, h, "2026-12-07T11:00:00Z", players[4], "{ROLL}", r3)
	mustContain(t, r, "you are not a player")
	if strings.Contains(r.Body, "Participation") {
		t.Errorf("the refusal cites a rule that is gone:\n%s", r.Body)
	}
}
