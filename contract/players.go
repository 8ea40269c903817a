package contract

import (
	"cmp"
	"fmt"
	"mime"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"referee/internal/lazyre"
)

// renames counts the name changes of players made in this process, in any
// state, undone or not (NameEpoch).
var renames atomic.Uint64

// NameEpoch counts the changes of players' names made in this process, in
// any state. A game that keeps players' names in its own data and follows
// their changes (by address, say) need follow them again only when the count
// differs from the one of its last look: no name has changed since, nor has
// one been given back by an undo (an undo puts back the game's data too).
// Data loaded from a file has not looked in this process.
func NameEpoch() uint64 { return renames.Load() }

// Player is a person known to the referee.
type Player struct {
	Name      string   `yaml:"name"`
	Nicknames []string `yaml:"nicknames,omitempty"`
	Addresses []string `yaml:"addresses"`
	// Joined and Left record, per game, when the player last joined and left.
	Joined map[string]time.Time `yaml:"joined,omitempty"`
	Left   map[string]time.Time `yaml:"left,omitempty"`
	// Member lists the games the player is in now.
	Member []string `yaml:"member,omitempty"`
}

// In reports whether the player is in the game now.
func (p *Player) In(game string) bool {
	for _, g := range p.Member {
		if g == game {
			return true
		}
	}
	return false
}

// HasAddress reports whether addr is one of the player's addresses.
func (p *Player) HasAddress(addr string) bool {
	return slices.Contains(p.Addresses, strings.ToLower(addr))
}

// Address is the player's first address, where private notices go.
func (p *Player) Address() string {
	if len(p.Addresses) == 0 {
		return ""
	}
	return p.Addresses[0]
}

// PlayerByAddress finds the player with this address, from an index of the
// players' addresses kept beside the state: a message costs a lookup, not a
// scan of every player.
func (s *State) PlayerByAddress(addr string) *Player {
	addr = strings.ToLower(addr)
	p, ok := s.aux().players.find(s.Players, addr)
	if !ok {
		p = scanAddress(s.Players, addr)
		s.ax.players = playerIndex{}
	}
	if verifyUndo.Load() {
		if q := scanAddress(s.Players, addr); q != p {
			panic(fmt.Sprintf("contract: the address index gives %v for %s, the players %v", p, addr, q))
		}
	}
	return p
}

func scanAddress(players []*Player, addr string) *Player {
	for _, p := range players {
		if p.HasAddress(addr) {
			return p
		}
	}
	return nil
}

// playerIndex maps each address of the players to the position of the first
// player with it. Players are only ever appended (Register), and an undo
// cuts the list back; the index follows both. A player whose addresses
// change in place must be registered again; the checks of undo compare every
// lookup with a scan.
type playerIndex struct {
	byAddr map[string]int
	keys   [][]string // the addresses indexed at each position
	list   []*Player  // the players indexed
}

// find looks addr, in lower case, up; ok is false when the index cannot
// tell.
func (ix *playerIndex) find(players []*Player, addr string) (*Player, bool) {
	n := len(ix.list)
	if n > len(players) || n > 0 && (players[0] != ix.list[0] || players[n-1] != ix.list[n-1]) {
		// Cut back by an undo, or another list: drop what is not there.
		for n > 0 && (n > len(players) || players[n-1] != ix.list[n-1]) {
			n--
			for _, k := range ix.keys[n] {
				if ix.byAddr[k] == n {
					delete(ix.byAddr, k)
				}
			}
		}
		if n > 0 && players[0] != ix.list[0] {
			return nil, false
		}
		ix.list, ix.keys = ix.list[:n], ix.keys[:n]
	}
	if ix.byAddr == nil {
		ix.byAddr = map[string]int{}
	}
	for i := n; i < len(players); i++ {
		var keys []string
		for _, a := range players[i].Addresses {
			if _, dup := ix.byAddr[a]; !dup {
				ix.byAddr[a] = i
				keys = append(keys, a)
			}
		}
		ix.list = append(ix.list, players[i])
		ix.keys = append(ix.keys, keys)
	}
	i, ok := ix.byAddr[addr]
	if !ok {
		return nil, true
	}
	if p := players[i]; slices.Contains(p.Addresses, addr) { // HasAddress, addr being in lower case already
		return p, true
	}
	return nil, false
}

// NameOf is the current name of the player with this address, or the
// address itself when no player has it.
func (s *State) NameOf(addr string) string {
	if p := s.PlayerByAddress(addr); p != nil {
		return p.Name
	}
	return addr
}

// PlayerByName finds the player whose name is exactly name (case-insensitive).
//
// A name whose first byte is ASCII and not that of name in some case is
// passed over without a call of EqualFold (which would compare the same
// byte first): a ledger's owners are looked up by name after each action,
// through every player.
func (s *State) PlayerByName(name string) *Player {
	var first byte
	if name != "" && name[0] < utf8.RuneSelf {
		first = lowerASCII(name[0])
	}
	for _, p := range s.Players {
		if first != 0 && p.Name != "" && p.Name[0] < utf8.RuneSelf && lowerASCII(p.Name[0]) != first {
			continue
		}
		if strings.EqualFold(p.Name, name) {
			return p
		}
	}
	return nil
}

