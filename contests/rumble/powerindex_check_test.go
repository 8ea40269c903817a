package rumble

import (
	"fmt"
	"strings"
)

// Every lookup of a power's or a contestant's name in this package's tests
// is compared with a search of the whole list, as the rules read, and
// panics where they differ.
func init() { lookupCheck = scanCheck{} }

// scanCheck compares an indexed lookup's answer with a search of the
// whole list.
type scanCheck struct{}

func (scanCheck) match(s *State, ref string, p *Power, alike []*Power) {
	q, qa := s.matchPowerScan(ref)
	same := p == q && len(alike) == len(qa)
	for i := 0; same && i < len(alike); i++ {
		same = alike[i] == qa[i]
	}
	if !same {
		panic(fmt.Sprintf("rumble: the index of powers reads %q as %v %v, the list as %v %v", ref, p, alike, q, qa))
	}
}

func (scanCheck) power(s *State, name string, p *Power) {
	if q := s.powerScan(name); q != p {
		panic(fmt.Sprintf("rumble: the index of powers finds %v for %q, the list %v", p, name, q))
	}
}

func (scanCheck) fighter(s *State, name string, f *Fighter) {
	if q := s.fighterScan(name); q != f {
		panic(fmt.Sprintf("rumble: the index of contestants finds %v for %q, the list %v", f, name, q))
	}
}

// matchPowerScan is matchPower by a search of the whole list: the power of
// that name as written, else those alike in case (Rumble 5).
func (s *State) matchPowerScan(ref string) (p *Power, alike []*Power) {
	numbered, byNumber, names := s.powerRef(ref)
	if byNumber {
		return numbered, nil
	}
	for _, r := range names {
		for _, q := range s.Powers {
			if q.Name == r {
				return q, nil
			}
		}
		lower := strings.ToLower(r)
		for _, q := range s.Powers {
			if strings.EqualFold(q.Name, r) || strings.ToLower(q.Name) == lower {
				alike = append(alike, q)
			}
		}
		if len(alike) == 1 {
			return alike[0], nil
		}
		if len(alike) > 1 {
			return nil, alike
		}
	}
	return nil, nil
}

// powerScan is power by a search of the whole list.
func (s *State) powerScan(name string) *Power {
	for _, p := range s.Powers {
		if equalFold(p.Name, name) {
			return p
		}
	}
	return nil
}

// fighterScan is fighter by a search of the whole list.
func (s *State) fighterScan(name string) *Fighter {
	for _, f := range s.Fighters {
		if f.Name == name {
			return f
		}
	}
	return nil
}
