package main

import (
	"bytes"
	"path/filepath"
	"testing"
)

// A replay of mail that makes no notice (here a re-run of an archive
// already replayed: every message remembered) still saves every
// checkpointInputs inputs, so that it never holds more messages than that
// in memory; before, only the clock (every three seconds) saved it, and a
// re-run of 200,000 messages held 480 MB. A save is told in the journal
// by its last input, the one line of it without "more".
func TestCheckpointEveryInputs(t *testing.T) {
	defer func(n int) { checkpointInputs = n }(checkpointInputs)
	checkpointInputs = 2
	dir := t.TempDir()
	replayInto(t, dir)
	jpath := filepath.Join(dir, "data/journal.jsonl")
	before := saves(readFile(t, jpath))
	code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "--until", "2026-12-15T00:00:00Z", "--out", "out", replayArchive(t))
	if code != 0 {
		t.Fatalf("replay again: %d %s %s", code, out, errs)
	}
	wants(t, "replay again", out, "5 messages applied, 0 journal entries, 0 mails written")
	// Five inputs, two to a save: saves after the second, the fourth, and
	// at the end.
	if got := saves(readFile(t, jpath)) - before; got != 3 {
		t.Errorf("the re-run of 5 messages made %d saves, want 3 (one every %d inputs and the last)", got, checkpointInputs)
	}
}

// saves counts the journal's saves of inputs: the input lines without
// "more".
func saves(journal []byte) int {
	n := 0
	for _, line := range bytes.Split(journal, []byte("\n")) {
		if bytes.HasPrefix(line, []byte(`{"in":`)) && !bytes.Contains(line, []byte(`"more":true`)) {
			n++
		}
	}
	return n
}
