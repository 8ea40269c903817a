package contract

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestRatificationNextKept: the next ratification, kept between calls, is
// the one a scan of every record finds, so are the records of each game
// ratified and not announced (toAnnounce), in the list's order, and mayDropCited never says that no
// record may be dropped when one may (the first pending record at the
// soonest time), through 6,000 random steps: records appended (as cite
// appends them, and in place), claimed, restarted, ratified and dropped (each through
// touchCited, as the engine changes them), ratified and announced as
// ratify and cite do (touchCitedDone), the list replaced whole,
// transactions opened, ended and undone.
func TestRatificationNextKept(t *testing.T) {
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	s := &State{}
	r := rand.New(rand.NewPCG(1, 2))
	scan := func() (Event, bool) {
		var n soonest
		for _, x := range s.Cited {
			if x.Status == "pending" && !x.Ratifies.IsZero() && n.beaten(x.Ratifies) {
				n.set(Event{At: x.Ratifies, Name: "ratification", Key: x.ID})
			}
		}
		return n.ev, n.ok
	}
	hours := func() time.Time { return at.Add(time.Duration(r.IntN(50)) * time.Hour) }
	games := []string{"", "rumble"}
	var open []*Txn
	for step := range 6000 {
		var what string
		k := r.IntN(11)
		if len(s.Cited) == 0 && (k >= 3 && k <= 5 || k >= 9) {
			k = 0
		}
		switch {
		case k < 3:
			what = "a record appended"
			x := &Cited{ID: fmt.Sprintf("g/%d", step), Game: games[r.IntN(len(games))], Status: "pending", Ratifies: hours()}
			if r.IntN(2) == 0 {
				// In place, into the array's room: after an undo
				// shortened the list, over the records kept.
				what += " in place"
				s.Cited = append(s.Cited, x)
			} else {
				s.Cited = append(slices.Clone(s.Cited), x)
			}
		case k == 3:
			what = "a record claimed"
			x := s.Cited[r.IntN(len(s.Cited))]
			s.touchCited(x)
			x.Status, x.Ratifies = "claimed", time.Time{}
		case k == 4:
			what = "a record's ratification restarted"
			x := s.Cited[r.IntN(len(s.Cited))]
			s.touchCited(x)
			x.Status, x.Ratifies = "pending", hours()
		case k == 5:
			what = "a record ratified"
			x := s.Cited[r.IntN(len(s.Cited))]
			s.touchCited(x)
			x.Status = "ratified"
			if r.IntN(2) == 0 {
				what += " and dropped"
				s.Cited = slices.DeleteFunc(slices.Clone(s.Cited), func(y *Cited) bool { return y == x })
			}
		case k == 9:
			// As ratify does: the next ratification's record (or,
			// one time in four, another pending one) through
			// touchCitedDone.
			x := s.Cited[r.IntN(len(s.Cited))]
			if ev, ok := s.ratificationNext(); ok && r.IntN(4) > 0 {
				x = s.ratifying(ev.Key)
			}
			what = "a record ratified, as ratify does"
			if x.Status == "pending" {
				s.touchCitedDone(x)
				x.Status, x.Ratified = "ratified", hours()
				s.aux().ratification.noteRatified(x)
			}
		case k == 10:
			game := games[r.IntN(len(games))]
			what = fmt.Sprintf("the ratified records of %q announced, as cite does", game)
			for _, x := range s.toAnnounce(game) {
				s.touchCitedDone(x)
				x.Announced = true
				s.announcedCited(x)
			}
			if r.IntN(2) == 0 {
				// The list read without its last records, then
				// with them again (as an undo puts back records
				// dropped from its end): those are read as appended.
				all := s.Cited
				s.Cited = all[:r.IntN(len(all))]
				s.ratificationNext()
				s.Cited = all
			}
		case k == 6 && r.IntN(20) == 0:
			what = "the list replaced whole, longer, touching nothing"
			list := make([]*Cited, 0, len(s.Cited)+1)
			for i := 0; i <= len(s.Cited); i++ {
				list = append(list, &Cited{ID: fmt.Sprintf("h/%d/%d", step, i), Game: games[r.IntN(len(games))], Status: "pending", Ratifies: hours()})
			}
			s.Cited = list
		case k == 6 || len(open) == 0:
			what = "a transaction opened"
			open = append(open, s.Begin())
		default:
			tx := open[len(open)-1]
			open = open[:len(open)-1]
			if r.IntN(2) == 0 {
				what = "a transaction undone"
				tx.Undo()
			} else {
				what = "a transaction ended"
				tx.End()
			}
		}
		cut := hours()
		if drop := slices.ContainsFunc(s.Cited, func(y *Cited) bool { return y.Status == "ratified" && y.Announced && y.Ratified.Before(cut) }); drop && !s.mayDropCited(cut) {
			t.Fatalf("step %d (%s): a record ratified and announced before %v, and mayDropCited says none is", step, what, cut)
		}
		got, gotOK := s.ratificationNext()
		want, wantOK := scan()
		if got != want || gotOK != wantOK {
			t.Fatalf("step %d (%s): the next ratification kept is %+v (%v), a scan finds %+v (%v)", step, what, got, gotOK, want, wantOK)
		}
		for _, game := range games {
			var want []string
			for _, x := range s.Cited {
				if x.Status == "ratified" && !x.Announced && x.Game == game {
					want = append(want, x.ID)
				}
			}
			var got []string
			for _, x := range s.toAnnounce(game) {
				got = append(got, x.ID)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("step %d (%s): the records of %q to announce are %q, a scan of the list finds %q", step, what, game, got, want)
			}
		}
	}
}

