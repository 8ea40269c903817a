package contract

import (
	"bytes"
	"fmt"
	"reflect"
	"sync"

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
// when the games' IDs do not read back as themselves, "games:" is.

// hashText keeps the text of each game's recent events between hashes. The
// zero value is ready to use; it may be used by several goroutines.
type hashText struct {
	mu     sync.Mutex
	recent map[string]map[Happening][]byte // by game ID: each entry's text
}

// of returns the YAML encoding of h, as yaml.Marshal(h) writes it.
func (c *hashText) of(h *hashedState) ([]byte, error) {
	var out []byte
	v := reflect.ValueOf(h).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Name == "Games" && len(h.Games) > 0 {
			if ids := yamlKeyOrder(h.Games); ids != nil {
				games, err := c.games(h.Games, ids)
				if err != nil {
					return nil, err
				}
				out = append(out, games...)
				continue
			}
		}
		one := reflect.New(reflect.StructOf([]reflect.StructField{{Name: f.Name, Type: f.Type, Tag: f.Tag}})).Elem()
		one.Field(0).Set(v.Field(i))
		b, err := yaml.Marshal(one.Interface())
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}

// gamesKey is hashedState's "games:" key.
const gamesKey = "games:\n"

// games is the "games:" key of hashedState with the sections of games, in
// the order ids.
func (c *hashText) games(games map[string]*GameState, ids []string) ([]byte, error) {
	out := []byte(gamesKey)
	for _, id := range ids {
		b, err := c.section(id, games[id])
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
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

// section is the text of game id's section g under "games:".
func (c *hashText) section(id string, g *GameState) ([]byte, error) {
	if g == nil || len(g.Recent) == 0 {
		return gameText(id, g)
	}
	bare := *g
	bare.Recent = []Happening{{What: fmt.Sprintf("the recent events of %q, encoded apart", id)}}
	mark, err := happeningText(bare.Recent[0])
	if err != nil {
		return nil, err
	}
	b, err := gameText(id, &bare)
	if err != nil {
		return nil, err
	}
	if bytes.Count(b, mark) != 1 || !bytes.Contains(b, append([]byte("\n"), mark...)) {
		return gameText(id, g)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.recent == nil {
		c.recent = map[string]map[Happening][]byte{}
	}
	kept := c.recent[id]
	fresh := make(map[Happening][]byte, len(g.Recent))
	size := 0
	for _, ev := range g.Recent {
		t, ok := fresh[ev]
		if !ok {
			if t, ok = kept[ev]; !ok {
				if t, err = happeningText(ev); err != nil {
					return nil, err
				}
			}
			fresh[ev] = t
		}
		size += len(t)
	}
	text := make([]byte, 0, size)
	for _, ev := range g.Recent {
		text = append(text, fresh[ev]...)
	}
	c.recent[id] = fresh
	return splice(b, []part{{string(mark), text}})
}

// gameText is the text of game id's section g under "games:", encoded as a
// document of its own.
func gameText(id string, g *GameState) ([]byte, error) {
	b, err := yaml.Marshal(map[string]map[string]*GameState{"games": {id: g}})
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(b, []byte(gamesKey)) {
		return nil, fmt.Errorf("state hash: unexpected encoding of section %q:\n%s", id, b)
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

// happeningText is the text of one entry of a game's recent events as the
// YAML encoder writes it inside hashedState.
func happeningText(ev Happening) ([]byte, error) {
	b, err := yaml.Marshal(map[string]map[string]happeningProbe{"games": {"g": {Recent: []Happening{ev}}}})
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(b, []byte(probeHead)) || !bytes.HasSuffix(b, []byte(probeTail)) || len(b) < len(probeHead)+len(probeTail) {
		return nil, fmt.Errorf("state hash: unexpected encoding of a recent event:\n%s", b)
	}
	return b[len(probeHead) : len(b)-len(probeTail)], nil
}
