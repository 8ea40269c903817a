package contract

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// WriteText is the text the state file's writer (indent 2) or the state
// hash's (indent 4) writes of v.
func WriteText(v any, indent int) ([]byte, error) {
	if indent == 4 {
		return marshalText(v)
	}
	return encodeYAML(v)
}

// WriteTextBefore is WriteText as it was written before the texts that
// begin with a space and hold a line break were placed (quoteMisplaced)
// and the node of a value written indented by 2 (encodeNode): the node
// made by n.Encode, indented by 4.
func WriteTextBefore(v any, indent int) ([]byte, error) {
	emit := emitYAML
	if indent == 4 {
		emit = yaml.Marshal
	}
	b, err := emit(v)
	if err != nil || !mayLoseText(b) {
		return b, err
	}
	var f textFinder
	if f.find(reflect.ValueOf(v)); len(f.texts) == 0 {
		return b, nil
	}
	var n yaml.Node
	if err := f.encodeBefore(&n, v); err != nil {
		return nil, err
	}
	return emit(&n)
}

// encodeBefore is encode as it was: the value with its texts replaced
// encoded by n.Encode.
func (f *textFinder) encodeBefore(n *yaml.Node, v any) error {
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
	if err := n.Encode(replaceTexts(reflect.ValueOf(v), places).Interface()); err != nil {
		return err
	}
	quoteTexts(n, back)
	return nil
}

// HashedText is the text the state hash of s covers, for game ("" for
// every game).
func HashedText(s *State, game string, seq int64, at time.Time) ([]byte, error) {
	h := hashedState{Game: game, Seq: seq, Time: at.UTC(), Players: s.Players, Ledger: s.Ledger, Points: s.Points,
		Intents: s.Intents, Rulings: s.Rulings, Claims: s.Claims, Games: s.Games}
	if game != "" {
		h.Games = map[string]*GameState{game: s.Games[game]}
	}
	return new(hashText).of(&h)
}

// Hashed is the value the state hash of s covers, for every game.
func Hashed(s *State) any {
	return &hashedState{Players: s.Players, Ledger: s.Ledger, Points: s.Points,
		Intents: s.Intents, Rulings: s.Rulings, Claims: s.Claims, Games: s.Games}
}

// WriteSection is game section g as the state file writes it under
// "games:" (its ID "g"), and as the writer as it was (WriteTextBefore)
// wrote it.
func WriteSection(g *GameState) (now, before []byte, err error) {
	es, err := encodeSection(g, nil)
	if err != nil {
		return nil, nil, err
	}
	if before, err = WriteTextBefore(g, 2); err != nil {
		return nil, nil, err
	}
	head := []byte("games:\n  g:\n")
	return append(head, indent(es.text, "    ")...), append(slices.Clone(head), indent(before, "    ")...), nil
}
