package contract

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// resolveByCopies is Resolve as it was written before lowerIs: every name,
// nickname and address lower-cased into a copy, the reference the fast
// lookups are checked against. A name without its accents is a copy made
// by x/text's transformers, not withoutMarks.
func resolveByCopies(s *State, ref string) (*Player, error) {
	r := strings.ToLower(strings.Trim(strings.TrimSpace(ref), `"'@<>`))
	if r == "" {
		return nil, Reject("syntax", "no player named")
	}
	bare := func(n string) string {
		if out, ok := bareCopies[n]; ok {
			return out
		}
		out, _, _ := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn))), strings.ToLower(n))
		bareCopies[n] = out
		return out
	}
	plain := bare(r) == r
	var exact, dropped, prefix, folded, foldedPrefix []*Player
	for _, p := range s.Players {
		names := append([]string{p.Name}, p.Nicknames...)
		hit := false
		for _, n := range names {
			if strings.ToLower(n) == r {
				exact = append(exact, p)
				hit = true
				break
			}
		}
		hasAddr := false
		for _, a := range p.Addresses {
			if a == strings.ToLower(r) {
				hasAddr = true
			}
		}
		if !hit && hasAddr {
			exact = append(exact, p)
			continue
		}
		if hit {
			continue
		}
		tiers := []struct {
			list  *[]*Player
			match func(n string) bool
		}{
			{&dropped, func(n string) bool { return plain && bare(n) == r }},
			{&prefix, func(n string) bool {
				return !pronouns[r] && (strings.HasPrefix(strings.ToLower(n), r) || plain && strings.HasPrefix(bare(n), r))
			}},
			{&folded, func(n string) bool { return !plain && bare(n) == bare(r) }},
			{&foldedPrefix, func(n string) bool { return !plain && !pronouns[r] && strings.HasPrefix(bare(n), bare(r)) }},
		}
	tier:
		for _, t := range tiers {
			for _, n := range names {
				if t.match(n) {
					*t.list = append(*t.list, p)
					break tier
				}
			}
		}
	}
	for _, ps := range [][]*Player{exact, dropped, prefix, folded, foldedPrefix} {
		switch {
		case len(ps) == 1:
			return ps[0], nil
		case len(ps) > 1:
			return nil, ambiguous(ref, ps)
		}
	}
	return nil, Reject(NamingRule, "no player is known as %q", ref)
}

// bareCopies keeps resolveByCopies's names without their accents: the
// transformers cost more than the lookups they check.
var bareCopies = map[string]string{}

// foldWords are the pieces names, nicknames, addresses and references are
// made of: ASCII in both cases, and the runes whose lower case is ASCII
// (the Kelvin sign, İ) or another length in bytes (Ⱥ), or none (ß), and
// a byte that is not UTF-8.
var foldWords = []string{"al", "Al", "AL", "ice", "ICE", "k", "K", "\u212a", "i", "I", "\u0130", "\u023a", "\u2c65",
	"ß", "SS", "\xff", "bo", "Bob", "@", "example.test", "-", " ", "é", "É", "e", "E"}

func foldString(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(foldWords[r.IntN(len(foldWords))])
	}
	return b.String()
}

// TestResolveFoldsAsCopies checks Resolve and HasAddress against the
// lower-cased copies they were written with, on players with names,
// nicknames and addresses of every case (and of runes whose lower case is
// ASCII or longer), changed at random between the lookups: players
// registering, some with several addresses, renames, nicknames added, an
// action's change undone. Each reference is a name, nickname or address of
// a player, in another case, cut to a prefix, quoted, or made up.
func TestResolveFoldsAsCopies(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 3))
	s := &State{}
	checked, found := 0, 0
	for step := 0; step < 1000; step++ {
		switch k := r.IntN(10); {
		case k < 2 || len(s.Players) == 0:
			s.Register(strings.ToLower(foldString(r, 2))+"@example.test", foldString(r, 1+r.IntN(3)))
		case k < 3: // a player known by several addresses (the state is only appended to)
			s.Players = append(s.Players, &Player{Name: foldString(r, 2), Addresses: []string{foldString(r, 3), strings.ToLower(foldString(r, 3))}})
		case k < 4:
			p := s.Players[r.IntN(len(s.Players))]
			p.Name = foldString(r, 1+r.IntN(3))
		case k < 5:
			p := s.Players[r.IntN(len(s.Players))]
			p.Nicknames = append(p.Nicknames, foldString(r, 1+r.IntN(2)))
		case k < 6:
			tx := s.Begin()
			p := s.Players[r.IntN(len(s.Players))]
			s.touchPlayer(p)
			p.Name = foldString(r, 2) // a rejected action's rename
			tx.Undo()
		}
		for i := 0; i < 5; i++ {
			ref := foldRef(r, s)
			got, gerr := s.Resolve(ref)
			want, werr := resolveByCopies(s, ref)
			checked++
			if got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
				t.Fatalf("step %d: Resolve(%q) = %v, %v; by lower-cased copies %v, %v", step, ref, got, gerr, want, werr)
			}
			if got != nil {
				found++
			}
			p := s.Players[r.IntN(len(s.Players))]
			addr := foldRef(r, s)
			want2 := false
			for _, a := range p.Addresses {
				want2 = want2 || a == strings.ToLower(addr)
			}
			if got := p.HasAddress(addr); got != want2 {
				t.Fatalf("HasAddress(%q) of %v = %v, want %v", addr, p.Addresses, got, want2)
			}
		}
	}
	if found < checked/4 || found > checked*3/4 {
		t.Fatalf("%d of %d references found a player: the references do not test both ways", found, checked)
	}
}

