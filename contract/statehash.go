package contract

import (
	"bytes"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"gopkg.in/yaml.v3"
)

// The text a state hash covers is the YAML encoding of hashedState, byte for
// byte, built here in pieces. The YAML encoder's cost grows faster than the
// text: the state of the replay benchmark's 20,000 messages (200 players)
// costs it 31 ms whole and 8 ms as the sum of its parts. So each top-level
// key, and each game's section under "games:", is encoded as a document of
// its own, at the depth it has in hashedState, and the texts are joined; the
// encoder writes no line that depends on what comes before or after it at
// the same depth, and breaks no long line (its width is unlimited).
//
// Most of the text, in a busy game, is the "Recent events" of the game's
// section (a thousand entries by the end of a week), some 15 µs an entry: a
// report would pay tens of milliseconds for text that is the same as at the
// last report but for the newest entries. So each entry is encoded once, at
// its depth, and kept while the game's events hold it; a section is encoded
// with a placeholder entry instead, replaced by the entries' text. When a
// placeholder cannot be found exactly once, the section is encoded whole;
// when the games' IDs do not read back as themselves, "games:" is. So is
// each player's text kept, while the player is the same (a copy of it is
// compared as samePlayer compares the state Encoder's own); new entries
// and players are encoded 64 to a document, which is cut at the start of
// each (itemTexts). The players' texts, as the recent events' and each
// list's of a game's data, are kept joined: what did not change is one
// piece of the text, read by the hash in one write, not thousands. And each game's section is encoded again
// only where it changed: one whose data has lists written item by item
// (statehash_data.go) is compared by its parts, the text with
// placeholders kept while the game's fields and the data but for its
// lists are the same; any other is kept whole while it is unchanged, by
// the check the Encoder makes of its own kept sections (sameSection,
// against a deep copy). A notice of one game, or a report after a message
// that touched one game, encodes what changed in that section alone.

// The text of a state is written as the state file writes it, with every
// text that begins with a line break or a tab double-quoted (codec_text.go):
// the YAML encoder's block scalars write some distinct texts alike (" a\nb"
// and "\n a\nb" are each "|4-" then the lines " a" and "b"), and two states
// differing in such a text would have one hash. So is every text that
// begins with a space and holds a line break where yaml.Marshal, indented
// by 4, would misplace it (an item of a list: a player's nickname, an
// intent's text, a game's proposal; quoteMisplaced), so that the text is
// YAML that reads back the state. A state without either is written as
// yaml.Marshal writes it, byte for byte, so its hash is as it was.

// marshalText is yaml.Marshal(v), with every breakingText of v, and every
// indentedText it would misplace, double-quoted.
func marshalText(v any) ([]byte, error) { return quotingTexts(v, yaml.Marshal, 4, false) }

// hashText keeps the text of each game's section, of each of its recent
// events and of each player between hashes. The zero value is ready to
// use; it may be used by several goroutines.
type hashText struct {
	mu         sync.Mutex
	recent     map[string]keptRecent  // by game ID: the entries' text
	people     []keptPlayer           // each player's text, at its place
	peopleText []byte                 // the players' texts joined (handed out, never changed)
	peopleMark changeMark             // when the players were last compared (changes.go)
	sections   map[string]keptSection // by game ID: the section's text
	items      map[string]keptList    // by game ID and list: each item's text, at its place (splitData)
	keys       keyText                // of the ledger and the points
	texts      map[string][]byte      // by what they are of (kept)
	size       int                    // the pieces of the last text
}

// keptSection is a game's section text under "games:" and a deep copy of
// the section it is the text of, or, for a section whose data has lists
// written item by item, what its text with placeholders depends on (and
// no text).
type keptSection struct {
	of   *GameState
	head *sectionHead
	text []byte
}

// keptPlayer is a player's text in hashedState, a copy of the player it
// is the text of (keepPlayer: its maps apart), and the player.
type keptPlayer struct {
	p            *Player
	of           *Player // Joined and Left nil: they are joined and left
	joined, left keptTimes
	text         []byte
}

