package rumble

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bidRead is what a bid list reads as on st's list ("Iron Skin=10"), or the
// refusal.
func bidRead(st *State, list string) string {
	bids, _, err := parseBids(list, st)
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, b := range bids {
		out = append(out, fmt.Sprintf("%s=%d", b.Power, b.N))
	}
	return strings.Join(out, " ")
}

func powerList(names ...string) []*Power {
	var out []*Power
	for _, n := range names {
		out = append(out, &Power{Name: n})
	}
	return out
}

// TestPowerLookupFollowsTheList: a bid reaches the power of the list as it
// is now, after the list is replaced by one with a power renamed, added or
// taken off, appended to, cut back by an undo and appended to again over
// what the undo took back, and after a power is discarded (it stays on the
// list); names alike but for case stay refused as ambiguous, and "#3" is
// the third power of the list of the moment.
func TestPowerLookupFollowsTheList(t *testing.T) {
	st := &State{Game: 1, Phase: PhaseBids, Powers: powerList("Flight", "Iron Skin", "İron Skin", "Rage")}
	check := func(step, list, want string) {
		t.Helper()
		if got := bidRead(st, list); got != want {
			t.Errorf("%s: %q reads %q, want %q", step, list, got, want)
		}
	}
	ambiguous := `"iron skin" could be the power "Iron Skin" (#2) or "İron Skin" (#3)`
	check("first list", "Flight: 5", "Flight=5")
	check("first list", "#3: 5", "İron Skin=5")
	check("first list", "İron Skin: 5\nthe power IRON SKIN: 6", `"the power IRON SKIN" could be the power "Iron Skin" (#2) or "İron Skin" (#3), whose names differ only in case; write the name exactly as listed, or its number (Rumble 5)`)
	check("first list", "iron skin: 5", ambiguous+", whose names differ only in case; write the name exactly as listed, or its number (Rumble 5)")
	check("first list", "flight: 5", "Flight=5")

	// Flight renamed Flying, in a new list (as a close builds one).
	st.Powers = powerList("Flying", "Iron Skin", "İron Skin", "Rage")
	check("renamed", "Flight: 5", `"Flight" is not a power on the list of game 1 (Rumble 5)`)
	check("renamed", "flying: 5", "Flying=5")
	check("renamed", "#1: 5", "Flying=5")

	// İron Skin taken off: "iron skin" is no longer ambiguous, and #3 is Rage.
	st.Powers = powerList("Flying", "Iron Skin", "Rage")
	check("taken off", "iron skin: 5", "Iron Skin=5")
	check("taken off", "İRON SKIN: 5", "Iron Skin=5")
	check("taken off", "#3: 5", "Rage=5")
	check("taken off", "#4: 5", `"#4" is not a power on the list of game 1 (Rumble 5)`)

	// Appended to, in the spare room of the list's array or not.
	st.Powers = slices.Grow(st.Powers, 4)
	kept := st.Powers
	st.Powers = append(st.Powers, &Power{Name: "IRON SKIN"})
	check("appended", "#4: 5", "IRON SKIN=5")
	check("appended", "Iron Skin: 5", "Iron Skin=5")
	check("appended", "iron skin: 5", `"iron skin" could be the power "Iron Skin" (#2) or "IRON SKIN" (#4)`+", whose names differ only in case; write the name exactly as listed, or its number (Rumble 5)")

	// An undo puts the shorter list back, and another power is appended in
	// the same place of the same array: the list has the same array and
	// length as the one indexed, but not its last power.
	st.Powers = kept
	st.Powers = append(st.Powers, &Power{Name: "Thorns"})
	check("appended again", "#4: 5", "Thorns=5")
	check("appended again", "Thorns: 5", "Thorns=5")
	check("appended again", "IRON SKIN: 5", "Iron Skin=5")
	check("appended again", "iron skin: 5", "Iron Skin=5")

	// A discarded power (no bid, Rumble 5) stays on the list.
	st.Powers[0].Discarded = true
	check("discarded", "Flying: 5", "Flying=5")

	// Between games the list is emptied; the next game's is another.
	st.Powers = nil
	check("between games", "Flying: 5", `"Flying" is not a power on the list of game 1 (Rumble 5)`)
	st.Game, st.Powers = 2, powerList("Rage", "flying")
	check("next game", "Flying: 5", "flying=5")
	check("next game", "Iron Skin: 5", `"Iron Skin" is not a power on the list of game 2 (Rumble 5)`)
	check("next game", "#1: 5", "Rage=5")
	if p := st.power(" FLYING "); p == nil || p.Name != "flying" {
		t.Errorf("next game: power(%q) is %v, want flying", " FLYING ", p)
	}
}

