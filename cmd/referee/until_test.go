package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayUntilIsNoCutoff: --until runs the scheduled events up to its
// time after the last message, and holds no message back: with a time
// between two messages' arrivals every message is applied all the same,
// the clock stays at the last one's, and the replay says that --until ran
// nothing and is no cutoff, where it said nothing; with a time after the
// last message the clock is brought to it, without the note.
func TestReplayUntilIsNoCutoff(t *testing.T) {
	arch := replayArchive(t)
	clock := func(dir string) string {
		for _, l := range strings.Split(string(readFile(t, filepath.Join(dir, "data/state.yaml"))), "\n") {
			if v, ok := strings.CutPrefix(l, "clock: "); ok {
				return strings.Trim(v, `"`)
			}
		}
		t.Fatalf("no clock in %s's state", dir)
		return ""
	}
	between := secretDir(t)
	code, out, errs := runCmd(t, between, "replay", "--secret-file", "secret", "--until", "2026-12-02T00:00:00Z", arch)
	if code != 0 || !strings.Contains(out, "5 messages applied") {
		t.Fatalf("replay --until between two messages: exit %d, %s%s", code, out, errs)
	}
	wants(t, "replay --until between two messages", errs, "referee replay: --until 2026-12-02T00:00:00Z is before the state's clock, 2026-12-03T09:05:00Z: it ran nothing; --until is no cutoff, every message is applied whatever its arrival")
	if got := clock(between); got != "2026-12-03T09:05:00Z" {
		t.Errorf("replay --until between two messages: the clock is %s, want the last message's arrival", got)
	}

	after := secretDir(t)
	code, out, errs = runCmd(t, after, "replay", "--secret-file", "secret", "--until", "2026-12-15T00:00:00Z", arch)
	if code != 0 || !strings.Contains(out, "5 messages applied") || strings.Contains(errs, "--until") {
		t.Errorf("replay --until after the last message: exit %d, %s%s", code, out, errs)
	}
	if got := clock(after); got != "2026-12-15T00:00:00Z" {
		t.Errorf("replay --until after the last message: the clock is %s, want --until's", got)
	}
}
