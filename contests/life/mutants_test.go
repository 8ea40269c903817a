package life

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Life R21: J is drawn between VCFmin and VCFmax inclusive. Over twelve
// weekly Rounds with VCFmin = 2 and VCFmax = 4 the weekly report shows every
// one of 2, 3 and 4 and nothing else, and each week the contestant gains J.
func TestR21JSpansVCFminToVCFmax(t *testing.T) {
	h := newHarness(t, "2026-11-10T09:00:00Z")
	done(t, h.Public("2026-11-10T10:00:00Z", alice, "I join the Life contest."), "Done")
	h.S.Games[ID].Params["VCFmin"], h.S.Games[ID].Params["VCFmax"] = "2", "4"
	jOf := regexp.MustCompile(`J = (\d+)\.`)
	const weeks = 12
	seen := map[int]int{}
	monday := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	for w := 0; w < weeks; w++ {
		at := monday.AddDate(0, 0, 7*w)
		before := balance(h, "Alice")
		body := flat(noticeBody(h.Advance(at.Format(time.RFC3339)), "[Life] Weekly Report"))
		m := jOf.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("week of %s: the report shows no J:\n%s", at.Format("2006-01-02"), body)
		}
		j, _ := strconv.Atoi(m[1])
		if j < 2 || j > 4 {
			t.Errorf("week of %s: J = %d, outside VCFmin..VCFmax = 2..4", at.Format("2006-01-02"), j)
		}
		seen[j]++
		if st(h).LastRound.Award {
			continue // R23 resets her Vials to VPP after the Round
		}
		if got := balance(h, "Alice"); got != before+int64(j) {
			t.Errorf("week of %s: Alice owns %d, want %d + J = %d", at.Format("2006-01-02"), got, before, before+int64(j))
		}
	}
	for j := 2; j <= 4; j++ {
		if seen[j] == 0 {
			t.Errorf("J = %d never drawn in %d Rounds: %v", j, weeks, seen)
		}
	}
}

// Life R21: N is the contest's Vials divided by the contestants rounded up,
// at least one; the contest's Vials are shared evenly and the remainder
// stays. The weekly report shows N, its sum and the shares.
func TestR21GenerationsRoundedUp(t *testing.T) {
	tests := []struct {
		pool   int
		n      string
		shares string
	}{
		{0, "1 Generation (N = ceil(0 / 3), at least 1)", "none (R21: nothing to share)"},
		{1, "1 Generation (N = ceil(1 / 3), at least 1)", "0 Vials each to Alice, Bob, Carol; 1 Vial stays with the contest"},
		{3, "1 Generation (N = ceil(3 / 3), at least 1)", "1 Vial each to Alice, Bob, Carol; 0 Vials stay with the contest"},
		{4, "2 Generations (N = ceil(4 / 3), at least 1)", "1 Vial each to Alice, Bob, Carol; 1 Vial stays with the contest"},
		{6, "2 Generations (N = ceil(6 / 3), at least 1)", "2 Vials each to Alice, Bob, Carol; 0 Vials stay with the contest"},
		{8, "3 Generations (N = ceil(8 / 3), at least 1)", "2 Vials each to Alice, Bob, Carol; 2 Vials stay with the contest"},
	}
	for _, tc := range tests {
		t.Run(strconv.Itoa(tc.pool), func(t *testing.T) {
			h := join3(t)
			if tc.pool > 0 {
				done(t, h.Public("2026-11-10T11:00:00Z", carol, "I transfer "+strconv.Itoa(tc.pool)+" Vials to the Life contest."), "Done")
			}
			body := flat(noticeBody(h.Advance("2026-11-16T00:00:00Z"), "[Life] Weekly Report"))
			for _, want := range []string{tc.n, "(R21, amended): " + tc.shares + "."} {
				if !strings.Contains(body, want) {
					t.Errorf("the report lacks %q:\n%s", want, body)
				}
			}
		})
	}
}

