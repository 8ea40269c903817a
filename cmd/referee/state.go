package main

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"referee/contract"
	"referee/contract/store"
	"referee/contract/text"
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

// secretForm is the syntax --secret-file takes, for its refusals.
const secretForm = "name a file holding the master secret as 64 hex digits (as the state writes it; a newline after them is allowed) or as 32 raw bytes"

// readSecretFile reads the master secret --secret-file names; nil when no
// file is named (a secret is drawn then). A file missing, unreadable or
// holding neither form is bad usage: a text that is almost the hex of a
// secret is not taken as raw bytes.
func readSecretFile(file string) ([]byte, error) {
	if file == "" {
		return nil, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, usagef("--secret-file: %v; %s", err, secretForm)
	}
	t := bytes.TrimSpace(b)
	if len(t) == 64 {
		h, err := hex.DecodeString(string(t))
		if err == nil {
			return h, nil
		}
		// Where, not what: the file holds a secret, typed wrong.
		if i := bytes.IndexFunc(t, func(r rune) bool { return !isHexDigit(r) }); i >= 0 {
			return nil, usagef("--secret-file: %s holds 64 characters, but character %d is not a hex digit; %s", file, utf8.RuneCount(t[:i])+1, secretForm)
		}
	}
	if len(b) == 32 {
		return b, nil
	}
	// Said as the operator would count it: a text's characters without
	// the line break an editor ends it with, or the file's bytes.
	if utf8.Valid(t) && !bytes.ContainsFunc(t, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, usagef("--secret-file: %s holds %s, not 64 hex digits; %s", file, text.Count(utf8.RuneCount(t), "character", "characters"), secretForm)
	}
	return nil, usagef("--secret-file: %s holds %s, neither 64 hex digits nor 32 raw bytes; %s", file, text.Count(len(b), "byte", "bytes"), secretForm)
}

func isHexDigit(r rune) bool {
	return '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F'
}

// secretFileOnlyNew ends sameSecret's refusals with the way out.
const secretFileOnlyNew = "a replay takes --secret-file only for a state it creates: leave it out, or name a --state that does not exist yet"

// sameSecret refuses, as bad usage, a --secret-file (file) given for the
// state s that exists already (at path) when its secret is not the one s
// holds: the state keeps its own, and a secret named on the command line
// and then silently set aside would have the operator believe the draws
// come from it. Neither secret is named in the refusal. s holds a secret:
// a starting state, which holds none, is refused before (cmdReplay).
func sameSecret(s *contract.State, secret []byte, file, path string) error {
	have, err := hex.DecodeString(s.Secret)
	if err != nil || subtle.ConstantTimeCompare(have, secret) != 1 {
		return usagef("--secret-file %s: %s exists and has its own master secret, not this one; %s", file, path, secretFileOnlyNew)
	}
	return nil
}

// newSecret is the master secret read from --secret-file (sec), or a fresh
// one drawn when sec is nil.
func newSecret(sec []byte) ([]byte, error) {
	if sec != nil {
		return sec, nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("draw the master secret: %w", err)
	}
	return b, nil
}

