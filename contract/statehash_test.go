package contract

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// oldHashText is the state hash's text as it was encoded before its recent
// events were kept: the reference hashText must equal.
func oldHashText(h *hashedState) ([]byte, error) { return marshalText(h) }

// wholeHash is StateHash as the HMAC-SHA256 of the whole encoding of
// hashedState (oldHashText), in one piece.
func wholeHash(t *testing.T, s *State, game string, seq int64, at time.Time) string {
	t.Helper()
	h := hashedState{Game: game, Seq: seq, Time: at.UTC(), Players: s.Players, Ledger: s.Ledger, Points: s.Points,
		Intents: s.Intents, Rulings: s.Rulings, Claims: s.Claims, Games: s.Games}
	if game != "" {
		h.Games = map[string]*GameState{game: s.Games[game]}
	}
	b, err := oldHashText(&h)
	if err != nil {
		t.Fatal(err)
	}
	sec, err := s.secret()
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha256.New, KeyFor(sec, "state-hash"))
	mac.Write(b)
	return hex.EncodeToString(mac.Sum(nil))
}

// hashSection is the data of a game in these tests.
type hashSection struct {
	Turn  int      `yaml:"turn"`
	Notes []string `yaml:"notes"`
}

var trickyEvents = []string{
	"", "takes control of Cell (16, 14) (R16)", "null", "yes", "- 12", "a: b", "# hash", "'quoted'", `"double"`,
	" leading space", "trailing space ", "two\nlines", "ends with a newline\n", "two newlines\n\n", "\nstarts with one",
	"tab\there", "cr\rhere", "unicode ſ K é 漢字", "\xff\xfe not UTF-8", "\u2028 separator", "{flow}", "[flow]", "*alias", "&anchor", "!tag", "%directive", "@at", "`tick",
	strings.Repeat("a long line of words that the encoder folds past its width ", 4),
	strings.Repeat("x", 200), strings.Repeat("word ", 40) + "\nand a second line " + strings.Repeat("more ", 30),
	"recent events of game 1 of 1, encoded apart",
}

func hashStateOf(ids []string, events []string, at time.Time) *hashedState {
	h := &hashedState{Game: "", Seq: 7, Time: at, Players: []*Player{{Name: "Alice", Addresses: []string{"alice@example.test"}}},
		Points: map[string]map[string]int{"Alice": {"life": 3}, "Bob": {}}, Games: map[string]*GameState{}}
	for i, id := range ids {
		g := &GameState{Contestmaster: "cm@example.test", Params: map[string]string{"recent": "[]"}, LastReport: at,
			Data: &hashSection{Turn: i, Notes: []string{"        recent: []"}}}
		for j, ev := range events {
			g.Recent = append(g.Recent, Happening{Time: at.Add(time.Duration(j) * time.Minute), Who: events[(j+i)%len(events)], What: ev})
		}
		h.Games[id] = g
	}
	return h
}

func sameHashText(t *testing.T, c *hashText, h *hashedState) {
	t.Helper()
	got, err := c.of(h)
	if err != nil {
		t.Fatal(err)
	}
	want, err := oldHashText(h)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the state hash's text differs from the whole encoding:\n%s\nwant\n%s", got, want)
	}
}

