package wackyworld

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// undoPlayers are the senders of wackyMail: six players and the
// contestmaster ("cm", the human Atlas, W1).
var undoPlayers = []string{"ann", "ben", "cal", "dot", "eve", "fay", "cm"}

// wackyMail draws a message of one to three Wacky World actions, valid and
// invalid, from one of six players or the contestmaster. It reads the state
// the message will meet (s, which it does not change) to weigh what a
// sender would do: a party who has not acted this turn mostly performs a
// Game Action, aimed where it can be done (a Fertile tile to reap, a Wall
// to push, onto a party when it can, an asset on eir tile to pick up), a
// non-party mostly joins, the contestmaster mostly modifies, makes medals
// and rules; every verb stays possible from anyone, most of them refused.
func wackyMail(r *rand.Rand, n int, at time.Time, s *contract.State) *contract.Message {
	st := s.Games[ID].Data.(*State)
	early := st.Began.IsZero() || at.Before(st.Began.AddDate(0, 0, 14))
	who := undoPlayers[r.IntN(len(undoPlayers))]
	if early && r.IntN(4) == 0 {
		who = "cm" // Atlas modifies the contract while e can (Wacky 1)
	}
	addr := who + "@example.test"
	if who == "cm" {
		addr = contracttest.Contestmaster
	}
	isCM := who == "cm"
	p := st.party(addr)
	pl := s.PlayerByAddress(addr)
	party := p != nil && p.At != nil && pl != nil && pl.In(ID)
	fresh := party && p.Acted != st.Turn
	var here Pos
	if party {
		here = *p.At
	}
	dirs := []string{"north", "east", "south", "west"}
	// fits lists the tiles adjacent to the actor that ok accepts.
	fits := func(ok func(q, far Pos) bool) []Pos {
		var out []Pos
		if party {
			for _, q := range st.neighbours(here) {
				if ok(q, Pos{2*q.X - here.X, 2*q.Y - here.Y}) {
					out = append(out, q)
				}
			}
		}
		return out
	}
	// aim names one of the tiles fit, mostly, as a direction or a
	// coordinate pair; else a random direction or pair.
	aim := func(fit []Pos) string {
		if len(fit) > 0 && r.IntN(5) != 0 {
			q := fit[r.IntN(len(fit))]
			if r.IntN(2) == 0 {
				return fmt.Sprintf("(%d, %d)", q.X, q.Y)
			}
			return dirs[dirIndex(here, q)]
		}
		if r.IntN(5) == 0 {
			return fmt.Sprintf("(%d, %d)", r.IntN(7)-1, r.IntN(7)-1)
		}
		return dirs[r.IntN(4)]
	}
	walkable := fits(func(q, _ Pos) bool { return st.at(q) != Wall })
	// Towards a thing another party dropped, to pick it up, or onto a tile
	// that another party can push a wall onto.
	if x := fits(func(q, _ Pos) bool {
		if st.at(q) == Wall {
			return false
		}
		for _, d := range []Pos{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
			w, o := Pos{q.X + d.X, q.Y + d.Y}, Pos{q.X + 2*d.X, q.Y + 2*d.Y}
			if st.on(o) && st.at(w) == Wall && o != here && len(st.partiesAt(o)) > 0 {
				return true
			}
		}
		return slices.ContainsFunc(st.Assets, func(as *Asset) bool { return as.At == q && as.Donor != addr })
	}); len(x) > 0 {
		walkable = x
	}
	fertile := fits(func(q, _ Pos) bool { return st.at(q) == Fertile })
	// A wall built between the actor and a party, to push onto em later.
	onto := func(far Pos) bool { return st.on(far) && len(st.partiesAt(far)) > 0 }
	buildable := fits(func(q, far Pos) bool {
		return st.at(q) != Wall && len(st.partiesAt(q)) == 0 && st.on(far) && st.at(far) != Wall
	})
	pushable := fits(func(q, far Pos) bool { return st.at(q) == Wall && st.on(far) && st.at(far) != Wall })
	// Aimed at a party beyond when one stands there.
	toward := fits(func(q, far Pos) bool { return st.at(q) != Wall && len(st.partiesAt(q)) == 0 && onto(far) })
	if len(toward) > 0 {
		buildable = toward
	}
	crush := fits(func(q, far Pos) bool { return st.at(q) == Wall && onto(far) && st.at(far) != Wall })
	if len(crush) > 0 {
		pushable = crush
	}
	var mine []*Asset // the things here, another's first
	for _, as := range st.Assets {
		if party && as.At == here {
			mine = append(mine, as)
		}
	}
	if x := slices.DeleteFunc(slices.Clone(mine), func(as *Asset) bool { return as.Donor == addr }); len(x) > 0 && r.IntN(4) != 0 {
		mine = x
	}
	var ripe, open []int // the actor's ripe intents, the open modifications
	for _, in := range s.Intents {
		if ok, _ := in.Ripe(at); ok && pl != nil && in.Sponsor == pl.Name {
			ripe = append(ripe, in.ID)
		}
	}
	for _, c := range st.Changes {
		if c.Kind == kindModification && c.Status == statusOpen {
			open = append(open, c.ID)
		}
	}
	things := []string{"hat", "boot", "spoon", "hat"}
	params := []string{ParamWidth, ParamHeight, ParamDonor, ParamReap, ParamBuild}
	change := func() string {
		switch r.IntN(8) {
		case 0, 1, 2:
			return "parties SHOULD greet each other"
		case 3:
			if r.IntN(3) == 0 {
				return "SELECT Wrap" // G9: Wacky World has no variants
			}
			return "SET Colour = 3" // no such parameter
		}
		pn := params[r.IntN(len(params))]
		if pn == ParamWidth || pn == ParamHeight {
			return fmt.Sprintf("SET %s = %d", pn, 3+r.IntN(5))
		}
		return fmt.Sprintf("SET %s = %d", pn, r.IntN(4))
	}
	// w weighs an action: base, or more times base when y holds.
	w := func(base int, y bool, more int) int {
		if y {
			return base * more
		}
		return base
	}
	acts := []struct {
		w    int
		game bool // a Game Action (Wacky 6)
		text func() string
	}{
		{w(1, !party, 8), false, func() string { return "I join Wacky World. " }},
		{1, false, func() string { return "I leave Wacky World. " }},
		{3, true, func() string { return fmt.Sprintf("I move %s in Wacky World. ", aim(walkable)) }},
		{2, true, func() string {
			switch r.IntN(6) {
			case 0:
				return "I drop 2 x-points in Wacky World. " // W6
			case 1:
				return fmt.Sprintf("I transfer my %s to Wacky World. ", things[r.IntN(len(things))])
			}
			return fmt.Sprintf("I drop a %s in Wacky World. ", things[r.IntN(len(things))])
		}},
		{w(1, len(mine) > 0, 4), true, func() string {
			switch {
			case len(mine) > 0 && r.IntN(2) == 0:
				return fmt.Sprintf("I pick up asset #%d in Wacky World. ", mine[r.IntN(len(mine))].ID)
			case len(mine) > 0 && r.IntN(3) != 0:
				return fmt.Sprintf("I pick up the %s in Wacky World. ", mine[r.IntN(len(mine))].Name)
			}
			return fmt.Sprintf("I pick up the %s in Wacky World. ", things[r.IntN(len(things))])
		}},
		{w(1, len(fertile) > 0, 3), true, func() string { return fmt.Sprintf("I reap %s in Wacky World. ", aim(fertile)) }},
		{w(w(1, pl != nil && s.Ledger.Balance(XPoint, pl.Name) > 0, 3), len(toward) > 0, 3), true, func() string {
			return fmt.Sprintf("I build a wall %s in Wacky World. ", aim(buildable))
		}},
		{w(w(1, len(pushable) > 0, 4), len(crush) > 0, 4), true, func() string { return fmt.Sprintf("I push the wall %s in Wacky World. ", aim(pushable)) }},
		{1, true, func() string { return "I search in Wacky World. " }},
		{w(1, isCM, 3), false, func() string {
			if r.IntN(2) == 0 {
				return "I create a medal in Wacky World. "
			}
			return "I create a medal named Gold in Wacky World. "
		}},
		{w(1, party, 2), false, func() string {
			method := "without 3 objections"
			if r.IntN(3) == 0 {
				method = "without objection"
			}
			return fmt.Sprintf("I intend, %s, to amend the Wacky World contract: %s\n", method, change())
		}},
		{w(1, len(ripe) > 0, 8), false, func() string {
			if len(ripe) > 0 && r.IntN(4) != 0 {
				return fmt.Sprintf("I do so (intent #%d). ", ripe[r.IntN(len(ripe))])
			}
			return fmt.Sprintf("I do so (intent #%d). ", 1+r.IntN(s.NextIntent+1))
		}},
		{1, false, func() string {
			if len(s.Intents) > 0 {
				return fmt.Sprintf("I object to intent #%d. ", s.Intents[r.IntN(len(s.Intents))].ID)
			}
			return "I object to intent #1. "
		}},
		{w(1, isCM && early, 6), false, func() string { return fmt.Sprintf("I modify the Wacky World contract: %s\n", change()) }},
		{w(1, party && len(open) > 0, 30), false, func() string {
			switch {
			case r.IntN(4) == 0:
				return "I oppose the modification in Wacky World. "
			case len(open) > 0 && r.IntN(3) != 0:
				return fmt.Sprintf("I oppose modification #%d in Wacky World. ", open[r.IntN(len(open))])
			}
			return fmt.Sprintf("I oppose modification #%d in Wacky World. ", 1+r.IntN(len(st.Changes)+1))
		}},
	}
	// weight is an action's weight; a Game Action's four times as much
	// while the actor can still perform one (Wacky 6).
	weight := func(w int, game bool) int {
		if game && fresh {
			return 4 * w
		}
		return w
	}
	// A ruling answers in a message of its own, to the referee privately
	// (G8): the contestmaster's, mostly, on an open request.
	if isCM && len(s.Rulings) > 0 && r.IntN(3) == 0 || r.IntN(40) == 0 {
		id := 1 + r.IntN(s.NextRuling+1)
		if len(s.Rulings) > 0 && r.IntN(4) != 0 {
			id = s.Rulings[r.IntN(len(s.Rulings))].ID
		}
		return &contract.Message{ID: fmt.Sprintf("w%d@example.test", n), From: addr, Name: who,
			Arrived: at, Date: at, Subject: "wacky", Channel: contract.ChanPrivate, Authenticated: true,
			Text: fmt.Sprintf("I rule on #%d: it is advice only.", id)}
	}
	var text string
	for k := 1 + r.IntN(3); k > 0; k-- {
		total := 0
		for _, a := range acts {
			total += weight(a.w, a.game)
		}
		x := r.IntN(total)
		for _, a := range acts {
			if x < weight(a.w, a.game) {
				text += a.text()
				fresh = fresh && !a.game
				break
			}
			x -= weight(a.w, a.game)
		}
	}
	return &contract.Message{ID: fmt.Sprintf("w%d@example.test", n), From: addr, Name: who,
		Arrived: at, Date: at, Subject: "wacky", Channel: contract.ChanPublic, Authenticated: true, Text: text}
}