// TestPowerIndexAcrossUndo: an undo (SaveTop) that puts back the list an
// index built since serves keeps that index, so a refused action does not
// cost the next one a new index; one that cuts the list back does not, so
// that powers appended over what it took back are found, even when the
// last of them is the last that was taken back.
func TestPowerIndexAcrossUndo(t *testing.T) {
	st := &State{Game: 1, Phase: PhaseBids, Powers: slices.Grow(powerList("Flight", "Rage"), 4)}
	restore := st.SaveTop()
	if got := bidRead(st, "Rage: 5"); got != "Rage=5" {
		t.Fatalf("%q reads %q", "Rage: 5", got)
	}
	ix := st.powerIx
	restore()
	if st.powerIx != ix || ix == nil {
		t.Errorf("an undo that left the list as it was dropped its index")
	}

	restore = st.SaveTop()
	last := &Power{Name: "Thorns"}
	st.Powers = append(st.Powers, &Power{Name: "Mend"}, last)
	if got := bidRead(st, "Mend: 5"); got != "Mend=5" {
		t.Fatalf("%q reads %q", "Mend: 5", got)
	}
	restore()
	st.Powers = append(st.Powers, &Power{Name: "Ward"}, last)
	for list, want := range map[string]string{"Ward: 5": "Ward=5", "Mend: 5": `"Mend" is not a power on the list of game 1 (Rumble 5)`, "#3: 5": "Ward=5", "Thorns: 5": "Thorns=5"} {
		if got := bidRead(st, list); got != want {
			t.Errorf("after the undo and another append: %q reads %q, want %q", list, got, want)
		}
	}
}

// TestFighterLookupFollowsTheList: a contestant is found in the list of
// the moment, after a new game's list and after an undo and an append over
// what it took back.
func TestFighterLookupFollowsTheList(t *testing.T) {
	st := &State{}
	for _, n := range []string{"Alice", "Bob", "Carol"} {
		st.Fighters = append(st.Fighters, &Fighter{Name: n})
	}
	want := func(step, name string, found bool) {
		t.Helper()
		f := st.fighter(name)
		if found != (f != nil) || found && f.Name != name {
			t.Errorf("%s: fighter(%q) is %v, want found %v", step, name, f, found)
		}
	}
	want("first", "Carol", true)
	want("first", "carol", false)
	st.Fighters = slices.Grow(st.Fighters, 2)
	kept := st.Fighters
	st.Fighters = append(st.Fighters, &Fighter{Name: "Dave"})
	want("appended", "Dave", true)
	st.Fighters = kept
	st.Fighters = append(st.Fighters, &Fighter{Name: "Erin"})
	want("appended again", "Dave", false)
	want("appended again", "Erin", true)
	st.Fighters = []*Fighter{{Name: "Zed"}}
	want("new list", "Alice", false)
	want("new list", "Zed", true)
}

