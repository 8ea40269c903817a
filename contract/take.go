package contract

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"time"
)

// Taking a state to encode it later. A snapshot of the live state is taken
// under the lock that guards the state and encoded and written outside it,
// while the state changes. Take copies only what changed since the
// Encoder's last encoding: a player, a citable record or a game's section
// (or, in a section whose data has lists, an item of them) unchanged since
// then keeps its kept text, and is neither copied nor encoded again; the
// rest of the state (the ledger, the points, the outbox, the memory's map)
// is copied, cheaply, without reflection where it is large. What it keeps
// is compared with the state, field by field, never trusted stale (but for
// an item of a game's data list that the state noted no save of since it
// was kept: changes.go). The
// snapshots may be encoded in any order, and beside Encoder.Encode: each
// keeps the text it wrote with what that text was written from.

// Taken is a state taken by Encoder.Take, to be encoded by its Encode.
type Taken struct {
	enc     *Encoder
	s       *State // the copy: its Players and Games are in players and games
	players []takenPlayer
	games   []takenSection
	cited   []takenCited
	citedOK bool // cited holds the records (else s does)
}

// Take takes s for Encode to encode later, as Encode would encode s now:
// once Take returns, s may change (in another goroutine too) without
// changing what the Taken encodes.
//
// The citable records, half of the state file in a game of thousands of
// players and a third of the take's time, are compared with the kept
// ones in a goroutine of their own, beside the rest: a snapshot is taken
// under the lock that every message waits for, and on a machine of more
// than one processor that wait is shorter. Both only read s.
func (enc *Encoder) Take(s *State) *Taken {
	enc.mu.Lock()
	defer enc.mu.Unlock()
	var cited []takenCited
	citedOK := !slices.Contains(s.Cited, nil) // as citedCache.take finds it
	done := make(chan struct{})
	go func() {
		defer close(done)
		cited, _ = enc.cited.take(s.Cited, true)
	}()
	top := *s
	top.ax = nil
	top.Players, top.Games, top.Receipts, top.Receipted, top.Seen = nil, nil, nil, nil, Seen{}
	top.Ledger, top.Points = Ledger{}, nil
	if citedOK {
		top.Cited = nil
	}
	cp := deepCopy(reflect.ValueOf(&top)).Interface().(*State)
	cp.Ledger = Ledger{Balances: cloneNested(s.Ledger.Balances), Supply: maps.Clone(s.Ledger.Supply)}
	cp.Points = cloneNested(s.Points)
	cp.Seen = Seen{Horizon: s.Seen.Horizon, Latest: s.Seen.Latest, IDs: maps.Clone(s.Seen.IDs)}
	cp.Receipted = maps.Clone(s.Receipted)
	if s.Receipts != nil {
		cp.Receipts = make(map[string][]time.Time, len(s.Receipts))
		for k, v := range s.Receipts {
			cp.Receipts[k] = slices.Clone(v)
		}
	}
	players, games := enc.players.take(s.Players, true), enc.takeGames(s.Games, true, s)
	<-done
	return &Taken{enc: enc, s: cp, players: players, games: games, cited: cited, citedOK: citedOK}
}

// Encode encodes the state as it was taken, as Encoder.Encode would have,
// and keeps the text of what it encoded in the Encoder.
func (t *Taken) Encode() ([]byte, error) {
	pieces, err := t.EncodePieces()
	if err != nil {
		return nil, err
	}
	return bytes.Join(pieces, nil), nil
}

// EncodePieces is Encode's text in pieces, to be written in order: a
// state file of megabytes is written without a copy of the whole. The
// pieces are the Encoder's kept text or made for this call, and none is
// written over later.
func (t *Taken) EncodePieces() ([][]byte, error) {
	top := *t.s
	top.Seen, top.Receipts, top.Receipted, top.Ledger, top.Points = Seen{}, nil, receiptedMarkFor(t.s.Receipted), Ledger{}, nil
	if t.citedOK {
		top.Cited = citedMarkFor(t.cited)
	}
	return t.enc.encodeTaken(&top, t.s, t.players, t.games, t.cited, t.citedOK, true)
}

func cloneNested[V any](m map[string]map[string]V) map[string]map[string]V {
	if m == nil {
		return nil
	}
	out := make(map[string]map[string]V, len(m))
	for k, v := range m {
		out[k] = maps.Clone(v)
	}
	return out
}

