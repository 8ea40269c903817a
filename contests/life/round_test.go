package life

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// put sets Cells directly: "alice@example.test" -> "10,10 11,10".
func put(h *harness, cells map[string]string) {
	s := st(h)
	s.Cells = map[string]string{}
	for who, list := range cells {
		s.Cells[who] = list
	}
}

const (
	aliceAddr = "alice@example.test"
	bobAddr   = "bob@example.test"
	carolAddr = "carol@example.test"
)

// Life R17, R18, R19, R20, ruling L4: in a blinker of two Alice Cells and one
// Bob Cell, both Born Cells have Alice as Parent (two of their three living
// neighbours), Bob's end Cell is Killed, Alice's middle Cell survives.
func TestR17R18R19R20Parent(t *testing.T) {
	h := join3(t)
	put(h, map[string]string{aliceAddr: "10,10 11,10", bobAddr: "12,10"})
	h.Advance("2026-11-16T00:00:00Z")
	if got := st(h).LastRound.Generations; got != 1 {
		t.Fatalf("generations = %d, want 1 (the contest owns no Vials: N's minimum, R21)", got)
	}
	if got := cellsOf(h, aliceAddr); got != "11,9 11,10 11,11" {
		t.Errorf("Alice's Cells = %q, want the vertical blinker 11,9 11,10 11,11", got)
	}
	if got := cellsOf(h, bobAddr); got != "" {
		t.Errorf("Bob's Cells = %q, want none (Killed, R19)", got)
	}
}

// Life R18, ruling L3, G5: a three-way tie is drawn with the keyed function
// under the Round's key, which anyone can recompute from the revealed seed by
// the guide's recipe (done here by hand, not with the package's TieBreaker;
// sip16 itself is checked against the reference vector).
func TestR18TieDrawRecomputable(t *testing.T) {
	h := join3(t)
	put(h, map[string]string{aliceAddr: "10,10", bobAddr: "11,10", carolAddr: "12,10"})
	h.Advance("2026-11-16T00:00:00Z")
	draw := tieDraw("2026-W47")
	names := []string{aliceAddr, bobAddr, carolAddr} // sorted by name: Alice, Bob, Carol
	cells, err := st(h).cellMap()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Pt{{11, 9}, {11, 11}} {
		want := names[draw(1, uint32(p.X), uint32(p.Y))]
		if cells[p] != want {
			t.Errorf("Cell %s: parent %q, want %q from the recomputed draw", p, cells[p], want)
		}
	}
	// The middle Cell survives with its Controller, Bob (R8).
	if cells[Pt{11, 10}] != bobAddr {
		t.Errorf("Cell (11, 10) = %q, want Bob's", cells[Pt{11, 10}])
	}
}

// tieDraw is the guide's recipe for a three-way tie of the week's Round,
// done by hand: HMAC-SHA256(seed, "key/life/<week>/round/parent"), its
// first 16 bytes read as two little-endian numbers are the SipHash-2-4
// keys; the tie at (x, y) in Generation g hashes g (8 bytes), x, y (4 bytes
// each), all little-endian, mod 3, among the names in order.
func tieDraw(week string) func(g uint64, x, y uint32) int {
	seed := contract.SeedFor(contracttest.Secret[:], week)
	mac := hmac.New(sha256.New, seed)
	mac.Write([]byte("key/life/" + week + "/round/parent"))
	key := mac.Sum(nil)
	k0, k1 := binary.LittleEndian.Uint64(key[0:8]), binary.LittleEndian.Uint64(key[8:16])
	return func(g uint64, x, y uint32) int {
		var msg [16]byte
		binary.LittleEndian.PutUint64(msg[0:8], g)
		binary.LittleEndian.PutUint32(msg[8:12], x)
		binary.LittleEndian.PutUint32(msg[12:16], y)
		return int(sip16(k0, k1, binary.LittleEndian.Uint64(msg[0:8]), binary.LittleEndian.Uint64(msg[8:16])) % 3)
	}
}

// Life R21 (amended, ruling L5): N = ceil(contest's Vials / contestants);
// the contest's Vials are shared evenly among all contestants, the remainder
// stays; J in VCFmin..VCFmax is minted to each.
func TestR21Amended(t *testing.T) {
	h := join3(t)
	h.Public("2026-11-10T11:00:00Z", alice, "I transfer 7 Vials to the Life contest.")
	h.Advance("2026-11-16T00:00:00Z")
	r := st(h).LastRound
	if r.Generations != 3 {
		t.Errorf("N = %d, want ceil(7/3) = 3", r.Generations)
	}
	if r.J < 1 || r.J > 5 {
		t.Errorf("J = %d, outside VCFmin..VCFmax", r.J)
	}
	if got, want := balance(h, "Alice"), int64(3+2+r.J); got != want {
		t.Errorf("Alice owns %d, want 3 + 2 (share) + J = %d", got, want)
	}
	if got, want := balance(h, "Bob"), int64(10+2+r.J); got != want {
		t.Errorf("Bob owns %d, want %d", got, want)
	}
	if got := balance(h, contract.ContestEntity(ID)); got != 1 {
		t.Errorf("the contest keeps %d, want the remainder 1", got)
	}
}