// dirIndex is the direction's index, in the order of dirs, from at to
// the adjacent q.
func dirIndex(at, q Pos) int {
	switch {
	case q.Y < at.Y:
		return 0
	case q.X > at.X:
		return 1
	case q.Y > at.Y:
		return 2
	}
	return 3
}

// Random Wacky World actions (every verb, valid and invalid, from six
// players and the contestmaster), turns, reports, modifications standing
// and rulings timing out between them, and whole messages undone at random
// after they were applied, as the daemon undoes one it could not save: the
// state, Wacky World's own data included, equals byte for byte the state
// of a run that applied only the messages kept. The undo checks of
// contracttest are off here, so this holds on what Wacky World saves
// itself (contract.DataSaver: SaveTop, saveParty, saveChange, the lists
// replaced rather than changed in place), not on the deep copies of those
// checks.
func TestUndoPropertyWacky(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	kept, undone := map[string]int{}, map[string]int{}
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			start := contracttest.At(t, "2026-11-30T09:00:00Z")
			w := contracttest.NewTwin(t, start, func() []contract.Game { return []contract.Game{New()} })
			// Atlas makes the World 4 by 4 before anyone joins (guide,
			// decision 10), so that parties meet, walls crush and things
			// are found; no party can oppose it.
			setup := &contract.Message{ID: "w-setup@example.test", From: contracttest.Contestmaster, Name: "cm", Arrived: start, Date: start,
				Subject: "wacky", Channel: contract.ChanPublic, Authenticated: true,
				Text: "I modify the Wacky World contract: SET Width = 4\nI modify the Wacky World contract: SET Height = 4\n"}
			w.Play(w.EA, w.A, setup)
			w.Play(w.EB, w.B, setup)
			if st := w.A.Games[ID].Data.(*State); st.width() != 4 || st.height() != 4 {
				t.Fatalf("the World is %d by %d after the setup, want 4 by 4", st.width(), st.height())
			}
			w.Check(-1, setup)
			r := rand.New(rand.NewPCG(seed, 23))
			at := start.Add(25 * time.Hour)
			for n := 0; n < 300; n++ {
				at = at.Add(time.Duration(r.IntN(10*60)) * time.Minute)
				m := wackyMail(r, n, at, w.B)
				ent := w.Try(m)
				// What the message did, counted as kept or undone.
				var did []string
				for _, en := range ent {
					k := en.Verb
					if k == "do so" && (en.Outcome == "applied" || !strings.HasSuffix(en.Reason, "(G7)")) {
						k = "amend" // performed, or refused by Wacky World
					}
					did = append(did, k+" "+en.Outcome)
				}
				for _, o := range w.A.Outbox {
					if strings.Contains(o.ID, "/pushed/") {
						did = append(did, "pushed out")
					}
					if o.Kind == "receipt" && strings.Contains(strings.Join(strings.Fields(o.Body), " "), "its donor, is awarded") {
						did = append(did, "donor awarded")
					}
				}
				seen := kept
				if r.IntN(3) != 0 {
					w.Keep(m)
				} else {
					w.Undo()
					seen = undone
				}
				for _, k := range did {
					seen[k]++
				}
				w.Check(n, m)
			}
		})
	}
	t.Logf("kept: %v", kept)
	t.Logf("undone: %v", undone)
	// Each verb refused and done, each event, a party pushed out and a
	// donor awarded, kept; and what changes the state undone too (the
	// property holds a save only where its change was undone).
	var both, once []string
	for _, v := range []string{"join", "leave", "move", "drop", "pick up", "reap", "build", "push", "search", "medal", "amend", "modify", "oppose", "rule", "stance"} {
		both = append(both, v+" applied")
		once = append(once, v+" rejected")
	}
	for _, e := range []string{evTurn, evReport, evStands, "ruling deadline"} {
		both = append(both, e+" event")
	}
	both = append(both, "intend applied", "pushed out", "donor awarded")
	once = append(once, "do so rejected")
	for _, k := range both {
		if undone[k] == 0 {
			t.Errorf("too little happened to test: no %q undone in %v", k, undone)
		}
	}
	for _, k := range append(both, once...) {
		if kept[k] == 0 {
			t.Errorf("too little happened to test: no %q kept in %v", k, kept)
		}
	}
}