// of returns the YAML encoding of h, as marshalText(h) writes it.
func (c *hashText) of(h *hashedState) ([]byte, error) {
	pieces, err := c.pieces(h, nil)
	if err != nil {
		return nil, err
	}
	return bytes.Join(pieces, nil), nil
}

// pieces is the YAML encoding of h, as marshalText(h) writes it, in
// pieces to be read in order: the kept texts of the players and of the
// games' sections are not copied into one text (the hash reads them
// where they are). s, when not nil, is the state h is of: what it noted
// as changed since a text was kept (changes.go) spares comparing the
// rest.
func (c *hashText) pieces(h *hashedState, s *State) ([][]byte, error) {
	c.mu.Lock()
	out := make([][]byte, 0, c.size)
	c.mu.Unlock()
	v := reflect.ValueOf(h).Elem()
	var points []byte // "points:", written with "ledger:"
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Name == "Ledger" {
			if lt, pt, ok := c.ledger(&h.Ledger, h.Points); ok {
				out, points = append(out, lt), pt
				continue
			}
		}
		if f.Name == "Points" && points != nil {
			out = append(out, points)
			continue
		}
		if f.Name == "Players" && len(h.Players) > 0 && !slices.Contains(h.Players, nil) {
			var err error
			if out, err = c.players(out, h.Players, s); err != nil {
				return nil, err
			}
			continue
		}
		if f.Name == "Games" && len(h.Games) > 0 {
			if ids := c.keyOrder(h.Games); ids != nil {
				var err error
				if out, err = c.games(out, h.Games, ids, s); err != nil {
					return nil, err
				}
				continue
			}
		}
		b, err := c.field(f, v.Field(i))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	c.mu.Lock()
	c.size = len(out)
	c.mu.Unlock()
	return out, nil
}

// field is the text of hashedState's key f, of value v, encoded as a
// document of its own: the journal line's number and the notice's time
// written as the YAML encoder writes them (a number; a time of a year from
// 0 to 9999 in RFC 3339, a plain scalar), the game's ID and an empty list
// (of intents, rulings or claims, as they most often are) kept, any other
// value encoded.
func (c *hashText) field(f reflect.StructField, v reflect.Value) ([]byte, error) {
	name := f.Tag.Get("yaml") // a key of lower-case letters, without options
	plain := name != "" && strings.Trim(name, "abcdefghijklmnopqrstuvwxyz") == ""
	switch {
	case plain && v.Kind() == reflect.Int64:
		b := strconv.AppendInt([]byte(name+": "), v.Int(), 10)
		return append(b, '\n'), nil
	case plain && v.Type() == timeType:
		if t := v.Interface().(time.Time); t.Year() >= 0 && t.Year() <= 9999 {
			b := t.AppendFormat([]byte(name+": "), time.RFC3339Nano)
			return append(b, '\n'), nil
		}
	}
	if key := fieldKey(f, v); key != "" {
		return c.kept(key, func() ([]byte, error) { return fieldText(f, v) })
	}
	return fieldText(f, v)
}

// fieldKey names the text of key f of value v for hashText.kept: "" when
// it is not kept.
func fieldKey(f reflect.StructField, v reflect.Value) string {
	switch {
	case v.Kind() == reflect.String:
		return "field\x00" + f.Name + "\x00" + v.String()
	case v.Kind() == reflect.Slice && v.Len() == 0:
		return fmt.Sprintf("field\x00%s\x00empty, nil %t", f.Name, v.IsNil())
	}
	return ""
}

// fieldText is marshalText of key f of hashedState alone, of value v.
func fieldText(f reflect.StructField, v reflect.Value) ([]byte, error) {
	one := reflect.New(reflect.StructOf([]reflect.StructField{{Name: f.Name, Type: f.Type, Tag: f.Tag}})).Elem()
	one.Field(0).Set(v)
	return marshalText(one.Interface())
}

