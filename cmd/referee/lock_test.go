package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStateLocked: while one command holds a state (a referee run, here its
// lock taken by the test), replay, init --force and check --repair on the
// same state are refused saying it is in use, and change nothing; once it is
// released they go on. A run on the state would be refused the same way.
func TestStateLocked(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{7}, 32), 0o600)
	if code, _, errs := runCmd(t, dir, "init", "--secret-file", "secret", "--start", "2026-12-01T09:00:00Z"); code != 0 {
		t.Fatalf("init: %d %s", code, errs)
	}
	state := filepath.Join(dir, "data/state.yaml")
	before, _ := os.ReadFile(state)
	arch := filepath.Join(dir, "in.mbox")
	os.WriteFile(arch, []byte(mboxMessage("alice@example.test", "a1@example.test", time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))), 0o600)

	release, err := lockState(state)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"replay", arch}, {"init", "--force", "--secret-file", "secret"}, {"check", "--repair"}} {
		code, _, errs := runCmd(t, dir, args...)
		if code != 1 || !strings.Contains(errs, "data/state.yaml is in use by another referee run, replay, init or check --repair") || !strings.Contains(errs, "stop that one first") {
			t.Errorf("referee %s on a state in use: exit %d, %q; want 1 and the holder", strings.Join(args, " "), code, errs)
		}
	}
	if after, _ := os.ReadFile(state); !bytes.Equal(before, after) {
		t.Errorf("a refused command changed the state")
	}
	if olds, _ := filepath.Glob(filepath.Join(dir, "data/*.old-*")); len(olds) > 0 {
		t.Errorf("a refused init set the state aside: %v", olds)
	}
	release()
	if code, out, errs := runCmd(t, dir, "replay", arch); code != 0 {
		t.Errorf("replay once the state is free: %d %s %s", code, out, errs)
	}
}
