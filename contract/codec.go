package contract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"

	"gopkg.in/yaml.v3"
)

// Encode writes the state as YAML with a stable key order (struct fields in
// declaration order, map keys sorted), so that a contestmaster who keeps it in git
// gets readable diffs.
//
// The game sections, last in the file, are encoded one by one and their text is
// kept: a section equal to the one last encoded is written from that text, so a
// message that touches one game does not pay for encoding the others.
func Encode(s *State) ([]byte, error) {
	top := *s
	top.Games = nil
	b, err := encodeYAML(&top)
	if err != nil {
		return nil, fmt.Errorf("encode state: %w", err)
	}
	b = bytes.TrimSuffix(b, []byte("games: {}\n"))
	if len(s.Games) == 0 {
		return append(b, "games: {}\n"...), nil
	}
	b = append(b, "games:\n"...)
	ids := make([]string, 0, len(s.Games))
	for id := range s.Games {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		gs := s.Games[id]
		text, err := gs.encoded()
		if err != nil {
			return nil, fmt.Errorf("encode state: games.%s: %w", id, err)
		}
		b = append(b, "  "...)
		b = append(b, id...)
		b = append(b, ":\n"...)
		for _, line := range bytes.SplitAfter(text, []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			if len(line) > 1 {
				b = append(b, "    "...)
			}
			b = append(b, line...)
		}
	}
	return b, nil
}

func encodeYAML(v any) ([]byte, error) {
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

// encoded is the section's YAML, from the cache when the section is unchanged.
func (g *GameState) encoded() ([]byte, error) {
	if g.text != nil && sameSection(g, g.text.of) {
		return g.text.yaml, nil
	}
	b, err := encodeYAML(g)
	if err != nil {
		return nil, err
	}
	cp := deepCopy(reflect.ValueOf(g)).Interface().(*GameState)
	cp.text = nil
	g.text = &sectionText{of: cp, yaml: b}
	return b, nil
}

func sameSection(a, b *GameState) bool {
	return a.Contestmaster == b.Contestmaster && a.LastReport.Equal(b.LastReport) &&
		reflect.DeepEqual(a.Params, b.Params) && reflect.DeepEqual(a.Recent, b.Recent) && reflect.DeepEqual(a.Data, b.Data)
}

// ErrFutureVersion is returned for a state written by a newer build.
var ErrFutureVersion = errors.New("state was written by a newer version of referee")

// Decode reads a state strictly: an unknown key is an error naming it, a missing
// or future version is refused. The games' sections are decoded into their own
// types by e.Bind.
func (e *Engine) Decode(b []byte) (*State, error) {
	var s State
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the state is empty")
		}
		return nil, err
	}
	switch {
	case s.Version == 0:
		return nil, errors.New("version: missing (is this a referee state?)")
	case s.Version > Version:
		return nil, fmt.Errorf("version %d: %w (this build reads version %d)", s.Version, ErrFutureVersion, Version)
	}
	if err := e.Bind(&s); err != nil {
		return nil, err
	}
	return &s, nil
}

func decodeStrict(n *yaml.Node, into any) error {
	b, err := yaml.Marshal(n)
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
