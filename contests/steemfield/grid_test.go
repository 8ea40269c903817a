package steemfield

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseMap reads a hand-made map: rows top (y = size) first, one letter per
// owner, '.' for empty (the notation of the results post's map).
func parseMap(rows ...string) Snapshot {
	size := len(rows)
	s := Snapshot{Size: size, Owner: map[Point]string{}}
	for i, r := range rows {
		y := size - i
		for j, ch := range strings.ReplaceAll(r, " ", "") {
			if ch != '.' {
				s.Owner[Point{j + 1, y}] = string(ch)
			}
		}
	}
	return s
}

func TestDeaths(t *testing.T) {
	tests := []struct {
		name string
		rows []string
		want []Point
	}{
		// Ruling S7: a cell with no neighbours lives.
		{"no-neighbour survivor", []string{
			".....",
			".....",
			"..A..",
			".....",
			"....."}, nil},
		// Gameplay 14 (a): exactly one neighbour dies of loneliness.
		{"loneliness", []string{
			".....",
			".....",
			"..AB.",
			".....",
			"....."}, []Point{{3, 3}, {4, 3}}},
		// The map's last row and column are scanned too.
		{"loneliness in the north-east corner", []string{
			"....A",
			"....B",
			".....",
			".....",
			"....."}, []Point{{5, 4}, {5, 5}}},
		// Two neighbours and three live.
		{"two and three live", []string{
			".....",
			"..A..",
			"..A..",
			"..A..",
			"....."}, []Point{{3, 2}, {3, 4}}},
		// Gameplay 14 (b): four or more neighbours starve.
		{"starvation", []string{
			".....",
			"..A..",
			".ABA.",
			"..A..",
			"....."}, []Point{{3, 3}}},
		// The edge is not wrapped (S7): corners have three neighbours at most.
		{"corner without wrap", []string{
			"A...B",
			".....",
			".....",
			".....",
			"C...."}, nil},
		{"eight neighbours", []string{
			".....",
			".AAA.",
			".ABA.",
			".AAA.",
			"....."}, []Point{{3, 2}, {2, 3}, {3, 3}, {4, 3}, {3, 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Deaths(parseMap(tt.rows...))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("deaths (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGrow(t *testing.T) {
	tests := []struct {
		name     string
		rows     []string
		totem    int
		unplaced map[string]int
		want     []Growth
	}{
		// Gameplay 12: the owner with most neighbours takes the cell,
		// even when another's neighbour comes first in the tie order.
		{"majority", []string{
			".....",
			".....",
			".BA..",
			"..A..",
			"....."}, 10, nil, []Growth{
			{At: Point{2, 2}, Owner: "A", FromTotem: true},
		}},
		// Ruling S7 tie: the first tied neighbour from the upper left
		// (NW, N, NE, W, E, SW, S, SE). Around (3,3): N is B, W is C, SE is A.
		{"tie scan from the upper left", []string{
			".....",
			"..B..",
			".C...",
			"...A.",
			"....."}, 10, nil, []Growth{
			{At: Point{3, 3}, Owner: "B", FromTotem: true},
		}},
		// NW comes before NE, NE before W.
		{"tie NW before NE", []string{
			".....",
			".B.A.",
			".....",
			"...C.",
			"....."}, 10, nil, []Growth{
			{At: Point{3, 3}, Owner: "B", FromTotem: true},
		}},
		{"tie NE before W", []string{
			".....",
			"...A.",
			".B...",
			"...C.",
			"....."}, 10, nil, []Growth{
			{At: Point{3, 3}, Owner: "A", FromTotem: true},
		}},
		// The map's last row and column are on the map: (5,5) grows
		// from three neighbours on them.
		{"the north-east corner", []string{
			"...A.",
			"...AA",
			".....",
			".....",
			"....."}, 10, nil, []Growth{
			{At: Point{5, 5}, Owner: "A", FromTotem: true},
		}},
		// The scan runs rows from y=1 upward: (3,1) is served first and
		// takes the totem's last LAND; at (2,3) B (two neighbours) has no
		// unplaced LAND, so A takes it from eir pool; A has none left for
		// (2,4).
		{"scan order and the totem running out", []string{
			"......",
			"AA....",
			"A.....",
			"......",
			".BB...",
			".B...."}, 1, map[string]int{"A": 1, "B": 0}, []Growth{
			{At: Point{3, 1}, Owner: "B", FromTotem: true},
			{At: Point{2, 3}, Owner: "A", Passed: []string{"B"}},
		}},
		// An empty totem: the LAND comes from the owner's unplaced pool.
		{"empty totem draws from the owner", []string{
			".....",
			".....",
			".AA..",
			".A...",
			"....."}, 0, map[string]int{"A": 5}, []Growth{
			{At: Point{3, 2}, Owner: "A"},
		}},
		// The owner has none: the cell passes to the next owner by
		// neighbours.
		{"passes to the next owner", []string{
			".....",
			".....",
			".AA..",
			".B...",
			"....."}, 0, map[string]int{"A": 0, "B": 1}, []Growth{
			{At: Point{3, 2}, Owner: "B", Passed: []string{"A"}},
		}},
		// Nobody can pay: no growth, play continues.
		{"nobody can pay", []string{
			".....",
			".....",
			".AA..",
			".B...",
			"....."}, 0, map[string]int{}, nil},
		// Four neighbours: no growth.
		{"four neighbours do not grow", []string{
			".....",
			".A.A.",
			".....",
			".A.A.",
			"....."}, 10, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			un := tt.unplaced
			if un == nil {
				un = map[string]int{}
			}
			got := Grow(parseMap(tt.rows...), tt.totem, un)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("growth (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCandidates(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{[]string{"A", "B", "C"}, []string{"A", "B", "C"}},
		{[]string{"A", "B", "B"}, []string{"B", "A"}},
		{[]string{"C", "A", "C"}, []string{"C", "A"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Candidates(tt.in)); diff != "" {
			t.Errorf("Candidates(%v) (-want +got):\n%s", tt.in, diff)
		}
	}
}
