package wackyworld

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"referee/contract"
)

// Terrain characters (Wacky 3), also the report's drawing.
const (
	Fallow  = '.'
	Fertile = '"'
	Wall    = '#'
)

// State is Wacky World's own state.
type State struct {
	// Text is the contract's text as first published; the changes in force are
	// appended to it when it is shown (Wacky 1, G9).
	Text string `yaml:"text"`
	// Terrain holds one string per row, top row (y = 0) first, one character per
	// tile: '.' Fallow, '"' Fertile, '#' Wall (Wacky 3, W1).
	Terrain []string `yaml:"terrain"`
	// Began is when the first person became a party: the contract became a
	// contract then (Wacky 1), and turn 1 began.
	Began time.Time `yaml:"began,omitempty"`
	// Turn is the current turn's number and TurnStart when it began (Wacky 4).
	Turn      int       `yaml:"turn"`
	TurnStart time.Time `yaml:"turn_start,omitempty"`
	// Parties are every person who has ever been a party, in first-join order.
	Parties []*Party `yaml:"parties"`
	// Assets are the entities in the World other than parties (W6).
	Assets    []*Asset `yaml:"assets"`
	NextAsset int      `yaml:"next_asset"`
	// Changes are the amendments and Atlas's modifications, numbered in order.
	Changes []*Change `yaml:"changes"`
	// LastChange is the last number a correction kept for a change that
	// it left unmade, above every change listed (contract.NumberKeeper):
	// the next change is numbered after it; 0 once a change is numbered
	// past it.
	LastChange int `yaml:"last_change,omitempty"`
}

// Pos is a tile.
type Pos struct {
	X int `yaml:"x"`
	Y int `yaml:"y"`
}

// String writes a tile as the contract does, "(X,Y)", which never wraps.
func (p Pos) String() string { return fmt.Sprintf("(%d, %d)", p.X, p.Y) }

// Party is a person who is or was a party (keyed by address, which a change of
// name does not touch).
type Party struct {
	Addr string `yaml:"addr"`
	// At is the current location, nil (Null) when not a party (Wacky 5).
	At *Pos `yaml:"at,omitempty"`
	// Last is the most recent non-Null location (Wacky 5).
	Last *Pos `yaml:"last,omitempty"`
	// Acted is the turn of the last Game Action (Wacky 6).
	Acted int `yaml:"acted,omitempty"`
	// XEarned and YEarned count the points awarded here (the score is in the
	// points ledger; the spendable x-points in the asset ledger).
	XEarned int `yaml:"x_earned,omitempty"`
	YEarned int `yaml:"y_earned,omitempty"`
}

// Asset is a thing in the World (W6): dropped by a party, or a medal created in
// the contest's possession.
type Asset struct {
	ID   int    `yaml:"id"`
	Name string `yaml:"name"`
	// Donor is the address of the party who most recently dropped it ("" for a
	// medal).
	Donor string `yaml:"donor,omitempty"`
	At    Pos    `yaml:"at"`
	// Public says whether its location has been announced (W5); a medal's stays
	// secret until it is picked up.
	Public bool      `yaml:"public,omitempty"`
	Medal  bool      `yaml:"medal,omitempty"`
	Since  time.Time `yaml:"since"`
}

// Label is how players name an asset: "hat (#3)".
func (a *Asset) Label() string { return fmt.Sprintf("%s (#%d)", a.Name, a.ID) }

func (s *State) width() int {
	if len(s.Terrain) == 0 {
		return 0
	}
	return len(s.Terrain[0])
}

func (s *State) height() int { return len(s.Terrain) }

func (s *State) on(p Pos) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < s.width() && p.Y < s.height()
}

func (s *State) at(p Pos) byte { return s.Terrain[p.Y][p.X] }

// set makes tile p t. The rows are replaced, not changed in place, so that
// the copy of the top level an action saves (SaveTop) keeps the old ones.
func (s *State) set(p Pos, t byte) {
	row := []byte(s.Terrain[p.Y])
	row[p.X] = t
	s.Terrain = slices.Clone(s.Terrain)
	s.Terrain[p.Y] = string(row)
}

// resize grows or shrinks the World, new tiles Fallow.
func (s *State) resize(w, h int) {
	rows := make([]string, h)
	for y := 0; y < h; y++ {
		var row []byte
		if y < len(s.Terrain) {
			row = []byte(s.Terrain[y])
		}
		row = row[:min(len(row), w)]
		for len(row) < w {
			row = append(row, Fallow)
		}
		rows[y] = string(row)
	}
	s.Terrain = rows
}