// kept is the text kept under key, made by encode the first time.
// Those texts are of a few values each: the games' IDs, and keys of
// hashedState whose value most often stays the same.
func (c *hashText) kept(key string, encode func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	b, ok := c.texts[key]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := encode()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.texts == nil {
		c.texts = map[string][]byte{}
	}
	c.texts[key] = b
	return b, nil
}

// keyOrder is yamlKeyOrder(games): for the sections of one game's notice,
// whether its ID reads back as itself is found once for each game.
func (c *hashText) keyOrder(games map[string]*GameState) []string {
	if len(games) != 1 {
		return yamlKeyOrder(games)
	}
	for id := range games {
		b, _ := c.kept("order\x00"+id, func() ([]byte, error) {
			if yamlKeyOrder(games) == nil {
				return nil, nil
			}
			return []byte{}, nil
		})
		if b == nil {
			return nil
		}
		return []string{id}
	}
	return nil
}

// players appends the "players:" key of hashedState to out: the text of
// each player kept while the player is the same, the texts kept joined (as
// a list's of a game's data: listTexts), so that players none of whom
// changed are one piece, and players added after them are their text
// appended. A player is looked for at its place in the list kept, and
// only when it is not there among all the players kept (a map of them
// built then). With s, the state of the players, a player the state
// noted no change of since the players were compared (changedSince) is
// the player kept.
func (c *hashText) players(out [][]byte, ps []*Player, s *State) ([][]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	changed, _ := s.changedSince(c.peopleMark)
	mark := s.changeMark()
	same := func(k *keptPlayer, p *Player) bool {
		return k.p == p && changed != nil && !changed.covers(unsafe.Pointer(p), unsafe.Sizeof(*p)) || k.same(p)
	}
	// from: how many players, from the first, are the ones kept at their
	// places, unchanged.
	from := 0
	for from < min(len(ps), len(c.people)) && c.people[from].p == ps[from] && same(&c.people[from], ps[from]) {
		from++
	}
	if from == len(ps) && from == len(c.people) {
		c.peopleMark = mark
		return append(out, playersHeadText, c.peopleText), nil
	}
	var at []keptPlayer
	if from == len(c.people) {
		at = append(c.people, make([]keptPlayer, len(ps)-from)...)
	} else {
		at = make([]keptPlayer, len(ps))
		copy(at, c.people[:from])
	}
	var byPointer map[*Player]keptPlayer
	var missing []*Player
	var places []int
	for i := from; i < len(ps); i++ {
		p := ps[i]
		var k keptPlayer
		ok := i < len(c.people) && c.people[i].p == p
		if ok {
			k = c.people[i]
		} else if from < len(c.people) {
			// Not at its place: a player moved. (One added after all
			// those kept, each at its place, is new.)
			if byPointer == nil {
				byPointer = make(map[*Player]keptPlayer, len(c.people))
				for _, k := range c.people {
					byPointer[k.p] = k
				}
			}
			k, ok = byPointer[p]
		}
		if !ok || !same(&k, p) {
			missing, places = append(missing, p), append(places, i)
			continue
		}
		at[i] = k
	}
	// Most players are written as the encoder writes them
	// (appendPlainPlayer); the rest go to the encoder.
	var rest []*Player
	var restPlaces []int
	for j, p := range missing {
		if text := appendPlainPlayer(nil, p, hashPlayerLayout); text != nil {
			at[places[j]] = keepPlayer(p, text)
		} else {
			rest, restPlaces = append(rest, p), append(restPlaces, places[j])
		}
	}
	texts, err := itemTexts(rest, playersText, playersHead, playersTail, playerStart)
	if err != nil {
		return nil, err
	}
	for j, p := range rest {
		at[restPlaces[j]] = keepPlayer(p, texts[j])
	}
	text := joinKept(c.peopleText, from == len(c.people), from, at, func(k keptPlayer) []byte { return k.text })
	c.people, c.peopleText, c.peopleMark = at, text, mark
	return append(out, playersHeadText, text), nil
}

