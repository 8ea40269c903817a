package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusedRunLeavesNothing: a referee run refused before it starts
// leaves the directory as it found it: for the embedded hub's port held by
// another program (another referee run on a state of its own), no state
// directory, no hub/ folder and no first-save mark, where the hub's
// mailboxes and state.yaml.first-save were left beside a state that was
// never made; for a journal it refuses, no hub/ folder beside the state
// (its refusal said "Nothing was changed"); for a --clock-start that is not
// a time, no state directory.
func TestRefusedRunLeavesNothing(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	busy := []byte("hub: {imap_addr: '" + l.Addr().String() + "', smtp_addr: '127.0.0.1:0'}\nweb: {addr: 'off'}\n")

	fresh := t.TempDir()
	os.WriteFile(filepath.Join(fresh, "referee.yaml"), busy, 0o600)
	before := filesUnder(t, fresh)
	if code, _, errs := runCmd(t, fresh, "run"); code != 1 || !strings.Contains(errs, "another program holds the port") {
		t.Errorf("run with the hub's port taken: exit %d, %q", code, errs)
	}
	sameFiles(t, "a run refused for the hub's port, no state yet", fresh, before)

	old := t.TempDir()
	replayInto(t, old)
	os.WriteFile(filepath.Join(old, "referee.yaml"), busy, 0o600)
	before = filesUnder(t, old)
	if code, _, errs := runCmd(t, old, "run"); code != 1 || !strings.Contains(errs, "another program holds the port") {
		t.Errorf("run with the hub's port taken: exit %d, %q", code, errs)
	}
	sameFiles(t, "a run refused for the hub's port beside a state", old, before)

	bad := t.TempDir()
	replayInto(t, bad)
	awayFromDefaultPorts(t, bad)
	jpath := filepath.Join(bad, "data/journal.jsonl")
	os.WriteFile(jpath, append(readFile(t, jpath), "not a journal line\n"...), 0o600)
	before = filesUnder(t, bad)
	if code, _, errs := runCmd(t, bad, "run"); code != 1 || !strings.Contains(errs, "line does not decode") || !strings.Contains(errs, "Nothing was changed") {
		t.Errorf("run on a journal with a bad line: exit %d, %q", code, errs)
	}
	sameFiles(t, "a run refused for its journal", bad, before)

	clock := t.TempDir()
	awayFromDefaultPorts(t, clock)
	before = filesUnder(t, clock)
	if code, _, errs := runCmd(t, clock, "run", "--state", "new/data/state.yaml", "--clock-start", "2026-12-01"); code != 2 || !strings.Contains(errs, "--clock-start") {
		t.Errorf("run --clock-start 2026-12-01: exit %d, %q", code, errs)
	}
	sameFiles(t, "a run refused for its --clock-start", clock, before)
}

// TestRefusedReplayLeavesNothing: a replay that fails before it writes
// anything (an IMAP folder on a server that does not answer; archives that
// hold no message, onto no state) leaves neither the state's directory
// nor the --out folder it made, where both were left empty.
func TestRefusedReplayLeavesNothing(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing answers there now
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("imap: {addr: '"+addr+"', tls: none, user: store@example.test, password: x}\n"), 0o600)
	for _, sub := range []string{"cur", "new", "tmp"} {
		os.MkdirAll(filepath.Join(dir, "maildir", sub), 0o700)
	}
	before := filesUnder(t, dir)
	if code, _, errs := runCmd(t, dir, "replay", "--state", "new/state.yaml", "--out", "out/mails", "imap:INBOX"); code != 1 || !strings.Contains(errs, "imap") {
		t.Errorf("replay of a folder on a server that does not answer: exit %d, %q", code, errs)
	}
	sameFiles(t, "a replay failed for its IMAP server", dir, before)
	if code, _, errs := runCmd(t, dir, "replay", "--state", "new/state.yaml", "--out", "out", "maildir"); code != 2 || !strings.Contains(errs, "the archives hold no message and there is no state to replay onto") {
		t.Errorf("replay of an empty maildir onto no state: exit %d, %q", code, errs)
	}
	sameFiles(t, "a replay refused for an empty maildir", dir, before)
}

// TestInitTemplateMakesItsDirectory: init --template writes the starting
// state into a directory that does not exist yet, as init without it does,
// where it failed on the temporary file it could not create there.
func TestInitTemplateMakesItsDirectory(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCmd(t, dir, "init", "--template", "--state", "a/b/state.yaml")
	if code != 0 || !strings.Contains(out, "wrote the starting state a/b/state.yaml") {
		t.Fatalf("init --template into a new directory: exit %d, %s%s", code, out, errs)
	}
	if b := readFile(t, filepath.Join(dir, "a/b/state.yaml")); strings.Contains(string(b), "secret:") {
		t.Errorf("the starting state holds a secret:\n%s", b)
	}
}

// TestRunStartsAStartingState: referee run on a starting state at the
// working path (init --template writes one: no master secret, no clock)
// starts it, as it starts the committed one, where it ran the state as it
// was: no scheduled event, and a state saved with no secret that check
// then called broken.
func TestRunStartsAStartingState(t *testing.T) {
	dir := t.TempDir()
	if code, out, errs := runCmd(t, dir, "init", "--template", "--state", "data/state.yaml"); code != 0 {
		t.Fatalf("init --template: exit %d, %s%s", code, out, errs)
	}
	d := startHubDaemonIn(t, dir, "")
	alice := openMailbox(t, d.imapAddr, "alice@example.test")
	submitTo(t, d.smtpAddr, "alice@example.test", "referee@example.test", []string{"referee@example.test"}, "joining", "alice-1@example.test", "I join the Life contest.")
	alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <alice-1@example.test>") })
	stopReferee(t, d.runningReferee)
	if b := readFile(t, filepath.Join(dir, "data/state.yaml")); !strings.Contains(string(b), "secret:") {
		t.Fatalf("the state run saved holds no master secret:\n%.600s", b)
	}
	if code, out, errs := runCmd(t, dir, "check"); code != 0 {
		t.Fatalf("check after run on a starting state: exit %d, %s%s", code, out, errs)
	}
}
