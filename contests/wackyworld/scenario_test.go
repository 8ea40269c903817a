package wackyworld

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

func golden(t *testing.T, path, got string) {
	t.Helper()
	contracttest.Golden(t, path, got)
}

// TestScenario: three parties over four turns, mbox in, mails out, golden.
// The joins place the parties at random tiles; the scenario then starts from a
// fixed layout (the state before of the play), as a scenario fixture would.
func TestScenario(t *testing.T) {
	h := newHarness(t, "2026-12-01T09:00:00Z")
	h.H.Mbox("testdata/scenario/joins.mbox")
	if n := len(h.s.Members(ID)); n != 3 {
		t.Fatalf("%d parties after the joins, want 3", n)
	}
	// The layout of the play: Alice (4, 4), Bob (6, 4), Carol (5, 7); (5, 4),
	// (3, 4) and (10, 10) Fertile; (12, 3) Wall.
	h.data().resize(0, 0)
	h.data().resize(16, 16)
	h.terrain(`5,4="`, `3,4="`, `10,10="`, "12,3=#")
	h.place(aAddr, 4, 4)
	h.place(bAddr, 6, 4)
	h.place(cAddr, 5, 7)
	ns := h.H.Mbox("testdata/scenario/play.mbox")
	ns = append(ns, h.advance("2026-12-14T12:00:00Z")...)

	st := h.data()
	wantAt(t, h, aAddr, 4, 4)
	wantAt(t, h, bAddr, 4, 4)
	wantAt(t, h, cAddr, 5, 5)
	if st.at(Pos{3, 5}) != Wall || st.at(Pos{4, 5}) != Fallow {
		t.Errorf("the pushed wall is not on (3, 5)")
	}
	// Alice: 2 x-points from reaping after the amendment, 1 spent on the wall,
	// 2 y-points for the spoon; Bob: 1 x-point.
	if got := h.s.Score("Alice", ID); got != 3 {
		t.Errorf("Alice's score %d, want 3", got)
	}
	if got := h.s.Ledger.Balance(XPoint, "Alice"); got != 1 {
		t.Errorf("Alice holds %d x-points, want 1", got)
	}
	if got := h.s.Score("Bob", ID); got != 1 {
		t.Errorf("Bob's score %d, want 1", got)
	}
	if st.Turn != 4 {
		t.Errorf("turn %d, want 4", st.Turn)
	}
	searches := 0
	for _, n := range ns {
		if strings.HasPrefix(n.ID, ID+"/search/") {
			searches++
			if n.Channel != contract.ChanPrivate || len(n.To) != 1 {
				t.Errorf("search result %s is not private to one party", n.ID)
			}
		}
	}
	if searches != 2 {
		t.Errorf("%d search results, want 2", searches)
	}
	h.H.Golden("testdata/scenario/mails.golden")
}