// Life R5, R9, R12, R18, ruling L3: with limits that do not start at zero
// (X 10..20, Y -3..7) the Grid wraps at its own edges: a blinker across the
// X seam turns about (10, 5), one across the Y seam about (15, -3), and the
// Born Cells of a line of three Controllers, (19, 0) and (19, 2), are drawn
// at the Cells' own coordinates (the Board's would be (9, 3) and (9, 5)).
// A Cell left outside the limits, (21, 1), as after limits are narrowed, is
// not part of the Grid: it is no neighbour of (20, 1), which dies, and it
// is not Controlled after the Round. The report gives the Grid's size.
func TestR12WrapWithOffsetLimits(t *testing.T) {
	h := join3(t)
	p := h.S.Games[ID].Params
	p["Xmin"], p["Xmax"], p["Ymin"], p["Ymax"] = "10", "20", "-3", "7"
	put(h, map[string]string{
		aliceAddr: "20,5 10,5 11,5 18,1", // a blinker across the X seam; the tie line's west end
		bobAddr:   "15,7 15,-3 15,-2 19,1",
		carolAddr: "20,1 21,1",
	})
	report := flat(noticeBody(h.Advance("2026-11-16T00:00:00Z"), "[Life] Weekly Report"))
	if w := "11 x 11 Cells, X 10..20, Y -3..7, wrapping both ways (R12)"; !strings.Contains(report, w) {
		t.Errorf("the report lacks %q:\n%s", w, report)
	}
	draw := tieDraw("2026-W47")
	names := []string{aliceAddr, bobAddr, carolAddr}
	want := map[string][]string{aliceAddr: {"10,4", "10,5", "10,6"}, bobAddr: {"14,-3", "15,-3", "16,-3", "19,1"}}
	for _, y := range []int{0, 2} {
		a := names[draw(1, 19, uint32(y))]
		want[a] = append(want[a], fmt.Sprintf("19,%d", y))
	}
	for _, a := range names {
		got := strings.Fields(cellsOf(h, a))
		sort.Strings(got)
		sort.Strings(want[a])
		if strings.Join(got, " ") != strings.Join(want[a], " ") {
			t.Errorf("%s Controls %v after the Round, want %v", a, got, want[a])
		}
	}
}

// Ruling L3: the tied Controllers are taken in the order of their names,
// byte by byte (capitals before small letters), not of their addresses:
// Bea, Zoe, amy, whose addresses run c, a, b.
func TestR18TieOrderIsNameOrder(t *testing.T) {
	h := newHarness(t, "2026-11-10T09:00:00Z")
	zoe, amy, bea := "Zoe <a@example.test>", "amy <b@example.test>", "Bea <c@example.test>"
	for _, p := range []string{zoe, amy, bea} {
		done(t, h.Public("2026-11-10T10:00:00Z", p, "I join the Life contest."), "Done")
	}
	done(t, h.Public("2026-11-10T11:00:00Z", zoe, "I claim cell (10, 10) in Life."), "Done")
	done(t, h.Public("2026-11-10T11:00:00Z", amy, "I claim cell (11, 10) in Life."), "Done")
	done(t, h.Public("2026-11-10T11:00:00Z", bea, "I claim cell (12, 10) in Life."), "Done")
	h.Advance("2026-11-16T00:00:00Z")
	draw := tieDraw("2026-W47")
	byName := []string{"c@example.test", "a@example.test", "b@example.test"} // Bea, Zoe, amy
	for _, y := range []int{9, 11} {
		want := byName[draw(1, 11, uint32(y))]
		if got := cellsOf(h, want); !strings.Contains(" "+got+" ", fmt.Sprintf(" 11,%d ", y)) {
			t.Errorf("Cell (11, %d) is not %s's, the draw's among Bea, Zoe, amy: %s Controls %q", y, want, want, got)
		}
	}
}

// Life R11, R12, R18: on a torus two Cells wide the west and east
// neighbours of a Cell are the same Cell, counted twice. (1, 2) has A's
// (0, 2) twice and B's (1, 1) once among its eight neighbours, so it is
// Born with A as Parent, as the reference finds.
func TestBoardTwoWide(t *testing.T) {
	c := [][]int{{0, 0}, {0, 2}, {1, 0}, {0, 0}, {0, 0}}
	ref := &refBoard{w: 2, h: 5, c: c}
	b := boardOf(c, TieBreaker{}, 0, 0)
	ref.step()
	b.Step()
	if got := b.At(1, 2); got != 1 {
		t.Errorf("(1, 2) is Controlled by %d after a Generation, want 1 (two of its three living neighbours)", got)
	}
	if d := diff(b, ref.c); d != "" {
		t.Error(d)
	}
}

// Ruling L7, Life R23: each winner's share is capped at PWIN / 5 only when
// it is more. Four contestants and one winner make N = 5 x 4 = 20, exactly
// the cap: the notice says the cap is not reached and awards 20.
func TestL7AwardAtTheCap(t *testing.T) {
	h := newHarness(t, "2026-12-01T09:00:00Z")
	for _, p := range []string{alice, bob, carol, "Dave <dave@example.test>"} {
		done(t, h.Public("2026-12-01T10:00:00Z", p, "I join the Life contest."), "Done")
	}
	done(t, h.Public("2026-12-01T11:00:00Z", alice, "I claim cells (1, 1), (2, 1), (1, 2), (2, 2) in Life."), "Done")
	body := noticeBody(h.Advance("2026-12-07T00:00:00Z"), "Life Contest: Notice of Award")
	for _, want := range []string{"N = PPP x contestants = 5 x 4 = 20", "Each winner: 20 / 1, rounded down = 20",
		"Cap: PWIN / 5 = 100 / 5 = 20; not reached", "Life awards 20 Points to Alice."} {
		if !strings.Contains(body, want) {
			t.Errorf("the notice lacks %q:\n%s", want, body)
		}
	}
	if got := h.S.Score("Alice", ID); got != 20 {
		t.Errorf("Alice's Life points = %d, want 20", got)
	}
}

