package main

import (
	"strings"
	"testing"
)

// TestOneStateToADirectory: a state to be made in a directory whose journal
// is another state's (data/other.yaml beside data/state.yaml) is refused by
// replay, run, init --force and check --repair as bad usage (exit 2),
// naming the state the journal is of and asking for a directory of its
// own, and nothing is changed; where replay and run refused it as history
// no state includes with check --repair as the way out, and init --force
// and check --repair took that state's journal from it.
func TestOneStateToADirectory(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	awayFromDefaultPorts(t, dir)
	arch := replayArchive(t)
	before := filesUnder(t, dir)
	want := "data/other.yaml: no such state yet, and the journal beside it, data/journal.jsonl, is the journal of data/state.yaml (a directory holds the journal of one state): name a --state in a directory of its own, such as data/other/state.yaml (or, if data/other.yaml was lost, restore it: referee check explains); nothing was changed"
	for _, args := range [][]string{
		{"replay", "--state", "data/other.yaml", arch},
		{"run", "--state", "data/other.yaml"},
		{"init", "--force", "--state", "data/other.yaml"},
		{"check", "--repair", "--state", "data/other.yaml"},
	} {
		code, out, errs := runCmd(t, dir, args...)
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("referee %s: exit %d, %s%s; want 2 and %q", strings.Join(args, " "), code, out, errs, want)
		}
		sameFiles(t, "referee "+strings.Join(args, " "), dir, before)
	}
	if code, out, errs := runCmd(t, dir, "replay", "--state", "other/state.yaml", arch); code != 0 || !strings.Contains(out, "5 messages applied") {
		t.Errorf("replay into a directory of its own: exit %d, %s%s", code, out, errs)
	}
}