// TestHashText: the state hash's text, with each recent event encoded apart
// and kept, is byte for byte the whole encoding, as the events come and go,
// for one game or all of them.
func TestHashText(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("X", -5*3600-30*60)}
	for _, loc := range zones {
		at := time.Date(2026, 11, 23, 0, 4, 6, 123456789, loc)
		var c hashText
		ids := []string{"life", "rumble", "a b", "10", "Z", "é", "2b"}
		h := hashStateOf(ids, trickyEvents, at)
		for i, ev := range trickyEvents {
			h.Players = append(h.Players, &Player{Name: ev, Nicknames: []string{trickyEvents[(i+1)%len(trickyEvents)]}, Addresses: []string{fmt.Sprintf("p%d@example.test", i)},
				Joined: map[string]time.Time{"life": at, ev: at.Add(time.Hour)}, Member: []string{"life", ev}})
		}
		sameHashText(t, &c, h)
		sameHashText(t, &c, h) // every event and player kept
		// Players changed in place, replaced, repeated, removed.
		h.Players[1].Nicknames = append(h.Players[1].Nicknames, "Al")
		h.Players[2].Joined["rumble"] = at
		h.Players[3].Name = "Renamed"
		h.Players[4] = &Player{Name: "New", Addresses: []string{"new@example.test"}}
		h.Players = append(h.Players[:6], append([]*Player{h.Players[1]}, h.Players[8:]...)...)
		sameHashText(t, &c, h)
		delete(h.Players[2].Joined, "rumble")
		sameHashText(t, &c, h)
		withNil := *h
		withNil.Players = append(slices.Clone(h.Players), nil)
		sameHashText(t, &c, &withNil)
		for _, id := range ids {
			g := h.Games[id]
			g.Recent = append(g.Recent[3:], Happening{Time: at.Add(time.Hour), Who: "Bob", What: "a new event"})
		}
		sameHashText(t, &c, h)
		// An event changed where it is, one put first, one taken out of
		// the middle, two swapped, the first two dropped, the last.
		for _, id := range ids {
			g := h.Games[id]
			g.Recent[len(g.Recent)/2].What = "changed in place"
		}
		sameHashText(t, &c, h)
		g := h.Games["rumble"]
		g.Recent = append([]Happening{{Time: at, Who: "Carol", What: "first"}}, g.Recent...)
		sameHashText(t, &c, h)
		g.Recent = append(g.Recent[:2:2], g.Recent[3:]...)
		sameHashText(t, &c, h)
		g.Recent[0], g.Recent[1] = g.Recent[1], g.Recent[0]
		sameHashText(t, &c, h)
		g.Recent = g.Recent[2:] // the oldest dropped, none added
		sameHashText(t, &c, h)
		g.Recent = g.Recent[:len(g.Recent)-1]
		sameHashText(t, &c, h)
		one := &hashedState{Game: "life", Seq: 8, Time: at, Games: map[string]*GameState{"life": h.Games["life"]}}
		sameHashText(t, &c, one)
		h.Games["life"].Recent = nil
		sameHashText(t, &c, h)
		sameHashText(t, &c, &hashedState{Time: at})
		sameHashText(t, &c, hashStateOf([]string{"life"}, []string{"a", "a", "b", "a"}, time.Time{}))
	}
}

// FuzzHashText: any recent event's text, in a game of any name, gives the
// whole encoding's text.
func FuzzHashText(f *testing.F) {
	for i, ev := range trickyEvents {
		f.Add("life", trickyEvents[(i+1)%len(trickyEvents)], ev, int64(i)*1e9+int64(i))
	}
	f.Fuzz(func(t *testing.T, id, who, what string, ns int64) {
		at := time.Unix(0, ns).UTC()
		var c hashText
		h := hashStateOf([]string{id, "rumble"}, []string{what, who, "Cell (1, 2)"}, at)
		h.Games[id].Recent = append(h.Games[id].Recent, Happening{Time: at, Who: who, What: what})
		h.Players = append(h.Players, &Player{Name: who, Nicknames: []string{what}, Addresses: []string{id}, Left: map[string]time.Time{id: at}, Member: []string{what}})
		sameHashText(t, &c, h)
		sameHashText(t, &c, h)
		h.Players[1].Member = append(h.Players[1].Member, who)
		sameHashText(t, &c, h)
		h.Game = id
		delete(h.Games, "rumble")
		sameHashText(t, &c, h)
	})
}

