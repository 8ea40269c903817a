package main

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"testing"
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