// openState loads the working state, creating it from the starting state on
// first use (then at `now`, with a fresh secret, and the entries of its start).
// A starting state found at the working path (one holding no master secret,
// as init --template writes it) is started the same way: loaded as it is,
// it would run no scheduled event (no seed commitment, no round, no report)
// and be saved as a started state with no secret, which check calls broken.
// A replay refuses one before it comes here (cmdReplay).
func openState(e *contract.Engine, cfg *Config, now time.Time, secret []byte) (*contract.State, []contract.Entry, error) {
	s, err := store.Load(e, cfg.State)
	if err == nil && s.Secret != "" {
		return s, nil, nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	if err != nil {
		if s, err = template(e); err != nil {
			return nil, nil, err
		}
	}
	if err := applyGameParams(e, s, cfg); err != nil {
		return nil, nil, err
	}
	return startState(e, cfg, s, now, secret)
}

func startState(e *contract.Engine, cfg *Config, s *contract.State, now time.Time, secret []byte) (*contract.State, []contract.Entry, error) {
	sec, err := newSecret(secret)
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

// openJournal opens the journal beside the state, which includes up to
// position keep (zero: no saved state yet). What the store cuts by itself (a torn last
// line, the lines of a save that never finished) is told through note, a
// log function; a journal it refuses stops the command with the way out.
func openJournal(cfg *Config, keep store.Position, note func(msg string, args ...any)) (*store.Journal, error) {
	path := store.JournalPath(cfg.State)
	j, err := store.OpenJournal(path, keep)
	if err != nil {
		return nil, journalWayOut(err)
	}
	if o := j.Opened(); o.Cut() {
		note("journal cut back to the state", "journal", path, "cut", o.String())
	} else if o.Behind {
		note("the journal ends before the state: lines are missing from it (referee check lists them)", "journal", path, "journal_seq", o.LastSeq, "state_seq", o.Keep)
	}
	return j, nil
}

// checkJournal refuses, before any work, a journal that openJournal would
// refuse.
func checkJournal(cfg *Config, keep store.Position) error {
	if err := store.SyncFailedRefusal(store.JournalPath(cfg.State)); err != nil {
		return err
	}
	sc, err := store.ScanJournal(store.JournalPath(cfg.State), keep)
	if err != nil {
		return err
	}
	if r := sc.Refusal(); r != nil {
		if err := othersJournal(cfg.State); err != nil {
			return err
		}
		return journalWayOut(r)
	}
	return nil
}

// othersJournal refuses, as bad usage, a state to be made (path, which does
// not exist) in a directory whose journal is another state's, a state file
// of another name beside it: a directory holds the journal of one state,
// and the way out of a journal no state includes (check --repair, init
// --force) would take that state's history away from it.
func othersJournal(path string) error {
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	j := store.JournalPath(path)
	if fi, err := os.Stat(j); err != nil || fi.Size() == 0 {
		return nil
	}
	others := otherStates(path)
	if len(others) == 0 {
		return nil
	}
	return usagef("%s: no such state yet, and the journal beside it, %s, is the journal of %s (a directory holds the journal of one state): name a --state in a directory of its own, such as %s (or, if %s was lost, restore it: referee check explains); nothing was changed",
		path, j, strings.Join(others, " or "), filepath.Join(strings.TrimSuffix(path, filepath.Ext(path)), "state.yaml"), path)
}

// otherStates are the working states beside path, other than path: the
// .yaml files of its directory whose first lines hold a journal_seq past 0
// (the committed starting state holds 0).
func otherStates(path string) []string {
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.yaml"))
	var found []string
	for _, f := range files {
		if filepath.Clean(f) == filepath.Clean(path) {
			continue
		}
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		head := make([]byte, 1024)
		n, _ := io.ReadFull(fh, head)
		fh.Close()
		for _, line := range strings.Split(string(head[:n]), "\n") {
			if v, ok := strings.CutPrefix(line, "journal_seq: "); ok && v != "0" {
				found = append(found, f)
				break
			}
		}
	}
	return found
}

// journalWayOut adds to a refused journal what the operator can do.
func journalWayOut(err error) error {
	var je *store.JournalError
	if !errors.As(err, &je) {
		return err
	}
	first := "Restore the state file that includes these lines if you have it"
	if je.Undecodable {
		first = "Mend the line if you know what it held"
	}
	return fmt.Errorf("%w\nNothing was changed. `referee check` lists what is wrong. %s; or run `referee check --repair` to move the lines that cannot be kept to %s.cut-<time> (nothing is deleted)", err, first, filepath.Base(je.Path))
}

// printNote is a note function for commands without a logger.
func printNote(w io.Writer, cmd string) func(string, ...any) {
	return func(msg string, args ...any) {
		fmt.Fprintf(w, "referee %s: %s", cmd, msg)
		for i := 0; i+1 < len(args); i += 2 {
			fmt.Fprintf(w, " %v=%v", args[i], args[i+1])
		}
		fmt.Fprintln(w)
	}
}

// keepOf is the last journal seq a loaded state includes (0 for none).
func keepOf(s *contract.State) int64 {
	if s == nil {
		return 0
	}
	return s.JournalSeq
}

// A fresh state's first save writes its journal lines (the Randomness
// commitments of its start), then the state file. Killed between the two,
// `referee run` leaves lines beside no state, which the journal guards
// refuse, since a state lost after its first save would leave the same
// lines with its notices perhaps published. The mark, written before the
// first save and removed after it, tells the two apart: with the mark,
// the save never finished, so nothing of it was sent (mail goes only after
// its save) and its lines can be cut, a copy kept, as replay does with its
// checkpoint.

// firstSaveMark is the mark beside the state at path.
func firstSaveMark(path string) string { return path + ".first-save" }

// markFirstSave writes the mark, synced, before a fresh state's first save.
func markFirstSave(path string) error {
	if err := store.WriteAtomic(firstSaveMark(path), []byte("referee run is saving a fresh state here for the first time\n"), 0o600); err != nil {
		return fmt.Errorf("mark the first save: %w", err)
	}
	return nil
}

// cutUnfinishedFirstSave moves aside the journal lines of a first save
// that never finished (the mark, no state, lines all of one save from
// seq 0), telling note; a mark beside a saved state is removed.
func cutUnfinishedFirstSave(cfg *Config, note func(msg string, args ...any)) error {
	mark := firstSaveMark(cfg.State)
	if _, err := os.Stat(mark); err != nil {
		return nil
	}
	if _, err := os.Stat(cfg.State); !errors.Is(err, os.ErrNotExist) {
		return os.Remove(mark)
	}
	jpath := store.JournalPath(cfg.State)
	sc, err := store.ScanJournal(jpath, store.Position{})
	if err != nil {
		return err
	}
	if r := sc.Refusal(); r != nil && len(sc.Bad) == 0 && sc.OneSave {
		name, _, err := store.Repair(jpath, store.Position{}, time.Now())
		if err != nil {
			return err
		}
		note("the first save of a fresh state never finished: its journal lines are cut (nothing of it was sent); a fresh state is made", "journal", jpath, "copied_to", name)
	}
	return os.Remove(mark)
}