// Resolve finds the player a player means by name, nickname or address,
// case-insensitively, ignoring a leading "@" and surrounding quotes. An exact
// match wins; then, for a reference written without accents, a name or
// nickname with its accents left out (withoutMarks: "Carol Unal" for Carol
// Ünal); then a unique prefix of a name or nickname, as written or, for a
// reference without accents, with them left out ("Carol Un"); then, for a
// reference written with accents, a name or its start that reads alike
// without them ("Zoé" for Zoë). A reference with accents is so a name as
// written before another one without them: "André" is André Martin, not
// Andre. Several candidates at the first reading that finds any make the
// reference ambiguous (the rejection lists them).
func (s *State) Resolve(ref string) (*Player, error) { return s.resolve(ref, true) }

// ResolveWhole is Resolve without the prefixes: the player whose whole
// name, nickname or address ref is, as written or without its accents.
func (s *State) ResolveWhole(ref string) (*Player, error) { return s.resolve(ref, false) }

func (s *State) resolve(ref string, prefixes bool) (*Player, error) {
	// Quotation marks, straight or curly, and a trailing ellipsis are not
	// part of a name ("to “Bob”", "to Bob…"); a name is compared in its
	// composed form (NFC), as mail clients may send "Zoë" decomposed.
	r := strings.ToLower(strings.Trim(strings.TrimSpace(ref), `"'@<>“”‘’«»…`))
	if !isASCII(r) {
		r = norm.NFC.String(r)
	}
	if r == "" {
		return nil, Reject("syntax", "no player named")
	}
	// Each name, nickname and address is compared with r as lower-cased
	// (lowerIs), not copied in lower case: a reference costs a scan of
	// the players, nothing allocated for ASCII names (one with a letter
	// outside ASCII is lower-cased as a copy, as before).
	addr := strings.ToLower(r) // as HasAddress lower-cases it
	bare := withoutMarks(r)
	// plain: the reference is written without accents, as a keyboard
	// without them writes it; then a name's accents are left out of it.
	// A reference written with accents is a name as written, or the start
	// of one, before it is compared without them ("André" is André Martin
	// before Andre; "Zoé", another accent, Zoë when no one else).
	plain := bare == r
	var exact, dropped, prefix, folded, foldedPrefix []*Player
	is := func(n string) bool { return lowerIs(n, r) || !isASCII(n) && lowerIs(norm.NFC.String(n), r) }
	// Without their accents, an ASCII name and an ASCII reference are
	// as written: only a name or a reference outside ASCII is copied.
	isDropped := func(n string) bool { return plain && !isASCII(n) && withoutMarks(n) == r }
	hasPrefix := func(n string) bool {
		return lowerHasPrefix(n, r) || !isASCII(n) && lowerHasPrefix(norm.NFC.String(n), r) ||
			plain && !isASCII(n) && strings.HasPrefix(withoutMarks(n), r)
	}
	isFolded := func(n string) bool { return !plain && withoutMarks(n) == bare }
	hasFoldedPrefix := func(n string) bool { return !plain && strings.HasPrefix(withoutMarks(n), bare) }
	starts := prefixes && !pronouns[r]
	for _, p := range s.Players {
		if is(p.Name) || slices.ContainsFunc(p.Nicknames, is) || slices.Contains(p.Addresses, addr) {
			exact = append(exact, p)
			continue
		}
		if len(exact) > 0 {
			continue // an exact match wins: the others are not looked at again
		}
		switch {
		case isDropped(p.Name) || slices.ContainsFunc(p.Nicknames, isDropped):
			dropped = append(dropped, p)
		case starts && (hasPrefix(p.Name) || slices.ContainsFunc(p.Nicknames, hasPrefix)):
			prefix = append(prefix, p)
		case isFolded(p.Name) || slices.ContainsFunc(p.Nicknames, isFolded):
			folded = append(folded, p)
		case starts && (hasFoldedPrefix(p.Name) || slices.ContainsFunc(p.Nicknames, hasFoldedPrefix)):
			foldedPrefix = append(foldedPrefix, p)
		}
	}
	for _, ps := range [][]*Player{exact, dropped, prefix, folded, foldedPrefix} {
		switch {
		case len(ps) == 1:
			return ps[0], nil
		case len(ps) > 1:
			return nil, ambiguous(ref, ps)
		}
	}
	return nil, Reject(NamingRule, "no player is known as %q", ref)
}

