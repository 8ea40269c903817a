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

// TestLogDiskFull: a save Log journals on a full disk fails with the
// reason, leaves the journal's lines and the state's journal_inputs as
// they were, and once space is freed the same save is journaled and loads:
// a message, and a save of many written in pieces (a replay's checkpoint),
// whose first piece fails.
func TestLogDiskFull(t *testing.T) {
	e := lifeEngine(t)
	for _, c := range []struct {
		disk              string
		messages, repeats int
	}{{"256k", 1, 400}, {"2m", 400, 100}} {
		dir := smallDisk(t, c.disk)
		path := filepath.Join(dir, "state.yaml")
		jpath := store.JournalPath(path)
		s, j := freshState(t, e, path)
		t.Cleanup(func() { j.Close() }) // before the disk is unmounted
		perform(t, e, j, s, 1, true)
		filler := fill(t, dir)
		before, err := os.ReadFile(jpath)
		if err != nil {
			t.Fatal(err)
		}
		var steps []store.Step
		for n := 2; n < 2+c.messages; n++ {
			steps = append(steps, messageStep(t, e, s, n, fmt.Sprintf("p%d@example.test", n%7), "I join the Life contest.\n\n"+strings.Repeat("A long postscript. ", c.repeats)))
		}
		inputs := s.JournalInputs
		err = j.Log(s, steps, true)
		if err == nil || !strings.HasPrefix(err.Error(), "append journal: ") || !strings.Contains(err.Error(), "no space left on device") {
			t.Fatalf("a save of %d messages journaled on a full disk: %v, want append journal: ... no space left on device", c.messages, err)
		}
		if after, _ := os.ReadFile(jpath); !bytes.Equal(after, before) || s.JournalInputs != inputs {
			t.Fatalf("after the failed save of %d messages: the journal %d bytes (was %d), journal_inputs %d (was %d)", c.messages, len(after), len(before), s.JournalInputs, inputs)
		}
		os.Remove(filler)
		if err := j.Log(s, steps, true); err != nil {
			t.Fatalf("after space is freed: %v", err)
		}
		got, err := store.Load(e, path)
		if err != nil || !bytes.Equal(encoded(t, got), encoded(t, s)) {
			t.Fatalf("the state re-done after the save of %d messages journaled again differs from the one performed (%v)", c.messages, err)
		}
	}
}

// TestBackgroundSnapshotFails: a background snapshot that cannot be
// written (a state that does not encode, a full disk) fails with its
// reason and leaves the state file as it was; its journal sync having
// succeeded, the journal is not stopped (no record of a failed sync, the
// next save is journaled). When the journal's sync failed too, the error
// says both and the journal is stopped.
func TestBackgroundSnapshotFails(t *testing.T) {
	e := lifeEngine(t)
	for _, c := range []struct {
		name, why string
		syncFails bool
	}{
		{"a state that does not encode", "the board cannot be written", false},
		{"a state that does not encode", "the board cannot be written", true},
		{"a full disk", "no space left on device", false},
		{"a full disk", "no space left on device", true},
	} {
		dir := t.TempDir()
		if c.why == "no space left on device" {
			dir = smallDisk(t, "256k")
		}
		path := filepath.Join(dir, "state.yaml")
		s, j := freshState(t, e, path)
		for n := 1; n <= 3; n++ {
			perform(t, e, j, s, n, false) // written, not synced: the snapshot syncs them
		}
		before, _ := os.ReadFile(path)
		life := s.Games["life"]
		if c.why == "the board cannot be written" {
			s.Games["life"] = &contract.GameState{Contestmaster: life.Contestmaster, Data: unencodable{}}
		}
		p, err := j.StartSnapshot(path, s)
		if err != nil {
			t.Fatal(err)
		}
		s.Games["life"] = life
		var filler string
		if c.why == "no space left on device" {
			filler = fill(t, dir)
		}
		restore := func() {}
		if c.syncFails {
			restore = store.FailSnapshotJournalSync(syscall.EIO)
		}
		err = p.Write()
		restore()
		if filler != "" {
			os.Remove(filler)
		}
		record := store.SyncFailedPath(store.JournalPath(path))
		_, recorded := os.Stat(record)
		if err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s, the journal's sync failing %v: %v, want %q", c.name, c.syncFails, err, c.why)
		}
		if now, _ := os.ReadFile(path); !bytes.Equal(now, before) {
			t.Errorf("%s: the state file changed", c.name)
		}
		in := walInput(s, 4)
		ent, rerr := e.Redo(s, in)
		if rerr != nil {
			t.Fatal(rerr)
		}
		logged := j.Log(s, []store.Step{{Input: in, Entries: ent}}, true)
		if c.syncFails {
			if !errors.Is(err, syscall.EIO) || recorded != nil || !errors.Is(logged, syscall.EIO) {
				t.Errorf("%s and the journal's sync failed: %v; the record %v; the next save %v; want EIO said, recorded, and the journal stopped", c.name, err, recorded, logged)
			}
		} else if errors.Is(err, syscall.EIO) || recorded == nil || logged != nil {
			t.Errorf("%s, the journal synced: %v; the record %v; the next save %v; want no record and the save journaled", c.name, err, recorded, logged)
		}
		j.Close()
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
