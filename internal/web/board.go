package web

import (
	"fmt"
	"html/template"
	"sort"
	"strconv"
	"strings"

	"referee/contests/life"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
)

// Board is a game's board drawn as inline SVG: a grid of tiles, the marks on
// them, and the legend.
type Board struct {
	Caption string
	W, H    int // in tiles
	Px      int // a tile's size
	Tiles   []Tile
	Marks   []Mark
	XLabels []AxisLabel
	YLabels []AxisLabel
	Legend  []LegendItem
}

// Tile is one coloured square; Owner and the coordinates are also data
// attributes, for readers and tests.
type Tile struct {
	X, Y   int // in the game's coordinates
	PX, PY int // in pixels
	Fill   string
	Class  string // "cell" (a living Life cell, a LAND), "terrain"
	Owner  string
	Letter string
	LX, LY int // where the letter is written
	Title  string
}

// Mark is a party or an asset on Wacky World's map.
type Mark struct {
	X, Y       int
	CX, CY     int
	Class      string // "party", "asset"
	Fill, Text string
	Title      string
}

// AxisLabel is a coordinate written beside the grid.
type AxisLabel struct {
	At   int // pixels
	Text string
}

// LegendItem is one colour of the legend.
type LegendItem struct {
	Fill, Name, Letter string
	Count              int
}

// SVG sizes.
func (b *Board) Width() int  { return b.W*b.Px + 2*b.margin() }
func (b *Board) Height() int { return b.H*b.Px + 2*b.margin() }
func (b *Board) margin() int { return 24 }

// Margin is where the grid starts.
func (b *Board) Margin() int { return b.margin() }

// GridW and GridH are the grid's size in pixels.
func (b *Board) GridW() int { return b.W * b.Px }
func (b *Board) GridH() int { return b.H * b.Px }

// TilesSVG writes the tiles' elements. It is the page's bulk (a full Life
// grid has 2,601), so it is written here rather than by the template; every
// text is escaped, the numbers are the board's own.
func (b *Board) TilesSVG() template.HTML {
	var w strings.Builder
	esc := template.HTMLEscapeString
	px := strconv.Itoa(b.Px)
	for _, t := range b.Tiles {
		fmt.Fprintf(&w, `<rect class="%s" data-x="%d" data-y="%d"`, esc(t.Class), t.X, t.Y)
		if t.Owner != "" {
			fmt.Fprintf(&w, ` data-owner="%s"`, esc(t.Owner))
		}
		fmt.Fprintf(&w, ` x="%d" y="%d" width="%s" height="%s" fill="%s" stroke="#fff" stroke-width="0.5"><title>%s</title></rect>`,
			t.PX, t.PY, px, px, esc(t.Fill), esc(t.Title))
		if t.Letter != "" {
			fmt.Fprintf(&w, `<text x="%d" y="%d" text-anchor="middle" dominant-baseline="central" font-size="14" fill="#fff">%s</text>`,
				t.LX, t.LY, esc(t.Letter))
		}
		w.WriteByte('\n')
	}
	return template.HTML(w.String())
}

// palette gives Controllers distinct colours, in order.
var palette = []string{"#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
	"#fabed4", "#469990", "#dcbeff", "#9a6324", "#800000", "#aaffc3", "#808000", "#000075", "#a9a9a9", "#ffd8b1"}

func colour(i int) string { return palette[i%len(palette)] }

// board draws the game's board, nil for games without one.
func board(st *contract.State, id string, gs *contract.GameState) *Board {
	switch d := gs.Data.(type) {
	case *life.State:
		return lifeBoard(st, gs, d)
	case *steemfield.State:
		return steemBoard(gs, d)
	case *wackyworld.State:
		return wackyBoard(st, d)
	}
	return nil
}

func param(gs *contract.GameState, name string, dflt int) int {
	if v, err := strconv.Atoi(gs.Params[name]); err == nil {
		return v
	}
	return dflt
}

func axis(n, px, margin, first, every int) []AxisLabel {
	var out []AxisLabel
	for i := 0; i < n; i++ {
		if c := first + i; c%every == 0 || i == 0 || i == n-1 {
			out = append(out, AxisLabel{At: margin + i*px + px/2, Text: strconv.Itoa(c)})
		}
	}
	return out
}

