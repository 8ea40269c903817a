package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
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
	secretFile := fs.String("secret-file", "", "the master secret: 64 hex digits, as the state writes it, or 32 raw bytes")
	start := fs.String("start", "", "the state's creation time, RFC 3339 (default now)")
	tmpl := fs.Bool("template", false, "write the committed starting state (no secret)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := noArguments(fs); err != nil {
		return err
	}
	if *tmpl && *secretFile != "" {
		return usagef("--template writes the starting state, which holds no secret: leave out --secret-file, or --template to write a working state")
	}
	secret, err := readSecretFile(*secretFile)
	if err != nil {
		return err
	}
	cfg, err := c.load()
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	if *start != "" {
		t, err := flagTime("start", *start)
		if err != nil {
			return err
		}
		now = t.UTC()
	}
	// The state's directory is made here when missing (and removed
	// again if init is refused).
	release, err := lockState(cfg.State)
	if err != nil {
		return err
	}
	defer release()
	if *tmpl {
		e, err := templateEngine()
		if err != nil {
			return err
		}
		s, _, err := e.NewState(nil, time.Time{})
		if err != nil {
			return err
		}
		if !*force {
			if _, err := os.Stat(cfg.State); err == nil {
				return usagef("%s exists; use --force to overwrite it", cfg.State)
			}
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
	s, ent, err := startState(e, cfg, s, now, secret)
	if err != nil {
		return err
	}
	kept, err := setAside(cfg, *force, time.Now())
	if err != nil {
		return err
	}
	for _, k := range kept {
		fmt.Fprintf(stdout, "kept the old %s as %s\n", k[0], k[1])
	}
	j, err := store.OpenJournal(store.JournalPath(cfg.State), store.Position{})
	if err != nil {
		return err
	}
	defer j.Close()
	if err := store.Commit(j, cfg.State, s, ent); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote a fresh state %s (games: %s)\n", cfg.State, strings.Join(gameIDs(), ", "))
	return nil
}

// setAside moves an existing state and journal to dated copies
// (state.yaml.old-<time>, journal.jsonl.old-<time>) when force is set, and
// refuses to start over them otherwise: init never deletes a record. It
// returns the pairs moved (old name, new name).
func setAside(cfg *Config, force bool, now time.Time) ([][2]string, error) {
	if err := othersJournal(cfg.State); err != nil {
		return nil, err
	}
	var found []string
	for _, p := range []string{cfg.State, store.JournalPath(cfg.State)} {
		fi, err := os.Stat(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, err
		case fi.IsDir() || fi.Size() > 0 || p == cfg.State:
			found = append(found, p)
		}
	}
	if len(found) == 0 {
		return nil, nil
	}
	if !force {
		verb := "exists"
		if len(found) > 1 {
			verb = "exist"
		}
		return nil, usagef("%s %s; use --force to start afresh (the old files are kept as dated copies)", strings.Join(found, " and "), verb)
	}
	stamp := now.UTC().Format("20060102T150405Z")
	var moved [][2]string
	for _, p := range found {
		to := p + ".old-" + stamp
		for i := 2; ; i++ {
			if _, err := os.Lstat(to); errors.Is(err, os.ErrNotExist) {
				break
			}
			to = fmt.Sprintf("%s.old-%s-%d", p, stamp, i)
		}
		if err := os.Rename(p, to); err != nil {
			return moved, fmt.Errorf("keep the old %s: %w", p, err)
		}
		moved = append(moved, [2]string{p, to})
	}
	return moved, nil
}