// Trying a Game Action costs what it changes, not a copy of every party
// (contract.DataSaver: SaveTop and saveParty): the bytes a move, a drop, a
// reap and a build allocate, each applied and then undone, are nearly the
// same with 20 and with 2,000 other parties.
func TestActionCostsWhatItTouches(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	actions := []string{"I move north in Wacky World.", "I drop a hat in Wacky World.", "I reap (6, 5) in Wacky World.", "I build a wall on (4, 5) in Wacky World."}
	cost := func(others int, text string) float64 {
		h := world(t)
		h.terrain(`6,5="`)
		if err := h.s.Ledger.Mint(XPoint, "Alice", 1); err != nil {
			t.Fatal(err)
		}
		// The others are planted in the World, not joined: the setup of
		// 2,000 joins would cost more than the test.
		st := h.data()
		for i := range others {
			at := Pos{i % 16, 15}
			st.Parties = append(st.Parties, &Party{Addr: fmt.Sprintf("p%d@example.test", i), At: &at, Last: &at})
		}
		at := mustTime(t, "2026-12-01T11:00:00Z")
		m := &contract.Message{ID: "try@example.test", From: aAddr, Name: "Alice", Arrived: at, Date: at,
			Subject: "Wacky World", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: text}
		return contracttest.TryCost(t, h.e, h.s, m)
	}
	for _, text := range actions {
		contracttest.CostsAlike(t, fmt.Sprintf("%q", text), "other parties", 20, 2000, func(n int) float64 { return cost(n, text) })
	}
}