// playersCache keeps the item of "players:" of each player, by position in
// the list, with a copy of the player it encodes.
type playersCache struct{ kept []playerText }

type playerText struct {
	of   *Player // a copy of the player as encoded (nil: a nil player)
	text []byte  // "  - name: ...\n...", as the YAML encoder writes it
}

// takenPlayer is a player's kept text, or (text nil) the player to encode.
type takenPlayer struct {
	text []byte
	p    *Player
}

// take lists the players' kept text where the player is unchanged, the
// player itself (a copy, with clone) where not.
func (c *playersCache) take(ps []*Player, clone bool) []takenPlayer {
	out := make([]takenPlayer, len(ps))
	for i, p := range ps {
		if i < len(c.kept) && samePlayer(p, c.kept[i].of) {
			out[i] = takenPlayer{text: c.kept[i].text, p: c.kept[i].of}
			continue
		}
		if clone {
			p = clonePlayer(p)
		}
		out[i] = takenPlayer{p: p}
	}
	return out
}

// render writes the "players:" key, encoding the players not kept, and
// keeps what it wrote; owned: the players to encode are copies, kept as
// they are.
func (c *playersCache) render(b []byte, taken []takenPlayer, owned bool) ([]byte, error) {
	if len(taken) == 0 {
		c.kept = nil
		return append(b, "players: []\n"...), nil
	}
	kept := make([]playerText, len(taken))
	b = append(b, "players:\n"...)
	for i, t := range taken {
		if t.text == nil {
			// Most players' items are written here as the YAML encoder
			// writes them (appendPlainPlayer), at a twentieth of its cost.
			if t.text = appendPlainPlayer(nil, t.p, statePlayerLayout); t.text == nil {
				item, err := encodeYAML(struct {
					P []*Player `yaml:"players"`
				}{[]*Player{t.p}})
				if err != nil {
					return nil, err
				}
				t.text = item[len("players:\n"):]
			}
			if !owned {
				t.p = clonePlayer(t.p)
			}
		}
		kept[i] = playerText{of: t.p, text: t.text}
		b = append(b, t.text...)
	}
	c.kept = kept
	return b, nil
}

// samePlayer: a and b encode alike. Every field of Player is compared
// (TestSamePlayerEveryField holds this to the type).
func samePlayer(a, b *Player) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Name == b.Name && sameStrings(a.Nicknames, b.Nicknames) && sameStrings(a.Addresses, b.Addresses) &&
		sameTimes(a.Joined, b.Joined) && sameTimes(a.Left, b.Left) && sameStrings(a.Member, b.Member)
}

func clonePlayer(p *Player) *Player {
	if p == nil {
		return nil
	}
	cp := *p
	cp.Nicknames = slices.Clone(p.Nicknames)
	cp.Addresses = slices.Clone(p.Addresses)
	cp.Member = slices.Clone(p.Member)
	cp.Joined = maps.Clone(p.Joined)
	cp.Left = maps.Clone(p.Left)
	return &cp
}

func sameStrings(a, b []string) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

// sameTimes: the same keys, each at the same instant in the same location
// (so written alike).
func sameTimes(a, b map[string]time.Time) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || !sameTime(x, y) {
			return false
		}
	}
	return true
}

// sameTime: x and y are the same instant in the same location, so written
// alike (time.Equal alone holds for the same instant in another zone,
// written with another offset).
func sameTime(x, y time.Time) bool { return x.Equal(y) && x.Location() == y.Location() }

// takenSection is a game's kept section text, or (text nil) the section
// to encode.
type takenSection struct {
	id    string
	text  []byte
	g     *GameState
	split *takenSplit // taken by its parts (codec_split.go): text and g are nil
	// parts are the parts text was written from, for a section written by
	// its parts and taken unchanged (text set, g nil).
	parts *splitKept
}

