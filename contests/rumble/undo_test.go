package rumble

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// undoPlayers are the players of TestUndoPropertyRumble; "cm" is the
// contestmaster.
var undoPlayers = []string{"Ann", "Ben", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"}

// powerNames are the names the players submit powers under, few enough that
// two choose the same one (Rumble 2).
var powerNames = []string{"Might", "Flight", "Iron Skin", "Fire Breath", "Luck", "Venom", "Frost", "Glow", "Echo", "Dust"}

// rumbleMail draws a message for the state st of the game: a public action
// (join, leave, a new game, its end, an amendment, a consent, a list
// leaked in public) or a private one (powers, bids, a discard, an action
// list, a ruling), valid or not, from one of eight players or the
// contestmaster. Names and powers are drawn from those of the game, and
// some that are not.
func rumbleMail(r *rand.Rand, s *contract.State, n int, at time.Time) *contract.Message {
	st := s.Games["rumble"].Data.(*State)
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	who := pick(undoPlayers)
	var alive []string
	for _, f := range st.alive() {
		alive = append(alive, f.Name)
	}
	someone := func() string { // mostly a living contestant
		if len(alive) > 0 && r.IntN(5) > 0 {
			return pick(alive)
		}
		return pick(undoPlayers)
	}
	number := func(ids []int) int { // mostly one that is open
		if len(ids) > 0 && r.IntN(5) > 0 {
			return ids[r.IntN(len(ids))]
		}
		return 1 + r.IntN(9)
	}
	var intents, rulings []int
	for _, in := range s.Intents {
		intents = append(intents, in.ID)
	}
	for _, ru := range s.Rulings {
		if ru.Answer == "" {
			rulings = append(rulings, ru.ID)
		}
	}
	var powers []string
	for _, p := range st.Powers {
		powers = append(powers, p.Name)
	}
	power := func() string {
		if len(powers) == 0 || r.IntN(6) == 0 {
			return pick(powerNames)
		}
		return pick(powers)
	}
	ch := contract.ChanPrivate
	var text string
	k := r.IntN(40)
	if n < 12 {
		k = 0 // the players join first
	}
	if len(rulings) > 0 && r.IntN(4) == 0 {
		k = 11 // a ruling asked for
	}
	if k >= 12 && r.IntN(10) < 7 {
		// Mostly what the open phase takes.
		who = someone()
		switch st.Phase {
		case PhasePowers:
			k = 12
		case PhaseBids:
			k = 18
		case PhaseDiscard:
			k = 25
		case PhaseRound:
			k = 29
		}
	}
	switch {
	case k < 4:
		ch, text = contract.ChanPublic, "I join Rumble."
	case k < 5:
		ch, text = contract.ChanPublic, "I leave Rumble."
		if r.IntN(3) > 0 {
			text = "I join Rumble."
		}
	case k < 7:
		who, ch = "cm", contract.ChanPublic
		text = fmt.Sprintf("I announce a new game of Rumble with %d powers per contestant and %d contestmaster powers.", 1+r.IntN(2), r.IntN(2))
	case k < 8:
		who, ch = "cm", contract.ChanPublic
		if r.IntN(4) == 0 {
			who = someone()
		}
		text = pick([]string{"I intend, without objection, to end the current game of Rumble.",
			"I intend, without 2 objections, to amend the Rumble contract: SET Deadline = 48h",
			"I intend, without 2 objections, to amend the Rumble contract: SET KillPoints = 3",
			"I intend, without 2 objections, to amend the Rumble contract: every power glows."})
	case k < 9:
		ch = contract.ChanPublic
		if r.IntN(4) == 0 {
			who = someone()
			text = fmt.Sprintf("I object to intent #%d.", number(intents))
		} else {
			who, text = "cm", fmt.Sprintf("I do so (intent #%d).", number(intents))
		}
	case k < 10:
		who, ch, text = "cm", contract.ChanPublic, fmt.Sprintf("I consent to %s becoming the Rumble contestmaster.", pick(undoPlayers))
	case k < 11:
		ch, text = contract.ChanPublic, fmt.Sprintf("Attack: 30 to %s", pick(undoPlayers))
	case k < 12:
		who, text = "cm", fmt.Sprintf("I rule on #%d: %s", number(rulings), pick([]string{"ward 10", "fury 5", "mend 7", "thorns 6", "none", "strike " + someone() + " 20", "it glows", "SET BidLimit = 90"}))
	case k < 18:
		if r.IntN(5) == 0 {
			who = "cm"
		}
		for j := 1 + r.IntN(2); j > 0; j-- {
			text += fmt.Sprintf("%s %d: %s\n", pick(powerNames), r.IntN(3), pick([]string{"strong (ward)", "angry [fury]", "heals (mend)", "spiky (thorns)", "blood (blood)", "odd", "strange", "weird", "eerie", "dark", "loud"}))
		}
	case k < 25:
		if r.IntN(4) == 0 {
			text = "no bids"
			break
		}
		for j := 1 + r.IntN(2); j > 0; j-- {
			text += fmt.Sprintf("I bid %d on %s.\n", r.IntN(60), power())
		}
	case k < 29:
		if f := st.fighter(who); f != nil && len(f.Powers) > 0 && r.IntN(2) == 0 {
			text = "Discard: " + pick(f.Powers)
		} else if r.IntN(3) == 0 {
			text = "No discard."
		} else {
			text = "Discard: " + power()
		}
	default:
		if r.IntN(8) == 0 {
			text = "none"
			break
		}
		if f := st.fighter(who); f != nil && f.Energy > 5 && len(f.Powers) > 0 && r.IntN(3) == 0 {
			text = fmt.Sprintf("Spend 5 on %s\nAttack %s %d", pick(f.Powers), someone(), f.Energy-5)
			break
		}
		if f := st.fighter(who); f != nil && f.Energy > 0 && r.IntN(2) == 0 {
			text = fmt.Sprintf("Attack %s %d", someone(), f.Energy) // all in
			break
		}
		for j := 1 + r.IntN(3); j > 0; j-- {
			switch r.IntN(6) {
			case 0, 1:
				text += fmt.Sprintf("Attack %s %d\n", someone(), r.IntN(90))
			case 2:
				text += fmt.Sprintf("Defense: %d\n", r.IntN(40))
			case 3, 4:
				text += fmt.Sprintf("Spend %d on %s\n", r.IntN(20), power())
			default:
				text += fmt.Sprintf("Burn %d on %s\n", r.IntN(10), power())
			}
		}
	}
	m := &contract.Message{ID: fmt.Sprintf("r%d@example.test", n), From: strings.ToLower(who) + "@example.test", Name: who,
		Arrived: at, Date: at, Subject: "rumble", Channel: ch, Authenticated: true, Text: text}
	m.ListCopy = ch.IsPublic()
	return m
}

// Random Rumble actions, public and private, valid and not, from eight
// players and the contestmaster, with the phases' deadlines, reminders,
// early closes, rounds and weekly reports between them, and whole messages
// undone at random after they were applied, as the daemon undoes one it
// could not save: the state, Rumble's own data included, equals byte for
// byte the state of a run that applied only the messages kept. The undo
// checks of contracttest are off here, so this holds on what Rumble saves
// itself (contract.DataSaver), not on the deep copies of those checks.
//
// Under the race detector one game of the three is played (what happened
// is checked only when the three are), and scripts/test.sh plays the
// three without it.
func TestUndoPropertyRumble(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	kept, notices := map[string]int{}, map[string]int{}
	seeds := uint64(3)
	if raceEnabled {
		seeds = 1
		t.Logf("under the race detector: %d game of 3; scripts/test.sh plays the three without it", seeds)
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			start := contracttest.At(t, "2026-12-01T09:00:00Z")
			w := contracttest.NewTwin(t, start, func() []contract.Game { return []contract.Game{New()} })
			r := rand.New(rand.NewPCG(seed, 8))
			at := start
			for n := 0; n < 400; n++ {
				at = at.Add(time.Duration(r.IntN(10*60)) * time.Minute)
				m := rumbleMail(r, w.A, n, at)
				ent := w.Try(m)
				if r.IntN(4) == 0 {
					w.Undo()
				} else {
					for _, en := range ent {
						kept[en.Verb+" "+en.Outcome]++
					}
					for _, o := range w.A.Outbox {
						if i := strings.LastIndex(o.ID, "/"); strings.HasPrefix(o.ID, "rumble/") && i > 0 {
							notices[o.ID[i+1:]]++
						}
					}
					w.Keep(m)
				}
				w.Check(n, m)
			}
			if undone := w.Undone(); undone < 60 {
				t.Errorf("too little happened to test: %d undone", undone)
			}
		})
	}
	t.Logf("kept: %v", kept)
	t.Logf("notices: %v", notices)
	if seeds < 3 {
		return
	}
	for _, k := range []string{"join applied", "leave applied", "start applied", "submit applied", "submit rejected", "intend applied", "do so applied", "consent applied", "rule applied", "close event", "deadline event", "reminder event"} {
		if kept[k] == 0 {
			t.Errorf("too little happened to test: no %q kept in %v", k, kept)
		}
	}
	for _, k := range []string{"powers", "bids", "begin", "actions", "results", "over"} {
		if notices[k] == 0 {
			t.Errorf("too little happened to test: no %q notice in %v", k, notices)
		}
	}
}