// Life R21 (original, ruling L5): the contest's Vials go to the contestant
// Controlling the most Cells; ties share, the remainder stays; skipped when
// nobody Controls a Cell.
func TestR21Original(t *testing.T) {
	tests := []struct {
		name          string
		cells         map[string]string
		alice, bob    int64 // shares
		contestRemain int64
	}{
		{"one leader", map[string]string{aliceAddr: "1,1 2,1 1,2 2,2 10,10 11,10 10,11 11,11", bobAddr: "20,20 21,20 20,21 21,21"}, 7, 0, 0},
		{"a tie", map[string]string{aliceAddr: "1,1 2,1 1,2 2,2", bobAddr: "20,20 21,20 20,21 21,21"}, 3, 3, 1},
		{"nobody", nil, 0, 0, 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := join3(t)
			h.S.Games[ID].Params["R21"] = Original
			h.Public("2026-11-10T11:00:00Z", carol, "I transfer 7 Vials to the Life contest.")
			put(h, tc.cells)
			h.Advance("2026-11-16T00:00:00Z")
			j := int64(st(h).LastRound.J)
			if got := balance(h, "Alice"); got != 10+tc.alice+j {
				t.Errorf("Alice owns %d, want 10 + %d + J", got, tc.alice)
			}
			if got := balance(h, "Bob"); got != 10+tc.bob+j {
				t.Errorf("Bob owns %d, want 10 + %d + J", got, tc.bob)
			}
			if got := balance(h, contract.ContestEntity(ID)); got != tc.contestRemain {
				t.Errorf("the contest keeps %d, want %d", got, tc.contestRemain)
			}
		})
	}
}

// Life R22, ruling L6: a Round runs every Monday only with a contestant; the
// weekly report goes out either way.
func TestR22RoundOnlyWithContestants(t *testing.T) {
	h := newHarness(t, "2026-11-10T09:00:00Z")
	ns := h.Advance("2026-11-16T00:00:00Z")
	if st(h).Rounds != 0 {
		t.Errorf("a Round ran without contestants")
	}
	if !hasSubject(ns, "[Life] Weekly Report") {
		t.Errorf("no weekly report without contestants")
	}
	h.Public("2026-11-16T10:00:00Z", alice, "I join the Life contest.")
	h.Advance("2026-11-23T00:00:00Z")
	if st(h).Rounds != 1 {
		t.Errorf("rounds = %d after a Monday with a contestant, want 1", st(h).Rounds)
	}
	if h.S.Games[ID].LastReport.IsZero() {
		t.Errorf("LastReport not set")
	}
}

func hasSubject(ns []*contract.Notice, subj string) bool {
	for _, n := range ns {
		if n.Subject == subj {
			return true
		}
	}
	return false
}

func noticeBody(ns []*contract.Notice, subj string) string {
	for _, n := range ns {
		if n.Subject == subj {
			return n.Body
		}
	}
	return ""
}

// Ruling L7: N = PPP x contestants, divided evenly rounding down, capped at
// PWIN/5; the 2002 notice's six contestants and one winner give 30, capped 20.
func TestL7AwardArithmetic(t *testing.T) {
	tests := []struct{ contestants, winners, n, each, limit, points int }{
		{6, 1, 30, 30, 20, 20},
		{3, 1, 15, 15, 20, 15},
		{3, 2, 15, 7, 20, 7},
		{3, 3, 15, 5, 20, 5},
		{10, 4, 50, 12, 20, 12},
		{0, 0, 0, 0, 20, 0}, // no contestant, no winner: nothing to share
	}
	for _, tc := range tests {
		n, each, limit, points := computeAward(tc.contestants, tc.winners, 5, 100)
		if n != tc.n || each != tc.each || limit != tc.limit || points != tc.points {
			t.Errorf("computeAward(%d, %d) = %d, %d, %d, %d; want %d, %d, %d, %d", tc.contestants, tc.winners,
				n, each, limit, points, tc.n, tc.each, tc.limit, tc.points)
		}
	}
}

