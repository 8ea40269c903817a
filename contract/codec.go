package contract

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Encode writes the state as YAML with a stable key order (struct fields in
// declaration order, map keys sorted), so that a contestmaster who keeps it in git
// gets readable diffs.
//
// Five parts are written from kept text rather than through the YAML encoder,
// which costs microseconds a scalar and sorts map keys with a rune-by-rune
// comparison: the processed-message memory (seen.ids, thousands of
// Message-IDs in a busy month), each entry encoded once and kept in byte order
// of its key; the players, each item kept while the player is unchanged;
// the citable records, each kept while the record is (codec_cited.go);
// the ledger and the points, from the text of their keys (codec_ledger.go);
// and the game sections, last in the file, each kept while it is unchanged (and
// within a changed one, each of its recent events), so a message that
// touches one game does not pay for the others. The players, the ledger and
// the recent events are written as the YAML encoder writes them whole
// (TestKeptTextIsTheEncoders, TestLedgerTextIsTheEncoders), an event
// whose texts are plain by hand (TestHappeningTextIsTheEncoders).
// Those parts are spliced in where the YAML encoder wrote them empty, each
// found as its own top-level key, so a field added to State anywhere, before,
// between or after them, is saved like any other.
//
// Encode keeps no text from one call to the next; an Encoder does.
func Encode(s *State) ([]byte, error) { return new(Encoder).Encode(s) }

// Encoder encodes states as Encode does, keeping the text of what it encoded
// last (each remembered Message-ID's line, each player's item, each game's
// section), so that the next encoding of a state that changed a little pays
// only for what changed; Take takes a state to encode later, copying only
// what changed (take.go).
// What it keeps is checked against the state at every encoding, never
// trusted stale, so any state may be encoded with any Encoder, and the state
// itself holds nothing of the encoding; but an item of a game's data list
// that the same state noted no save of since it was kept (changes.go: every
// change to one is saved first, for the undo) is not compared again. The zero value is ready to use; one
// Encoder may be used by several goroutines.
type Encoder struct {
	mu       sync.Mutex
	seen     seenCache
	players  playersCache
	cited    citedCache
	sections map[string]*sectionText // by game ID
	keys     keyText                 // of the ledger and the points
}

// Encode writes the state as the package's Encode does.
func (enc *Encoder) Encode(s *State) ([]byte, error) {
	pieces, err := enc.EncodePieces(s)
	if err != nil {
		return nil, err
	}
	return bytes.Join(pieces, nil), nil
}

// EncodePieces is Encode's text in pieces, to be written in order (see
// Taken.EncodePieces).
func (enc *Encoder) EncodePieces(s *State) ([][]byte, error) {
	top := *s
	top.Games = nil
	top.Players = nil
	top.Seen = Seen{}
	top.Receipts, top.Receipted = nil, receiptedMarkFor(s.Receipted)
	top.Ledger, top.Points = Ledger{}, nil
	return enc.encodeTop(&top, s)
}

// encodeTop encodes top, a pointer to a struct with the state's Players,
// Ledger, Points, Seen, Receipts and Games keys left empty and its Cited
// field, with the text of s's in their places, in pieces.
func (enc *Encoder) encodeTop(top any, s *State) ([][]byte, error) {
	enc.mu.Lock()
	players, games := enc.players.take(s.Players, false), enc.takeGames(s.Games, false, s)
	cited, ok := enc.cited.take(s.Cited, false)
	enc.mu.Unlock()
	if ok {
		reflect.ValueOf(top).Elem().FieldByName("Cited").Set(reflect.ValueOf(citedMarkFor(cited)))
	}
	return enc.encodeTaken(top, s, players, games, cited, ok, false)
}

// citedMarkFor is what the state is encoded with in place of its citable
// records, taken: citedMark, or nothing when there are none.
func citedMarkFor(cited []takenCited) []*Cited {
	if len(cited) == 0 {
		return nil
	}
	return citedMark
}

// encodeTaken encodes top with the text of s's ledger, points, seen and
// receipts, and the players, citable records (with citedOK: else top holds
// them) and game sections taken (take, takeGames) in their places, and
// keeps the text of the players, records and sections it encodes; owned:
// those are copies, kept as they are. The text is in pieces, to be read
// in order, not joined: a state file of megabytes (a game of thousands
// of players) is written from them without a copy of the whole. Each
// piece is text the Encoder keeps (a record's, a game section's) or made
// for this call alone, and none is written over later.
func (enc *Encoder) encodeTaken(top any, s *State, players []takenPlayer, games []takenSection, cited []takenCited, citedOK, owned bool) ([][]byte, error) {
	b, err := encodeYAML(top)
	if err != nil {
		return nil, fmt.Errorf("encode state: %w", err)
	}
	enc.mu.Lock()
	defer enc.mu.Unlock()
	parts := make([]part, 0, 7)
	if citedOK && len(cited) > 0 {
		empty, err := emptyCited()
		if err != nil {
			return nil, err
		}
		ctext, err := enc.cited.renderPieces(cited, owned)
		if err != nil {
			return nil, err
		}
		parts = append(parts, part{empty: string(empty), pieces: ctext})
	} else if citedOK {
		enc.cited.kept = nil
	}
	ltext, ptstext, err := enc.keys.renderLedger(&s.Ledger, s.Points)
	if err != nil {
		return nil, err
	}
	ptext, err := enc.players.render(nil, players, owned)
	if err != nil {
		return nil, fmt.Errorf("encode state: players: %w", err)
	}
	gtext, err := enc.renderGames(games, owned)
	if err != nil {
		return nil, err
	}
	if len(s.Receipted) > 0 {
		if text, ok := renderReceipted(nil, s.Receipted); ok {
			parts = append(parts, part{empty: receiptedMark, text: text})
		} else if b, err = encodeYAML(withReceipted(top, s.Receipted)); err != nil {
			return nil, fmt.Errorf("encode state: %w", err)
		}
	}
	return spliceParts(nil, b, append(parts,
		part{empty: "players: []\n", text: ptext},
		part{empty: emptyLedger, text: ltext},
		part{empty: emptyPoints, text: ptstext},
		// The memory's text is in an array the next rendering but one
		// writes over: copied, as splice copied it.
		part{empty: "seen:\n  ids: {}\n", text: bytes.Clone(enc.seen.render(&s.Seen))},
		part{empty: "receipts: {}\n", text: renderReceipts(nil, s.Receipts)},
		part{empty: "games: {}\n", pieces: gtext},
	))
}

// part is a top-level key as the YAML encoder writes it empty, and the text
// that replaces it: text, or pieces of it to be read in order.
type part struct {
	empty  string
	text   []byte
	pieces [][]byte
}

// splice replaces each part's empty key in b, found at the start of a line
// (a top-level key: nested ones are indented, and keys are unique).
func splice(b []byte, parts []part) ([]byte, error) {
	pieces, err := spliceParts(nil, b, parts)
	if err != nil {
		return nil, err
	}
	return bytes.Join(pieces, nil), nil
}

// spliceParts is splice's text in pieces appended to out: the pieces of b
// around the parts, and each part's text or pieces.
func spliceParts(out [][]byte, b []byte, parts []part) ([][]byte, error) {
	at := make([]int, len(parts))
	for i, p := range parts {
		switch {
		case bytes.HasPrefix(b, []byte(p.empty)):
			at[i] = 0
		default:
			j := bytes.Index(b, []byte("\n"+p.empty))
			if j < 0 {
				return nil, fmt.Errorf("encode state: no empty %q in the encoding", strings.TrimSpace(p.empty))
			}
			at[i] = j + 1
		}
	}
	order := make([]int, len(parts))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool { return at[order[x]] < at[order[y]] })
	last := 0
	for _, i := range order {
		out = append(out, b[last:at[i]:at[i]])
		if parts[i].pieces != nil {
			out = append(out, parts[i].pieces...)
		} else {
			out = append(out, parts[i].text)
		}
		last = at[i] + len(parts[i].empty)
	}
	return append(out, b[last:]), nil
}

