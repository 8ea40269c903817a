package life

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The regular expressions parseCells read a Cell and what parts two by.
var (
	cellRE    = regexp.MustCompile(`^\s*(?:\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)|(-?\d+)\s*,\s*(-?\d+)\b)`)
	cellSepRE = regexp.MustCompile(`^\s*(?:,\s*and\b|,|and\b|&)?\s*`)
)

// parseCellsBefore is parseCells as it was, by its regular expressions.
func parseCellsBefore(s string) (pts []Pt, ok bool) {
	rest := strings.TrimSpace(s)
	for {
		m := cellRE.FindStringSubmatch(rest)
		if m == nil {
			return nil, false
		}
		xs, ys := m[1], m[2]
		if xs == "" {
			xs, ys = m[3], m[4]
		}
		x, err1 := strconv.Atoi(xs)
		y, err2 := strconv.Atoi(ys)
		if err1 != nil || err2 != nil {
			return nil, false
		}
		pts = append(pts, Pt{x, y})
		rest = rest[len(m[0]):]
		if sep := cellSepRE.FindString(rest); sep != "" {
			rest = rest[len(sep):]
		} else if rest != "" {
			return nil, false
		}
		if rest == "" {
			return pts, true
		}
	}
}

// cellPieces are what claims are made of, and what they should not be.
var cellPieces = []string{"(", ")", ",", " ", "\t", "\n", "\v", "\f", "\r", "\u00a0", "-", "1", "23", "0", "99999999999999999999",
	"and", "And", "&", "x", "_", "é", ", and", "and(", "(3, 4)", "12,34", "(-1,-2)"}

// TestParseCellsIsBefore: claims read as the regular expressions read
// them, for the claims the tests of the game write and 50,000 random runs
// of cellPieces.
func TestParseCellsIsBefore(t *testing.T) {
	for _, s := range []string{"(12, 34)", "(1,2) and (3, 4)", "12,34", "(-1, -1)", "((", "(5,5,5)", "(1, 2", "(x, 3)",
		"(1, 2), and (3, 4) & (5, 6)", "1,2 and 3,4", "1,2and 3,4", "1,2x", "1,2_", "(1,2)x", "(1, 2) andx (3, 4)", "", " \t"} {
		sameCells(t, s)
	}
	r := rand.New(rand.NewPCG(2, 7))
	for range 50000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(cellPieces[r.IntN(len(cellPieces))])
		}
		sameCells(t, b.String())
	}
}

func sameCells(t *testing.T, s string) {
	t.Helper()
	got, ok := parseCells(s)
	want, wok := parseCellsBefore(s)
	if ok != wok || !reflect.DeepEqual(got, want) {
		t.Fatalf("parseCells(%q) = %v, %v; by the expressions %v, %v", s, got, ok, want, wok)
	}
}

func FuzzParseCellsIsBefore(f *testing.F) {
	for _, s := range cellPieces {
		f.Add(s)
	}
	f.Add("(1, 2), and (3, 4) & (5, 6)")
	f.Fuzz(sameCells)
}
