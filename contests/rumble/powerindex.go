package rumble

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Indexes of names. Every message of a contestant looks up eir name among
// the contestants, and every bid, discard and action list looks up powers'
// names, several times: an index makes each lookup a few reads of maps,
// not a comparison with each of the game's contestants or powers.
//
// An index serves only the list it was built from (listID): the same
// array, the same length, the same first and last elements. A list is
// replaced or appended to, never changed in place, and a listed
// contestant's or power's name never changes, so an index of the same list
// is never stale. An undo that cuts a list back puts back the index of its
// moment with it (SaveTop), so that an append over what it took back is
// not read from an index of the longer list. A name the index finds is
// checked in the list, and a list found changed is indexed again. An index
// is never changed once built, so the copies of a state may share it.

// listID identifies the list an index was built from: its array and
// length, and its first and last elements as they were then (held apart,
// the array itself may be written over by an append). Holding the list
// keeps its array, whose address no other list can then take.
type listID[T any] struct {
	list        []*T
	first, last *T
}

func idOf[T any](list []*T) listID[T] {
	id := listID[T]{list: list}
	if n := len(list); n > 0 {
		id.first, id.last = list[0], list[n-1]
	}
	return id
}

// is says whether list is the list id was taken of.
func (id listID[T]) is(list []*T) bool {
	n := len(list)
	return len(id.list) == n && (n == 0 || &id.list[0] == &list[0] && list[0] == id.first && list[n-1] == id.last)
}

// powerIndex indexes the names of a power list (matchPower, power).
type powerIndex struct {
	listID[Power]
	// exact is each name as listed, to its first power.
	exact map[string]int
	// fold (by foldKey) and lower (by strings.ToLower) are the names in
	// any case, each to its first power; foldNext[i] and lowerNext[i] are
	// the next power after the ith with the same key, -1 after the last.
	fold, lower         map[string]int
	foldNext, lowerNext []int
	// trimmed is each name without the spaces around it, by foldKey, to its
	// first power (power); nil when no name has spaces around it, and fold
	// says the same.
	trimmed map[string]int
}

// powers is the index of s.Powers: the one kept when it indexes this list,
// else a new one, kept for the next lookup.
func (s *State) powers() *powerIndex {
	if ix := s.powerIx; ix != nil && ix.is(s.Powers) {
		return ix
	}
	return s.reindexPowers()
}

// reindexPowers builds and keeps a new index of s.Powers.
func (s *State) reindexPowers() *powerIndex {
	s.powerIx = newPowerIndex(s.Powers)
	return s.powerIx
}

// newPowerIndex indexes list, from its last power to its first, so that
// each key ends at its first power and its chain is in the list's order.
func newPowerIndex(list []*Power) *powerIndex {
	n := len(list)
	ix := &powerIndex{listID: idOf(list), exact: make(map[string]int, n), fold: make(map[string]int, n),
		lower: make(map[string]int, n), foldNext: make([]int, n), lowerNext: make([]int, n)}
	for i := n - 1; i >= 0; i-- {
		name := list[i].Name
		ix.exact[name] = i
		k, l := foldKey(name), ""
		if isASCII(name) {
			l = k // foldKey lower-cases ASCII as ToLower does
		} else {
			l = strings.ToLower(name)
		}
		ix.foldNext[i], ix.lowerNext[i] = next(ix.fold, k), next(ix.lower, l)
		ix.fold[k], ix.lower[l] = i, i
		if strings.TrimSpace(name) != name && ix.trimmed == nil {
			ix.trimmed = map[string]int{}
		}
	}
	if ix.trimmed != nil {
		for i := n - 1; i >= 0; i-- {
			ix.trimmed[foldKey(strings.TrimSpace(list[i].Name))] = i
		}
	}
	return ix
}

// next is the power k leads to in m, -1 for none.
func next(m map[string]int, k string) int {
	if i, ok := m[k]; ok {
		return i
	}
	return -1
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// named is the first power named name exactly; ok is false when the list
// does not hold the power the index names (a list changed: index it again).
func (ix *powerIndex) named(name string) (p *Power, ok bool) {
	i, found := ix.exact[name]
	if !found {
		return nil, true
	}
	p = ix.list[i]
	return p, p.Name == name
}

// alike lists the powers whose names equal name in another case, as
// strings.EqualFold says or as strings.ToLower makes them ("İ" lower-cases
// to "i" but does not fold to it), in the list's order; ok as for named.
func (ix *powerIndex) alike(name string) (out []*Power, ok bool) {
	lower := strings.ToLower(name)
	a, b := next(ix.fold, foldKey(name)), next(ix.lower, lower)
	for a >= 0 || b >= 0 {
		var i int
		switch {
		case b < 0 || a >= 0 && a < b:
			i, a = a, ix.foldNext[a]
		case a < 0 || b < a:
			i, b = b, ix.lowerNext[b]
		default: // in both
			i, a, b = a, ix.foldNext[a], ix.lowerNext[b]
		}
		p := ix.list[i]
		if !strings.EqualFold(p.Name, name) && strings.ToLower(p.Name) != lower {
			return nil, false
		}
		out = append(out, p)
	}
	return out, true
}

// first is the first power whose name equals name in any case, the spaces
// around either aside; ok as for named.
func (ix *powerIndex) first(name string) (p *Power, ok bool) {
	key := foldKey(strings.TrimSpace(name))
	m := ix.trimmed
	if m == nil {
		m = ix.fold
	}
	i, found := m[key]
	if !found {
		return nil, true
	}
	p = ix.list[i]
	return p, equalFold(p.Name, name)
}

// foldKey is s with each character replaced by one of those it folds to
// (unicode.SimpleFold): the least, or the small letter of an ASCII pair
// ("k" for "K", "k" and the Kelvin sign), so that two strings have the same
// key exactly when strings.EqualFold finds them equal, and an ASCII string's
// is its strings.ToLower. A byte that is not UTF-8 is read as U+FFFD, as
// EqualFold reads it.
func foldKey(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		if 'A' <= least && least <= 'Z' {
			least += 'a' - 'A'
		}
		b.WriteRune(least)
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fighterIndex maps the contestants' names to their first places in a list
// of contestants (fighter).
type fighterIndex struct {
	listID[Fighter]
	byName map[string]int
}

func newFighterIndex(list []*Fighter) *fighterIndex {
	ix := &fighterIndex{listID: idOf(list), byName: make(map[string]int, len(list))}
	for i, f := range list {
		if !hasKey(ix.byName, f.Name) {
			ix.byName[f.Name] = i
		}
	}
	return ix
}

// lookupCheck, which the package's tests set, is given the answer of
// every lookup in an index, to compare with a search of the whole list
// (powerindex_check_test.go). Nil: no check.
var lookupCheck interface {
	match(s *State, ref string, p *Power, alike []*Power)
	power(s *State, name string, p *Power)
	fighter(s *State, name string, f *Fighter)
}
