package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReplaySyncsFilesBesideTheEngine: a checkpoint's save behind the
// engine makes the files of the save before it durable on its own
// goroutine, as it does the rest of the save: the goroutine that applies
// the messages syncs the file system at most once, for the snapshot at the
// end (the files of the last save), however many saves the replay makes.
// Before, it synced the files of every save itself before handing the
// save over, and waited there for their writer and for the disk.
func TestReplaySyncsFilesBesideTheEngine(t *testing.T) {
	defer func(n int) { checkpointInputs = n }(checkpointInputs)
	checkpointInputs = 1 // a save after every message
	engine := goroutineID()
	var mu sync.Mutex
	var onEngine, all int
	defer func(f func(int) error) { syncFS = f }(syncFS)
	syncfs := syncFS
	syncFS = func(fd int) error {
		mu.Lock()
		all++
		if goroutineID() == engine {
			onEngine++
		}
		mu.Unlock()
		return syncfs(fd)
	}
	dir := t.TempDir()
	replayInto(t, dir) // on this goroutine: runCmd runs the command in place
	if all < 3 {
		t.Fatalf("the replay synced its files %d times, want a sync for each of several saves", all)
	}
	if onEngine > 1 {
		t.Errorf("the goroutine that applies the messages synced the files %d times of %d, want at most once (the last save's, before the snapshot)", onEngine, all)
	}
}

// goroutineID is the number of the goroutine that calls it, as its stack
// trace names it ("goroutine 7 [running]:").
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := bytes.Cut(bytes.TrimPrefix(buf, []byte("goroutine ")), []byte(" "))
	return strings.TrimSpace(string(id))
}

// TestReplayTellsTheErrorOfTheSaveBehind: a replay that stops on an error
// of its own (here the next archive is missing) while a save is behind
// names the save's error as well (here the files' sync failed), so that
// the operator learns of both.
func TestReplayTellsTheErrorOfTheSaveBehind(t *testing.T) {
	defer func(n int) { checkpointInputs = n }(checkpointInputs)
	checkpointInputs = 1
	defer func(f func(int) error) { syncFS = f }(syncFS)
	syncFS = func(int) error { return unix.EIO }
	dir := secretDir(t)
	talk := "From dana@example.test Thu Dec  3 10:00:00 2026\nFrom: Dana <dana@example.test>\nTo: agora-discussion@example.test\nSubject: DIS: idle talk\nDate: Thu, 3 Dec 2026 10:00:00 +0000\nMessage-ID: <talk@example.test>\n\nNothing to do here.\n\n"
	arch := filepath.Join(dir, "talk.mbox")
	if err := os.WriteFile(arch, []byte(talk), 0o600); err != nil {
		t.Fatal(err)
	}
	// The state's start is saved whole with its notice, written at once;
	// the message's save, behind, syncs that file and fails; meanwhile the
	// replay finds the second archive missing.
	code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "--out", "out", arch, filepath.Join(dir, "missing.mbox"))
	if code == 0 {
		t.Fatalf("replay: exit 0 %s", out)
	}
	wants(t, "replay's error", errs, "missing.mbox", "input/output error")
}
