package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"referee/internal/bridge"
)

const reportUsage = `Usage: referee report [--state F] [--config F] GAME

Prints the game's current report as it would be mailed now (subject, then
body with its citation block: identifier, journal lines covered, state hash,
ratification date). The state is not changed. GAME is one of: life, rumble,
steemfield, wackyworld.
`

func cmdReport(args []string, stdout, stderr io.Writer) error {
	fs, c := newFlags("report", reportUsage, stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("name one game: %s", strings.Join(gameIDs(), ", "))
	}
	cfg, e, s, err := c.loadState()
	if err != nil {
		return err
	}
	// The game as its id, "life", or as players write it, "Life".
	game := strings.ToLower(fs.Arg(0))
	if e.Game(game) == nil {
		return usagef("no game %q (the games are %s)", fs.Arg(0), strings.Join(gameIDs(), ", "))
	}
	now := s.Clock
	if now.IsZero() {
		now = time.Now().UTC()
	}
	n, err := e.MailedReport(s, game, now)
	if err != nil {
		return err
	}
	m := bridge.Mail(n, addresses(cfg))
	fmt.Fprintf(stdout, "Subject: %s\n\n%s", m.Subject, m.Body)
	return nil
}
