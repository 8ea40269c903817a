package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A replay of mail that makes no notice (here talk on the discussion
// list, no action in it) still saves every checkpointInputs inputs, so
// that it never holds more messages than that in memory; before, only the
// clock (every three seconds) saved it, and 200,000 such messages held
// 480 MB. A save is told in the journal by its last input, the one line
// of it without "more".
func TestCheckpointEveryInputs(t *testing.T) {
	defer func(n int) { checkpointInputs = n }(checkpointInputs)
	checkpointInputs = 2
	dir := t.TempDir()
	replayInto(t, dir)
	jpath := filepath.Join(dir, "data/journal.jsonl")
	before := saves(readFile(t, jpath))
	var talk strings.Builder
	for i := range 5 {
		fmt.Fprintf(&talk, "From dana@example.test Thu Dec  3 10:0%d:00 2026\nFrom: Dana <dana@example.test>\nTo: agora-discussion@example.test\nSubject: DIS: idle talk\nDate: Thu, 3 Dec 2026 10:0%d:00 +0000\nMessage-ID: <talk%d@example.test>\n\nNothing to do here, %d.\n\n", i, i, i, i)
	}
	arch := filepath.Join(dir, "talk.mbox")
	if err := os.WriteFile(arch, []byte(talk.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "--out", "out", arch)
	if code != 0 {
		t.Fatalf("replay of the talk: %d %s %s", code, out, errs)
	}
	// The talk is of 3 December, the state at 15 December (replayInto's --until).
	wants(t, "replay of the talk", out, "5 messages applied, 5 of them late", ", 0 journal entries, 0 mails written")
	// Five inputs, two to a save: saves after the second, the fourth, and
	// at the end.
	if got := saves(readFile(t, jpath)) - before; got != 3 {
		t.Errorf("the replay of 5 messages made %d saves, want 3 (one every %d inputs and the last)", got, checkpointInputs)
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

// TestReplayOtherArgumentsNamesTheStoppedOnes: run with other arguments while
// a stopped replay's checkpoint is there, replay refuses and names the
// stopped replay's arguments whole (--until, --out and the archives), so the
// operator sees which of them differs, here --out alone.
func TestReplayOtherArgumentsNamesTheStoppedOnes(t *testing.T) {
	dir := t.TempDir()
	arch := replayArchive(t)
	os.MkdirAll(filepath.Join(dir, "data"), 0o700)
	ck := &replayCheckpoint{Archives: []string{arch}, Until: "2026-12-15T00:00:00Z", Out: filepath.Join(dir, "out")}
	if err := ck.save(filepath.Join(dir, "data", "state.yaml.replay")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, dir, "replay", "--until", "2026-12-15T00:00:00Z", "--out", "elsewhere", arch)
	want := "a replay of other arguments (--until 2026-12-15T00:00:00Z --out " + filepath.Join(dir, "out") + " " + arch + ") was stopped before its end"
	if code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 2 (bad usage) saying %q", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "elsewhere")); err == nil {
		t.Error("the refused replay made its --out directory")
	}
}

// TestReplayLastLineOfOne: the last line counts one message, one journal
// entry and one mail in the singular.
func TestReplayLastLineOfOne(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"one", "two"} {
		os.WriteFile(filepath.Join(dir, id+".eml"), []byte("From: Carol <carol@example.test>\nTo: agora-discussion@example.test\nSubject: DIS: hm\n"+
			"Date: Tue, 1 Dec 2026 14:00:00 +0000\nMessage-ID: <"+id+"@example.test>\n\nI join the Life contest.\n"), 0o600)
	}
	// The state's creation posts the week's Randomness notice: two mails.
	for _, c := range [][2]string{{"one.eml", "1 message applied, 2 journal entries, 2 mails written to out\n"},
		{"two.eml", "1 message applied, 1 journal entry, 1 mail written to out\n"}} {
		file, want := c[0], c[1]
		if code, out, errs := runCmd(t, dir, "replay", "--out", "out", file); code != 0 || out != want {
			t.Errorf("%s: exit %d, %q (%s); want %q", file, code, out, errs, want)
		}
	}
}
