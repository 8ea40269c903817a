package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"referee/contract"
	"referee/contract/store"
)

// templatePath is the committed starting state, read when a working state is
// created on first use.
const templatePath = "state.yaml"

// template returns the starting state: the committed state.yaml when present,
// or the built-in one.
func template(e *contract.Engine) (*contract.State, error) {
	b, err := os.ReadFile(templatePath)
	if errors.Is(err, os.ErrNotExist) {
		s, _, err := e.NewState(nil, time.Time{})
		return s, err
	}
	if err != nil {
		return nil, fmt.Errorf("read the starting state: %w", err)
	}
	s, err := e.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", templatePath, err)
	}
	if s.Secret != "" {
		return nil, fmt.Errorf("%s: the committed starting state must hold no secret", templatePath)
	}
	return s, nil
}

// newSecret draws the 32-byte master secret, or reads it from a file (tests).
func newSecret(file string) ([]byte, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("read secret file: %w", err)
		}
		if len(b) < 32 {
			return nil, fmt.Errorf("secret file %s: needs at least 32 bytes", file)
		}
		return b[:32], nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("draw the master secret: %w", err)
	}
	return b, nil
}

// openState loads the working state, creating it from the starting state on
// first use (then at `now`, with a fresh secret, and the entries of its start).
func openState(e *contract.Engine, cfg *Config, now time.Time, secretFile string) (*contract.State, []contract.Entry, error) {
	s, err := store.Load(e, cfg.State)
	if err == nil {
		return s, nil, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	s, err = template(e)
	if err != nil {
		return nil, nil, err
	}
	if err := applyGameParams(e, s, cfg); err != nil {
		return nil, nil, err
	}
	return startState(e, cfg, s, now, secretFile)
}

func startState(e *contract.Engine, cfg *Config, s *contract.State, now time.Time, secretFile string) (*contract.State, []contract.Entry, error) {
	sec, err := newSecret(secretFile)
	if err != nil {
		return nil, nil, err
	}
	ent, err := e.Start(s, sec, now)
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(cfg.State), 0o700); err != nil {
		return nil, nil, fmt.Errorf("create the state's directory: %w", err)
	}
	return s, ent, nil
}
