package store_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"referee/contract"
	"referee/contract/store"
)

// smallDisk mounts a tmpfs of size bytes on a new directory, removed at the
// end of the test. It needs root (a real full disk and a real read-only
// file system, not an imitation).
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root; this test shows a real full or read-only disk")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// fill writes a file until the disk is full, and returns it.
func fill(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the disk: %v", err)
			}
			return p
		}
	}
}

// firstSave opens the journal beside a new state at path and saves
// version 1 with its line "1:one".
func firstSave(t *testing.T, path string) *store.Journal {
	t.Helper()
	j, err := store.OpenJournal(store.JournalPath(path), store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Commit(j, path, version(1), entries(1, 1, "one")); err != nil {
		j.Close()
		t.Fatal(err)
	}
	return j
}

// committed reads back the state's journal_seq and the journal's lines.
func committed(t *testing.T, path string) (int64, string) {
	t.Helper()
	s, err := store.Load(engine(t), path)
	if err != nil {
		t.Fatalf("the state does not load: %v", err)
	}
	return s.JournalSeq, journalLines(t, store.JournalPath(path))
}

// TestCommitDiskFull: a save on a full disk fails with the reason, leaves
// the state and journal as they were (no torn file, no stray line), and the
// next save after space is freed goes on from there.
func TestCommitDiskFull(t *testing.T) {
	dir := smallDisk(t, "256k")
	path := filepath.Join(dir, "state.yaml")
	j := firstSave(t, path)
	defer j.Close()
	filler := fill(t, dir)
	big := version(2)
	for i := 0; i < 2000; i++ {
		big.Players = append(big.Players, &contract.Player{Name: strings.Repeat("x", 40), Addresses: []string{"x@example.test"}})
	}
	err := store.Commit(j, path, big, entries(2, 2, "lost"))
	if err == nil || !strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), path) {
		t.Fatalf("commit on a full disk: %v, want one naming the file and the full disk", err)
	}
	if seq, lines := committed(t, path); seq != 1 || lines != "1:one" {
		t.Errorf("after the failed save: journal_seq %d, journal %q; want 1 and 1:one", seq, lines)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".state.yaml.tmp-*")); len(m) > 1 {
		t.Errorf("temporary files left on the full disk: %v", m)
	}
	// The fault goes: the same save now succeeds.
	os.Remove(filler)
	if err := store.Commit(j, path, big, entries(2, 2, "two")); err != nil {
		t.Fatalf("after space is freed: %v", err)
	}
	if seq, lines := committed(t, path); seq != 2 || lines != "1:one 2:two" {
		t.Errorf("after recovery: journal_seq %d, journal %q", seq, lines)
	}
}