// TestRatificationNextAfterUndoneAppend: a record appended in place after
// an undo took back another appended in place (the new one written over
// it, in the same array as the list kept) is queued, and the one undone is
// not.
func TestRatificationNextAfterUndoneAppend(t *testing.T) {
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	s := &State{Cited: make([]*Cited, 0, 4)}
	s.Cited = append(s.Cited, &Cited{ID: "a", Status: "pending", Ratifies: at.Add(3 * time.Hour)})
	s.ratificationNext()
	tx := s.Begin()
	s.Cited = append(s.Cited, &Cited{ID: "undone", Status: "pending", Ratifies: at.Add(time.Hour)})
	if ev, _ := s.ratificationNext(); ev.Key != "undone" {
		t.Fatalf("the next ratification is %q, want the record appended", ev.Key)
	}
	tx.Undo()
	s.Cited = append(s.Cited, &Cited{ID: "c", Status: "pending", Ratifies: at.Add(2 * time.Hour)})
	if ev, _ := s.ratificationNext(); ev.Key != "c" {
		t.Errorf("the next ratification is %q, want %q: the record appended over the one undone", ev.Key, "c")
	}
}

// TestToAnnounceManyInListOrder: records ratified in the order they
// ratify in, the reverse of the list's (a game whose period was
// shortened), are announced in the list's order, whether a few or many
// wait (read for their order by their pointers, then through a set).
func TestToAnnounceManyInListOrder(t *testing.T) {
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{2, 8, 9, 40} {
		s := &State{}
		var want []string
		for i := range 2 * n {
			game := []string{"rumble", "life"}[i%2]
			x := &Cited{ID: fmt.Sprintf("%s/%d", game, i), Game: game, Status: "pending", Ratifies: at.Add(time.Duration(2*n-i) * time.Hour)}
			s.Cited = append(s.Cited, x)
			if game == "rumble" {
				want = append(want, x.ID)
			}
		}
		for {
			ev, ok := s.ratificationNext()
			if !ok {
				break
			}
			x := s.ratifying(ev.Key)
			s.touchCitedDone(x)
			x.Status, x.Ratified = "ratified", ev.At
			s.aux().ratification.noteRatified(x)
		}
		var got []string
		for _, x := range s.toAnnounce("rumble") {
			got = append(got, x.ID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d records of a game ratified in reverse: announced as %q, want %q", n, got, want)
		}
	}
}
