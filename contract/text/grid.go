package text

import (
	"fmt"
	"sort"
	"strings"
)

// Grid draws a rectangular grid as text (DESIGN "Grids in reports"): one text row
// per grid row, top row first, one character per cell, with coordinate rulers
// outside the grid on the left and right (row numbers) and above and below
// (column numbers, written vertically when wider than one digit), then a legend.
type Grid struct {
	// X0..X1 and Y0..Y1 are the inclusive coordinate ranges.
	X0, X1, Y0, Y1 int
	// TopY is the y of the top row: Y1 when y grows upwards (Life, Steemfield),
	// Y0 when it grows downwards (Wacky World).
	TopY int
	// Cell returns the character at (x, y); '.' for empty.
	Cell func(x, y int) rune
	// Legend maps characters to what they mean.
	Legend map[rune]string
}

// String renders the grid and its legend.
func (g *Grid) String() string {
	lw := len(fmt.Sprint(g.Y1))
	if n := len(fmt.Sprint(g.Y0)); n > lw {
		lw = n
	}
	xw := len(fmt.Sprint(g.X1))
	if n := len(fmt.Sprint(g.X0)); n > xw {
		xw = n
	}
	ruler := func() string {
		var b strings.Builder
		for d := 0; d < xw; d++ {
			b.WriteString(strings.Repeat(" ", lw+1))
			for x := g.X0; x <= g.X1; x++ {
				s := fmt.Sprintf("%*d", xw, x)
				b.WriteByte(s[d])
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	var b strings.Builder
	b.WriteString(ruler())
	dy, y := -1, g.Y1
	if g.TopY == g.Y0 && g.Y0 != g.Y1 {
		dy, y = 1, g.Y0
	}
	for ; y >= g.Y0 && y <= g.Y1; y += dy {
		fmt.Fprintf(&b, "%*d ", lw, y)
		for x := g.X0; x <= g.X1; x++ {
			r := g.Cell(x, y)
			if r == 0 {
				r = '.'
			}
			b.WriteRune(r)
		}
		fmt.Fprintf(&b, " %d\n", y)
	}
	b.WriteString(ruler())
	if len(g.Legend) > 0 {
		var keys []rune
		for r := range g.Legend {
			keys = append(keys, r)
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
		b.WriteString("\nLegend:\n")
		for _, r := range keys {
			fmt.Fprintf(&b, "  %c  %s\n", r, g.Legend[r])
		}
	}
	return b.String()
}

// Footnotes collects numbered footnotes: Mark returns "[1]" for a new note, and
// String lists them.
type Footnotes struct{ notes []string }

// Mark adds a note and returns its marker.
func (f *Footnotes) Mark(note string) string {
	for i, n := range f.notes {
		if n == note {
			return fmt.Sprintf("[%d]", i+1)
		}
	}
	f.notes = append(f.notes, note)
	return fmt.Sprintf("[%d]", len(f.notes))
}

// String lists the notes, wrapped, or "" when there are none.
func (f *Footnotes) String() string {
	var b strings.Builder
	for i, n := range f.notes {
		m := fmt.Sprintf("[%d] ", i+1)
		b.WriteString(WrapIndent(n, Width, m, strings.Repeat(" ", len(m))))
	}
	return b.String()
}
