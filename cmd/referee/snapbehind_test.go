package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReplaySnapshotWaitsForItsMails: the replay's last snapshot, written
// behind the engine, writes the state file only once the mails of the
// last save are on disk. When their sync fails the state file is not
// written (the replay's first save stays), the replay exits 1 naming the
// failure, with nothing left waiting for the snapshot it let go, and the
// same command, the disk well again, resumes at the end of the archives
// and leaves the state and the mails of a replay never stopped.
func TestReplaySnapshotWaitsForItsMails(t *testing.T) {
	ref := secretDir(t)
	if code, out, errs := runCmd(t, ref, replayArgs(t, true)...); code != 0 {
		t.Fatalf("replay: exit %d %s %s", code, out, errs)
	}
	dir := secretDir(t)
	// The first sync is the last save's (its files, of the state's start
	// and the messages before it); the next, the snapshot's, fails.
	var calls atomic.Int32
	defer func(f func(int) error) { syncFS = f }(syncFS)
	syncFS = func(fd int) error {
		if calls.Add(1) >= 2 {
			return unix.EIO
		}
		return unix.Syncfs(fd)
	}
	code, out, errs := runCmd(t, dir, replayArgs(t, true)...)
	if code != 1 || !strings.Contains(errs, "input/output error") {
		t.Fatalf("replay with the snapshot's sync failing: exit %d, stdout %q, stderr %q; want exit 1 naming the failure", code, out, errs)
	}
	snaps, _ := filepath.Glob(filepath.Join(dir, "data/snapshots/*.yaml"))
	if len(snaps) != 1 {
		t.Errorf("snapshots after the failed sync: %v, want the first save's alone", snaps)
	}
	syncFS = unix.Syncfs
	code, out, errs = runCmd(t, dir, replayArgs(t, true)...)
	if code != 0 || !strings.Contains(errs, "resuming the replay stopped before its end, at the end of the archives") {
		t.Fatalf("replay again: exit %d, stdout %q, stderr %q; want it resumed at the end of the archives", code, out, errs)
	}
	for _, name := range []string{"data/state.yaml", "data/journal.jsonl"} {
		if !bytes.Equal(readFile(t, filepath.Join(dir, name)), readFile(t, filepath.Join(ref, name))) {
			t.Errorf("%s differs from a replay never stopped", name)
		}
	}
	want, _ := os.ReadDir(filepath.Join(ref, "out"))
	got, _ := os.ReadDir(filepath.Join(dir, "out"))
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("out: %d mails, want %d", len(got), len(want))
	}
	for _, f := range want {
		if !bytes.Equal(readFile(t, filepath.Join(dir, "out", f.Name())), readFile(t, filepath.Join(ref, "out", f.Name()))) {
			t.Errorf("out/%s differs from a replay never stopped", f.Name())
		}
	}
}
