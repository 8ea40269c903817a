package contract

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Texts that begin with a line break or a tab. The YAML encoder writes a
// string holding a line feed as a literal block scalar ("|"), and its
// block scalars do not round-trip every text: one that begins with a line
// break ("\n", "\r", U+0085, U+2028, U+2029) is written with the break
// ending the header line, so it is read back without it (go-yaml issue
// #963: "|2-" then the text's second line), and one whose first line begins
// with a tab is written so that the decoder refuses it ("found a tab
// character where an indentation space is expected"). A notice's body, a
// held message's text or a player's own words can begin so, and a state
// saved and loaded would differ from the state kept, or not load.
//
// Such texts are written double-quoted, with escapes, which every text
// survives. The YAML encoder has no option for it, so a value holding one
// is encoded with each such text replaced by a placeholder, and the
// placeholders' nodes are given the texts back, double-quoted, before the
// nodes are written. A value without one is encoded as before, byte for
// byte: the encoder's text is scanned for the block headers such a text
// gets (mayLoseText, some 20 ns a kilobyte), and only then is the
// value searched.

// breakingText: s is UTF-8 and holds a line feed (so the encoder writes it
// as a block scalar, not as !!binary) and begins with a line break or a
// tab.
func breakingText(s string) bool {
	if s == "" || strings.IndexByte(s, '\n') < 0 || !utf8.ValidString(s) {
		return false
	}
	switch s[0] {
	case '\n', '\r', '\t':
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r == 0x85 || r == 0x2028 || r == 0x2029
}

// mayLoseText: b, the YAML encoder's text, may hold a block scalar of a
// breakingText: a literal header with an indentation digit (written for a
// text that begins with a space or a line break), or one whose first
// content line begins with a tab. A text's own "|" may look like one too;
// the value is then searched for nothing.
func mayLoseText(b []byte) bool {
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '|')
		if j < 0 {
			return false
		}
		i += j + 1
		k := i
		if k < len(b) && '1' <= b[k] && b[k] <= '9' {
			return true
		}
		if k < len(b) && (b[k] == '-' || b[k] == '+') {
			k++
		}
		if k < len(b) && b[k] == '\n' {
			for k++; k < len(b) && b[k] == ' '; k++ {
			}
			if k < len(b) && b[k] == '\t' {
				return true
			}
		}
	}
	return false
}

// Texts of a game's section that hold a line feed and a line or paragraph
// separator (U+2028, U+2029) before a character of a line (separatedText).
// The encoder writes such a text as a literal block scalar with the
// separator as it is, and the decoder reads the separator as a line break
// (and keeps it): the encoder writes the rest of that line at the block's
// indentation, from the separator on. A game's section is encoded apart
// and indented under "games:" line by line (indent), a line being what
// ends with a line feed: the rest of the line after the separator is not
// indented, and the section is read without it, or not at all. Such a
// text of a section is double-quoted too (the separator escaped, "\L",
// "\P"); a quoted text's separator is written as it is but read back as
// it is whatever the indentation, and is written as before.

// separatedText: s is UTF-8, holds a line feed (so the encoder writes it
// as a block scalar), and a line or paragraph separator ends it or comes
// before a character other than a line feed or a separator.
func separatedText(s string) bool {
	if strings.IndexByte(s, '\n') < 0 || !utf8.ValidString(s) {
		return false
	}
	for i, r := range s {
		if r != 0x2028 && r != 0x2029 {
			continue
		}
		next, _ := utf8.DecodeRuneInString(s[i+3:])
		if next != '\n' && next != 0x2028 && next != 0x2029 {
			return true // utf8.RuneError at the end
		}
	}
	return false
}