// lifeBoard: the Life Grid (Life R5, R7), one colour per Controller (R8).
func lifeBoard(st *contract.State, gs *contract.GameState, d *life.State) *Board {
	x0, x1 := param(gs, "Xmin", 0), param(gs, "Xmax", 50)
	y0, y1 := param(gs, "Ymin", 0), param(gs, "Ymax", 50)
	b := &Board{W: x1 - x0 + 1, H: y1 - y0 + 1, Px: 12}
	if b.W <= 0 || b.H <= 0 || b.W > 400 || b.H > 400 {
		return nil
	}
	var owners []string
	for who := range d.Cells {
		owners = append(owners, who)
	}
	sort.Slice(owners, func(i, j int) bool { return st.NameOf(owners[i]) < st.NameOf(owners[j]) })
	total := 0
	for i, who := range owners {
		name, fill, n := st.NameOf(who), colour(i), 0
		for _, f := range strings.Fields(d.Cells[who]) {
			xs, ys, ok := strings.Cut(f, ",")
			x, err1 := strconv.Atoi(xs)
			y, err2 := strconv.Atoi(ys)
			if !ok || err1 != nil || err2 != nil || x < x0 || x > x1 || y < y0 || y > y1 {
				continue
			}
			n++
			b.Tiles = append(b.Tiles, Tile{X: x, Y: y, PX: b.margin() + (x-x0)*b.Px, PY: b.margin() + (y1-y)*b.Px,
				Fill: fill, Class: "cell", Owner: name, Title: fmt.Sprintf("(%d, %d) %s", x, y, name)})
		}
		total += n
		b.Legend = append(b.Legend, LegendItem{Fill: fill, Name: name, Count: n})
	}
	b.XLabels = axis(b.W, b.Px, b.margin(), x0, 10)
	// Y grows upward, as in the report's drawing.
	for _, l := range axis(b.H, b.Px, b.margin(), y0, 10) {
		l.At = 2*b.margin() + b.GridH() - l.At
		b.YLabels = append(b.YLabels, l)
	}
	b.Caption = fmt.Sprintf("The Life Grid: %d x %d Cells, X %d..%d left to right, Y %d..%d upward, wrapping both ways (R12); %d Cells Alive.",
		b.W, b.H, x0, x1, y0, y1, total)
	return b
}

// steemBoard: the LAND map, x = 1..N left to right, y = 1..N upward.
func steemBoard(gs *contract.GameState, d *steemfield.State) *Board {
	n := param(gs, steemfield.PGrid, 10)
	if n <= 0 || n > 200 {
		return nil
	}
	b := &Board{W: n, H: n, Px: 32}
	idx := map[string]int{}
	letter := map[string]string{}
	for i, m := range d.Players {
		idx[m.Name], letter[m.Name] = i, m.Letter
	}
	count := map[string]int{}
	cells := append([]steemfield.Cell(nil), d.Cells...)
	sort.SliceStable(cells, func(i, j int) bool { return cells[i].Seq < cells[j].Seq })
	at := map[[2]int]int{} // a later placement on the same spot replaces the earlier
	for _, c := range cells {
		if c.X < 1 || c.Y < 1 || c.X > n || c.Y > n {
			continue
		}
		t := Tile{X: c.X, Y: c.Y, PX: b.margin() + (c.X-1)*b.Px, PY: b.margin() + (n-c.Y)*b.Px,
			Fill: colour(idx[c.Owner]), Class: "cell", Owner: c.Owner, Letter: letter[c.Owner],
			Title: fmt.Sprintf("(%d, %d) %s", c.X, c.Y, c.Owner)}
		t.LX, t.LY = t.PX+b.Px/2, t.PY+b.Px/2
		if k, ok := at[[2]int{c.X, c.Y}]; ok {
			count[b.Tiles[k].Owner]--
			b.Tiles[k] = t
		} else {
			at[[2]int{c.X, c.Y}] = len(b.Tiles)
			b.Tiles = append(b.Tiles, t)
		}
		count[c.Owner]++
	}
	for i, m := range d.Players {
		b.Legend = append(b.Legend, LegendItem{Fill: colour(i), Name: m.Name, Letter: m.Letter, Count: count[m.Name]})
	}
	b.XLabels = axis(n, b.Px, b.margin(), 1, 1)
	for i := 0; i < n; i++ {
		b.YLabels = append(b.YLabels, AxisLabel{At: b.margin() + i*b.Px + b.Px/2, Text: strconv.Itoa(n - i)})
	}
	b.Caption = fmt.Sprintf("The LAND map: %d x %d, x 1..%d left to right, y 1..%d upward; %d LAND placed or grown.", n, n, n, n, len(b.Tiles))
	return b
}