// renderReceipts writes the receipt times per sender (at most the hourly
// limit each, but as many senders as wrote in the hour), keys in byte order.
func renderReceipts(b []byte, r map[string][]time.Time) []byte {
	if len(r) == 0 {
		return append(b, "receipts: {}\n"...)
	}
	b = append(b, "receipts:\n"...)
	for _, addr := range slices.Sorted(maps.Keys(r)) {
		b = appendKey(b, "  ", addr)
		if len(r[addr]) == 0 {
			b = append(b, " []\n"...)
			continue
		}
		b = append(b, '\n')
		for _, t := range r[addr] {
			b = append(b, "    - "...)
			b = append(b, t.Format(time.RFC3339Nano)...)
			b = append(b, '\n')
		}
	}
	return b
}

// renderReceipted writes the game of each remembered message's receipt
// (State.Receipted: a line a message, thousands in a month of a busy
// list, which the YAML encoder wrote at some 10 µs each), keys in byte
// order, as seen.ids writes them; ok false when a game's ID is not a
// plainGame (the encoder writes the key then, as it did).
func renderReceipted(b []byte, r map[string]string) ([]byte, bool) {
	b = append(b, "receipted:\n"...)
	for _, id := range slices.Sorted(maps.Keys(r)) {
		g := r[id]
		if !plainGame(g) {
			return nil, false
		}
		b = appendKey(b, "  ", id)
		b = append(b, ' ')
		b = append(b, g...)
		b = append(b, '\n')
	}
	return b, true
}