// joinKept is the texts of at joined, as kept: with appending (the
// first from of at are those kept before, unchanged, and kept their text
// joined), the texts of the others appended to kept, past its end, which
// no text handed out reaches; else made anew.
func joinKept[K any](kept []byte, appending bool, from int, at []K, text func(K) []byte) []byte {
	if !appending {
		size := 0
		for _, k := range at {
			size += len(text(k))
		}
		kept, from = make([]byte, 0, size), 0
	}
	for _, k := range at[from:] {
		kept = append(kept, text(k)...)
	}
	return kept
}

// keepPlayer is what players keeps of player p, of text.
func keepPlayer(p *Player, text []byte) keptPlayer {
	cp := *p
	cp.Nicknames = slices.Clone(p.Nicknames)
	cp.Addresses = slices.Clone(p.Addresses)
	cp.Member = slices.Clone(p.Member)
	cp.Joined, cp.Left = nil, nil
	return keptPlayer{p: p, of: &cp, joined: keepTimes(p.Joined), left: keepTimes(p.Left), text: text}
}

// same says whether p is the player k was kept of, as samePlayer
// compares two.
func (k *keptPlayer) same(p *Player) bool {
	return k.of.Name == p.Name && sameStrings(k.of.Nicknames, p.Nicknames) && sameStrings(k.of.Addresses, p.Addresses) &&
		sameStrings(k.of.Member, p.Member) && k.joined.same(p.Joined) && k.left.same(p.Left)
}

// keptTimes is a copy of a player's Joined or Left, as a list: compared
// with the map by a look-up of each of its entries (the same count of
// entries, each there at the same instant in the same location), not by
// a walk of the map, which costs more than the look-ups, for every player
// at every state hash.
type keptTimes struct {
	isNil   bool
	entries []keyTime
}

type keyTime struct {
	key string
	t   time.Time
}

func keepTimes(m map[string]time.Time) keptTimes {
	k := keptTimes{isNil: m == nil}
	if len(m) > 0 {
		k.entries = make([]keyTime, 0, len(m))
		for key, t := range m {
			k.entries = append(k.entries, keyTime{key, t})
		}
	}
	return k
}

func (k keptTimes) same(m map[string]time.Time) bool {
	if (m == nil) != k.isNil || len(m) != len(k.entries) {
		return false
	}
	for _, e := range k.entries {
		if t, ok := m[e.key]; !ok || !sameTime(t, e.t) {
			return false
		}
	}
	return true
}

// ledger writes hashedState's "ledger:" and "points:" keys as marshalText
// writes them, from the text of their keys (the currencies, owners,
// players and games) as the state file's are written (codec_ledger.go),
// at hashedState's indentation; ok is false when the YAML encoder writes a
// key other than on one line, and the caller encodes them.
func (c *hashText) ledger(l *Ledger, points map[string]map[string]int) (ledger, pts []byte, ok bool) {
	keys := keysOfLedger(l, points)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.keys.learn(keys) {
		return nil, nil, false
	}
	b := []byte("ledger:\n")
	b = appendNested(b, &c.keys, "    balances:", "        ", "    ", l.Balances)
	b = appendAmounts(b, &c.keys, "    supply:", "        ", l.Supply)
	return b, appendNested(nil, &c.keys, "points:", "    ", "    ", points), true
}

// playersProbe is hashedState's "players:" key, followed by another.
type playersProbe struct {
	Players []*Player `yaml:"players"`
	Next    int       `yaml:"next"`
}

// playersHeadText is playersHead, handed out as a piece of every text.
var playersHeadText = []byte(playersHead)

const (
	playersHead = "players:\n"
	playersTail = "next: 0\n"
	playerStart = "    - "
)

func playersText(ps []*Player) ([]byte, error) { return marshalText(playersProbe{Players: ps}) }

// gamesKey is hashedState's "games:" key.
const gamesKey = "games:\n"

