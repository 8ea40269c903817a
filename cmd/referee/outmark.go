package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"referee/contract"
)

// outMarkName is the file of a replay's --out folder that names the state
// whose mails it holds (hidden: the folder's files are its mails, which
// tools read as such). A replay of another state into the folder is
// refused (outTaken): a replay killed, its checkpoint deleted and run
// again, takes a mail of the folder that reads as one of its own (its
// Message-ID and its bytes) for its own and writes it over that file, so
// another state's receipt, byte for byte the same (the same action in
// reply to the same message), would stand for its own, and its own mail
// would be missing.
const outMarkName = ".state-id"

// outMark is the text of the mark of state s: when it was created, and the
// commitment to its seed of that week (the SHA-256 of an HMAC of its master
// secret, as the Randomness notices publish, never the secret): a state
// replayed again from its first message with the same secret is the same
// state, and makes the same mails; any other state has another mark.
func outMark(s *contract.State) ([]byte, error) {
	secret, err := hex.DecodeString(s.Secret)
	if err != nil || len(secret) != 32 {
		return nil, fmt.Errorf("the state's master secret is not 32 bytes of hex")
	}
	week := contract.WeekLabel(s.Created)
	return fmt.Appendf(nil, "# referee replay writes the mails of one state here, and refuses another state's: this one.\ncreated: %s\ncommitment: %s %s\n",
		s.Created.UTC().Format(time.RFC3339), week, contract.Commitment(contract.SeedFor(secret, week))), nil
}

// outTaken refuses the folder dir to the replay of the state at statePath
// when it holds another state's mails: its mark is another's, and it holds
// a numbered mail. A folder without a mark (new, or written by a build
// before the mark) is taken as the state's, and so is one whose mails
// were all removed; the replay marks it before its first mail (emlWriter).
func outTaken(dir, statePath string, mark []byte) error {
	if dir == "" {
		return nil
	}
	have, err := os.ReadFile(filepath.Join(dir, outMarkName))
	if errors.Is(err, os.ErrNotExist) || (err == nil && ownMark(have, mark)) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	for _, en := range entries {
		if num, ok := strings.CutSuffix(en.Name(), ".eml"); ok {
			if _, err := strconv.Atoi(num); err == nil {
				return usagef("--out %s holds the mails of another state's replay (%s names that state: %s), not of %s (%s): a folder holds the mails of one state, for a replay of a state run again without its checkpoint takes a mail it finds there that reads as one of its own for its own; name another --out, or empty this one",
					dir, filepath.Join(dir, outMarkName), markWords(have), statePath, markWords(mark))
			}
		}
	}
	return nil
}

// ownMark says whether the mark have is mark, or the start of it that a
// kill while it was written left (empty, say): that of no other state.
func ownMark(have, mark []byte) bool { return bytes.HasPrefix(mark, have) }

// markWords is a mark's text without its comment, on one line.
func markWords(mark []byte) string {
	var words []string
	for _, l := range strings.Split(strings.TrimSpace(string(mark)), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			words = append(words, l)
		}
	}
	return strings.Join(words, ", ")
}

// writeMark writes the mark in the folder before its first mail, unless it
// is there already.
func (w *emlWriter) writeMark() error {
	if w.dir == "" || w.mark == nil || w.marked {
		return nil
	}
	path := filepath.Join(w.dir, outMarkName)
	if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, w.mark) {
		w.marked = true
		return nil
	}
	if err := os.WriteFile(path, w.mark, 0o644); err != nil {
		return fmt.Errorf("mark %s: %w", w.dir, err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		return fmt.Errorf("mark %s: %w", w.dir, err)
	}
	w.marked = true
	return nil
}