// receiptedMark is what the state is encoded with in place of a Receipted
// that is not empty, and the text the encoder writes of it: a key of its
// own at the start of a line, replaced by renderReceipted's text.
const receiptedMark = "receipted:\n  m: g\n"

func receiptedMarkFor(r map[string]string) map[string]string {
	if len(r) == 0 {
		return nil
	}
	return map[string]string{"m": "g"}
}

// withReceipted is top, a pointer to a State, with its Receipted r.
func withReceipted(top any, r map[string]string) any {
	reflect.ValueOf(top).Elem().FieldByName("Receipted").Set(reflect.ValueOf(r))
	return top
}

// seenCache keeps the text of the remembered Message-IDs as last written
// and their order. It is checked against the map at every encoding, so it
// is never trusted stale: another state, or a change made behind its
// back, costs a re-encoding of what differs, nothing more.
type seenCache struct {
	text  []byte     // the "seen:" key last written, its IDs' lines in order
	items []seenItem // their IDs, in byte order
	// The arrays of the rendering before the last, written over by the
	// next: what render writes is read (spliced) before render is called
	// again, and the last rendering's are read by the next.
	spareText  []byte
	spareItems []seenItem
}

// seenItem is a remembered Message-ID and its time, with its line
// ("    <id>: <time>\n", as the YAML encoder writes it; two lines for a
// long or binary key) in seenCache.text: text[from:to].
type seenItem struct {
	id       string
	at       time.Time
	from, to int
}