// Life R4: a suggestion's text names regulations 1 to 99 ("regulation
// 99" is read, and needs no unanimity); a larger number is not read as a
// regulation. The receipt says which it names.
func TestR4RegulationNumbersNamed(t *testing.T) {
	h := join3(t)
	done(t, h.Public("2026-11-10T11:00:00Z", alice, "I suggest: add regulation 99, \"Cells are green.\""),
		"Suggestion #1 recorded (regulation 99); it needs the contestmaster's consent and a majority of contestants (R4)")
	done(t, h.Public("2026-11-10T11:01:00Z", alice, "I suggest: add regulation 100, \"Cells are blue.\""),
		"Suggestion #2 recorded (no regulation named)")
}

// Life R5, R7, R21: limits with Xmax = Xmin, or Ymax = Ymin, leave one
// column or one row of Cells, and VCFmin = VCFmax leaves one value of J:
// each is adopted (only limits below each other are refused). The Cells
// off the new limits are destroyed, and the Round draws J = 1.
func TestLimitsEqualAdopted(t *testing.T) {
	h := join3(t)
	done(t, h.Public("2026-11-10T11:00:00Z", alice, "I claim cells (0, 0), (0, 7), (3, 3), (4, 0) in Life."), "Done")
	for i, change := range []string{"SET Xmax = 0", "SET Ymax = 0", "SET VCFmax = 1"} {
		done(t, h.Public("2026-11-10T12:00:00Z", bob, "I suggest: "+change), "Done")
		id := strconv.Itoa(i + 1)
		h.Public("2026-11-10T12:01:00Z", alice, "I consent to Suggestion #"+id+" in Life.")
		h.Public("2026-11-10T12:01:00Z", bob, "I consent to Suggestion #"+id+" in Life.")
		done(t, h.Public("2026-11-10T12:02:00Z", cm, "I consent to Suggestion #"+id+" in Life."), "Suggestion #"+id+" is adopted")
		switch i {
		case 0:
			if got := cellsOf(h, aliceAddr); got != "0,0 0,7" {
				t.Errorf("Alice's Cells after Xmax = 0: %q, want 0,0 0,7", got)
			}
		case 1:
			if got := cellsOf(h, aliceAddr); got != "0,0" {
				t.Errorf("Alice's Cells after Ymax = 0: %q, want 0,0", got)
			}
		}
	}
	p := h.S.Games[ID].Params
	if p["Xmax"] != "0" || p["Ymax"] != "0" || p["VCFmax"] != "1" {
		t.Fatalf("Xmax %s, Ymax %s, VCFmax %s; want 0, 0, 1", p["Xmax"], p["Ymax"], p["VCFmax"])
	}
	notDone(t, h.Public("2026-11-10T13:00:00Z", alice, "I claim cell (1, 0) in Life."), "Life R7")
	if body := flat(noticeBody(h.Advance("2026-11-16T00:00:00Z"), "[Life] Weekly Report")); !strings.Contains(body, "J = 1.") {
		t.Errorf("the report does not draw J = 1:\n%s", body)
	}
}

