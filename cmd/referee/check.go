package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"referee/contract/store"
)

const checkUsage = `Usage: referee check [--state F] [--config F]

Validates the configuration and the state and prints every problem, each naming
the file and key at fault. Exit status 2 when there is any.

The configuration, referee.yaml (every key optional; environment variables in
parentheses override it), as referee config prints it:

`

const configUsage = `Usage: referee config

Prints the configuration's schema: referee.yaml with every key, its default
(or an example), the environment variable that overrides it, in parentheses,
and what it is for.
`

// withSchema is a usage text followed by the configuration's schema.
func withSchema(usage string) string {
	var b strings.Builder
	b.WriteString(usage)
	printSchema(&b)
	return b.String()
}

func cmdConfig(args []string, stdout, stderr io.Writer) error {
	fs, _ := newFlags("config", configUsage, stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	printSchema(stdout)
	return nil
}

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs, c := newFlags("check", withSchema(checkUsage), stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, err := c.loadUnchecked()
	if err != nil {
		return err
	}
	problems := cfg.validate(gameIDs())
	e, err := newEngine(cfg)
	if err != nil {
		return err
	}
	s, err := store.Load(e, cfg.State)
	switch {
	case errors.Is(err, os.ErrNotExist):
		problems = append(problems, fmt.Sprintf("%s: no state yet (referee init or referee run creates it)", cfg.State))
	case err != nil:
		problems = append(problems, err.Error())
	default:
		for _, p := range e.Check(s) {
			problems = append(problems, cfg.State+": "+p)
		}
		if len(s.Outbox) > 0 {
			fmt.Fprintf(stdout, "%s: %d notice(s) waiting in the outbox\n", cfg.State, len(s.Outbox))
		}
	}
	for _, p := range problems {
		fmt.Fprintln(stdout, p)
	}
	if len(problems) > 0 {
		return errProblems
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}