// render writes the "seen:" key, in an array of its own that the next
// call but one writes over. The lines of the IDs kept at the same time
// are copied from the text last written, runs of them that were written
// together in one piece, and the others' (sorted) are written between
// them: a memory that changed a little costs a lookup of each ID and a
// copy of its text.
func (c *seenCache) render(s *Seen) []byte {
	b := slices.Grow(c.spareText[:0], len(c.text))
	b = append(b, "seen:\n"...)
	if !s.Horizon.IsZero() {
		b = append(b, "  horizon: "...)
		b = s.Horizon.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '\n')
	}
	if !s.Latest.IsZero() {
		b = append(b, "  latest: "...)
		b = s.Latest.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '\n')
	}
	if len(s.IDs) == 0 {
		c.text, c.items, c.spareText, c.spareItems = nil, nil, nil, nil
		return append(b, "  ids: {}\n"...)
	}
	// The last IDs still remembered at the same time, in place of the
	// last list.
	last := c.items[:0]
	kept := last
	for _, it := range c.items {
		if t, ok := s.IDs[it.id]; ok && it.at.Equal(t) {
			kept = append(kept, it)
		}
	}
	var fresh []string
	if len(kept) < len(s.IDs) {
		fresh = freshIDs(s.IDs, kept)
		slices.Sort(fresh)
	}
	b = append(b, "  ids:\n"...)
	items := slices.Grow(c.spareItems[:0], len(s.IDs))
	// Each fresh ID after the kept ones before it.
	for len(kept) > 0 || len(fresh) > 0 {
		n := len(kept)
		if len(fresh) > 0 {
			n, _ = slices.BinarySearchFunc(kept, fresh[0], func(it seenItem, id string) int { return strings.Compare(it.id, id) })
		}
		b, items = c.copyKept(b, items, kept[:n])
		kept = kept[n:]
		if len(fresh) > 0 {
			it := seenItem{id: fresh[0], at: s.IDs[fresh[0]], from: len(b)}
			fresh = fresh[1:]
			b = seenEntry(b, it.id, it.at)
			it.to = len(b)
			items = append(items, it)
		}
	}
	c.spareText, c.spareItems = c.text[:0], last
	c.text, c.items = b, items
	return b
}

// copyKept appends the lines of kept, items of c, to b and lists them in
// items as they are there: lines that follow each other in c.text are
// copied in one piece.
func (c *seenCache) copyKept(b []byte, items, kept []seenItem) ([]byte, []seenItem) {
	for len(kept) > 0 {
		n := 1
		for n < len(kept) && kept[n].from == kept[n-1].to {
			n++
		}
		from, to := kept[0].from, kept[n-1].to
		shift := len(b) - from
		b = append(b, c.text[from:to]...)
		for _, it := range kept[:n] {
			it.from += shift
			it.to += shift
			items = append(items, it)
		}
		kept = kept[n:]
	}
	return b, items
}

// freshIDs lists the IDs of ids that kept does not hold (kept: IDs of ids,
// each at its time there). Those after the latest time of kept are the
// fresh ones when they are as many as the IDs kept does not hold (a
// memory that has only grown and lost its oldest, as the engine keeps
// it): the memory is read once and no set is made. Otherwise each ID is
// looked up in a set of kept's.
func freshIDs(ids map[string]time.Time, kept []seenItem) []string {
	var latest time.Time
	for _, it := range kept {
		if it.at.After(latest) {
			latest = it.at
		}
	}
	fresh := make([]string, 0, len(ids)-len(kept))
	for id, t := range ids {
		if len(kept) == 0 || t.After(latest) {
			fresh = append(fresh, id)
		}
	}
	if len(kept)+len(fresh) == len(ids) {
		return fresh
	}
	held := make(map[string]bool, len(kept))
	for _, it := range kept {
		held[it.id] = true
	}
	fresh = fresh[:0]
	for id := range ids {
		if !held[id] {
			fresh = append(fresh, id)
		}
	}
	return fresh
}

// seenEntry appends one line of seen.ids (two for a long or binary key).
func seenEntry(b []byte, id string, at time.Time) []byte {
	b = appendKey(b, "    ", id)
	b = append(b, ' ')
	b = at.AppendFormat(b, time.RFC3339Nano)
	return append(b, '\n')
}