// Life R1, as the guide decides it: when a contestant leaves, eir half of
// a change of contestmaster lapses, and only eirs. Alice and Bob consent
// to become the contestmaster; Bob leaves; the contestmaster's consent to
// Bob then waits for Bob's again, and eir consent to Alice makes her the
// contestmaster. Then Alice consents to Carol; Bob (back after seven days)
// leaving again does not touch that offer, and Carol's consent completes it;
// Carol's consent to Alice lapses when Alice leaves.
func TestR1ConsentLapsesWithTheLeaver(t *testing.T) {
	h := join3(t)
	done(t, h.Public("2026-11-11T10:00:00Z", alice, "I consent to become the contestmaster of Life."), "still needed")
	done(t, h.Public("2026-11-11T10:01:00Z", bob, "I consent to become the contestmaster of Life."), "still needed")
	done(t, h.Public("2026-11-11T10:02:00Z", bob, "I leave the Life contest."), "you left Life")
	done(t, h.Public("2026-11-11T11:00:00Z", cm, "I consent to Bob becoming the contestmaster of Life."), "eir consent is still needed")
	done(t, h.Public("2026-11-11T11:01:00Z", cm, "I consent to Alice becoming the contestmaster of Life."), "Alice is now the contestmaster")
	done(t, h.Public("2026-11-18T10:02:00Z", bob, "I join the Life contest."), "Done")
	done(t, h.Public("2026-11-18T11:00:00Z", alice, "I consent to Carol becoming the contestmaster of Life."), "eir consent is still needed")
	done(t, h.Public("2026-11-18T11:01:00Z", bob, "I leave the Life contest."), "you left Life")
	done(t, h.Public("2026-11-18T11:02:00Z", carol, "I consent to become the contestmaster of Life."), "Carol is now the contestmaster")
	done(t, h.Public("2026-11-18T12:00:00Z", carol, "I consent to Alice becoming the contestmaster of Life."), "eir consent is still needed")
	done(t, h.Public("2026-11-18T12:01:00Z", alice, "I leave the Life contest."), "you left Life")
	done(t, h.Public("2026-11-18T12:02:00Z", alice, "I consent to become the contestmaster of Life."), "the contestmaster's consent to you is still needed")
	if got := h.S.Games[ID].Contestmaster; got != "carol@example.test" {
		t.Errorf("contestmaster = %s, want carol@example.test", got)
	}
}

// Life R6, ruling L1: a coordinate limit may be set from -4096 to 4096;
// beyond, the suggestion is refused naming the range.
func TestR6LimitRange(t *testing.T) {
	h := join3(t)
	done(t, h.Public("2026-11-10T11:00:00Z", alice, "I suggest: SET Xmin = -4096"), "Suggestion #1 recorded")
	before := snapshot(t, h)
	notDone(t, h.Public("2026-11-10T11:01:00Z", alice, "I suggest: SET Xmin = -4097"), "Xmin must be between -4096 and 4096, not -4097 (Life R6)")
	notDone(t, h.Public("2026-11-10T11:02:00Z", alice, "I suggest: SET Ymax = 4097"), "Ymax must be between -4096 and 4096, not 4097 (Life R6)")
	if after := snapshot(t, h); after != before {
		t.Errorf("a refused suggestion changed the state")
	}
}

// Life R10, R16: a Cell is found Alive wherever it stands in its
// Controller's list, and a Cell whose coordinates are the end of another's
// ("1,1" in "11,1") is not taken for it. Alice Controls (11, 1) and (2, 2):
// Bob claims the Dead (1, 1), and is refused (2, 2).
func TestR16ClaimChecksEveryCellOfAController(t *testing.T) {
	h := join3(t)
	done(t, h.Public("2026-11-10T11:00:00Z", alice, "I claim cells (11, 1), (2, 2) in Life."), "Done")
	done(t, h.Public("2026-11-10T11:01:00Z", bob, "I claim cell (1, 1) in Life."), "Done")
	notDone(t, h.Public("2026-11-10T11:02:00Z", bob, "I claim cell (2, 2) in Life."), "Life R16")
	if got := cellsOf(h, aliceAddr); got != "11,1 2,2" {
		t.Errorf("Alice's Cells %q, want 11,1 2,2", got)
	}
	if got := cellsOf(h, bobAddr); got != "1,1" {
		t.Errorf("Bob's Cells %q, want 1,1", got)
	}
}

// Ruling L9 as the guide decides it: a suggester withdraws eir open
// suggestion, which then cannot be adopted; nobody else can withdraw it,
// nor can a suggestion be withdrawn twice or one that does not exist.
func TestL9Withdraw(t *testing.T) {
	h := join3(t)
	done(t, h.Public("2026-11-10T11:00:00Z", alice, "I suggest: SET VPP = 12"), "Suggestion #1 recorded")
	notDone(t, h.Public("2026-11-10T11:01:00Z", alice, "I withdraw Suggestion #2 in Life."), "there is no Suggestion #2 (ruling L9)")
	notDone(t, h.Public("2026-11-10T11:02:00Z", bob, "I withdraw Suggestion #1 in Life."), "Suggestion #1 is Alice's to withdraw (ruling L9)")
	done(t, h.Public("2026-11-10T11:03:00Z", alice, "I withdraw Suggestion #1 in Life."), "Suggestion #1 withdrawn")
	notDone(t, h.Public("2026-11-10T11:04:00Z", alice, "I withdraw Suggestion #1 in Life."), "Suggestion #1 is withdrawn (ruling L9)")
	notDone(t, h.Public("2026-11-10T11:05:00Z", cm, "I consent to Suggestion #1 in Life."), "Suggestion #1 is withdrawn (Life R4)")
	if got := h.S.Games[ID].Params["VPP"]; got != "" && got != "10" {
		t.Errorf("VPP = %s after the suggestion was withdrawn", got)
	}
}