// games appends the "games:" key of hashedState to out, with the sections
// of games in the order ids.
func (c *hashText) games(out [][]byte, games map[string]*GameState, ids []string, s *State) ([][]byte, error) {
	out = append(out, []byte(gamesKey))
	for _, id := range ids {
		var err error
		if out, err = c.section(out, id, games[id], s); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// yamlKeyOrder lists the keys of m in the order the YAML encoder writes
// them (its own, not byte order), read back from an encoding of the keys
// alone; nil when they do not read back as themselves (a key that is not
// UTF-8 is written in base64).
func yamlKeyOrder[V any](m map[string]V) []string {
	keys := make(map[string]struct{}, len(m))
	for k := range m {
		keys[k] = struct{}{}
	}
	b, err := yaml.Marshal(keys)
	if err != nil {
		return nil
	}
	var n yaml.Node
	if err := yaml.Unmarshal(b, &n); err != nil {
		return nil
	}
	var order []string
	if len(n.Content) == 1 && n.Content[0].Kind == yaml.MappingNode {
		for i := 0; i < len(n.Content[0].Content); i += 2 {
			order = append(order, n.Content[0].Content[i].Value)
		}
	}
	if len(order) != len(m) {
		return nil
	}
	for _, k := range order {
		if _, ok := m[k]; !ok {
			return nil
		}
	}
	return order
}

// section appends to out the text of game id's section g under "games:",
// in pieces, kept while the section is unchanged. A section whose data has
// lists written item by item (splitData) is compared by its parts: the
// game's fields, the data but for its lists (against a deep copy of that
// alone), and each item of its lists (listTexts, against a deep copy of
// each); its text is the parts kept, handed on as they are (the text with
// placeholders cut around them, the items' and the recent events' texts),
// and no copy of the whole section is made or compared at each change. Any
// other section is compared whole (sameSection, the check the state's
// Encoder makes of its own kept sections, against a deep copy).
func (c *hashText) section(out [][]byte, id string, g *GameState, s *State) ([][]byte, error) {
	if g == nil {
		b, err := gameText(id, g)
		return append(out, b), err
	}
	c.mu.Lock()
	k, ok := c.sections[id]
	c.mu.Unlock()
	data, lists := splitData(id, g.Data)
	if lists != nil {
		return c.splitSection(out, id, g, data, lists, k, s)
	}
	if ok && k.of != nil && sameSection(g, k.of) {
		return append(out, k.text), nil
	}
	pieces, err := c.encodeSection(nil, id, g, nil, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	b := bytes.Join(pieces, nil)
	c.keep(id, keptSection{of: deepCopy(reflect.ValueOf(g)).Interface().(*GameState), text: b})
	return append(out, b), nil
}

// splitSection is section for a section whose data has lists written item
// by item: data is the data without them, k what was kept of the section.
// The section's text is not kept whole, but its parts (the head, the
// items' texts, the recent events'), and handed on in those pieces.
func (c *hashText) splitSection(out [][]byte, id string, g *GameState, data any, lists []dataList, k keptSection, s *State) ([][]byte, error) {
	head := k.head
	if head == nil || !head.same(g, data, lists) {
		head = newSectionHead(g, data, lists)
	}
	out, err := c.encodeSection(out, id, g, data, lists, head, s)
	if err != nil {
		return nil, err
	}
	c.keep(id, keptSection{head: head})
	return out, nil
}

func (c *hashText) keep(id string, k keptSection) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sections == nil {
		c.sections = map[string]keptSection{}
	}
	c.sections[id] = k
}

// sectionHead is what the encoding of a section with placeholders
// depends on (encodeSection): the game's fields but for its recent events
// (whether there are any), the data without
// its lists and the lists' fields, each kept as a copy; and that text.
type sectionHead struct {
	contestmaster string
	params        map[string]string
	lastReport    time.Time
	recent        bool          // there are recent events (a placeholder); none, nil or not, are written "[]"
	data          reflect.Value // a deep copy of the data without its lists
	lists         []string      // the fields of the lists written apart
	text          []byte        // the section with placeholders; nil: encoded whole
}

func newSectionHead(g *GameState, data any, lists []dataList) *sectionHead {
	h := &sectionHead{contestmaster: g.Contestmaster, params: maps.Clone(g.Params), lastReport: g.LastReport,
		recent: len(g.Recent) > 0, data: deepCopy(reflect.ValueOf(data))}
	for _, l := range lists {
		h.lists = append(h.lists, l.name)
	}
	return h
}

// same says whether g, its data without its lists and its lists encode
// with placeholders as the section kept did.
func (h *sectionHead) same(g *GameState, data any, lists []dataList) bool {
	if h.contestmaster != g.Contestmaster || !sameTime(h.lastReport, g.LastReport) || !maps.Equal(h.params, g.Params) ||
		h.recent != (len(g.Recent) > 0) || len(h.lists) != len(lists) {
		return false
	}
	for i, l := range lists {
		if h.lists[i] != l.name {
			return false
		}
	}
	return deepSame(h.data.Interface(), data)
}

// encodeSection appends to out the text of game id's section g under
// "games:", its recent events from the text kept of each, and each of
// lists, the lists of its data (splitData: data is the data without them),
// from the text kept of each item: the pieces of the section with
// placeholders between them, and the kept texts, none copied. With head,
// the section with placeholders is head's text.
func (c *hashText) encodeSection(out [][]byte, id string, g *GameState, data any, lists []dataList, head *sectionHead, s *State) ([][]byte, error) {
	bare := gameStateText{Contestmaster: g.Contestmaster, Params: g.Params, LastReport: g.LastReport, Recent: g.Recent, State: g.Data}
	var recentMark []byte
	if len(g.Recent) > 0 {
		bare.Recent = []Happening{{What: fmt.Sprintf("the recent events of %q, encoded apart", id)}}
		var err error
		if recentMark, err = c.kept("recent\x00"+id, func() ([]byte, error) { return happeningText(bare.Recent[0]) }); err != nil {
			return nil, err
		}
	}
	if lists != nil {
		bare.State = data
	}
	if recentMark == nil && lists == nil {
		b, err := gameText(id, g)
		return append(out, b), err
	}
	var b []byte
	if head != nil && head.text != nil {
		b = head.text
	} else {
		var err error
		if b, err = marshalText(map[string]map[string]*gameStateText{"games": {id: &bare}}); err != nil {
			return nil, err
		}
		if !bytes.HasPrefix(b, []byte(gamesKey)) {
			return nil, unexpectedEncoding(fmt.Sprintf("section %q", id), b, gamesKey, "")
		}
		b = b[len(gamesKey):]
		marks := make([][]byte, 0, len(lists)+1)
		if recentMark != nil {
			marks = append(marks, recentMark)
		}
		for _, l := range lists {
			marks = append(marks, []byte(l.mark))
		}
		for _, m := range marks {
			if bytes.Count(b, m) != 1 || !bytes.Contains(b, append([]byte("\n"), m...)) {
				b, err := gameText(id, g)
				return append(out, b), err
			}
		}
		if head != nil {
			head.text = b
		}
	}
	var parts []piecesPart
	if recentMark != nil {
		texts, err := c.recentText(id, g.Recent)
		if err != nil {
			return nil, err
		}
		parts = append(parts, piecesPart{string(recentMark), texts})
	}
	if lists != nil {
		texts, err := c.listTexts(id, lists, s)
		if err != nil {
			return nil, err
		}
		for i, l := range lists {
			parts = append(parts, piecesPart{l.mark, texts[i : i+1]})
		}
	}
	return splicePieces(out, b, parts)
}

// piecesPart is a placeholder line of a section's text and the pieces
// that replace it.
type piecesPart struct {
	mark   string
	pieces [][]byte
}

// splicePieces appends to out b with each part's placeholder, a line found
// once in b (encodeSection checks it), replaced by the part's pieces: the
// pieces of b around them are appended, not copied.
func splicePieces(out [][]byte, b []byte, parts []piecesPart) ([][]byte, error) {
	at := make([]int, len(parts))
	for i, p := range parts {
		j := bytes.Index(b, []byte("\n"+p.mark))
		if j < 0 {
			return nil, fmt.Errorf("state hash: no placeholder %q in the section", strings.TrimSpace(p.mark))
		}
		at[i] = j + 1
	}
	order := make([]int, len(parts))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return at[x] - at[y] })
	last := 0
	for _, i := range order {
		out = append(out, b[last:at[i]:at[i]])
		out = append(out, parts[i].pieces...)
		last = at[i] + len(parts[i].mark)
	}
	return append(out, b[last:]), nil
}

