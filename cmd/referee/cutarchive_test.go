package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReplayRefusesAnArchiveCutShort: an mbox that ends inside a line (a
// copy stopped, a full disk) is replayed up to its last message, which is
// not applied: the replay stops naming it, exit status 1, where it applied
// the part of a message ("I transfer 2 Vials to Zel") and remembered its
// Message-ID, so that the whole message was skipped when the whole archive
// was replayed. The same command with a whole copy then ends as a replay of
// the whole archive.
func TestReplayRefusesAnArchiveCutShort(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	whole := mboxMessage("alice@example.test", "a1@example.test", at) +
		strings.Replace(mboxMessage("bob@example.test", "b1@example.test", at.Add(time.Hour)), "Hello.", "I join the Life contest.", 1)
	ref := t.TempDir()
	os.WriteFile(filepath.Join(ref, "secret"), bytes.Repeat([]byte{9}, 32), 0o600)
	os.WriteFile(filepath.Join(ref, "list.mbox"), []byte(whole), 0o600)
	if code, out, errs := runCmd(t, ref, "replay", "--secret-file", "secret", "list.mbox"); code != 0 {
		t.Fatalf("replay of the whole archive: exit %d, %s%s", code, out, errs)
	}

	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{9}, 32), 0o600)
	cut := whole[:strings.Index(whole, "I join the Life")+len("I join the")]
	os.WriteFile(filepath.Join(dir, "list.mbox"), []byte(cut), 0o600)
	code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "list.mbox")
	if code != 1 || !strings.Contains(errs, "the archive ends inside the last line of its message 2: the file was cut short") {
		t.Fatalf("replay of an archive cut short: exit %d, %s%s; want 1 and the cut named", code, out, errs)
	}
	if j := readFile(t, filepath.Join(dir, "data/journal.jsonl")); bytes.Contains(j, []byte("b1@example.test")) {
		t.Fatalf("the message cut short was journaled:\n%s", j)
	}
	os.WriteFile(filepath.Join(dir, "list.mbox"), []byte(whole), 0o600)
	if code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "list.mbox"); code != 0 {
		t.Fatalf("the same replay with a whole copy: exit %d, %s%s", code, out, errs)
	}
	if got, want := readFile(t, filepath.Join(dir, "data/state.yaml")), readFile(t, filepath.Join(ref, "data/state.yaml")); !bytes.Equal(got, want) {
		t.Errorf("the state after the whole copy differs from a replay of the whole archive:\n%s\nwant:\n%s", got, want)
	}
}