// Life R23 (amended), rulings L6, L7: the 2002 award, replayed: six
// contestants, Goethe Controls the most Cells; the notice shows the cap; then
// the Vials are collected, destroyed and VPP minted to each.
func TestR23AmendedAwardGoethe(t *testing.T) {
	h := newHarness(t, "2026-12-01T09:00:00Z")
	names := []string{"Goethe", "root", "Craig", "OscarMeyr", "Sir Toby", "Eris"}
	for i, n := range names {
		h.Public(fmt.Sprintf("2026-12-01T10:0%d:00Z", i), fmt.Sprintf("%s <p%d@example.test>", n, i), "I join the Life contest.")
	}
	h.Public("2026-12-01T11:00:00Z", "Goethe <p0@example.test>", "I claim cells (1, 1), (2, 1), (1, 2), (2, 2) in Life.")
	h.Public("2026-12-01T11:00:00Z", "root <p1@example.test>", "I transfer 5 Vials to the Life contest.")
	ns := h.Advance("2026-12-07T00:00:00Z")
	body := noticeBody(ns, "Life Contest: Notice of Award")
	for _, want := range []string{"N = PPP x contestants = 5 x 6 = 30", "Cap: PWIN / 5 = 100 / 5 = 20; 30 is more, so 20", "Life awards 20 Points to Goethe."} {
		if !strings.Contains(body, want) {
			t.Errorf("the notice lacks %q:\n%s", want, body)
		}
	}
	if got := h.S.Score("Goethe", ID); got != 20 {
		t.Errorf("Goethe's Life points = %d, want 20", got)
	}
	for _, n := range names {
		if got := balance(h, n); got != 10 {
			t.Errorf("%s owns %d Vials after the reset, want VPP = 10", n, got)
		}
	}
	if h.S.Ledger.Supply[Vial] != 60 || balance(h, contract.ContestEntity(ID)) != 0 || balance(h, contract.ContestmasterEntity(ID)) != 0 {
		t.Errorf("supply %d, contest %d, contestmaster %d; want 60, 0, 0", h.S.Ledger.Supply[Vial],
			balance(h, contract.ContestEntity(ID)), balance(h, contract.ContestmasterEntity(ID)))
	}
}

// Ruling L5, read literally: under the amended R23, when nobody Controls a
// Cell every contestant is a winner.
func TestL5NobodyControlsEveryoneWins(t *testing.T) {
	h := newHarness(t, "2026-12-01T09:00:00Z")
	for _, p := range []string{alice, bob, carol} {
		h.Public("2026-12-01T10:00:00Z", p, "I join the Life contest.")
	}
	h.Advance("2026-12-07T00:00:00Z")
	for _, n := range []string{"Alice", "Bob", "Carol"} {
		if got := h.S.Score(n, ID); got != 5 {
			t.Errorf("%s has %d points, want 15 / 3 = 5", n, got)
		}
	}
}

// Life R23 (original, ruling L5): the award goes to the contestants owning
// the most Vials after the Round, ties dividing N rounding down.
func TestR23Original(t *testing.T) {
	h := newHarness(t, "2026-12-01T09:00:00Z")
	for _, p := range []string{alice, bob, carol} {
		h.Public("2026-12-01T10:00:00Z", p, "I join the Life contest.")
	}
	h.S.Games[ID].Params["R23"] = Original
	h.Public("2026-12-01T11:00:00Z", carol, "I transfer 4 Vials to Bob.")
	h.Public("2026-12-01T11:00:00Z", carol, "I transfer 4 Vials to Alice.")
	h.Public("2026-12-01T12:00:00Z", carol, "I claim cells (1, 1), (2, 1), (1, 2), (2, 2) in Life.")
	ns := h.Advance("2026-12-07T00:00:00Z")
	if got := h.S.Score("Carol", ID); got != 0 {
		t.Errorf("Carol, who Controls the most Cells but owns fewest Vials, got %d points", got)
	}
	for _, n := range []string{"Alice", "Bob"} {
		if got := h.S.Score(n, ID); got != 7 {
			t.Errorf("%s has %d points, want 15 / 2 = 7", n, got)
		}
	}
	if body := noticeBody(ns, "Life Contest: Notice of Award"); !strings.Contains(body, "Life awards 7 Points to Bob.") {
		t.Errorf("notice:\n%s", body)
	}
}

// Ruling L6: the first full Agoran week's Monday is the first Monday on or
// after the 1st: 2026-11-30 is not (December's is 2026-12-07), 2026-11-02 is.
func TestL6AwardOnlyInFirstFullWeek(t *testing.T) {
	h := newHarness(t, "2026-11-24T09:00:00Z")
	h.Public("2026-11-24T10:00:00Z", alice, "I join the Life contest.")
	if ns := h.Advance("2026-11-30T00:00:00Z"); hasSubject(ns, "Life Contest: Notice of Award") {
		t.Error("an award on 2026-11-30")
	}
	if ns := h.Advance("2026-12-07T00:00:00Z"); !hasSubject(ns, "Life Contest: Notice of Award") {
		t.Error("no award on 2026-12-07")
	}
}