// quotingTexts is emit(v), with every breakingText of v double-quoted, and
// every indentedText the emitter misplaces (indent: the emitter's
// indentation, 2 or 4), and, for a game's section (section), every
// separatedText: the text emit writes is kept unless it may hold one of
// them (mayLoseText, or a separator written as it is) and v holds one; v
// is then encoded into a node with the texts quoted, and the node emitted.
func quotingTexts(v any, emit func(any) ([]byte, error), indent int, section bool) ([]byte, error) {
	b, err := emit(v)
	if err != nil || !mayLoseText(b) && !(section && separated(b)) {
		return b, err
	}
	f := textFinder{section: section}
	if f.find(reflect.ValueOf(v)); len(f.texts) == 0 && indent == 2 {
		return b, nil
	}
	var n yaml.Node
	if err := f.encode(&n, v); err != nil {
		return nil, err
	}
	if quoteMisplaced(&n, indent, 0) == 0 && len(f.texts) == 0 {
		return b, nil
	}
	return emit(&n)
}

// encode encodes v into n with the texts found in it double-quoted.
func (f *textFinder) encode(n *yaml.Node, v any) error {
	// Each text's placeholder: a run of NULs longer than any a string of v
	// begins with, then the text's rank among them, so that no string of v
	// is one and the placeholders' order (a map's keys') is the texts'.
	slices.Sort(f.texts)
	texts := slices.Compact(f.texts)
	prefix := strings.Repeat("\x00", f.nuls+1)
	places := make(map[string]string, len(texts))
	back := make(map[string]string, len(texts))
	width := len(strconv.Itoa(len(texts)))
	for i, t := range texts {
		p := prefix + fmt.Sprintf("%0*d", width, i)
		places[t], back[p] = p, t
	}
	if err := encodeNode(n, replaceTexts(reflect.ValueOf(v), places).Interface()); err != nil {
		return err
	}
	quoteTexts(n, back)
	return nil
}

// encodeNode encodes v into n, as n.Encode(v) does (the text written and
// parsed), but written indented by 2: n.Encode indents by 4, and misplaces
// an indentedText in an item of a list, which is then parsed without its
// first spaces, or not at all.
func encodeNode(n *yaml.Node, v any) error {
	b, err := emitYAML(v)
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return err
	}
	*n = *doc.Content[0]
	return nil
}

// Texts that begin with a space and hold a line break (indentedText). The
// YAML encoder writes such a text as a literal block scalar with an
// indentation indicator, the digit of its own indentation ("|2-" indented
// by 2, "|4-" by 4): the decoder reads the block's lines from that many
// columns past the list's "-" or the mapping's keys that hold it. The
// encoder writes them elsewhere where its indentation is not 2
// (yaml_emitter_increase_indent): an item of a list 2 columns past its
// "-" whatever the indentation, and a key or value of a mapping at the
// next multiple of the indentation past the mapping's keys, which are 2
// past a "-" when the mapping is an item of a list. The text is then read
// back without its first spaces (every line of it indented as much), or
// not at all. The state file is indented by 2 and its texts are read back
// as they were written; the state hash's text is yaml.Marshal's, indented
// by 4, where the texts of the items of a list (a player, an intent, a
// claim, a proposal of a game) would be misplaced, and are double-quoted
// instead.

// indentedText: s begins with a space, which the encoder's block scalar
// writes with an indentation indicator. (So does a line break; but a text
// that begins with one and holds a line feed, as a block scalar does, is a
// breakingText, double-quoted already.)
func indentedText(s string) bool { return strings.HasPrefix(s, " ") }

// quoteMisplaced double-quotes each block scalar of n, a collection the
// encoder writes at column at with its indentation indent, that the
// encoder would misplace (an indentedText written where its indicator
// does not say), and counts them. A scalar's lines are written at the
// column of the collection's items (yaml_emitter_increase_indent); the
// decoder reads them at the indicator's columns past the collection's.
func quoteMisplaced(n *yaml.Node, indent, at int) int {
	var inner int // the column of its items
	switch {
	case n.Style&yaml.FlowStyle != 0:
		return 0 // its scalars are quoted, never blocks
	case n.Kind == yaml.SequenceNode:
		inner = at + 2 // past the "- "
	case n.Kind == yaml.MappingNode:
		inner = indent * ((at + indent) / indent)
	default:
		return 0
	}
	moved := 0
	for _, c := range n.Content {
		switch c.Kind {
		case yaml.ScalarNode:
			if c.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 && indentedText(c.Value) && inner != at+indent {
				c.Style = yaml.DoubleQuotedStyle
				moved++
			}
		case yaml.SequenceNode, yaml.MappingNode:
			moved += quoteMisplaced(c, indent, inner)
		}
	}
	return moved
}

