package contract

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"
)

// TestPlainPlayerIsTheEncoders: a player's item of the state file and of
// the state hash's text, where appendPlainPlayer writes it, is byte for byte what the YAML encoder
// writes, over players made of texts it writes plain and texts it quotes
// (YAML's booleans and nulls in any case, numbers, dates, indicators,
// spaces, line breaks, non-ASCII), empty and missing lists and maps, times
// with nanoseconds and in other zones; and appendPlainPlayer writes most
// ordinary players (a test of its use, not only of its care).
func TestPlainPlayerIsTheEncoders(t *testing.T) {
	names := []string{"Alice", "Grace006", "Bob", "e1", "Inf", "NaN", "Yes", "yes", "YES", "y", "N", "no", "On", "off", "True", "false",
		"Null", "NULL", "null", "tRUE", "x", "Zoë", "Carol Ünal", "123", "1e3", "0x1F", "2026-11-02", "- x", "#h", "a: b", " lead", "trail ",
		"two\nlines", "\tTab", "'q'", "~", "", "[1]", "{a}", "*star", "&amp", "!bang", "%pct", "@at", "`tick", "|pipe", ">gt", "?q", ",c",
		"a,b", "a#b", "a #b", ".inf", "1:20", "<<"}
	addrs := []string{"alice@example.test", "a.b+c@x.org", "bob@example.test ", "carol", "@example.test", "a:b@c", "Z@z", "x%y@z", "x'y@z", "ü@x.de", "-a@b"}
	games := []string{"life", "rumble", "steemfield", "wackyworld", "Life", "life2", "a b", "", "null", "yes", "z", "aa", "a"}
	zones := []*time.Location{time.UTC, time.FixedZone("", 3600), time.FixedZone("X", -5*3600-1800)}
	r := rand.New(rand.NewPCG(7, 11))
	pick := func(from []string) string { return from[r.IntN(len(from))] }
	some := func(from []string) []string {
		switch r.IntN(5) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		out := make([]string, 1+r.IntN(3))
		for i := range out {
			out[i] = pick(from)
		}
		return out
	}
	times := func() map[string]time.Time {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return map[string]time.Time{}
		}
		m := map[string]time.Time{}
		for range 1 + r.IntN(4) {
			at := time.Date(2026, 11, 2, 8, 16, 31, 0, zones[r.IntN(len(zones))])
			if r.IntN(3) == 0 {
				at = at.Add(time.Duration(r.IntN(1e9)))
			}
			m[pick(games)] = at
		}
		return m
	}
	plain := 0
	const n = 20000
	for range n {
		p := &Player{Name: pick(names), Nicknames: some(names), Addresses: some(addrs), Joined: times(), Left: times(), Member: some(games)}
		if r.IntN(2) == 0 { // mostly ordinary, as players are
			p = &Player{Name: pick(names[:3]), Addresses: []string{pick(addrs[:2])}, Joined: map[string]time.Time{pick(games[:4]): time.Date(2026, 11, 2, 8, 16, 31, 0, time.UTC)}, Member: []string{pick(games[:4])}}
		}
		if checkPlainPlayer(t, p) {
			plain++
		}
	}
	if plain < n/2 {
		t.Fatalf("%d of %d players written plain: want at least the ordinary half", plain, n)
	}
}

// FuzzPlainPlayer: whatever the texts, a player appendPlainPlayer writes
// is written as the YAML encoder writes it, in both layouts.
func FuzzPlainPlayer(f *testing.F) {
	f.Add("Alice", "Al", "alice@example.test", "life", int64(0))
	f.Add("Carol Ünal", "", "carol@example.test", "rumble", int64(123456789))
	f.Add("yes", "No", "x@y", "null", int64(1))
	f.Fuzz(func(t *testing.T, name, nick, addr, game string, nanos int64) {
		at := time.Unix(1790000000, nanos%1e9).UTC()
		p := &Player{Name: name, Addresses: []string{addr}, Joined: map[string]time.Time{game: at}, Member: []string{game}}
		if nick != "" {
			p.Nicknames = []string{nick}
		}
		checkPlainPlayer(t, p)
	})
}

// checkPlainPlayer: p, where appendPlainPlayer writes it, is written in
// the state file's layout and the state hash's as the YAML encoder writes
// it there, and in both or neither; true when written.
func checkPlainPlayer(t *testing.T, p *Player) bool {
	t.Helper()
	got := appendPlainPlayer(nil, p, statePlayerLayout)
	if got == nil {
		if appendPlainPlayer(nil, p, hashPlayerLayout) != nil {
			t.Fatalf("%+v written plain in the state hash's layout alone", p)
		}
		return false
	}
	item, err := encodeYAML(struct {
		P []*Player `yaml:"players"`
	}{[]*Player{p}})
	if err != nil {
		t.Fatal(err)
	}
	if want := item[len("players:\n"):]; !bytes.Equal(got, want) {
		t.Fatalf("%+v written\n%s\nthe YAML encoder writes\n%s", p, got, want)
	}
	// The state hash's text: yaml.Marshal's, as playersText writes it.
	hashed, err := playersText([]*Player{p})
	if err != nil {
		t.Fatal(err)
	}
	if want := hashed[len(playersHead) : len(hashed)-len(playersTail)]; !bytes.Equal(appendPlainPlayer(nil, p, hashPlayerLayout), want) {
		t.Fatalf("%+v written for the state hash otherwise than the YAML encoder writes it:\n%s", p, want)
	}
	return true
}