// No fixed player limit: a Round with 1,000 contestants Controlling Cells
// (more than a byte can number) runs. Each of the first 998 Controls a block,
// which lives on unchanged, and the last two a blinker, whose Born Cells go to
// the one Controlling two of its three (Life R17, R18), numbered 999 on the
// Board.
func TestRoundWithAThousandControllers(t *testing.T) {
	n := 1000
	if testing.Short() {
		// The mutation runs (scripts/mutate.sh) trade the scale for time:
		// the same blocks, blinker and out-voted Cell with 100 Controllers.
		n = 100
	}
	h, cells := manyControllers(t, n)
	addr := controllerAddr
	h.Advance("2026-11-16T00:00:00Z")
	if st(h).Rounds != 1 || st(h).LastRound.Generations < 1 {
		t.Fatalf("no Round ran: %d rounds, last %+v", st(h).Rounds, st(h).LastRound)
	}
	for i := 0; i < n-2; i++ {
		if got := cellsOf(h, addr(i)); got != cells[addr(i)] {
			t.Fatalf("%s's block is %q after the Round, want %q", addr(i), got, cells[addr(i)])
		}
	}
	if got := strings.Fields(cellsOf(h, addr(n-2))); len(got) != 3 {
		t.Errorf("P%04d Controls %v after the Round, want the whole blinker (R18)", n-1, got)
	}
	if got := cellsOf(h, addr(n-1)); got != "" {
		t.Errorf("P%04d Controls %q after the Round, want nothing (Killed or out-voted, R18, R19)", n, got)
	}
}

// BenchmarkRound times the Round of a week with 1,000 Controllers, and with
// 100 in the same run for scale.
//
//	go test -run '^$' -bench Round -benchtime 5x ./contests/life/
func BenchmarkRound(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("controllers=%d", n), func(b *testing.B) {
			h, _ := manyControllers(b, n)
			defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
			at := contracttest.At(b, "2026-11-16T00:00:00Z")
			start := h.S
			var total time.Duration
			for i := 0; i < b.N; i++ {
				s := contract.Snapshot(start)
				t0 := time.Now()
				if _, err := h.E.Advance(s, at); err != nil {
					b.Fatal(err)
				}
				total += time.Since(t0)
				if s.Games[ID].Data.(*State).Rounds != 1 {
					b.Fatal("no Round ran")
				}
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/round")
		})
	}
}

func controllerAddr(i int) string { return fmt.Sprintf("p%04d@example.test", i+1) }

// manyControllers joins n contestants to Life and gives each of the first n-2
// a block (a still life), 5 Cells apart, and the last two a blinker far from
// them: the second last two of its Cells, the last one.
func manyControllers(t testing.TB, n int) (*harness, map[string]string) {
	t.Helper()
	h := contracttest.New(t, "2026-11-10T09:00:00Z", New())
	at := contracttest.At(t, "2026-11-10T10:00:00Z")
	addr := controllerAddr
	// The joins are setup: they are not run twice to check their undo (the
	// other tests do that), which would cost a deep copy of every player each.
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	for i := 0; i < n; i++ {
		m := &contract.Message{ID: fmt.Sprintf("join%d@example.test", i), From: addr(i), Name: fmt.Sprintf("P%04d", i+1),
			Arrived: at, Date: at, Subject: "join", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: "I join the Life contest."}
		if _, err := h.E.Apply(h.S, m); err != nil {
			t.Fatal(err)
		}
		h.S.Outbox = nil
	}
	if got := len(h.S.Members(ID)); got != n {
		t.Fatalf("%d contestants joined, want %d", got, n)
	}
	h.S.Outbox = nil
	gs := h.S.Games[ID]
	gs.Params["Xmax"], gs.Params["Ymax"] = "199", "199"
	cells := map[string]string{}
	for i := 0; i < n-2; i++ {
		x, y := 5*(i%32), 5*(i/32)
		cells[addr(i)] = fmt.Sprintf("%d,%d %d,%d %d,%d %d,%d", x, y, x+1, y, x, y+1, x+1, y+1)
	}
	cells[addr(n-2)] = "180,180 181,180"
	cells[addr(n-1)] = "182,180"
	put(h, cells)
	return h, cells
}

// TestReportPastTheLetters: with more contestants than marks, those past
// the letters share '#', and the legend names none of them, so the report
// is the same each time it is made (invariant 1).
func TestReportPastTheLetters(t *testing.T) {
	h, _ := manyControllers(t, 70)
	at := contracttest.At(t, "2026-11-10T12:00:00Z")
	var first string
	for i := range 20 {
		n, err := h.E.Report(h.S, ID, at)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = n.Body
			if !strings.Contains(first, "  #  any contestant after the first 62 to join") {
				t.Fatalf("the legend of '#' does not say who shares it:\n%s", first)
			}
			continue
		}
		if n.Body != first {
			t.Fatalf("the report changed between two makings:\n%s\n----\n%s", first, n.Body)
		}
	}
}