// quoteTexts gives each placeholder's node its text back, double-quoted.
func quoteTexts(n *yaml.Node, back map[string]string) {
	if n.Kind == yaml.ScalarNode {
		if t, ok := back[n.Value]; ok {
			n.Value, n.Style = t, yaml.DoubleQuotedStyle
		}
		return
	}
	for _, c := range n.Content {
		quoteTexts(c, back)
	}
}

// separated: b holds a line or paragraph separator as it is.
func separated(b []byte) bool {
	return bytes.Contains(b, []byte("\u2028")) || bytes.Contains(b, []byte("\u2029"))
}

// textFinder lists the breakingTexts of a value (map keys too), and its
// separatedTexts when it is a game's section, and the longest run of NULs
// any of its strings begins with.
type textFinder struct {
	texts   []string
	nuls    int
	section bool
}

var nodeType = reflect.TypeFor[yaml.Node]()

func (f *textFinder) find(v reflect.Value) {
	if !holdsText(v.Type()) {
		return
	}
	switch v.Kind() {
	case reflect.String:
		f.text(v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			f.find(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.find(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			f.find(v.Index(i))
		}
	case reflect.Map:
		if m, ok := v.Interface().(map[string]string); ok {
			for k, s := range m { // without reflection: a game's cells, its parameters
				f.text(k)
				f.text(s)
			}
			return
		}
		it := v.MapRange()
		for it.Next() {
			f.find(it.Key())
			f.find(it.Value())
		}
	}
}

func (f *textFinder) text(s string) {
	if breakingText(s) || f.section && separatedText(s) {
		f.texts = append(f.texts, s)
	}
	if s != "" && s[0] == 0 {
		f.nuls = max(f.nuls, len(s)-len(strings.TrimLeft(s, "\x00")))
	}
}

// replaceTexts is a copy of v with each string that places names replaced
// by its placeholder, the rest shared with v where it holds none.
func replaceTexts(v reflect.Value, places map[string]string) reflect.Value {
	if !holdsText(v.Type()) {
		return v
	}
	switch v.Kind() {
	case reflect.String:
		if p, ok := places[v.String()]; ok {
			n := reflect.New(v.Type()).Elem()
			n.SetString(p)
			return n
		}
		return v
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type().Elem())
		n.Elem().Set(replaceTexts(v.Elem(), places))
		return n
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type()).Elem()
		n.Set(replaceTexts(v.Elem(), places))
		return n
	case reflect.Struct:
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				n.Field(i).Set(replaceTexts(v.Field(i), places))
			}
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			n.Index(i).Set(replaceTexts(v.Index(i), places))
		}
		return n
	case reflect.Array:
		n := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			n.Index(i).Set(replaceTexts(v.Index(i), places))
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			n.SetMapIndex(replaceTexts(it.Key(), places), replaceTexts(it.Value(), places))
		}
		return n
	}
	return v
}

// textTypes caches holdsText by type.
var textTypes sync.Map // reflect.Type -> bool

// holdsText: a value of type t may hold a string the encoder writes (a
// yaml.Node is written as it is, its style its own).
func holdsText(t reflect.Type) bool {
	if h, ok := textTypes.Load(t); ok {
		return h.(bool)
	}
	h := typeHoldsText(t, map[reflect.Type]bool{})
	textTypes.Store(t, h)
	return h
}

func typeHoldsText(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == nodeType {
		return false
	}
	if seen[t] {
		return false // a cycle: the answer comes from the other fields
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return typeHoldsText(t.Elem(), seen)
	case reflect.Map:
		return typeHoldsText(t.Key(), seen) || typeHoldsText(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() && typeHoldsText(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}
