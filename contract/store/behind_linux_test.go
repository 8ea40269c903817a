package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"referee/contract/store"
	"referee/internal/pagecache"
)

// resident is how many of the pages of the file at path, from off for n
// bytes, are in the page cache, and how many there are.
func resident(t *testing.T, path string, off, n int64) (in, all int) {
	t.Helper()
	in, all, err := pagecache.Resident(path, off, n)
	if err != nil {
		t.Fatal(err)
	}
	return in, all
}

// keepsLetGoPages says whether the file system of dir keeps the pages of a
// file written back when told to let them go (tmpfs: they are the file).
func keepsLetGoPages(t *testing.T, dir string) bool {
	t.Helper()
	ok, err := pagecache.LetsGo(dir)
	if err != nil {
		t.Fatal(err)
	}
	return !ok
}

// TestStreamedSaveLetsPagesGo: a save of 40 MB journaled without a sync
// (a replay's) leaves the journal's earlier lines written back and out of
// the page cache, all but the last windows, so that the memory they took
// is the next lines'; the journal still loads to the state performed, and
// the lines read back are the save's.
func TestStreamedSaveLetsPagesGo(t *testing.T) {
	dir := t.TempDir()
	if keepsLetGoPages(t, dir) {
		t.Skipf("the file system of %s keeps the pages of a file written back (tmpfs?): nothing to let go", dir)
	}
	e := lifeEngine(t)
	path := filepath.Join(dir, "state.yaml")
	s, j := freshState(t, e, path)
	defer j.Close()
	var steps []store.Step
	for n := 1; n <= 2500; n++ {
		steps = append(steps, messageStep(t, e, s, n, fmt.Sprintf("p%d@example.test", n%7), "I join the Life contest.\n\n"+strings.Repeat(fmt.Sprintf("A long postscript, number %d. ", n), 500)))
	}
	jpath := store.JournalPath(path)
	before, err := os.Stat(jpath)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Log(s, steps, false); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(jpath)
	if err != nil {
		t.Fatal(err)
	}
	size := after.Size() - before.Size()
	if size < 32<<20 {
		t.Fatalf("the save's lines are %d bytes: too few to pass several windows", size)
	}
	// All but the last two windows (16 MiB) and a page on each side.
	head := (size - 16<<20 - 8192) &^ 4095
	in, all := resident(t, jpath, before.Size(), head)
	if in > all/20 {
		t.Errorf("%d of the %d pages of the save's first %d MiB are in the page cache; want at most a twentieth: the lines written back are let go", in, all, head>>20)
	}
	if err := j.Sync(); err != nil {
		t.Fatal(err)
	}
	got, err := store.Load(e, path)
	if err != nil {
		t.Fatal(err)
	}
	if got.JournalInputs != s.JournalInputs || !bytes.Equal(encoded(t, got), encoded(t, s)) {
		t.Fatalf("the state re-done (journal_inputs %d) differs from the one performed (%d)", got.JournalInputs, s.JournalInputs)
	}
}

