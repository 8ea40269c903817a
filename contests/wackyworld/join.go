package wackyworld

import (
	"fmt"

	"referee/contract"
)

// doJoin: Wacky 1 (any person can join by announcement) and Wacky 5 (the
// location is restored if non-Wall, else a random tile (W4); a first join makes
// a random tile Fertile within the same turn).
func doJoin(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	pl := c.Actor()
	if pl.In(ID) {
		return contract.Reject("Wacky 5", "you are already a party to Wacky World")
	}
	if len(st.nonWall()) == 0 { // guide, decision 11
		return contract.Reject("Wacky 5", "every tile of the World is Wall, so there is nowhere to place you")
	}
	if st.Began.IsZero() {
		// Wacky 1: the contract becomes a contract with its first party; turn 1
		// begins then (Wacky 4).
		st.Began = c.Now()
		st.Turn = 1
		st.TurnStart = c.Now()
		c.Record("Atlas", "the contract begins with its first party; turn 1 begins")
		c.Did("Wacky World begins: turn 1 begins now")
	}
	addr := pl.Address()
	p := st.party(addr)
	first := p == nil
	if first {
		p = &Party{Addr: addr}
		st.Parties = append(st.Parties, p)
	}
	idx := st.index(addr)
	var loc Pos
	how := "your last location"
	if p.Last != nil && st.on(*p.Last) && st.at(*p.Last) != Wall {
		loc = *p.Last
	} else {
		loc, _ = st.randomTile(c, fmt.Sprintf("turn/%d/party/%d/location", st.Turn, idx))
		how = "a random non-Wall tile (ruling W4)"
	}
	saveParty(c, p)
	p.At, p.Last = &loc, &loc
	c.State().Join(pl, ID, c.Now())
	c.Did("you are a party to Wacky World, located at %s, %s", loc, how)
	c.Record(pl.Name, "joins at %s", loc)
	if first {
		// Wacky 5: a first join makes a random (non-Wall, W4) tile Fertile;
		// every person counts as first-class (guide, decision 12).
		t, _ := st.randomTile(c, fmt.Sprintf("turn/%d/party/%d/fertile", st.Turn, idx))
		st.set(t, Fertile)
		c.Did("Atlas makes %s Fertile for your first join (Wacky 5)", t)
		c.Record("Atlas", "makes %s Fertile (first join of %s)", t, pl.Name)
	}
	return nil
}

// doLeave: Wacky 1 (any person can leave by announcement), Wacky 5 (the
// location becomes Null).
func doLeave(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	pl := c.Actor()
	p := st.party(pl.Address())
	if !pl.In(ID) || p == nil || p.At == nil {
		return contract.Reject("Wacky 5", "you are not a party to Wacky World")
	}
	where := *p.At
	saveParty(c, p)
	p.At = nil
	c.State().Leave(pl, ID, c.Now())
	c.Did("you are no longer a party to Wacky World; your location was %s and is now Null", where)
	c.Record(pl.Name, "leaves the contract")
	return nil
}

// index is a party's number in first-join order, from 1 (draw labels name
// parties by it, never by address).
func (s *State) index(addr string) int {
	for i, p := range s.Parties {
		if p.Addr == addr {
			return i + 1
		}
	}
	return 0
}
