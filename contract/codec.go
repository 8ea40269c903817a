package contract

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// Encode writes the state as YAML with a stable key order (struct fields in
// declaration order, map keys sorted), so that a contestmaster who keeps it in git
// gets readable diffs.
func Encode(s *State) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("encode state: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode state: %w", err)
	}
	return b.Bytes(), nil
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