// recentText is the text of game id's recent events, in one piece, from
// the text kept of each. Events are added at the end of the list and
// dropped from its start: the events kept are found from the place of the
// first of recent among them, each compared; an event not found so is
// written anew. When every event kept from that place on is found (the
// list lost events at its start, gained some at its end, or neither), the
// copy of the events, the list of their texts and the text kept are
// resliced and appended to, not made again: a list of thousands of
// events, one more at each notice, costs the comparison of each and the
// text of the new one. What is appended is past the end of every text
// handed out before (each is the text kept then, and the kept text is
// never shortened at its end in place), so none of those changes.
func (c *hashText) recentText(id string, recent []Happening) ([][]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.recent == nil {
		c.recent = map[string]keptRecent{}
	}
	k := c.recent[id]
	found, from := 0, -1
	if len(recent) > 0 {
		if from = slices.Index(k.events, recent[0]); from >= 0 {
			for found < len(recent) && from+found < len(k.events) && k.events[from+found] == recent[found] {
				found++
			}
		}
	}
	through := from >= 0 && from+found == len(k.events)
	if through && found == len(recent) && from == 0 {
		return [][]byte{k.text}, nil
	}
	added := make([][]byte, len(recent)-found)
	var missing []Happening
	var at []int
	for i, ev := range recent[found:] {
		t, ok := plainHappening(ev)
		if !ok {
			missing, at = append(missing, ev), append(at, i)
		}
		added[i] = t
	}
	more, err := itemTexts(missing, happeningsText, probeHead, probeTail, happeningStart)
	if err != nil {
		return nil, err
	}
	for j, i := range at {
		added[i] = more[j]
	}
	var n keptRecent
	if through {
		skip := 0
		for _, t := range k.texts[:from] {
			skip += len(t)
		}
		n = keptRecent{events: k.events[from:], texts: k.texts[from:], text: k.text[skip:]}
	} else {
		n.events = append(make([]Happening, 0, len(recent)), recent[:found]...)
		n.texts = make([][]byte, found, len(recent))
		if found > 0 {
			copy(n.texts, k.texts[from:from+found])
		}
		n.text = bytes.Join(n.texts, nil)
	}
	n.events = append(n.events, recent[found:]...)
	n.texts = append(n.texts, added...)
	for _, t := range added {
		n.text = append(n.text, t...)
	}
	c.recent[id] = n
	return [][]byte{n.text}, nil
}

