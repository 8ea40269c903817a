package life

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// lifeMail draws a message of one to three Life actions from one of six
// players or the contestmaster, on a small corner of the grid so that claims
// collide.
func lifeMail(r *rand.Rand, n int, at time.Time) *contract.Message {
	players := []string{"ann", "ben", "cal", "dot", "eve", "fay", "cm"}
	who := players[r.IntN(len(players))]
	var text string
	for k := 1 + r.IntN(3); k > 0; k-- {
		switch r.IntN(16) {
		case 0, 1, 2:
			text += "I join the Life contest. "
		case 3:
			text += "I leave the Life contest. "
		case 4, 5, 6, 7:
			text += fmt.Sprintf("I claim cell (%d, %d) in Life. ", r.IntN(6), r.IntN(6))
		case 8:
			text += fmt.Sprintf("I claim cells (%d, %d) and (%d, %d) in Life. ", r.IntN(6), r.IntN(6), r.IntN(6), r.IntN(6))
		case 9:
			text += fmt.Sprintf("I transfer %d Vials of Primordial Ooze to %s. ", r.IntN(3), players[r.IntN(6)])
		case 10:
			if r.IntN(2) == 0 {
				text += fmt.Sprintf("I suggest: SET VCFmax = %d\n", 2+r.IntN(8))
			} else {
				text += "I suggest: let the grid be painted green.\n"
			}
		case 11, 12:
			text += fmt.Sprintf("I consent to Suggestion #%d in Life. ", 1+r.IntN(4))
		case 13:
			text += fmt.Sprintf("I withdraw Suggestion #%d in Life. ", 1+r.IntN(4))
		case 14:
			text += "I consent to become the contestmaster of Life. "
		default:
			text += fmt.Sprintf("I consent to %s becoming the contestmaster of Life. ", players[r.IntN(6)])
		}
	}
	return &contract.Message{ID: fmt.Sprintf("l%d@example.test", n), From: who + "@example.test", Name: who,
		Arrived: at, Date: at, Subject: "life", Channel: contract.ChanPublic, Authenticated: true, Text: text}
}

// Random Life actions, weekly Rounds between them, and whole messages undone
// at random after they were applied, as the daemon undoes one it could not
// save: the state, Life's own data included, equals byte for byte the state
// of a run that applied only the messages kept. The undo checks of
// contracttest are off here, so this holds on what Life saves itself
// (contract.DataSaver), not on the deep copies of those checks.
func TestUndoPropertyLife(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	kept, controllers := map[string]int{}, 0
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			start := contracttest.At(t, "2026-11-04T09:00:00Z")
			w := contracttest.NewTwin(t, start, func() []contract.Game { return []contract.Game{New()} })
			r := rand.New(rand.NewPCG(seed, 14))
			at := start
			for n := 0; n < 200; n++ {
				at = at.Add(time.Duration(r.IntN(12*60)) * time.Minute)
				m := lifeMail(r, n, at)
				ent := w.Try(m)
				if r.IntN(4) == 0 {
					w.Undo()
				} else {
					for _, en := range ent {
						kept[en.Verb+" "+en.Outcome]++
					}
					w.Keep(m)
				}
				w.Check(n, m)
				controllers = max(controllers, len(st2(w.A).Cells))
			}
			if undone := w.Undone(); undone < 30 {
				t.Errorf("too little happened to test: %d undone", undone)
			}
		})
	}
	for _, k := range []string{"claim applied", "claim rejected", "join applied", "leave applied", "suggest applied", "consent applied", "withdraw applied", "volunteer applied", "hand over applied", "week event"} {
		if kept[k] == 0 {
			t.Errorf("too little happened to test: no %q kept in %v", k, kept)
		}
	}
	if controllers < 3 {
		t.Errorf("too little happened to test: at most %d Controllers at once", controllers)
	}
}

func st2(s *contract.State) *State { return s.Games[ID].Data.(*State) }

// Trying a claim costs what it changes, not a copy of every Controller's
// Cells (contract.DataSaver): the bytes a claim allocates, applied and then
// undone, are nearly the same with 20 and with 4,000 other Controllers. A
// deep copy of the Cells map allocates over 300 kB more at 4,000.
func TestClaimCostsWhatItTouches(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	cost := func(others int) float64 {
		h := newHarness(t, "2026-11-04T09:00:00Z")
		done(t, h.Public("2026-11-04T10:00:00Z", alice, "I join the Life contest."))
		cells := st(h).Cells
		for i := range others {
			cells[fmt.Sprintf("p%d@example.test", i)] = fmt.Sprintf("%d,40", i%40)
		}
		at := contracttest.At(t, "2026-11-04T11:00:00Z")
		m := &contract.Message{ID: "claim@example.test", From: "alice@example.test", Name: "Alice", Arrived: at, Date: at,
			Subject: "life", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: "I claim cell (3, 4) in Life."}
		return contracttest.TryCost(t, h.E, h.S, m)
	}
	contracttest.CostsAlike(t, "a claim", "other Controllers", 20, 4000, cost)
}