// appendKey writes a mapping key at indent, up to and including its colon.
// A key is written plain when it looks like an ordinary address or
// Message-ID (a word of safe characters with an @, which YAML cannot read as
// anything but that string), double-quoted with escapes otherwise, and as
// !!binary when it is not UTF-8. A key over 512 bytes (or a binary one) is an
// explicit "? " key, its colon on the next line: YAML limits implicit keys
// to 1024 characters, and 512 bytes stays below that whatever the text.
func appendKey(b []byte, indent, key string) []byte {
	if len(key) <= 512 && plainID(key) {
		b = append(b, indent...)
		b = append(b, key...)
		return append(b, ':')
	}
	var text []byte
	switch {
	case !utf8.ValidString(key):
		text = append([]byte("!!binary "), base64.StdEncoding.EncodeToString([]byte(key))...)
	case plainID(key):
		text = []byte(key)
	default:
		text = quoteYAML(key)
	}
	b = append(b, indent...)
	if len(text) > 512 || !utf8.ValidString(key) {
		b = append(b, "? "...)
		b = append(b, text...)
		b = append(b, '\n')
		b = append(b, indent...)
		return append(b, ':')
	}
	b = append(b, text...)
	return append(b, ':')
}

// plainID: starts with a letter or digit, holds an @, and only characters
// that mean nothing to YAML inside a plain scalar.
func plainID(id string) bool {
	if id == "" || !strings.Contains(id, "@") {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || strings.IndexByte("._%+=$@/-~^&*!?", c) < 0) {
			return false
		}
	}
	return true
}

