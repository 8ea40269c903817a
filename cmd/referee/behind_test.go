package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestReplayKilledWithASaveBehind: a replay run as an operator runs it (no
// pause hook: each checkpoint's save on its goroutine beside the engine,
// the mails written on theirs) killed with SIGKILL while its mails are
// being written, at several depths, then run again, ends as a replay never
// killed: the same state, journal and mails. The archive is 2,600 players
// joining Life, a receipt each, so the replay passes two checkpoints of
// 1,024 notices (checkpointNotices) before its end, and the kills land
// with a save behind the engine, or the mails of one being written.
func TestReplayKilledWithASaveBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 2,600 messages five times")
	}
	var b strings.Builder
	at := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)
	for i := range 2600 {
		at = at.Add(time.Minute)
		fmt.Fprintf(&b, "From p%d@example.test %s\nFrom: Player %d <p%d@example.test>\nTo: agora-business@example.test\nSubject: BUS: joining\nDate: %s\nMessage-ID: <join%d@example.test>\n\nI join the Life contest.\n\n",
			i, at.Format("Mon Jan _2 15:04:05 2006"), i, i, at.Format(time.RFC1123Z), i)
	}
	arch := filepath.Join(t.TempDir(), "joins.mbox")
	if err := os.WriteFile(arch, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"replay", "--out", "out", "--secret-file", "secret", arch}

	base := secretDir(t)
	if code, errs := replayChild(t, base, "", 0, args); code != 0 {
		t.Fatalf("replay: exit %d %s", code, errs)
	}
	want := resultOf(t, base)
	if len(want.mails) < 2100 {
		t.Fatalf("the uninterrupted replay wrote %d mails: too few to pass two checkpoints", len(want.mails))
	}

	dir := secretDir(t)
	killed := 0
	for _, at := range []int{200, 1100, 1500, 2200} {
		n, done := killWhenMails(t, dir, args, at)
		if done {
			break // the replay ended before: what is left is its end
		}
		killed++
		t.Logf("killed with %d mails written", n)
	}
	if killed == 0 {
		t.Fatal("the replay ended before each kill: nothing was tested")
	}
	if code, errs := replayChild(t, dir, "", 0, args); code != 0 {
		t.Fatalf("the replay run again: exit %d %s", code, errs)
	}
	sameResult(t, fmt.Sprintf("killed %d times", killed), resultOf(t, dir), want)
	if _, err := os.Stat(filepath.Join(dir, "data/state.yaml.replay")); !os.IsNotExist(err) {
		t.Errorf("the checkpoint is still there after the end: %v", err)
	}
}

// killWhenMails runs the replay args in dir and kills it (SIGKILL) once
// its out folder holds at least n mails; it returns how many it held then,
// or done when the replay ended first.
func killWhenMails(t *testing.T, dir string, args []string, n int) (int, bool) {
	t.Helper()
	cmd := exec.Command(refereeBinary(t), args...)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	tick := time.NewTicker(200 * time.Microsecond)
	defer tick.Stop()
	for {
		select {
		case err := <-exited:
			if err != nil {
				t.Fatalf("the replay to be killed at %d mails failed: %v", n, err)
			}
			return 0, true
		case <-tick.C:
		}
		ents, _ := os.ReadDir(filepath.Join(dir, "out"))
		if len(ents) >= n {
			cmd.Process.Signal(syscall.SIGKILL)
			<-exited
			return len(ents), false
		}
	}
}

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
// of its own (here the next archive, a folder of an IMAP server that does
// not answer, cannot be opened) while a save is behind
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
	// replay cannot open the second archive (no server on port 1).
	for k, v := range map[string]string{"REFEREE_IMAP_ADDR": "127.0.0.1:1", "REFEREE_IMAP_TLS": "none", "REFEREE_IMAP_USER": "referee@example.test",
		"REFEREE_IMAP_PASSWORD": "x", "REFEREE_SMTP_ADDR": "127.0.0.1:1", "REFEREE_SMTP_TLS": "none"} {
		t.Setenv(k, v)
	}
	code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "--out", "out", arch, "imap:Later")
	if code == 0 {
		t.Fatalf("replay: exit 0 %s", out)
	}
	wants(t, "replay's error", errs, "127.0.0.1:1", "input/output error")
}

// TestReplayMissingArchiveChangesNothing: a replay of two archives whose
// second is missing is refused as bad usage, naming it, before it writes
// anything (no state, no checkpoint, no journal, no mail), where it used to
// replay the first and stop at the second with its position saved where
// the same command could never pass.
func TestReplayMissingArchiveChangesNothing(t *testing.T) {
	dir := secretDir(t)
	missing := filepath.Join(dir, "later.mbox")
	code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "--out", "out", replayArchive(t), missing)
	if code != 2 || !strings.Contains(errs, missing) || !strings.Contains(errs, "no such file or directory") {
		t.Fatalf("replay with a missing archive: exit %d, stdout %q, stderr %q; want exit 2 naming %s", code, out, errs, missing)
	}
	for _, p := range []string{"data/state.yaml", "data/state.yaml.replay", "data/journal.jsonl", "out"} {
		if _, err := os.Stat(filepath.Join(dir, p)); !os.IsNotExist(err) {
			t.Errorf("%s is there after the refused replay (%v)", p, err)
		}
	}
}