// withoutMarks is s in lower case without its accents: decomposed (NFD),
// its combining marks (Unicode category Mn) dropped, so that Ü reads as U,
// é as e and a decomposed ë as e; a letter that does not decompose (ß, ø)
// stays as it is. Players type names without the accents their keyboards
// lack.
func withoutMarks(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return strings.ToLower(strings.Map(func(c rune) rune {
		if unicode.Is(unicode.Mn, c) {
			return -1
		}
		return c
	}, norm.NFD.String(s)))
}

// pronouns are words that stand for a player named elsewhere ("I give em 3
// Vials", Agora's Spivak pronouns among them): never the start of a name,
// which would make the player whose name begins so ("Emma") the recipient.
var pronouns = map[string]bool{"em": true, "eir": true, "eirs": true, "emself": true, "he": true, "him": true,
	"his": true, "himself": true, "she": true, "her": true, "hers": true, "herself": true, "they": true, "them": true,
	"their": true, "theirs": true, "themself": true, "themselves": true, "it": true, "its": true, "itself": true,
	"you": true, "your": true, "yourself": true, "me": true, "my": true, "myself": true, "us": true, "we": true,
	"our": true, "ourselves": true}

func ambiguous(ref string, ps []*Player) error {
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return Reject(NamingRule, "%q is ambiguous: it could be %s; name one", ref, strings.Join(names, ", "))
}

// Register returns the player with this address, creating one named after the
// display name (or the address's local part) when the address is new. A name
// already taken gets a number appended.
func (s *State) Register(addr, display string) *Player {
	addr = strings.ToLower(strings.TrimSpace(addr))
	if p := s.PlayerByAddress(addr); p != nil {
		return p
	}
	base := cleanName(display)
	if base == "" {
		base = cleanName(strings.SplitN(addr, "@", 2)[0])
	}
	if base == "" {
		base = "player"
	}
	name := base
	for i := 2; s.PlayerByName(name) != nil; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	p := &Player{Name: name, Addresses: []string{addr}}
	s.Players = append(s.Players, p)
	return p
}

// maxName is the longest name kept, in bytes.
const maxName = 40

// encodedWord is an RFC 2047 encoded-word ("=?utf-8?q?Mall=C3=B6ry?=").
var encodedWord = lazyre.MustCompile(`=\?[^?\s]*\?[^?\s]*\?[^?\s]*\?=`)

// viaList is what a mailing list adds to a poster's display name ("Alice
// via agora-business"), found on the name's own bytes: lower-casing a copy
// first would move it where a letter's lower case has another length in
// bytes (Ⱥ, ⱥ; the Kelvin sign, k).
var viaList = lazyre.MustCompile(`(?i) via `)

// cleanName keeps a display name fit to print in a report and a header:
// RFC 2047 encoded-words decoded, or dropped when their charset is unknown
// (never copied raw, where a mail client would decode them into a header
// line); control characters and address punctuation removed; at most
// maxName bytes, cut on a character boundary.
func cleanName(s string) string {
	if encodedWord().MatchString(s) {
		var d mime.WordDecoder
		if dec, err := d.DecodeHeader(s); err == nil {
			s = dec
		}
		s = encodedWord().ReplaceAllString(s, "")
	}
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '"' || r == '<' || r == '>' || r == ',' || r == ';' {
			return -1
		}
		return r
	}, s)
	// Curly quotation marks around the name are no part of it ("I change
	// my name to “Alicia”"), as straight ones are not; Resolve leaves
	// them out of a reference.
	s = strings.TrimSpace(strings.Trim(strings.Join(strings.Fields(s), " "), "“”«»"))
	if at := viaList().FindStringIndex(s); at != nil {
		s = s[:at[0]] // after Fields, s does not start with a space
	}
	// At most maxName bytes: a character the cut splits is dropped whole
	// (s was valid UTF-8, so only the cut character's bytes are not).
	return strings.TrimSpace(strings.ToValidUTF8(s[:min(len(s), maxName)], ""))
}

// Members lists the players in the game, in the order they joined (then by name).
func (s *State) Members(game string) []*Player {
	var out []*Player
	for _, p := range s.Players {
		if p.In(game) {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(p, q *Player) int {
		return cmp.Or(p.Joined[game].Compare(q.Joined[game]), strings.Compare(p.Name, q.Name))
	})
	return out
}

// Join makes the player a member of the game at t.
func (s *State) Join(p *Player, game string, t time.Time) {
	if p.In(game) {
		return
	}
	s.touchPlayer(p)
	s.undoLog().touch("", p.Name)
	p.Member = append(p.Member, game)
	sort.Strings(p.Member)
	if p.Joined == nil {
		p.Joined = map[string]time.Time{}
	}
	p.Joined[game] = t
}

// Leave removes the player from the game at t.
func (s *State) Leave(p *Player, game string, t time.Time) {
	s.touchPlayer(p)
	s.undoLog().touch("", p.Name)
	out := p.Member[:0]
	for _, g := range p.Member {
		if g != game {
			out = append(out, g)
		}
	}
	p.Member = out
	if p.Left == nil {
		p.Left = map[string]time.Time{}
	}
	p.Left[game] = t
}