// TestCommitReadOnly: a save on a read-only file system fails naming it, the
// state on disk is whole, and saving works again once it is writable.
func TestCommitReadOnly(t *testing.T) {
	dir := smallDisk(t, "1m")
	path := filepath.Join(dir, "state.yaml")
	j, err := store.OpenJournal(store.JournalPath(path), store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Commit(j, path, version(1), entries(1, 1, "one")); err != nil {
		t.Fatal(err)
	}
	j.Close() // a read-only remount refuses while a file is open for writing
	remount := func(flags uintptr) {
		t.Helper()
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT|flags, ""); err != nil {
			t.Fatalf("remount: %v", err)
		}
	}
	remount(syscall.MS_RDONLY)
	_, err = store.OpenJournal(store.JournalPath(path), store.Position{Seq: 1})
	if err == nil || !strings.Contains(err.Error(), "read-only file system") {
		t.Errorf("opening the journal read-only: %v", err)
	}
	err = store.Save(path, version(2))
	if err == nil || !strings.Contains(err.Error(), "read-only file system") || !strings.Contains(err.Error(), path) {
		t.Errorf("save on a read-only disk: %v, want one naming the file and the read-only disk", err)
	}
	if seq, lines := committed(t, path); seq != 1 || lines != "1:one" {
		t.Errorf("on the read-only disk: journal_seq %d, journal %q", seq, lines)
	}
	remount(0)
	j, err = store.OpenJournal(store.JournalPath(path), store.Position{Seq: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := store.Commit(j, path, version(2), entries(2, 2, "two")); err != nil {
		t.Fatalf("writable again: %v", err)
	}
	if seq, lines := committed(t, path); seq != 2 || lines != "1:one 2:two" {
		t.Errorf("after recovery: journal_seq %d, journal %q", seq, lines)
	}
}

// TestStateIsDirectory: a directory where the state file should be is named
// as such by Load and by a save, the journal is not extended, and once it is
// moved away the save goes through.
func TestStateIsDirectory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.yaml")
	j := firstSave(t, path)
	defer j.Close()
	os.Rename(path, path+".moved")
	os.MkdirAll(filepath.Join(path, "inside"), 0o700)
	_, err := store.Load(engine(t), path)
	if err == nil || !strings.Contains(err.Error(), path+" is a directory, not a state file") {
		t.Errorf("Load of a directory: %v", err)
	}
	err = store.Commit(j, path, version(2), entries(2, 2, "lost"))
	if err == nil || !strings.Contains(err.Error(), "save "+path+": it is a directory, not a state file") {
		t.Errorf("Commit onto a directory: %v", err)
	}
	if got := journalLines(t, store.JournalPath(path)); got != "1:one" {
		t.Errorf("journal after the failed save: %q", got)
	}
	os.RemoveAll(path)
	os.Rename(path+".moved", path)
	if err := store.Commit(j, path, version(2), entries(2, 2, "two")); err != nil {
		t.Fatal(err)
	}
	if seq, lines := committed(t, path); seq != 2 || lines != "1:one 2:two" {
		t.Errorf("after recovery: journal_seq %d, journal %q", seq, lines)
	}
	b, _ := os.ReadFile(path)
	if !bytes.Contains(b, []byte("journal_seq: 2")) {
		t.Errorf("state after recovery:\n%s", b)
	}
}

// TestJournalNotCutStopsAppending: when a failed save's lines cannot be cut
// (here the journal is made append-only), the journal appends nothing more,
// so no seq is written twice; opened again, it cuts them as the lines of
// the one save that never finished.
func TestJournalNotCutStopsAppending(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chattr +a needs root; this test makes a truncate fail for real")
	}
	chattr, err := exec.LookPath("chattr")
	if err != nil {
		t.Skip("no chattr here; this test makes a truncate fail for real")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "state.yaml")
	jpath := store.JournalPath(path)
	j, err := store.OpenJournal(jpath, store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := store.Commit(j, path, version(1), entries(1, 1, "one")); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(chattr, "+a", jpath).CombinedOutput(); err != nil {
		t.Skipf("chattr +a: %v %s", err, out)
	}
	defer exec.Command(chattr, "-a", jpath).Run()
	// The state path is a directory: the save fails after the journal line
	// is written, and the cut fails too.
	os.Rename(path, path+".moved")
	os.MkdirAll(filepath.Join(path, "x"), 0o700)
	if err := store.Commit(j, path, version(2), entries(2, 2, "lost")); err == nil {
		t.Fatal("a save onto a directory succeeded")
	}
	exec.Command(chattr, "-a", jpath).Run()
	os.RemoveAll(path)
	os.Rename(path+".moved", path)
	err = store.Commit(j, path, version(2), entries(2, 2, "two"))
	if err == nil || !strings.Contains(err.Error(), "must be opened again") {
		t.Fatalf("a save on the journal that could not be cut: %v", err)
	}
	// The record is not contradicted: seq 2 is there at most once.
	if got := journalLines(t, jpath); got != "1:one 2:lost" && got != "1:one" {
		t.Errorf("journal: %q", got)
	}
	j2, err := store.OpenJournal(jpath, store.Position{Seq: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	if err := store.Commit(j2, path, version(2), entries(2, 2, "two")); err != nil {
		t.Fatal(err)
	}
	if seq, lines := committed(t, path); seq != 2 || lines != "1:one 2:two" {
		t.Errorf("after opening again: journal_seq %d, journal %q", seq, lines)
	}
}
