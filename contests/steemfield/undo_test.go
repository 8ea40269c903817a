package steemfield

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// undoPlayers are the senders of steemMail; "cm" is the totem's controller.
var undoPlayers = []string{"ann", "ben", "cal", "dot", "eve", "fay", "gus", "cm"}

// steemMail draws a public message of one to three Steemfield actions from one
// of seven players or the totem's controller, on a corner of the map so that
// placements collide: joins, leaves, referrals, gifts, burns, placements and
// unplacements, rolls, proposals (some setting a parameter, some needing the
// controller's ruling), votes, renames and corrected powers; or, while a
// ruling is asked, the controller's answer to it (rulings). Half the
// unplacements name a cell on the map (cells). Many are refused (out of their period, a second one, a name unknown).
func steemMail(r *rand.Rand, n int, at time.Time, rulings []*contract.Ruling, cells []Cell) *contract.Message {
	id := fmt.Sprintf("s%d@example.test", n)
	if r.IntN(4) == 0 && len(rulings) > 0 {
		// The controller's ruling on a passed rule (G9), sent privately.
		no := rulings[r.IntN(len(rulings))].ID
		text := fmt.Sprintf("I rule on #%d: confirmed as written.", no)
		if r.IntN(2) == 0 {
			text = fmt.Sprintf("I rule on #%d: SET LANDCap = %d", no, 90+r.IntN(40))
		}
		return &contract.Message{ID: id, From: "cm@example.test", Name: "cm", Arrived: at, Date: at,
			Subject: "ruling", Channel: contract.ChanPrivate, Authenticated: true, Text: text}
	}
	who := undoPlayers[r.IntN(len(undoPlayers))]
	other := func() string { return undoPlayers[r.IntN(len(undoPlayers)-1)] }
	var lines []string
	for k := 1 + r.IntN(3); k > 0; k-- {
		switch r.IntN(22) {
		case 0, 1, 2:
			lines = append(lines, fmt.Sprintf("{DELEGATE: %s}", []string{"1", "0.5", "2", "0.25"}[r.IntN(4)]))
		case 3:
			if r.IntN(3) == 0 {
				lines = append(lines, "{UNDELEGATE}")
			}
		case 4:
			lines = append(lines, fmt.Sprintf("{REFERRED_BY:%q}", other()))
		case 5, 6:
			lines = append(lines, fmt.Sprintf("{GIFT_%d_LAND_TO:%q}", 1+r.IntN(3), other()))
		case 7:
			lines = append(lines, fmt.Sprintf("{BURN:%d}", 1+r.IntN(2)))
		case 8, 9, 10, 11:
			lines = append(lines, fmt.Sprintf("{PLACE: L(%d, %d)}", r.IntN(6), r.IntN(6)))
		case 12:
			x, y := 1+r.IntN(5), 1+r.IntN(5)
			if len(cells) > 0 && r.IntN(2) == 0 {
				c := cells[r.IntN(len(cells))]
				x, y = c.X, c.Y
			}
			lines = append(lines, fmt.Sprintf("{UNPLACE: L(%d, %d)}", x, y))
		case 13:
			lines = append(lines, "{ROLL}")
		case 14, 15, 16:
			lines = append(lines, []string{"{YES}", "{YES}", "{YES}", "{NO}"}[r.IntN(4)])
		case 17, 18, 19:
			lines = append(lines, "---", []string{
				"{PROPOSAL:REPLACEMENT}\nReplacement: Gameplay, Rule 5\nSET WinLAND = " + fmt.Sprint(60+r.IntN(40)),
				"{PROPOSAL:REPLACEMENT}\nReplacement: Gameplay, Rule 11\nSET GridSize = " + fmt.Sprint(4+r.IntN(4)),
				"{PROPOSAL:REPLACEMENT}\nReplacement: Gameplay, Rule 4\nThe cap on total LAND is " + fmt.Sprint(80+r.IntN(60)) + ".",
				"{PROPOSAL:SUBTRACTION}\nSubtraction: Gameplay, Rule " + fmt.Sprint(6+r.IntN(10)),
				"{PROPOSAL:ADDITION}\nAddition: Gameplay\nEach player may name one cell of the map.",
				"{PROPOSAL:ADDITION}\nAddition: Gameplay\nA player who places LAND next to eir own cell is blessed.",
			}[r.IntN(6)], "---")
		case 20:
			lines = append(lines, fmt.Sprintf("I change my name to %s%d.", strings.ToUpper(who[:1])+who[1:], r.IntN(3)))
		default:
			lines = append(lines, fmt.Sprintf("I correct the delegated power of %s to %s.", other(), []string{"0.5", "1", "3"}[r.IntN(3)]))
		}
	}
	return &contract.Message{ID: id, From: who + "@example.test", Name: who,
		Arrived: at, Date: at, Subject: "steemfield", Channel: contract.ChanPublic, Authenticated: true, Text: strings.Join(lines, "\n") + "\n"}
}

