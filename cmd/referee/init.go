package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"referee/contract"
	"referee/contract/store"
)

const initUsage = `Usage: referee init [--state F] [--config F] [--force] [--secret-file F] [--start TIME] [--template]

Writes a fresh state for the configured games, with their default parameters
(and those set under games.<game>.params in the configuration), a new master
secret, and the first Randomness notice in its outbox. It refuses to overwrite a
state without --force. --template writes the committed starting state instead
(no secret, no clock): the state.yaml at the repository's root.
`

func cmdInit(args []string, stdout, stderr io.Writer) error {
	fs, c := newFlags("init", initUsage, stderr)
	force := fs.Bool("force", false, "overwrite an existing state")
	secretFile := fs.String("secret-file", "", "read the 32-byte master secret from this file (tests)")
	start := fs.String("start", "", "the state's creation time, RFC 3339 (default now)")
	tmpl := fs.Bool("template", false, "write the committed starting state (no secret)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	cfg, err := c.load()
	if err != nil {
		return err
	}
	if !*force {
		if _, err := os.Stat(cfg.State); err == nil {
			return usagef("%s exists; use --force to overwrite it", cfg.State)
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if *tmpl {
		e, err := templateEngine()
		if err != nil {
			return err
		}
		s, _, err := e.NewState(nil, time.Time{})
		if err != nil {
			return err
		}
		b, err := contract.Encode(s)
		if err != nil {
			return err
		}
		if err := store.WriteAtomic(cfg.State, b, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote the starting state %s\n", cfg.State)
		return nil
	}
	now := time.Now().UTC()
	if *start != "" {
		t, err := time.Parse(time.RFC3339, *start)
		if err != nil {
			return usagef("--start: %v", err)
		}
		now = t.UTC()
	}
	e, err := newEngine(cfg)
	if err != nil {
		return err
	}
	s, _, err := e.NewState(nil, time.Time{})
	if err != nil {
		return err
	}
	if err := applyGameParams(e, s, cfg); err != nil {
		return err
	}
	s, ent, err := startState(e, cfg, s, now, *secretFile)
	if err != nil {
		return err
	}
	jpath := store.JournalPath(cfg.State)
	os.Remove(jpath)
	j, err := store.OpenJournal(jpath, 0)
	if err != nil {
		return err
	}
	defer j.Close()
	if err := store.Commit(j, cfg.State, s, ent); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote a fresh state %s (games: %v)\n", cfg.State, gameIDs())
	return nil
}