// takeGames lists the sections in the order of their IDs: the kept text
// where the section is unchanged, the section (a deep copy, with clone)
// where not.
func (enc *Encoder) takeGames(games map[string]*GameState, clone bool, s *State) []takenSection {
	out := make([]takenSection, 0, len(games))
	for _, id := range slices.Sorted(maps.Keys(games)) {
		g := games[id]
		t := enc.sections[id]
		if g != nil {
			if data, lists := splitData(id, g.Data); lists != nil {
				var k *splitKept
				if t != nil {
					k = t.split
				}
				if sp, same, ok := enc.takeSplit(id, g, data, lists, k, clone, s); same {
					out = append(out, takenSection{id: id, text: t.yaml, parts: k})
					continue
				} else if ok {
					out = append(out, takenSection{id: id, split: sp})
					continue
				}
			}
		}
		if t != nil && t.of != nil && sameSection(g, t.of) {
			out = append(out, takenSection{id: id, text: t.yaml, g: t.of})
			continue
		}
		if clone {
			g = deepCopy(reflect.ValueOf(g)).Interface().(*GameState)
		}
		out = append(out, takenSection{id: id, g: g})
	}
	return out
}

// playerLayout is where the YAML encoder puts the lines of a player's item
// of a "players:" key: the item's first line, the player's keys, and the
// items of its lists and maps.
type playerLayout struct{ item, key, entry string }

var (
	// statePlayerLayout: the state file's, written with an indent of 2.
	statePlayerLayout = playerLayout{"  - ", "    ", "      "}
	// hashPlayerLayout: the state hash's text's, yaml.Marshal's indent of 4.
	hashPlayerLayout = playerLayout{"    - ", "      ", "        "}
)

// appendPlainPlayer appends p's item of a "players:" key as the YAML
// encoder writes it in layout l, or returns nil when p holds a text it
// might write otherwise: every text of p must be a plainText (its name,
// nicknames and addresses) or a plainGame (its games), which the encoder
// writes as they are, and its times are written as the encoder writes a
// time (RFC 3339, nanoseconds when it has them). A state loaded, a
// replay's first snapshot and the first state hashes encode every player,
// and the encoder costs some 20 µs a player where this costs one.
// TestPlainPlayerIsTheEncoders holds this to the encoder.
func appendPlainPlayer(b []byte, p *Player, l playerLayout) []byte {
	if p == nil || !plainText(p.Name) || !all(p.Nicknames, plainText) || !all(p.Addresses, plainText) || !all(p.Member, plainGame) ||
		!allKeys(p.Joined, plainGame) || !allKeys(p.Left, plainGame) {
		return nil
	}
	b = append(b, l.item...)
	b = append(b, "name: "...)
	b = append(b, p.Name...)
	b = append(b, '\n')
	list := func(b []byte, key string, items []string) []byte {
		b = append(b, l.key...)
		b = append(b, key...)
		if len(items) == 0 {
			return append(b, ": []\n"...)
		}
		b = append(b, ":\n"...)
		for _, it := range items {
			b = append(b, l.entry...)
			b = append(b, "- "...)
			b = append(b, it...)
			b = append(b, '\n')
		}
		return b
	}
	times := func(b []byte, key string, m map[string]time.Time) []byte {
		b = append(b, l.key...)
		b = append(b, key...)
		b = append(b, ":\n"...)
		for _, g := range slices.Sorted(maps.Keys(m)) {
			b = append(b, l.entry...)
			b = append(b, g...)
			b = append(b, ": "...)
			b = m[g].AppendFormat(b, time.RFC3339Nano)
			b = append(b, '\n')
		}
		return b
	}
	if len(p.Nicknames) > 0 {
		b = list(b, "nicknames", p.Nicknames)
	}
	b = list(b, "addresses", p.Addresses)
	if len(p.Joined) > 0 {
		b = times(b, "joined", p.Joined)
	}
	if len(p.Left) > 0 {
		b = times(b, "left", p.Left)
	}
	if len(p.Member) > 0 {
		b = list(b, "member", p.Member)
	}
	return b
}

func all(texts []string, ok func(string) bool) bool {
	for _, t := range texts {
		if !ok(t) {
			return false
		}
	}
	return true
}

func allKeys[V any](m map[string]V, ok func(string) bool) bool {
	for k := range m {
		if !ok(k) {
			return false
		}
	}
	return true
}

// plainGame: lower-case ASCII letters only (a game's ID), at most 64 of
// them, and not a word YAML reads as a boolean or null: written as it is,
// and sorted by the YAML encoder as by bytes. (A key of over 128
// characters the encoder writes as an explicit "? " key.)
func plainGame(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return !yamlWord(s)
}