// TestPowerLookupAcrossGames: in a game after one whose powers were alike
// but for case, a bid reaches the new list's powers, a power of the old
// list is not on it, and the ambiguity of the old list is gone.
func TestPowerLookupAcrossGames(t *testing.T) {
	h := lookalikeBids(t)
	r := h.Private("2026-12-02T09:00:00Z", carol, "iron skin: 10")
	if !failed(r) || !strings.Contains(norm(r.Body), "whose names differ only in case") {
		t.Fatalf("game 1: an ambiguous bid is not refused:\n%s", r.Body)
	}
	mustDone(t, h.Private("2026-12-02T09:30:00Z", carol, "Flight: 10"))
	// Alice and Bob bid all their stamina and die of it: Carol wins.
	privately(t, h, "2026-12-02T10:00:00Z",
		alice, "Iron Skin: 100",
		bob, "İron Skin: 100")
	if st := data2(h); st.Phase != PhaseNone {
		t.Fatalf("game 1 is in phase %q, want over", st.Phase)
	}
	mustDone(t, h.Public("2026-12-03T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."))
	privately(t, h, "2026-12-03T12:00:00Z",
		alice, "iron skin: softer than before",
		bob, "Flight Deck: a deck that flies",
		carol, "Rage: anger [fury]")
	if st := data2(h); st.Phase != PhaseBids || st.Game != 2 {
		t.Fatalf("game %d phase %q, want game 2 bids", st.Game, st.Phase)
	}
	number := map[string]string{}
	for i, p := range data2(h).Powers {
		number[p.Name] = "#" + itoa(i+1)
	}
	for _, c := range []struct{ list, want string }{
		{"Iron Skin: 10", "bid: iron skin: 10"},
		{"İron Skin: 10", "bid: iron skin: 10"},
		{number["Rage"] + ": 10", "bid: Rage: 10"},
		{"flight deck: 10", "bid: Flight Deck: 10"},
	} {
		r := h.Private("2026-12-04T10:00:00Z", carol, c.list)
		mustDone(t, r)
		if !strings.Contains(norm(r.Body), c.want) {
			t.Errorf("game 2: %q: the receipt does not say %q:\n%s", c.list, c.want, r.Body)
		}
	}
	r = h.Private("2026-12-04T11:00:00Z", carol, "Flight: 10")
	if want := `"Flight" is not a power on the list of game 2 (Rumble 5)`; !failed(r) || !strings.Contains(norm(r.Body), want) {
		t.Errorf("game 2: a power of game 1 is not refused with %q:\n%s", want, r.Body)
	}
}