// wackyBoard: the World's terrain (Wacky 3), the parties where they stand
// (Wacky 5) and the assets whose place is public (W5, W6).
func wackyBoard(st *contract.State, d *wackyworld.State) *Board {
	if len(d.Terrain) == 0 || len(d.Terrain) > 200 {
		return nil
	}
	b := &Board{W: len(d.Terrain[0]), H: len(d.Terrain), Px: 32}
	fills := map[byte]string{wackyworld.Fallow: "#e8dcb5", wackyworld.Fertile: "#8fd18f", wackyworld.Wall: "#555555"}
	names := map[byte]string{wackyworld.Fallow: "Fallow", wackyworld.Fertile: "Fertile", wackyworld.Wall: "Wall"}
	count := map[byte]int{}
	for y, row := range d.Terrain {
		for x := 0; x < len(row) && x < b.W; x++ {
			c := row[x]
			count[c]++
			b.Tiles = append(b.Tiles, Tile{X: x, Y: y, PX: b.margin() + x*b.Px, PY: b.margin() + y*b.Px,
				Fill: fills[c], Class: "terrain", Title: fmt.Sprintf("(%d,%d) %s", x, y, names[c])})
		}
	}
	for _, c := range []byte{wackyworld.Fallow, wackyworld.Fertile, wackyworld.Wall} {
		b.Legend = append(b.Legend, LegendItem{Fill: fills[c], Name: names[c], Count: count[c]})
	}
	mid := func(v int) int { return b.margin() + v*b.Px + b.Px/2 }
	i := 0
	for _, p := range d.Parties {
		if p.At == nil {
			continue
		}
		name := st.NameOf(p.Addr)
		fill := colour(i)
		i++
		b.Marks = append(b.Marks, Mark{X: p.At.X, Y: p.At.Y, CX: mid(p.At.X), CY: mid(p.At.Y), Class: "party", Fill: fill,
			Text: initial(name), Title: fmt.Sprintf("%s at %s", name, p.At)})
		b.Legend = append(b.Legend, LegendItem{Fill: fill, Name: name, Letter: initial(name), Count: 1})
	}
	for _, a := range d.Assets {
		if !a.Public {
			continue // a medal's tile is secret until it is found (W6)
		}
		// In the tile's upper right corner, beside a party standing there.
		b.Marks = append(b.Marks, Mark{X: a.At.X, Y: a.At.Y, CX: mid(a.At.X) + b.Px/2 - 7, CY: mid(a.At.Y) - b.Px/2 + 7, Class: "asset", Fill: "#ffd700",
			Title: fmt.Sprintf("%s at %s", a.Label(), a.At)})
	}
	if n := len(b.Marks) - i; n > 0 {
		b.Legend = append(b.Legend, LegendItem{Fill: "#ffd700", Name: "assets (public)", Count: n})
	}
	b.XLabels = axis(b.W, b.Px, b.margin(), 0, 1)
	b.YLabels = axis(b.H, b.Px, b.margin(), 0, 1)
	b.Caption = fmt.Sprintf("The World: %d by %d tiles, (0,0) at the upper left (Wacky 3); parties as circles, public assets as gold dots.", b.W, b.H)
	return b
}

func initial(name string) string {
	for _, r := range name {
		return strings.ToUpper(string(r))
	}
	return "?"
}