// TestWriteBackFailureSticks: a write-back that fails behind the journal's
// end (which the kernel may report there and not to the next sync) fails
// the save, cuts its lines, and stops the journal as a failed sync does:
// later saves refuse, and the record beside the journal says why. A
// background snapshot whose paced write-back fails is not put in place.
func TestWriteBackFailureSticks(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	defer j.Close()
	for n := 1; n <= 4; n++ {
		perform(t, e, j, s, n, false)
	}
	stateBefore, _ := os.ReadFile(path)
	eio := syscall.EIO
	restore := store.FailWriteBack(eio)
	p, err := j.StartSnapshot(path, s)
	if err != nil {
		restore()
		t.Fatal(err)
	}
	err = p.Write()
	if err == nil || !errors.Is(err, eio) {
		restore()
		t.Fatalf("a snapshot whose write-back fails: %v, want EIO", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, stateBefore) {
		restore()
		t.Fatal("a snapshot whose write-back failed replaced the state file")
	}

	journal, _ := os.ReadFile(store.JournalPath(path))
	var steps []store.Step
	for n := 5; n <= 400; n++ {
		steps = append(steps, messageStep(t, e, s, n, fmt.Sprintf("p%d@example.test", n%7), "I join the Life contest.\n\n"+strings.Repeat("A long postscript. ", 1500)))
	}
	err = j.Log(s, steps, false)
	restore()
	var sf *store.SyncFailedError
	if !errors.As(err, &sf) || !errors.Is(err, eio) {
		t.Fatalf("a save whose write-back fails: %v, want a SyncFailedError wrapping EIO", err)
	}
	if now, _ := os.ReadFile(store.JournalPath(path)); !bytes.Equal(now, journal) {
		t.Fatalf("the journal after the failed save is %d bytes, want it cut back to %d", len(now), len(journal))
	}
	if err := j.Log(s, steps[:1], true); !errors.Is(err, eio) {
		t.Errorf("a save after the failed write-back: %v, want the failure again", err)
	}
	if err := j.Sync(); !errors.Is(err, eio) {
		t.Errorf("a sync after the failed write-back: %v, want the failure again", err)
	}
	if rec, err := os.ReadFile(store.SyncFailedPath(store.JournalPath(path))); err != nil || !strings.Contains(string(rec), "write back") {
		t.Errorf("the failure's record: %q, %v", rec, err)
	}
}

// loopDisk mounts, on a new directory, an ext4 file system of 256 MB
// whose blocks are a file in a tmpfs of 64 MB (back): once back is full
// (fill), the file system takes every write and fails to write it back,
// until room is made there again. It needs root, mkfs.ext4 and losetup (a
// real failed write-back, which nothing else gives on demand).
func loopDisk(t *testing.T) (dir, back string) {
	t.Helper()
	back = smallDisk(t, "64m")
	for _, tool := range []string{"mkfs.ext4", "losetup"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: a disk that fails to write back cannot be made here", tool)
		}
	}
	img := filepath.Join(back, "disk.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 256<<20); err != nil {
		t.Fatal(err)
	}
	// No ext4 journal, inode tables written now: the file system's own
	// blocks are all on the tmpfs, and only the data written after can
	// find it full.
	if out, err := exec.Command("mkfs.ext4", "-q", "-O", "^has_journal", "-E", "lazy_itable_init=0", img).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4: %v %s", err, out)
	}
	out, err := exec.Command("losetup", "-f", "--show", img).Output()
	if err != nil {
		t.Skipf("losetup: %v", err)
	}
	loop := strings.TrimSpace(string(out))
	t.Cleanup(func() {
		if out, err := exec.Command("losetup", "-d", loop).CombinedOutput(); err != nil {
			t.Errorf("losetup -d %s: %v %s", loop, err, out)
		}
	})
	dir = t.TempDir()
	if err := syscall.Mount(loop, dir, "ext4", 0, "errors=continue,nodioread_nolock"); err != nil {
		t.Skipf("mount %s: %v", loop, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir, back
}

// TestWriteBackFailureReachesThePendingSync: a save journaled and not
// yet synced (LogPending: the daemon syncs it with its lock let go, while
// the next saves are written) is not reported on disk when the disk failed
// to write it back, though the next save, written while it waits for its
// sync, met the failure first, behind the journal's end, and the disk
// writes again by the time it is synced. Linux reports a failed write-back
// once to each open file of the journal: the pending save's sync hears of
// it as well.
func TestWriteBackFailureReachesThePendingSync(t *testing.T) {
	dir, back := loopDisk(t)
	e := lifeEngine(t)
	path := filepath.Join(dir, "state.yaml")
	s, j := freshState(t, e, path)
	defer j.Close()
	filler := fill(t, back)
	// Two megabytes: its lines reach blocks the disk never wrote.
	var pending []store.Step
	for n := 1; n <= 150; n++ {
		pending = append(pending, messageStep(t, e, s, n, fmt.Sprintf("p%d@example.test", n%7), "I join the Life contest.\n\n"+strings.Repeat(fmt.Sprintf("A long postscript, number %d. ", n), 500)))
	}
	p, err := j.LogPending(s, pending)
	if err != nil {
		t.Fatal(err)
	}
	// The disk writes the pending save back, and fails (the kernel's
	// flusher would, in its time), then has room again.
	f, err := os.Open(store.JournalPath(path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err == nil {
		t.Fatal("the full disk wrote the pending save back")
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	var steps []store.Step
	for n := 151; n <= 1500; n++ {
		steps = append(steps, messageStep(t, e, s, n, fmt.Sprintf("p%d@example.test", n%7), "I join the Life contest.\n\n"+strings.Repeat(fmt.Sprintf("A long postscript, number %d. ", n), 500)))
	}
	var sf *store.SyncFailedError
	if err := j.Log(s, steps, false); !errors.As(err, &sf) {
		t.Fatalf("a save of 20 MB after a failed write-back: %v, want the failure met behind the journal's end", err)
	}
	if err := p.Sync(); err == nil {
		t.Fatal("the pending save's sync succeeded though the disk failed to write it back: its message would be taken as saved")
	}
}