// foldRef is a reference to a player of s as a player might write it.
func foldRef(r *rand.Rand, s *State) string {
	p := s.Players[r.IntN(len(s.Players))]
	words := append([]string{p.Name}, p.Nicknames...)
	words = append(words, p.Addresses...)
	w := words[r.IntN(len(words))]
	switch r.IntN(6) {
	case 0:
		w = strings.ToUpper(w)
	case 1:
		w = strings.ToLower(w)
	case 2:
		if len(w) > 1 {
			w = w[:1+r.IntN(len(w)-1)]
		}
	case 3:
		w = `"@` + w + `"`
	case 4:
		w = foldString(r, 1+r.IntN(3))
	}
	return w
}

// TestLowerIsFolds checks lowerIs, lowerHasPrefix and replySubject on the
// cases that tell a byte compare from a lower-cased copy.
func TestLowerIsFolds(t *testing.T) {
	for _, c := range []struct {
		s, lower string
		is, pre  bool
	}{
		{"Alice", "alice", true, true},
		{"ALICE", "alice", true, true},
		{"Alice", "ali", false, true},
		{"Ali", "alice", false, false},
		{"Alice", "Alice", false, false},  // the reference is lower case
		{"\u212aate", "kate", true, true}, // the Kelvin sign lowers to k
		{"\u0130van", "ivan", true, true}, // İ lowers to i
		{"\u023a", "\u2c65", true, true},  // Ⱥ lowers to ⱥ, a byte longer
		{"\xffA", "\ufffda", true, true},  // a byte not UTF-8 lowers to U+FFFD
		{"@", "`", false, false},          // not a letter: kept
		{"[", "{", false, false},
		{"Zed", "zed", true, true},
		{"", "", true, true},
		{"A", "", false, true},
	} {
		if got := lowerIs(c.s, c.lower); got != c.is {
			t.Errorf("lowerIs(%q, %q) = %v, want %v", c.s, c.lower, got, c.is)
		}
		if got := lowerHasPrefix(c.s, c.lower); got != c.pre {
			t.Errorf("lowerHasPrefix(%q, %q) = %v, want %v", c.s, c.lower, got, c.pre)
		}
	}
	for subj, want := range map[string]string{"RE: x": "RE: x", "Re:x": "Re:x", "x": "Re: x", "Ré: x": "Re: Ré: x", "": "Re: your message", "re": "Re: re"} {
		if got := replySubject(subj); got != want {
			t.Errorf("replySubject(%q) = %q, want %q", subj, got, want)
		}
	}
}

// FuzzLowerIs checks lowerIs and lowerHasPrefix against strings.ToLower's
// copy on any two texts, and on a text and its own lower case and the
// prefixes of it; and replySubject against its lower-cased copy.
func FuzzLowerIs(f *testing.F) {
	for _, s := range []string{"Alice", "\u212aate", "\u0130van", "\u023aa", "\xffA", "RE: hello", "ß", "@[`{"} {
		f.Add(s, strings.ToLower(s))
		f.Add(s, "re:")
	}
	f.Fuzz(func(t *testing.T, s, lower string) {
		for _, l := range []string{lower, strings.ToLower(s), strings.ToLower(lower)} {
			if got, want := lowerIs(s, l), strings.ToLower(s) == l; got != want {
				t.Fatalf("lowerIs(%q, %q) = %v, want %v", s, l, got, want)
			}
			for n := 0; n <= len(l); n++ {
				if got, want := lowerHasPrefix(s, l[:n]), strings.HasPrefix(strings.ToLower(s), l[:n]); got != want {
					t.Fatalf("lowerHasPrefix(%q, %q) = %v, want %v", s, l[:n], got, want)
				}
			}
		}
		want := "Re: " + strings.TrimSpace(s)
		if strings.TrimSpace(s) == "" {
			want = "Re: your message"
		} else if strings.HasPrefix(strings.ToLower(strings.TrimSpace(s)), "re:") {
			want = strings.TrimSpace(s)
		}
		if got := replySubject(s); got != want {
			t.Fatalf("replySubject(%q) = %q, want %q", s, got, want)
		}
	})
}
