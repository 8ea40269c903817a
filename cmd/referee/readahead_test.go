package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"referee/internal/bridge"
	"referee/mailin"
)

// writeMaildir writes n messages into a new maildir, the i-th (from 1)
// with Message-ID <i@example.test>, arriving in that order, and returns
// the folder and the paths of the messages.
func writeMaildir(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "cur"), 0o755); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i := 1; i <= n; i++ {
		p := filepath.Join(dir, "cur", fmt.Sprintf("%d.M0P1.host:2,S", 1_800_000_000+i))
		raw := fmt.Sprintf("From: p%d@example.test\r\nTo: referee@example.test\r\nMessage-ID: <%d@example.test>\r\nSubject: m\r\n\r\nI join the Life contest.\r\n", i%7, i)
		if err := os.WriteFile(p, []byte(raw), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return dir, paths
}

// TestReadAheadKeepsOrder parses an archive of several batches on four
// workers: the messages come out in the archive's order, each once.
func TestReadAheadKeepsOrder(t *testing.T) {
	const n = 5*readAheadBatch + 17
	dir, _ := writeMaildir(t, n)
	a, err := mailin.OpenArchive(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	r := readAhead(a, &bridge.Pipeline{Mail: &mailin.Config{}}, 4)
	defer r.stop()
	got := 0
	for {
		p, ok := r.next()
		if !ok {
			break
		}
		if p.err != nil || p.parseErr != nil {
			t.Fatalf("message %d: %v %v", got+1, p.err, p.parseErr)
		}
		got++
		if want := fmt.Sprintf("%d@example.test", got); p.m.ID != want {
			t.Fatalf("message %d is %s, want %s", got, p.m.ID, want)
		}
	}
	if got != n {
		t.Fatalf("read %d messages, want %d", got, n)
	}
}

// TestReadAheadStopsAtReadError: an archive that cannot be read at a
// message hands over every message before it, then the error, then
// nothing.
func TestReadAheadStopsAtReadError(t *testing.T) {
	const n, bad = 3 * readAheadBatch, readAheadBatch + 5
	dir, paths := writeMaildir(t, n)
	a, err := mailin.OpenArchive(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	// Listed as a message, but a directory by the time it is read.
	if err := os.Remove(paths[bad-1]); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(paths[bad-1], 0o755); err != nil {
		t.Fatal(err)
	}
	r := readAhead(a, &bridge.Pipeline{Mail: &mailin.Config{}}, 3)
	defer r.stop()
	for i := 1; i < bad; i++ {
		p, ok := r.next()
		if !ok || p.err != nil || p.m.ID != fmt.Sprintf("%d@example.test", i) {
			t.Fatalf("message %d: ok %v, err %v", i, ok, p.err)
		}
	}
	if p, ok := r.next(); !ok || p.err == nil {
		t.Fatalf("message %d: ok %v, err %v; want the read error", bad, ok, p.err)
	}
	if p, ok := r.next(); ok {
		t.Fatalf("after the read error: %+v, want the end", p)
	}
}

// TestReadAheadStops: stopping the reader in the middle of an archive
// returns once its goroutine and its workers have ended, and the archive can then be closed.
func TestReadAheadStops(t *testing.T) {
	dir, _ := writeMaildir(t, 20*readAheadBatch)
	a, err := mailin.OpenArchive(dir)
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	r := readAhead(a, &bridge.Pipeline{Mail: &mailin.Config{}}, 2)
	for i := 0; i < 10; i++ {
		if _, ok := r.next(); !ok {
			t.Fatalf("end after %d messages", i)
		}
	}
	r.stop()
	// A worker's last act is to say it finished, and the reading
	// goroutine's is to close done; stop may return before either
	// goroutine has left: one still running its way out of that deferred
	// send or close (runnable or running, in its function or the deferred
	// one's, or in the runtime's code of the send, the close or the exit
	// called from there, wherever the scheduler stopped it) runs nothing
	// more, so it is not counted.
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	n := 0
	for _, g := range strings.Split(stacks, "\n\n") {
		head, rest, _ := strings.Cut(g, "\n")
		top := "" // its innermost function outside the runtime
		for _, line := range strings.Split(rest, "\n") {
			if fn, _, ok := strings.Cut(line, "("); ok && !strings.HasPrefix(line, "\t") && !strings.HasPrefix(fn, "runtime.") {
				top = fn
				break
			}
		}
		ours := strings.Contains(g, ".readAhead in goroutine ")
		leaving := ours && (top == "" || strings.Contains(top, ".readAhead.func"))
		if !(leaving && (strings.Contains(head, "[runnable") || strings.Contains(head, "[running"))) {
			n++
		}
	}
	if n > before {
		t.Errorf("%d goroutines after stop, %d before the reader:\n%s", n, before, stacks)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
}