// TestPowerIndexAsSearch: matchPower and power answer as a search of the
// whole list does (matchPowerScan, powerScan), on random lists of names
// alike in many ways (case, "İ" and "ı", the Kelvin sign, "ſ", final
// sigma, bytes that are not UTF-8, spaces around) and random references to
// them (in other cases, with "the power" or "power" before, quoted,
// numbered), the list changing between lookups as the game changes it:
// replaced, appended to, cut back by an undo and appended to again.
func TestPowerIndexAsSearch(t *testing.T) {
	was := lookupCheck
	defer func() { lookupCheck = was }()
	lookupCheck = nil // compared here, to be reported rather than panic
	words := []string{"iron", "Iron", "IRON", "İron", "ıron", "skin", "SKİN", "Skin", "kelvin", "\u212Aelvin", "KELVIN", "ſtar", "star", "STAR",
		"σίσυφος", "ΣΊΣΥΦΟΣ", "σίσυφος", "a\xffb", "a\xfeb", "a\uFFFDb", "ß", "ẞ", "ss", "1", "#2", "x"}
	r := rand.New(rand.NewPCG(7, 2000))
	name := func() string {
		var parts []string
		for range 1 + r.IntN(2) {
			parts = append(parts, words[r.IntN(len(words))])
		}
		s := strings.Join(parts, " ")
		if r.IntN(10) == 0 {
			s = " " + s + " "
		}
		return s
	}
	recase := func(s string) string {
		switch r.IntN(4) {
		case 0:
			return strings.ToUpper(s)
		case 1:
			return strings.ToLower(s)
		case 2:
			return strings.ToTitle(s)
		}
		return s
	}
	st := &State{}
	var undo []*Power
	for round := range 1000 {
		switch r.IntN(4) {
		case 0:
			var list []*Power
			for range r.IntN(8) {
				list = append(list, &Power{Name: name()})
			}
			st.Powers = list
		case 1:
			undo = st.Powers
			st.Powers = append(st.Powers, &Power{Name: name()})
		case 2:
			if undo != nil {
				st.Powers = undo
			}
		}
		lookups := 30
		if r.IntN(2) == 0 {
			lookups = 0 // the list changes again before it is looked at
		}
		for range lookups {
			var ref string
			if len(st.Powers) > 0 && r.IntN(3) > 0 {
				ref = recase(st.Powers[r.IntN(len(st.Powers))].Name)
			} else {
				ref = recase(name())
			}
			switch r.IntN(6) {
			case 0:
				ref = "the power " + ref
			case 1:
				ref = "POWER " + ref
			case 2:
				ref = `"` + ref + `"`
			case 3:
				ref = fmt.Sprintf("#%d", r.IntN(len(st.Powers)+2))
			}
			p, alike := st.matchPower(ref)
			q, qa := st.matchPowerScan(ref)
			if p != q || !slices.Equal(alike, qa) {
				t.Fatalf("round %d, list %q: matchPower(%q) = %v %v, the search %v %v", round, names(st.Powers), ref, p, alike, q, qa)
			}
			if p, q := st.power(ref), st.powerScan(ref); p != q {
				t.Fatalf("round %d, list %q: power(%q) = %v, the search %v", round, names(st.Powers), ref, p, q)
			}
		}
	}
}

func names(ps []*Power) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// TestFoldKey: two strings have the same foldKey exactly when
// strings.EqualFold finds them equal, on pairs of random strings of
// characters that fold together and apart.
func TestFoldKey(t *testing.T) {
	pieces := []string{"a", "A", "k", "K", "\u212A", "s", "S", "ſ", "σ", "Σ", "ς", "i", "I", "İ", "ı", "ß", "ẞ", "\xff", "\xfe", "\uFFFD", "é", "É", " ", "1"}
	r := rand.New(rand.NewPCG(3, 3))
	word := func() string {
		var b strings.Builder
		for range r.IntN(4) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	for range 50000 {
		a, b := word(), word()
		if (foldKey(a) == foldKey(b)) != strings.EqualFold(a, b) {
			t.Errorf("foldKey(%q) = %q, foldKey(%q) = %q; EqualFold says %v", a, foldKey(a), b, foldKey(b), strings.EqualFold(a, b))
		}
	}
}

// TestWaitingAsMissing: waiting, which closes a phase early, says someone
// is awaited exactly when missing lists someone, on random games: the
// living and the dead, contestants with powers and without in the
// discard, submissions from some, twice from a few, and the
// contestmaster's.
func TestWaitingAsMissing(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 3000 {
		st := &State{Phase: []string{PhasePowers, PhaseBids, PhaseDiscard, PhaseRound}[r.IntN(4)]}
		for i := range r.IntN(6) {
			f := &Fighter{Name: fmt.Sprintf("P%d", i), Alive: r.IntN(4) > 0}
			if r.IntN(2) == 0 {
				f.Powers = []string{"Flight"}
			}
			st.Fighters = append(st.Fighters, f)
		}
		for _, f := range st.Fighters {
			for range r.IntN(3) {
				if r.IntN(2) == 0 {
					st.Subs = append(st.Subs, &Sub{Who: f.Name})
				}
			}
		}
		if r.IntN(3) == 0 {
			st.Subs = append(st.Subs, &Sub{Who: "Mars"})
		}
		if got, want := st.waiting(), len(st.missing()) > 0; got != want {
			t.Fatalf("round %d, phase %s: waiting says %v, missing lists %d", round, st.Phase, got, len(st.missing()))
		}
	}
}
