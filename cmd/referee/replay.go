package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"referee/contract"
	"referee/contract/store"
	"referee/internal/bridge"
	"referee/mailin"
	"referee/mailout"
)

const replayUsage = `Usage: referee replay [--state F] [--config F] [--until TIME] [--out DIR] ARCHIVE...

Applies archived mail in order — mbox files (mboxo or mboxrd, the From_ line's
date as the arrival time), maildir folders, single .eml files, and imap:FOLDER, a
folder of the configured IMAP server read without changing it (INTERNALDATE as
the arrival time) — running every
scheduled event whose time has passed between messages, then every event up to
--until. Each outgoing mail is written as DIR/0001.eml, 0002.eml, ... (numbering
continues after the files already there); without --out the mails are counted
and dropped. The state is saved at the end. A state that does not exist yet is
created from the starting state at the first message's arrival time. Replaying
the same archive again changes nothing: every message is remembered.
`

func cmdReplay(args []string, stdout, stderr io.Writer) error {
	fs, c := newFlags("replay", replayUsage, stderr)
	until := fs.String("until", "", "run scheduled events up to this time, RFC 3339")
	out := fs.String("out", "", "write outgoing mail here as numbered .eml files")
	secretFile := fs.String("secret-file", "", "the master secret of a state this replay creates: 64 hex digits, as the state writes it, or 32 raw bytes")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("name at least one archive")
	}
	var untilT time.Time
	if *until != "" {
		t, err := time.Parse(time.RFC3339, *until)
		if err != nil {
			return usagef("--until: %v", err)
		}
		untilT = t.UTC()
	}
	cfg, err := c.load()
	if err != nil {
		return err
	}
	e, err := newEngine(cfg)
	if err != nil {
		return err
	}
	s, err := store.Load(e, cfg.State)
	fresh := errors.Is(err, os.ErrNotExist)
	if err != nil && !fresh {
		return err
	}
	if err := checkJournal(cfg, keepOf(s)); err != nil {
		return err
	}
	var entries []contract.Entry
	pipe := &bridge.Pipeline{Engine: e, Mail: mailinConfig(cfg)}
	progress := newProgress(stderr)
	n := 0
	for _, path := range fs.Args() {
		a, err := openArchive(cfg, path)
		if err != nil {
			return err
		}
		for {
			raw, err := a.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				a.Close()
				return fmt.Errorf("read %s: %w", path, err)
			}
			if fresh {
				s, entries, err = openState(e, cfg, raw.Arrived, *secretFile)
				if err != nil {
					a.Close()
					return err
				}
				fresh = false
			}
			m, ent, err := pipe.Ingest(s, raw.Data, raw.Arrived)
			var ue *bridge.UnreadableError
			if errors.As(err, &ue) {
				fmt.Fprintf(stderr, "referee replay: %s: message %d unreadable, skipped: %v\n", path, n+1, ue.Err)
				continue
			}
			if err != nil {
				a.Close()
				return fmt.Errorf("%s: message %s: %w (the state was not saved)", path, m.ID, err)
			}
			entries = append(entries, ent...)
			n++
			progress.tick(n)
		}
		a.Close()
	}
	progress.done(n)
	if fresh {
		return usagef("the archives hold no message and there is no state to replay onto")
	}
	if !untilT.IsZero() {
		ent, err := e.Advance(s, untilT)
		if err != nil {
			return err
		}
		entries = append(entries, ent...)
	}
	written, err := writeOutbox(s, cfg, *out)
	if err != nil {
		return err
	}
	j, err := openJournal(cfg, s.JournalSeq-int64(len(entries)), printNote(stderr, "replay"))
	if err != nil {
		return err
	}
	defer j.Close()
	if err := store.Commit(j, cfg.State, s, entries); err != nil {
		return err
	}
	where := "dropped (no --out)"
	if *out != "" {
		where = "written to " + *out
	}
	fmt.Fprintf(stdout, "%d messages applied, %d journal entries, %d mails %s\n", n, len(entries), written, where)
	return nil
}

// openArchive opens an mbox file, a maildir, an .eml file, or "imap:FOLDER": a
// folder of the configured IMAP server read without changing it (the
// referee's own store of received mail, so a game can be rebuilt from it).
func openArchive(cfg *Config, path string) (mailin.Archive, error) {
	folder, ok := strings.CutPrefix(path, "imap:")
	if !ok {
		a, err := mailin.OpenArchive(path)
		if err != nil {
			return nil, usagef("%v", err)
		}
		return a, nil
	}
	if cfg.Embedded() {
		return nil, usagef("%s: no IMAP server is configured (imap.addr)", path)
	}
	ic, err := imapConfig(cfg, nil)
	if err != nil {
		return nil, err
	}
	ic.Mailbox = folder
	// Every IMAP command is bounded by mailin's own time limit.
	return mailin.OpenIMAPArchive(context.Background(), ic)
}

// writeOutbox writes every notice of the outbox as a numbered .eml file and
// empties the outbox.
func writeOutbox(s *contract.State, cfg *Config, dir string) (int, error) {
	count := len(s.Outbox)
	if dir == "" || count == 0 {
		s.Outbox = nil
		return count, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	next := 1
	entries, _ := os.ReadDir(dir)
	for _, en := range entries {
		if v, err := strconv.Atoi(strings.TrimSuffix(en.Name(), ".eml")); err == nil && strings.HasSuffix(en.Name(), ".eml") && v >= next {
			next = v + 1
		}
	}
	for _, o := range s.Outbox {
		raw, err := mailout.Compose(bridge.Mail(&o.Notice, addresses(cfg)))
		if err != nil {
			return 0, fmt.Errorf("compose %s: %w", o.ID, err)
		}
		if err := store.WriteAtomic(filepath.Join(dir, fmt.Sprintf("%04d.eml", next)), raw, 0o644); err != nil {
			return 0, err
		}
		next++
	}
	s.Outbox = nil
	return count, nil
}

// progress shows a line on a terminal for long archives.
type progress struct {
	w     io.Writer
	tty   bool
	start time.Time
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, start: time.Now()}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	return p
}

func (p *progress) tick(n int) {
	if !p.tty || n < 2000 || n%500 != 0 {
		return
	}
	el := time.Since(p.start).Seconds()
	bar := strings.Repeat("#", (n/2000)%30) + strings.Repeat(".", 30-(n/2000)%30)
	fmt.Fprintf(p.w, "\r[%s] %d messages, %.0f/s", bar, n, float64(n)/el)
}

func (p *progress) done(n int) {
	if p.tty && n >= 2000 {
		fmt.Fprintf(p.w, "\r%d messages in %.1fs%s\n", n, time.Since(p.start).Seconds(), strings.Repeat(" ", 30))
	}
}