// keptRecent is the text of a game's recent events, the text of each, and
// a copy of the events.
type keptRecent struct {
	events []Happening
	texts  [][]byte
	text   []byte // the texts joined
}

// gameText is the text of game id's section g under "games:", encoded as a
// document of its own.
func gameText(id string, g *GameState) ([]byte, error) {
	b, err := marshalText(map[string]map[string]*GameState{"games": {id: g}})
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(b, []byte(gamesKey)) {
		return nil, unexpectedEncoding(fmt.Sprintf("section %q", id), b, gamesKey, "")
	}
	return b[len(gamesKey):], nil
}

// happeningProbe puts a game's recent events at the depth they have in
// hashedState: games, the game's ID, "recent", the entry; "state" follows,
// as in a section, so that the entry is not the end of the document.
type happeningProbe struct {
	Recent []Happening `yaml:"recent"`
	State  int         `yaml:"state"`
}

const (
	probeHead = "games:\n    g:\n        recent:\n"
	probeTail = "        state: 0\n"
)

// happeningStart starts the first line of an entry of a game's recent
// events in hashedState: every other line of the entry is indented further.
const happeningStart = "            - "

// happeningsText encodes entries of a game's recent events as probeHead,
// their text and probeTail.
func happeningsText(evs []Happening) ([]byte, error) {
	return marshalText(map[string]map[string]happeningProbe{"games": {"g": {Recent: evs}}})
}