// quoteYAML writes s as a YAML double-quoted scalar: every character outside
// YAML's printable set, and every line break or tab, escaped.
func quoteYAML(s string) []byte {
	b := []byte{'"'}
	for _, r := range s {
		if r == '"' || r == '\\' {
			b = append(b, '\\', byte(r))
		} else if escapedYAML(r) {
			if r < 0x100 {
				b = fmt.Appendf(b, "\\x%02x", r)
			} else {
				b = fmt.Appendf(b, "\\u%04x", r)
			}
		} else {
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// escapedYAML: r is outside YAML's printable set (a C0 or C1 control, DEL, a
// byte order mark, a non-character) or a line or paragraph separator.
func escapedYAML(r rune) bool {
	return r < 0x20 || r == 0x7f || (0x80 <= r && r < 0xa0) || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff
}

// indent prefixes every non-empty line of text.
func indent(text []byte, prefix string) []byte { return indentInto(nil, text, prefix) }

// indentInto is b followed by text indented (indent), in one allocation.
func indentInto(b, text []byte, prefix string) []byte {
	out := make([]byte, len(b), len(b)+len(text)+(bytes.Count(text, []byte("\n"))+1)*len(prefix))
	copy(out, b)
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		text = text[len(line):]
		if len(line) > 1 {
			out = append(out, prefix...)
		}
		out = append(out, line...)
	}
	return out
}

// indentPieces is indentInto(b, the pieces joined, prefix), without the
// join: the text of a game's section written from its parts.
func indentPieces(b []byte, pieces [][]byte, prefix string) []byte {
	size, lines := len(b), 1
	for _, p := range pieces {
		size += len(p)
		lines += bytes.Count(p, []byte("\n"))
	}
	out := make([]byte, len(b), size+lines*len(prefix))
	copy(out, b)
	start := true // at the start of a line
	for k, text := range pieces {
		for len(text) > 0 {
			line := text
			if i := bytes.IndexByte(text, '\n'); i >= 0 {
				line = text[:i+1]
			}
			text = text[len(line):]
			// A line longer than one byte is indented: one that is not
			// a line end alone, nor the text's last byte alone (a line
			// of one byte without its end ends its piece: it goes on
			// in the next that holds a byte, if any).
			if start && line[0] != '\n' && (len(line) > 1 || more(pieces[k+1:])) {
				out = append(out, prefix...)
			}
			out = append(out, line...)
			start = line[len(line)-1] == '\n'
		}
	}
	return out
}

// more says whether any of pieces holds a byte.
func more(pieces [][]byte) bool {
	for _, p := range pieces {
		if len(p) > 0 {
			return true
		}
	}
	return false
}

// encodeYAML writes v as the YAML encoder does, indented by 2, with every
// text that begins with a line break or a tab double-quoted (codec_text.go).
func encodeYAML(v any) ([]byte, error) { return quotingTexts(v, emitYAML, 2, false) }

// encodeSectionYAML is encodeYAML of a part of a game's section, indented
// under "games:" line by line: its texts that hold a line or paragraph
// separator within a line are double-quoted too (codec_text.go).
func encodeSectionYAML(v any) ([]byte, error) { return quotingTexts(v, emitYAML, 2, true) }

func emitYAML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// sectionText is a game section's text with a copy of what it encoded.
type sectionText struct {
	of   *GameState // a deep copy of the section as encoded
	yaml []byte     // the section under "games:", indented
	// recent is the text of each item of its recent events, as the YAML
	// encoder writes it under "recent:" (not yet indented).
	recent map[Happening][]byte
	// split is the section's parts, for a section whose data has lists
	// written item by item (codec_split.go); of is nil then.
	split *splitKept
}

// renderGames is the "games:" key with the sections taken (takeGames),
// encoding those not kept, and keeps them; owned: the sections to encode
// are copies, kept as they are.
func (enc *Encoder) renderGames(games []takenSection, owned bool) ([][]byte, error) {
	kept := make(map[string]*sectionText, len(games))
	texts := [][]byte{[]byte("games:\n")}
	if len(games) == 0 {
		texts[0] = []byte("games: {}\n")
	}
	for _, t := range games {
		var recent map[Happening][]byte
		if t.split != nil {
			var old map[Happening][]byte
			if k := enc.sections[t.id]; k != nil {
				old = k.recent
			}
			b, split, err := renderSplit(t.split, old, owned)
			if err != nil {
				return nil, errSplit(t.id, err)
			}
			text := indentPieces([]byte("  "+t.id+":\n"), b.pieces, "    ")
			kept[t.id] = &sectionText{yaml: text, recent: b.recent, split: split}
			texts = append(texts, text)
			continue
		}
		if t.text == nil {
			var old map[Happening][]byte
			if k := enc.sections[t.id]; k != nil {
				old = k.recent
			}
			b, err := encodeSection(t.g, old)
			if err != nil {
				return nil, fmt.Errorf("encode state: games.%s: %w", t.id, err)
			}
			t.text, recent = underGames(t.id, b.text), b.recent
			if !owned {
				t.g = deepCopy(reflect.ValueOf(t.g)).Interface().(*GameState)
			}
		} else if k := enc.sections[t.id]; k != nil {
			recent = k.recent
		}
		// A section taken unchanged by its parts keeps the parts its text
		// was written from, not those kept now: the Encoder may have
		// written the section changed since it was taken.
		kept[t.id] = &sectionText{of: t.g, yaml: t.text, recent: recent, split: t.parts}
		texts = append(texts, t.text)
	}
	enc.sections = kept
	return texts, nil
}

// underGames is a section's text, encoded at the top, as it is written
// under "games:": its ID's key, and its lines indented under it.
func underGames(id string, text []byte) []byte {
	return indentInto([]byte("  "+id+":\n"), text, "    ")
}

// encodedSection is a section's encoding (text, or pieces of it to be
// read in order) and the text of its recent events' items.
type encodedSection struct {
	text   []byte
	pieces [][]byte
	recent map[Happening][]byte
}

// encodeSection encodes g as the YAML encoder does, writing each of its
// recent events from the text old kept of it when there is one, by hand
// when its texts are plain (happeningItem), through the encoder
// otherwise: a game's recent events are most of its section (every join,
// every transfer since the report before the last), and an action adds
// one.
func encodeSection(g *GameState, old map[Happening][]byte) (encodedSection, error) {
	h := *g
	h.Recent = nil
	b, err := encodeSectionYAML(&h)
	if err != nil || len(g.Recent) == 0 {
		return encodedSection{text: b}, err
	}
	recent, items, err := recentItems(g.Recent, old)
	if err != nil {
		return encodedSection{}, err
	}
	b, err = splice(b, []part{{empty: "recent: []\n", text: items}})
	return encodedSection{text: b, recent: recent}, err
}

// recentItems is the "recent:" key of a section with events, each
// written from the text old kept of it when there is one, by hand when
// its texts are plain (happeningItem), through the encoder otherwise, and
// the text of each; nil, nil with no events.
func recentItems(events []Happening, old map[Happening][]byte) (map[Happening][]byte, []byte, error) {
	recent, texts, err := recentPieces(events, old)
	if err != nil || texts == nil {
		return recent, nil, err
	}
	return recent, bytes.Join(texts, nil), nil
}

// recentPieces is recentItems' text in pieces, to be read in order: the
// key, then each event's text as it is kept.
func recentPieces(events []Happening, old map[Happening][]byte) (map[Happening][]byte, [][]byte, error) {
	if len(events) == 0 {
		return nil, nil, nil
	}
	recent := make(map[Happening][]byte, len(events))
	texts := make([][]byte, 0, len(events)+1)
	texts = append(texts, []byte("recent:\n"))
	for _, hp := range events {
		text, ok := recent[hp]
		if !ok {
			text, ok = old[hp]
		}
		if !ok {
			text, ok = happeningItem(hp)
		}
		if !ok {
			item, err := encodeSectionYAML(struct {
				R []Happening `yaml:"recent"`
			}{[]Happening{hp}})
			if err != nil {
				return nil, nil, err
			}
			text = item[len("recent:\n"):]
		}
		recent[hp] = text
		texts = append(texts, text)
	}
	return recent, texts, nil
}

// sameSection: a and b encode alike. The last report's date is compared
// with its location (sameTime): the same instant in another zone is
// written otherwise. The recent events are compared with ==, which
// compares a time's location too (and its monotonic reading, which a copy
// keeps), the data by deepSame (reflect.DeepEqual, which follows a
// time's location, and a zero's sign).
func sameSection(a, b *GameState) bool {
	return a.Contestmaster == b.Contestmaster && sameTime(a.LastReport, b.LastReport) &&
		maps.Equal(a.Params, b.Params) && slices.Equal(a.Recent, b.Recent) && deepSame(a.Data, b.Data)
}

// ErrFutureVersion is returned for a state written by a newer build.
var ErrFutureVersion = errors.New("state was written by a newer version of referee")

// Decode reads a state strictly: an unknown key is an error naming it, a missing
// or future version is refused. The games' sections are decoded into their own
// types by e.bind.
func (e *Engine) Decode(b []byte) (*State, error) {
	var s State
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the state is empty")
		}
		return nil, decodeProblems(err, b)
	}
	switch {
	case s.Version == 0:
		return nil, errors.New("version: missing (is this a referee state?)")
	case s.Version > Version:
		return nil, fmt.Errorf("version %d: %w (this build reads version %d)", s.Version, ErrFutureVersion, Version)
	}
	p := e.bind(&s)
	p = append(p, e.validate(&s)...)
	if len(p) > 0 {
		placeLines(p, b)
		return nil, &DecodeError{Problems: p}
	}
	return &s, nil
}

// decodeStrict decodes n into into as Decode decodes the state, unknown
// keys refused: n is written and the text decoded. It is written indented
// by 2, as the state file is: indented by 4 (yaml.Marshal's), a text that
// begins with a space and holds a line break in an item of a list (a
// Steemfield proposal's, a Rumble power's) would be misplaced
// (indentedText, codec_text.go): the state would be read without the
// text's first spaces, or not at all.
func decodeStrict(n *yaml.Node, into any) error {
	b, err := emitYAML(n)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(into); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}