// Random Steemfield actions, valid and refused, from many players, with the
// proposal and results posts between them, and whole messages undone at
// random after they were applied, as the daemon undoes one it could not save
// (half of them tried and undone first, then kept or dropped): the state,
// Steemfield's own data included, equals byte for byte the state of a run
// that applied only the messages kept. The undo checks of contracttest
// are off here, so this holds on what Steemfield saves itself
// (contract.DataSaver), not on the deep copies of those checks.
func TestUndoPropertySteemfield(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	kept := map[string]int{}
	renamed, rounds, deaths := 0, 0, 0
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			start := contracttest.At(t, "2026-12-01T09:00:00Z")
			w := contracttest.NewTwin(t, start, func() []contract.Game { return []contract.Game{New()} })
			r := rand.New(rand.NewPCG(seed, 15))
			at := start
			for n := 0; n < 300; n++ {
				at = at.Add(time.Duration(r.IntN(6*60)) * time.Minute)
				m := steemMail(r, n, at, w.A.Rulings, st2(w.A).Cells)
				if r.IntN(2) == 0 {
					// Tried and undone, as a message whose save failed,
					// then tried again or dropped.
					w.Try(m)
					w.Undo()
				}
				ent := w.Try(m)
				if r.IntN(4) == 0 {
					w.Undo()
				} else {
					for _, en := range ent {
						kept[en.Verb+" "+en.Outcome]++
						if en.Verb == "results post" {
							rounds++
						}
					}
					if strings.Contains(m.Text, "change my name") {
						renamed++
					}
					w.Keep(m)
				}
				for _, o := range w.A.Outbox {
					if strings.Contains(o.Notice.Body, "death at") {
						deaths++
					}
				}
				w.Check(n, m)
			}
			if undone := w.Undone(); undone < 150 {
				t.Errorf("too little happened to test: %d undone", undone)
			}
		})
	}
	t.Logf("kept: %v; %d renames, %d results posts, %d posts with deaths", kept, renamed, rounds, deaths)
	for _, k := range []string{"delegate applied", "undelegate applied", "referral applied", "gift applied", "burn applied",
		"place applied", "place rejected", "unplace applied", "roll applied", "propose applied", "vote applied", "vote rejected",
		"correct power applied", "rule applied", "proposal post event", "results post event"} {
		if kept[k] == 0 {
			t.Errorf("too little happened to test: no %q kept in %v", k, kept)
		}
	}
	if renamed < 5 || rounds < 6 || deaths == 0 {
		t.Errorf("too little happened to test: %d renames, %d results posts, %d posts with deaths", renamed, rounds, deaths)
	}
}

func st2(s *contract.State) *State { return s.Games[ID].Data.(*State) }

// Trying a placement costs what it changes, not a copy of every member
// (contract.DataSaver): the bytes a placement allocates, applied and then
// undone, are nearly the same with 20 and with 2,000 other members. A deep
// copy of the members allocates hundreds of kB more at 2,000.
func TestPlacementCostsWhatItTouches(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	cost := func(others int) float64 {
		h := newHarness(t)
		joinAll(t, h, 3)
		give(t, h, "Alice", 1)
		for i := range others {
			data0(h).Players = append(data0(h).Players, &Member{Name: fmt.Sprintf("P%04d", i), Addr: fmt.Sprintf("p%d@example.test", i), Letter: "?", Power: 1000})
		}
		at := contracttest.At(t, "2026-12-01T11:00:00Z")
		m := &contract.Message{ID: "place@example.test", From: "alice@example.test", Name: "Alice", Arrived: at, Date: at,
			Subject: "steemfield", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: "{PLACE: L(2, 2)}"}
		return contracttest.TryCost(t, h.E, h.S, m)
	}
	contracttest.CostsAlike(t, "a placement", "other members", 20, 2000, cost)
}
