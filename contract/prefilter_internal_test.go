package contract

// Tests put before an expression or a call that answer for most text
// without it, held to what the expression or the call says.

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMayPastTense: every word pastTense names, in either case and with
// a word after it, passes mayPastTense, and no text mayPastTense turns
// away is one pastTense matches, for 50,000 random texts of words in the
// past and present, their pieces, the runes that fold to ASCII letters,
// digits and punctuation.
func TestMayPastTense(t *testing.T) {
	src := pastTense().String()
	body := src[strings.Index(src, "(?:")+3 : strings.Index(src, `)\b`)]
	words := strings.Split(body, "|")
	if len(words) < 20 || words[0] != "[a-z]+ed" {
		t.Fatalf("%d words read from %s", len(words), src)
	}
	for _, w := range words[1:] {
		for _, s := range []string{w, strings.ToUpper(w), w + " cell (3, 4)", strings.ToUpper(w[:1]) + w[1:] + "."} {
			if !mayPastTense(s) || !pastTense().MatchString(s) {
				t.Errorf("%q: mayPastTense %v, pastTense %v", s, mayPastTense(s), pastTense().MatchString(s))
			}
		}
	}
	pieces := append(words[1:], "joined", "claimed", "JOINED", "ed", "d", "e", "claim", "join", "transfer", "ran", "run",
		"\u212a", "\u017f", "é", " ", "_", "1", ",", ".", "tooK", "ſent", "e\u212ad")
	r := rand.New(rand.NewPCG(6, 6))
	for range 50000 {
		var b strings.Builder
		for range 1 + r.IntN(4) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		if s := b.String(); !mayPastTense(s) && pastTense().MatchString(s) {
			t.Errorf("mayPastTense(%q) is false, but pastTense matches", s)
		}
	}
}

func FuzzMayPastTense(f *testing.F) {
	f.Add("joined the contest")
	f.Add("claim (3, 4)")
	f.Add("tooK")
	f.Fuzz(func(t *testing.T, s string) {
		if !mayPastTense(s) && pastTense().MatchString(s) {
			t.Errorf("mayPastTense(%q) is false, but pastTense matches", s)
		}
	})
}

// TestPlayerByNameIsEqualFold: PlayerByName finds the first player whose
// name strings.EqualFold says is the one asked for, for 20,000 random
// names asked of 40 players named from the same pieces (capitals, runes
// that fold to ASCII letters, letters past ASCII, empty names).
func TestPlayerByNameIsEqualFold(t *testing.T) {
	pieces := []string{"a", "A", "k", "K", "\u212a", "s", "S", "\u017f", "é", "É", "b", "-", "1", ""}
	r := rand.New(rand.NewPCG(9, 3))
	name := func() string {
		var b strings.Builder
		for range r.IntN(4) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	s := &State{}
	for range 40 {
		s.Players = append(s.Players, &Player{Name: name()})
	}
	for range 20000 {
		n := name()
		var want *Player
		for _, p := range s.Players {
			if strings.EqualFold(p.Name, n) {
				want = p
				break
			}
		}
		if got := s.PlayerByName(n); got != want {
			t.Fatalf("PlayerByName(%q) = %v, EqualFold finds %v", n, got, want)
		}
	}
}

// TestLetterRank: letterRank ranks each letter once, from z to e.
func TestLetterRank(t *testing.T) {
	const byRarity = "zqxjkvbpygfwmucldrhsnioate"
	for i := range byRarity {
		if got := letterRank[byRarity[i]-'a']; int(got) != i {
			t.Errorf("letterRank of %c is %d, want %d", byRarity[i], got, i)
		}
	}
	if anchor("error") != 1 || anchor("help") != 3 || anchor("preview") != 3 || anchor("coe") != 0 {
		t.Errorf("anchors of error, help, preview, coe: %d %d %d %d", anchor("error"), anchor("help"), anchor("preview"), anchor("coe"))
	}
}