// neighbours are the tiles adjacent to p inside the World, in the order north,
// east, south, west (Wacky 3: cardinal directions only, no wrapping, W1).
func (s *State) neighbours(p Pos) []Pos {
	var out []Pos
	for _, d := range []Pos{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
		q := Pos{p.X + d.X, p.Y + d.Y}
		if s.on(q) {
			out = append(out, q)
		}
	}
	return out
}

func adjacent(a, b Pos) bool {
	dx, dy := a.X-b.X, a.Y-b.Y
	return dx*dx+dy*dy == 1
}

// nonWall lists the non-Wall tiles in reading order (W4: "a random tile" is a
// random non-Wall tile).
func (s *State) nonWall() []Pos {
	var out []Pos
	for y := range s.Terrain {
		for x := 0; x < len(s.Terrain[y]); x++ {
			if s.Terrain[y][x] != Wall {
				out = append(out, Pos{x, y})
			}
		}
	}
	return out
}

// randomTile draws a random non-Wall tile (W4) under a label (G5).
func (s *State) randomTile(c *contract.Ctx, label string) (Pos, bool) {
	tiles := s.nonWall()
	if len(tiles) == 0 {
		return Pos{}, false
	}
	return tiles[c.Intn(label, len(tiles))], true
}

// medalTile draws a new medal's tile (W4) from the medal's own seed, not the
// week's: the week's seed is revealed after the week (G5) and would show
// where the medal lies, which stays secret until it is found (W6). The seed's
// SHA-256 is published when the medal is made and the seed when it is picked
// up, so the draw can be checked then (guide, decision 18).
func (s *State) medalTile(seed []byte, id int) (Pos, bool) {
	tiles := s.nonWall()
	if len(tiles) == 0 {
		return Pos{}, false
	}
	return tiles[contract.Intn(seed, medalLabel(id), len(tiles))], true
}

// medalLabel is the label of a medal's draw.
func medalLabel(id int) string { return fmt.Sprintf("%s/medal/%d/tile", ID, id) }

// medalSeed is a medal's private seed, derived from the master secret.
func medalSeed(c *contract.Ctx, id int) []byte { return c.Secret(fmt.Sprintf("medal/%d", id)) }

func (s *State) party(addr string) *Party {
	for _, p := range s.Parties {
		if p.Addr == addr {
			return p
		}
	}
	return nil
}

// partiesAt lists the parties located at p.
func (s *State) partiesAt(p Pos) []*Party {
	var out []*Party
	for _, q := range s.Parties {
		if q.At != nil && *q.At == p {
			out = append(out, q)
		}
	}
	return out
}

// dropAsset takes asset id out of the World, in a new list (SaveTop).
func (s *State) dropAsset(id int) {
	s.Assets = slices.DeleteFunc(slices.Clone(s.Assets), func(a *Asset) bool { return a.ID == id })
}

// SaveTop implements contract.DataSaver: the fields by value. The rest is
// saved where it changes: a party (saveParty) and a change (saveChange)
// before one of their fields is written. The lists (the rows of the
// Terrain, the parties, the assets, the changes) are only appended to or
// replaced, never changed in place.
func (s *State) SaveTop() func() {
	cp := *s
	return func() { *s = cp }
}

// saveParty saves p before the action changes it (DataSaver).
func saveParty(c *contract.Ctx, p *Party) { contract.SaveValue(c, p) }

// saveChange saves ch before the action or event changes it (DataSaver).
func saveChange(c *contract.Ctx, ch *Change) { contract.SaveValue(c, ch) }

// name is a party's current name (the player registry's), or its address.
func name(c *contract.Ctx, addr string) string { return c.State().NameOf(addr) }

// members are the current parties in joining order.
func (s *State) members() []*Party {
	var out []*Party
	for _, p := range s.Parties {
		if p.At != nil {
			out = append(out, p)
		}
	}
	return out
}

// initials gives each current party a distinct character for the map: the
// first letter of the name in upper case, else another letter of it, else a
// digit (in joining order).
func initials(c *contract.Ctx, s *State) map[string]rune {
	out := map[string]rune{}
	used := map[rune]bool{Fallow: true, Fertile: true, Wall: true, '*': true}
	for _, p := range s.members() {
		var pick rune
		for _, r := range strings.ToUpper(name(c, p.Addr)) {
			if r >= 'A' && r <= 'Z' && !used[r] {
				pick = r
				break
			}
		}
		for r := '0'; pick == 0 && r <= '9'; r++ {
			if !used[r] {
				pick = r
			}
		}
		if pick == 0 {
			pick = '?'
		}
		used[pick] = true
		out[p.Addr] = pick
	}
	return out
}

func sortedAssets(as []*Asset) []*Asset {
	out := append([]*Asset(nil), as...)
	slices.SortFunc(out, func(a, b *Asset) int { return cmp.Compare(a.ID, b.ID) })
	return out
}