// BenchmarkHashText: a state hash's text for 200 players and a game of 1,200
// recent events, encoded whole (as before) and in pieces with the events
// kept.
func BenchmarkHashText(b *testing.B) {
	at := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	events := make([]string, 1200)
	for i := range events {
		events[i] = fmt.Sprintf("takes control of Cell (%d, %d) (R16)", i%50, i/50)
	}
	h := hashStateOf([]string{"life", "rumble"}, events, at)
	h.Games["rumble"].Recent = nil
	for i := range 200 {
		h.Players = append(h.Players, &Player{Name: fmt.Sprintf("Player%03d", i), Addresses: []string{fmt.Sprintf("p%03d@example.test", i)},
			Joined: map[string]time.Time{"life": at}, Member: []string{"life"}})
	}
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			if _, err := oldHashText(h); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("kept", func(b *testing.B) {
		var c hashText
		for b.Loop() {
			if _, err := c.of(h); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestHashTextCostsWhatChanged: once a state has been hashed, hashing it
// again after one game's new event encodes that event, not every game's
// recent events again: it allocates a small part of what the first hash
// did, and its text is still the whole encoding. (A fallback to the whole
// encoding, e.g. the games' IDs or a section not kept, gives the same text
// at the cost of the first hash.) The events' texts hold a colon, so that
// each goes to the encoder rather than being written by hand
// (plainHappening).
func TestHashTextCostsWhatChanged(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	events := make([]string, 300)
	for i := range events {
		events[i] = fmt.Sprintf("takes control of Cell (%d, %d): R16", i%16, i/16)
	}
	h := hashStateOf([]string{"life", "rumble", "steemfield", "wackyworld"}, events, at)
	cold := testing.AllocsPerRun(5, func() {
		if _, err := new(hashText).of(h); err != nil {
			t.Fatal(err)
		}
	})
	c := new(hashText)
	sameHashText(t, c, h)
	n := 0
	warm := testing.AllocsPerRun(5, func() {
		n++
		g := h.Games["rumble"]
		g.Recent = append(g.Recent, Happening{Time: at.Add(time.Duration(n) * time.Hour), Who: "Bob", What: fmt.Sprintf("bids %d", n)})
		if _, err := c.of(h); err != nil {
			t.Fatal(err)
		}
	})
	sameHashText(t, c, h)
	if warm*10 > cold {
		t.Errorf("hashing again after one new event allocates %.0f times, the first hash %.0f: more than a tenth", warm, cold)
	}
}

// BenchmarkHashTextAgain: the state hash's text of four games of 300 recent
// events and 200 players, hashed again with nothing changed, and after a
// new event in one game.
func BenchmarkHashTextAgain(b *testing.B) {
	at := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	events := make([]string, 300)
	for i := range events {
		events[i] = fmt.Sprintf("takes control of Cell (%d, %d) (R16)", i%16, i/16)
	}
	h := hashStateOf([]string{"life", "rumble", "steemfield", "wackyworld"}, events, at)
	for _, g := range h.Games {
		for i := range 200 {
			g.Data.(*hashSection).Notes = append(g.Data.(*hashSection).Notes, fmt.Sprintf("cell %d owned by Player%03d", i, i))
		}
	}
	for i := range 200 {
		h.Players = append(h.Players, &Player{Name: fmt.Sprintf("Player%03d", i), Addresses: []string{fmt.Sprintf("p%03d@example.test", i)},
			Joined: map[string]time.Time{"life": at}, Member: []string{"life"}})
	}
	b.Run("unchanged", func(b *testing.B) {
		var c hashText
		if _, err := c.of(h); err != nil {
			b.Fatal(err)
		}
		cpu := cpuTime()
		for b.Loop() {
			if _, err := c.of(h); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
	b.Run("one-changed", func(b *testing.B) {
		var c hashText
		if _, err := c.of(h); err != nil {
			b.Fatal(err)
		}
		n := 0
		cpu := cpuTime()
		for b.Loop() {
			n++
			g := h.Games["rumble"]
			g.Recent = append(g.Recent[1:], Happening{Time: at.Add(time.Duration(n) * time.Minute), Who: "Bob", What: fmt.Sprintf("bids %d", n)})
			if _, err := c.of(h); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
}

// TestHashTextRandomChanges: the state hash of an engine, which keeps each
// section's text while the section is unchanged, is the hash of a fresh
// computation and its text the whole encoding's, after each of a run of
// random changes to the players, the games' sections (each field, a
// section gone and back) and the times' zones at the same instant.
func TestHashTextRandomChanges(t *testing.T) {
	at := time.Date(2026, 11, 23, 0, 4, 6, 0, time.UTC)
	zones := []*time.Location{time.UTC, time.FixedZone("", 2*3600), time.FixedZone("", -5*3600-30*60), time.FixedZone("X", 2*3600)}
	ids := []string{"life", "rumble", "steemfield"}
	h := hashStateOf(ids, trickyEvents[:8], at)
	s := &State{Secret: strings.Repeat("ab", 32), Players: h.Players, Points: h.Points, Games: h.Games}
	var c hashText
	r := rand.New(rand.NewPCG(1, 2))
	gone := map[string]*GameState{}
	for step := range 400 {
		id := ids[r.IntN(len(ids))]
		g := s.Games[id]
		var what string
		switch k := r.IntN(12); {
		case g == nil:
			what = "section back"
			s.Games[id] = gone[id]
		case k == 0:
			what = "last report to another zone"
			g.LastReport = g.LastReport.In(zones[r.IntN(len(zones))])
		case k == 1:
			what = "last report moved"
			g.LastReport = g.LastReport.Add(time.Duration(r.IntN(3)) * time.Hour)
		case k == 2 && len(g.Recent) > 0:
			what = "an event's time to another zone, in place"
			e := &g.Recent[r.IntN(len(g.Recent))]
			e.Time = e.Time.In(zones[r.IntN(len(zones))])
		case k == 3:
			what = "an event added"
			g.Recent = append(g.Recent, Happening{Time: at.Add(time.Duration(step) * time.Minute), Who: "Bob", What: trickyEvents[r.IntN(len(trickyEvents))]})
		case k == 4 && len(g.Recent) > 0:
			what = "the oldest event dropped"
			g.Recent = g.Recent[1:]
		case k == 5:
			what = "contestmaster"
			g.Contestmaster = fmt.Sprintf("cm%d@example.test", r.IntN(3))
		case k == 6:
			what = "a parameter"
			g.Params[fmt.Sprintf("p%d", r.IntN(3))] = trickyEvents[r.IntN(len(trickyEvents))]
		case k == 7:
			what = "the data"
			g.Data.(*hashSection).Turn = r.IntN(3)
		case k == 8:
			what = "the data's notes"
			d := g.Data.(*hashSection)
			d.Notes = append(d.Notes, trickyEvents[r.IntN(len(trickyEvents))])
		case k == 9:
			what = "a section gone"
			gone[id] = g
			delete(s.Games, id)
		case k == 10:
			what = "a player added"
			s.Players = append(s.Players, &Player{Name: fmt.Sprintf("P%d", step), Addresses: []string{fmt.Sprintf("p%d@example.test", step)},
				Joined: map[string]time.Time{id: at.In(zones[r.IntN(len(zones))])}})
		default:
			what = "a player's join to another zone"
			p := s.Players[r.IntN(len(s.Players))]
			if p.Joined == nil {
				p.Joined = map[string]time.Time{}
			}
			p.Joined[id] = at.In(zones[r.IntN(len(zones))])
		}
		for _, game := range []string{"", id} {
			got, err := c.hash(s, game, int64(step), at)
			if err != nil {
				t.Fatal(err)
			}
			want, err := StateHash(s, game, int64(step), at)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("step %d (%s), game %q: the kept state hash %s, a fresh one %s", step, what, game, got, want)
			}
			if whole := wholeHash(t, s, game, int64(step), at); got != whole {
				t.Fatalf("step %d (%s), game %q: the kept state hash %s, the HMAC of the whole encoding %s", step, what, game, got, whole)
			}
		}
		hs := &hashedState{Time: at, Players: s.Players, Points: s.Points, Games: s.Games}
		got, err := c.of(hs)
		if err != nil {
			t.Fatal(err)
		}
		want, err := oldHashText(hs)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("step %d (%s): the kept text differs from the whole encoding:\n%s\nwant\n%s", step, what, got, want)
		}
	}
}

// TestCutItemsShortEncoding: an encoding whose head and tail overlap (one
// shorter than both together, which no list of items has) is refused as
// unexpected, not cut out of range.
func TestCutItemsShortEncoding(t *testing.T) {
	encode := func([]int) ([]byte, error) { return []byte("- a\n"), nil }
	texts, err := itemTexts([]int{1}, encode, "- a\n", "a\n", "- ")
	if err == nil || !strings.Contains(err.Error(), "unexpected encoding") {
		t.Errorf("an encoding shorter than its head and tail: %q, %v; want an unexpected encoding", texts, err)
	}
	texts, err = itemTexts([]int{1}, func([]int) ([]byte, error) { return []byte("H\n- a\n- b\nT\n"), nil }, "H\n", "T\n", "- ")
	if err == nil || !strings.Contains(err.Error(), "1 items encoded as 2") {
		t.Errorf("two items cut from the encoding of one: %q, %v; want an error", texts, err)
	}
}

// TestUnexpectedEncodingHidesTheText: the error of an encoding not as
// expected says its length, not its text, which holds the state's sealed
// values (a log line must not show them).
func TestUnexpectedEncodingHidesTheText(t *testing.T) {
	const sealed = "bid 17 on Might; nonce 5f3a9c"
	_, err := itemTexts([]int{1}, func([]int) ([]byte, error) { return []byte("X\n- " + sealed + "\n"), nil }, "H\n", "", "- ")
	if err == nil || strings.Contains(err.Error(), sealed) || !strings.Contains(err.Error(), "unexpected encoding") {
		t.Errorf("the error of an unexpected encoding: %v; want one that does not show the text", err)
	}
}

// TestHashTextFields: the keys of a state hash's text written without the
// YAML encoder (the journal line's number, the notice's time) or kept (the
// game's ID, an empty list of intents, rulings or claims) are as the
// encoder writes them, whatever their value: numbers of any sign, times
// of any zone and precision, years at the ends of four digits and past
// them (encoded), IDs the encoder quotes, lists nil, empty or not.
func TestHashTextFields(t *testing.T) {
	var c hashText
	zones := []*time.Location{time.UTC, time.FixedZone("", -5*3600-30*60), time.FixedZone("X", 14*3600)}
	times := []time.Time{{}, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), time.Date(2026, 12, 1, 10, 0, 0, 120, time.UTC),
		time.Date(2026, 12, 1, 10, 0, 0, 999999999, time.UTC), time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 1, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Now()}
	seqs := []int64{0, 1, -1, 14008, 1 << 62, -1 << 63}
	games := []string{"", "rumble", "yes", "10", "null", "a b", "é", "- x", "a: b", "\nz"}
	lists := []struct {
		intents []*Intent
		rulings []*Ruling
		claims  []*Claim
	}{{}, {[]*Intent{}, []*Ruling{}, []*Claim{}}, {[]*Intent{{ID: 1, Text: "I intend to", Created: times[1]}}, nil, []*Claim{{ID: 2, Public: true}}}}
	i := 0
	for _, at := range times {
		for _, loc := range zones {
			for _, seq := range seqs {
				i++
				l := lists[i%len(lists)]
				h := &hashedState{Game: games[i%len(games)], Seq: seq, Time: at.In(loc), Intents: l.intents, Rulings: l.rulings, Claims: l.claims}
				sameHashText(t, &c, h)
			}
		}
	}
}
