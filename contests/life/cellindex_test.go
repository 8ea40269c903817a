package life

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// controllerOfScan is controllerOf as it was before the Cells' index: a
// scan of every Controller's list for p's text between spaces or the
// list's ends. The index must answer as it does.
func controllerOfScan(st *State, p Pt) string {
	tok := strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y)
	for who, list := range st.Cells {
		for i := 0; ; {
			k := strings.Index(list[i:], tok)
			if k < 0 {
				break
			}
			k += i
			end := k + len(tok)
			if (k == 0 || list[k-1] == ' ') && (end == len(list) || list[end] == ' ') {
				return who
			}
			i = k + 1
		}
	}
	return ""
}

// randomCells draws Cells lists on a small grid, each Cell in one list at
// most, written as cellList writes them or, one list in three, as a state
// written by hand might be: "01,2", "+1,2", doubled or tabbed spaces, a
// Cell twice in its list.
func randomCells(r *rand.Rand) map[string]string {
	cells := map[string]string{}
	taken := map[Pt]bool{}
	for who := range r.IntN(6) {
		var toks []string
		for range r.IntN(8) {
			p := Pt{r.IntN(7) - 1, r.IntN(7) - 1}
			if taken[p] {
				continue
			}
			taken[p] = true
			toks = append(toks, strconv.Itoa(p.X)+","+strconv.Itoa(p.Y))
		}
		list := strings.Join(toks, " ")
		if r.IntN(3) == 0 && len(toks) > 0 {
			t := toks[r.IntN(len(toks))]
			switch r.IntN(5) {
			case 0:
				list = strings.Replace(list, t, "0"+t, 1)
			case 1:
				list = strings.Replace(list, t, "+"+t, 1)
			case 2:
				list = strings.ReplaceAll(list, " ", "  ")
			case 3:
				list = strings.Replace(list, " ", "\t", 1)
			default:
				list += " " + t
			}
		}
		cells[fmt.Sprintf("p%d@example.test", who)] = list
	}
	return cells
}

// On Cells lists drawn at random, some as a state written by hand would
// have them, the index finds the Controller of every Cell of the grid and
// around it as the scan it replaces does.
func TestControllerOfAsTheScan(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2))
	found := 0
	for range 2000 {
		st := &State{Cells: randomCells(r)}
		for x := -2; x <= 6; x++ {
			for y := -2; y <= 6; y++ {
				got, want := st.controllerOf(Pt{x, y}), controllerOfScan(st, Pt{x, y})
				if got != want {
					t.Fatalf("Cells %q: the Controller of (%d, %d) is %q, the scan finds %q", st.Cells, x, y, got, want)
				}
				if want != "" {
					found++
				}
			}
		}
	}
	if found < 10000 {
		t.Errorf("too little to test: %d Cells Controlled", found)
	}
}

// indexHolds fails the test unless the state's own index, kept since it was
// made, is the index of its Cells made afresh.
func indexHolds(t *testing.T, st *State, when string) {
	t.Helper()
	if st.index == nil || !sameMap(st.index.of, st.Cells) {
		return // made afresh when next needed
	}
	if want := newCellIndex(st.Cells).at; !maps.Equal(st.index.at, want) {
		t.Fatalf("%s: the Cells' index is\n%v\nwhere the Cells %q index as\n%v", when, st.index.at, st.Cells, want)
	}
}

// Random Life actions (claims that collide, leaving, joining again), weekly
// Rounds that replace the Cells, and whole messages undone at random after
// they were applied: after each message the index Life keeps beside the
// Cells is the index of the Cells as they are, so a claim finds a Cell's
// Controller as the scan of the lists would. Undo is checked on what Life
// saves itself, not on contracttest's deep copies.
func TestCellIndexFollowsUndo(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	kept, checked := 0, 0
	for seed := uint64(1); seed <= 3; seed++ {
		cfg := contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster, SeenHorizon: 5 * 24 * time.Hour}
		at := contracttest.At(t, "2026-11-04T09:00:00Z")
		e, err := contract.NewEngine(cfg, New())
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := e.NewState(contracttest.Secret[:], at)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 15))
		for n := range 300 {
			at = at.Add(time.Duration(r.IntN(12*60)) * time.Minute)
			m := lifeMail(r, n, at)
			tx := s.Begin()
			if _, err := e.Advance(s, m.Arrived); err != nil {
				t.Fatal(err)
			}
			if _, err := e.Apply(s, m); err != nil {
				t.Fatal(err)
			}
			if r.IntN(3) == 0 {
				tx.Undo()
			} else {
				tx.End()
				kept++
			}
			s.Outbox = nil
			st := s.Games[ID].Data.(*State)
			indexHolds(t, st, fmt.Sprintf("seed %d, after message %d (%q)", seed, n, m.Text))
			if st.index != nil && sameMap(st.index.of, st.Cells) && len(st.Cells) > 0 {
				checked++
			}
		}
	}
	if kept < 500 || checked < 500 {
		t.Errorf("too little happened to test: %d messages kept, %d checked with Cells and their index", kept, checked)
	}
}

