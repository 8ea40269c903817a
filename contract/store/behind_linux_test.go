package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"referee/contract/store"
)

// resident is how many of the pages of the file at path, from off for n
// bytes, are in the page cache.
func resident(t *testing.T, path string, off, n int64) (in, all int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	page := int64(os.Getpagesize())
	off -= off % page
	m, err := unix.Mmap(int(f.Fd()), off, int(n), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	vec := make([]byte, (n+page-1)/page)
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatal(errno)
	}
	for _, v := range vec {
		if v&1 != 0 {
			in++
		}
	}
	return in, len(vec)
}

// keepsLetGoPages says whether the file system of dir lets the pages of a
// file written back go when told (tmpfs keeps them: they are the file).
func keepsLetGoPages(t *testing.T, dir string) bool {
	t.Helper()
	path := filepath.Join(dir, "probe")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return true
	}
	in, _ := resident(t, path, 0, 1<<20)
	return in > 0
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
	if rec, err := os.ReadFile(store.SyncFailedPath(store.JournalPath(path))); err != nil || !strings.Contains(string(rec), "write back") {
		t.Errorf("the failure's record: %q, %v", rec, err)
	}
}
