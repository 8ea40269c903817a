package steemfield

import (
	"errors"
	"fmt"
	"sort"
)

var errNoLand = errors.New("move land: the player holds none")

func cellName(x, y int) string { return fmt.Sprintf("(%d, %d)", x, y) }

// Point is a map location.
type Point struct{ X, Y int }

// Snapshot is the map at the moment of the round end: owner by location
// (ruling S6 (2)).
type Snapshot struct {
	Size  int
	Owner map[Point]string
}

// NewSnapshot takes the snapshot of the cells.
func NewSnapshot(size int, cells []Cell) Snapshot {
	s := Snapshot{Size: size, Owner: map[Point]string{}}
	for _, c := range cells {
		s.Owner[Point{c.X, c.Y}] = c.Owner
	}
	return s
}

// neighbourOrder is the tie-break order of ruling S7: from the upper-left
// (north-west) neighbour in reading order: NW, N, NE, W, E, SW, S, SE.
var neighbourOrder = []Point{{-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {1, 0}, {-1, -1}, {0, -1}, {1, -1}}

// Neighbours returns the owners of the occupied neighbours of p, in the order
// of ruling S7; cells outside the map do not exist (no wrapping).
func (s Snapshot) Neighbours(p Point) []string {
	var out []string
	for _, d := range neighbourOrder {
		q := Point{p.X + d.X, p.Y + d.Y}
		if q.X < 1 || q.Y < 1 || q.X > s.Size || q.Y > s.Size {
			continue
		}
		if o, ok := s.Owner[q]; ok {
			out = append(out, o)
		}
	}
	return out
}

// Growth is one empty cell that grows at the round end.
type Growth struct {
	At    Point
	Owner string
	// FromTotem: the LAND came from the totem's pool; otherwise from the
	// owner's unplaced LAND.
	FromTotem bool
	// Passed lists the players who had the right but no unplaced LAND.
	Passed []string
}

// Candidates orders the owners around a growing cell: most neighbours first;
// a tie goes to the owner of the first tied neighbour in S7 order.
func Candidates(owners []string) []string {
	count := map[string]int{}
	first := map[string]int{}
	var out []string
	for i, o := range owners {
		if _, ok := count[o]; !ok {
			first[o] = i
			out = append(out, o)
		}
		count[o]++
	}
	sort.SliceStable(out, func(i, j int) bool {
		if count[out[i]] != count[out[j]] {
			return count[out[i]] > count[out[j]]
		}
		return first[out[i]] < first[out[j]]
	})
	return out
}

// Grow computes the growth of one snapshot (Steemfield Gameplay 12, ruling
// S7): every empty cell with exactly three neighbours, scanning rows from y=1
// upward and x=1..Size in each row. The LAND comes from the totem while it has
// some (totem is its pool), then from the new owner's unplaced LAND (unplaced,
// updated as growth spends it); an owner with none passes the cell to the
// candidate with the next most neighbours; with nobody able, the cell does not
// grow.
func Grow(s Snapshot, totem int, unplaced map[string]int) []Growth {
	var out []Growth
	for y := 1; y <= s.Size; y++ {
		for x := 1; x <= s.Size; x++ {
			p := Point{x, y}
			if _, taken := s.Owner[p]; taken {
				continue
			}
			nb := s.Neighbours(p)
			if len(nb) != 3 {
				continue
			}
			var passed []string
			for _, o := range Candidates(nb) {
				if totem > 0 {
					totem--
					out = append(out, Growth{At: p, Owner: o, FromTotem: true, Passed: passed})
					break
				}
				if unplaced[o] > 0 {
					unplaced[o]--
					out = append(out, Growth{At: p, Owner: o, Passed: passed})
					break
				}
				passed = append(passed, o)
			}
		}
	}
	return out
}

// Deaths lists the LAND cells of the snapshot that die (Gameplay 14, ruling
// S7): exactly one neighbour (loneliness) or four or more (starvation). A cell
// with no neighbours lives. Order: the scan order of Grow.
func Deaths(s Snapshot) []Point {
	var out []Point
	for y := 1; y <= s.Size; y++ {
		for x := 1; x <= s.Size; x++ {
			p := Point{x, y}
			if _, ok := s.Owner[p]; !ok {
				continue
			}
			if n := len(s.Neighbours(p)); n == 1 || n >= 4 {
				out = append(out, p)
			}
		}
	}
	return out
}