// A claim made on a copy of the state (contract.Snapshot, as a rerun of
// the record makes) leaves the index of the state copied as it was: the
// copy makes an index of its own rather than change the one it shares.
func TestCellIndexOfACopy(t *testing.T) {
	h := newHarness(t, "2026-11-04T09:00:00Z")
	done(t, h.Public("2026-11-04T10:00:00Z", alice, "I join the Life contest."))
	done(t, h.Public("2026-11-04T10:01:00Z", bob, "I join the Life contest."))
	done(t, h.Public("2026-11-04T10:02:00Z", alice, "I claim cell (1, 1) in Life."))
	orig := st(h)
	cp := contract.Snapshot(h.S)
	at := contracttest.At(t, "2026-11-04T10:03:00Z")
	m := &contract.Message{ID: "copy@example.test", From: "bob@example.test", Name: "Bob", Arrived: at, Date: at,
		Subject: "life", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: "I claim cell (2, 2) in Life."}
	if _, err := h.E.Apply(cp, m); err != nil {
		t.Fatal(err)
	}
	if got := cp.Games[ID].Data.(*State).controllerOf(Pt{2, 2}); got != "bob@example.test" {
		t.Fatalf("on the copy, (2, 2) is Controlled by %q", got)
	}
	indexHolds(t, orig, "the state copied")
	if got := orig.controllerOf(Pt{2, 2}); got != "" {
		t.Errorf("the claim on the copy gave (2, 2) to %q in the state copied", got)
	}
	rec := h.Public("2026-11-04T10:04:00Z", carol, "I join the Life contest.\nI claim cell (2, 2) in Life.")
	done(t, rec, "you Control Cell (2, 2)")
}

// A state written by hand with a Controller's Cells not as cellList writes
// them ("01,1", two spaces): eir claim rewrites the list, and the index
// follows, so the Cell written "01,1" and now "1,1" is found Controlled.
func TestCellIndexOfAListWrittenByHand(t *testing.T) {
	h := newHarness(t, "2026-11-04T09:00:00Z")
	done(t, h.Public("2026-11-04T10:00:00Z", alice, "I join the Life contest."))
	done(t, h.Public("2026-11-04T10:01:00Z", bob, "I join the Life contest."))
	s := st(h)
	s.Cells["alice@example.test"] = "01,1  3,3"
	s.index = nil
	done(t, h.Public("2026-11-04T10:02:00Z", alice, "I claim cell (4, 4) in Life."), "you Control Cell (4, 4)")
	if got := s.Cells["alice@example.test"]; got != "1,1 3,3 4,4" {
		t.Fatalf("Alice's Cells are %q", got)
	}
	indexHolds(t, s, "after the claim")
	rec := h.Public("2026-11-04T10:03:00Z", bob, "I claim cell (1, 1) in Life.")
	if rec == nil || !strings.Contains(flat(rec.Body), flat("Cell (1, 1) is Alive, Controlled by Alice")) {
		t.Errorf("Bob's claim of Alice's Cell (1, 1):\n%v", rec)
	}
}

// A state written by hand with one Cell in two Controllers' lists: when
// one of them leaves, the Cell is still found Controlled by the other,
// whichever of the two the index had given it to.
func TestCellIndexAfterLeavingACellOfTwo(t *testing.T) {
	for range 8 { // the index takes the Cell from either list, as map order falls
		h := newHarness(t, "2026-11-04T09:00:00Z")
		done(t, h.Public("2026-11-04T10:00:00Z", alice, "I join the Life contest."))
		done(t, h.Public("2026-11-04T10:01:00Z", bob, "I join the Life contest."))
		done(t, h.Public("2026-11-04T10:02:00Z", carol, "I join the Life contest."))
		s := st(h)
		s.Cells["alice@example.test"] = "5,5"
		s.Cells["bob@example.test"] = "5,5 6,6"
		s.index = nil
		done(t, h.Public("2026-11-04T10:03:00Z", carol, "I claim cell (1, 1) in Life."), "you Control Cell (1, 1)")
		done(t, h.Public("2026-11-04T10:04:00Z", alice, "I leave the Life contest."), "you left Life")
		rec := h.Public("2026-11-04T10:05:00Z", carol, "I claim cell (5, 5) in Life.")
		if rec == nil || !strings.Contains(flat(rec.Body), flat("Cell (5, 5) is Alive, Controlled by Bob")) {
			t.Fatalf("Carol's claim of Bob's Cell (5, 5), after Alice, who had it too, left:\n%v", rec)
		}
	}
}
