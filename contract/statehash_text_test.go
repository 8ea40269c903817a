package contract_test

import (
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// hashPlaces are places of a state a text can be in, each hashed by its
// own part of the state hash: a player's nickname, a game's recent event, a
// game's contestmaster, the text of an intent.
var hashPlaces = []struct {
	name string
	set  func(s *contract.State, text string)
}{
	{"nickname", func(s *contract.State, text string) { s.Players[0].Nicknames = []string{text} }},
	{"recent event", func(s *contract.State, text string) { s.Games["toy"].Recent[0].What = text }},
	{"contestmaster", func(s *contract.State, text string) { s.Games["toy"].Contestmaster = text }},
	{"intent", func(s *contract.State, text string) { s.Intents[0].Text = text }},
}

// hashWith is the state hash, for the referee and for the toy game, of a
// toy state with a player, a recent event and an intent, the text put in
// place.
func hashWith(t testing.TB, set func(*contract.State, string), text string) [2]string {
	t.Helper()
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Advance("2026-12-07T00:00:00Z")
	set(h.S, text)
	var out [2]string
	for i, game := range []string{"", "toy"} {
		hash, err := contract.StateHash(h.S, game, 9, contracttest.At(t, "2026-12-07T01:00:00Z"))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = hash
	}
	return out
}

// TestStateHashTellsTextsApart: two states that differ in one text have
// different state hashes, also where the YAML encoder writes both texts
// alike (" a\nb" and "\n a\nb" are each a block scalar "|4-" of the lines
// " a" and "b").
func TestStateHashTellsTextsApart(t *testing.T) {
	texts := []string{" a\nb", "\n a\nb", "a\nb", "\na\nb", "\r\na\nb", "\u2028 a\nb", "\t a\nb", "\n\n a\nb", " \n a\nb"}
	for _, p := range hashPlaces {
		seen := map[[2]string]string{}
		for _, text := range texts {
			h := hashWith(t, p.set, text)
			if h[0] == h[1] {
				t.Fatalf("%s %q: the referee's and the game's hash are equal", p.name, text)
			}
			if other, ok := seen[h]; ok {
				t.Errorf("%s: %q and %q have the same state hash", p.name, other, text)
			}
			seen[h] = text
		}
	}
}

// FuzzStateHashTellsTextsApart: two distinct texts, put in turn in each
// place of a state, give two state hashes.
func FuzzStateHashTellsTextsApart(f *testing.F) {
	texts := []string{" a\nb", "\n a\nb", "a\nb", "\na\nb", "\r\na\nb", "\u2028 a\nb", "\t a\nb", "\n\n a\nb", " \n a\nb", "a\n", "a\n\n", "\xff\n", ""}
	for i, a := range texts {
		f.Add(a, texts[(i+1)%len(texts)])
	}
	h := newToy(f)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Advance("2026-12-07T00:00:00Z")
	at := contracttest.At(f, "2026-12-07T01:00:00Z")
	f.Fuzz(func(t *testing.T, a, b string) {
		if a == b {
			return
		}
		for _, p := range hashPlaces {
			var hashes [2]string
			for i, text := range []string{a, b} {
				p.set(h.S, text)
				hash, err := contract.StateHash(h.S, "", 9, at)
				if err != nil {
					t.Fatalf("%s %q: %v", p.name, text, err)
				}
				hashes[i] = hash
			}
			if hashes[0] == hashes[1] {
				t.Errorf("%s: %q and %q have the same state hash", p.name, a, b)
			}
		}
	})
}