// happeningText is the text of one entry of a game's recent events as the
// YAML encoder writes it inside hashedState.
func happeningText(ev Happening) ([]byte, error) {
	t, err := itemTexts([]Happening{ev}, happeningsText, probeHead, probeTail, happeningStart)
	if err != nil {
		return nil, err
	}
	return t[0], nil
}

// plainHappening is happeningText(ev) written without the YAML encoder,
// as happeningItem writes an entry of the state file's (happening_text.go),
// at the entry's depth in hashedState; ok is false for an entry whose
// texts the encoder does not write plain (plainText), which is encoded.
func plainHappening(ev Happening) (text []byte, ok bool) {
	if !plainText(ev.Who) || !plainText(ev.What) {
		return nil, false
	}
	b := make([]byte, 0, 192) // an entry of a Cell claimed fits
	b = append(b, happeningStart+"time: "...)
	b = ev.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, "\n"+happeningIndent+"who: "...)
	b = append(b, ev.Who...)
	b = append(b, "\n"+happeningIndent+"what: "...)
	b = append(b, ev.What...)
	return append(b, '\n'), true
}

// happeningIndent starts the lines of an entry of a game's recent events
// after its first (happeningStart).
const happeningIndent = "              "

// itemChunk is how many items itemTexts encodes in one document.
const itemChunk = 64

// itemTexts is the text of each of items, items of a block sequence: encode
// writes a document of items, which is head, the items' text and tail, and
// start begins the first line of each item and no other line (a line deeper
// in an item is indented further: the encoder's width is unlimited, so no
// scalar is folded onto a line of its own, and a block scalar's lines are
// indented past its key). The items are encoded itemChunk at a time, the
// text cut at each start.
func itemTexts[T any](items []T, encode func([]T) ([]byte, error), head, tail, start string) ([][]byte, error) {
	out := make([][]byte, 0, len(items))
	for len(items) > 0 {
		chunk := items[:min(len(items), itemChunk)]
		items = items[len(chunk):]
		texts, err := cutItems(chunk, encode, head, tail, start)
		if err != nil {
			return nil, err
		}
		if len(texts) != len(chunk) {
			return nil, fmt.Errorf("state hash: %d items encoded as %d", len(chunk), len(texts))
		}
		out = append(out, texts...)
	}
	return out, nil
}

// unexpectedEncoding is the error of an encoding of what (a part of the
// state) that does not begin with head or end with tail, as the text
// hashed or written would. It says how long the encoding is, not what it
// holds: a state's text holds its sealed values, which no log line shows.
func unexpectedEncoding(what string, b []byte, head, tail string) error {
	return fmt.Errorf("state hash: unexpected encoding of %s: %d bytes, not beginning with %q and ending with %q (the text is left out: it holds the state's secrets)", what, len(b), head, tail)
}

// cutItems encodes items in one document and cuts its text at each start.
func cutItems[T any](items []T, encode func([]T) ([]byte, error), head, tail, start string) ([][]byte, error) {
	b, err := encode(items)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(b, []byte(head)) || !bytes.HasSuffix(b, []byte(tail)) || len(b) < len(head)+len(tail) {
		return nil, unexpectedEncoding("items", b, head, tail)
	}
	b = b[len(head) : len(b)-len(tail)]
	if !bytes.HasPrefix(b, []byte(start)) {
		return nil, unexpectedEncoding("items", b, start, "")
	}
	var texts [][]byte
	for len(b) > 0 {
		end := bytes.Index(b, []byte("\n"+start))
		if end < 0 {
			end = len(b)
		} else {
			end++
		}
		texts = append(texts, b[:end:end])
		b = b[end:]
	}
	return texts, nil
}
