package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
	"referee/internal/bridge"
	"referee/mailhub"
	"referee/mailin"
)

// A replay stopped midway, as an operator meets it: killed (SIGKILL) or
// interrupted (SIGINT) at a given point, then run again with the same
// arguments, it ends with what an uninterrupted replay gives.

// replayArgs are the arguments of every replay in these tests.
func replayArgs(t *testing.T, secret bool) []string {
	args := []string{"replay", "--until", "2026-12-15T00:00:00Z", "--out", "out"}
	if secret {
		args = append(args, "--secret-file", "secret")
	}
	return append(args, replayArchive(t))
}

// replayChild runs `referee replay` in dir as a separate process. With
// pause ("POINT:K", see replayPause) it waits for the replay to stop there
// and sends it sig; it returns the exit status and stderr.
func replayChild(t *testing.T, dir, pause string, sig syscall.Signal, args []string) (int, string) {
	t.Helper()
	code, log, paused := replayChildAt(t, dir, pause, sig, args)
	if pause != "" && !paused {
		t.Fatalf("the replay never reached %s:\n%s", pause, log)
	}
	return code, log
}

// replayChildAt is replayChild that also reports whether the replay reached
// the pause (it ran to its end if not).
func replayChildAt(t *testing.T, dir, pause string, sig syscall.Signal, args []string) (int, string, bool) {
	t.Helper()
	cmd := exec.Command(refereeBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "REFEREE_REPLAY_PAUSE="+pause)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	sc := bufio.NewScanner(stderr)
	paused := false
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if pause != "" && !paused && strings.HasPrefix(sc.Text(), "referee replay: paused at ") {
			paused = true
			cmd.Process.Signal(sig)
		}
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), log.String(), paused
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, log.String(), paused
}

// replayResult is what a replay leaves: the state, the journal's inputs and
// entries (without "base" and "more", which say how they were grouped into
// saves) and the mails by file name.
type replayResult struct {
	state   string
	journal []string
	mails   map[string]string
}

func resultOf(t *testing.T, dir string) replayResult {
	t.Helper()
	r := replayResult{state: string(readFile(t, filepath.Join(dir, "data/state.yaml"))), mails: map[string]string{}}
	for _, line := range strings.Split(strings.TrimSpace(string(readFile(t, filepath.Join(dir, "data/journal.jsonl")))), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("journal line %q: %v", line, err)
		}
		delete(m, "base")
		delete(m, "more")
		b, _ := json.Marshal(m)
		r.journal = append(r.journal, string(b))
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "out"))
	for _, e := range ents {
		r.mails[e.Name()] = string(readFile(t, filepath.Join(dir, "out", e.Name())))
	}
	return r
}

func sameResult(t *testing.T, what string, got, want replayResult) {
	t.Helper()
	if got.state != want.state {
		t.Errorf("%s: the state differs from an uninterrupted replay's", what)
	}
	if strings.Join(got.journal, "\n") != strings.Join(want.journal, "\n") {
		t.Errorf("%s: the journal differs from an uninterrupted replay's:\n%s\nwant\n%s", what, strings.Join(got.journal, "\n"), strings.Join(want.journal, "\n"))
	}
	for name, body := range want.mails {
		if g, ok := got.mails[name]; !ok {
			t.Errorf("%s: %s is missing", what, name)
		} else if g != body {
			t.Errorf("%s: %s differs from an uninterrupted replay's", what, name)
		}
	}
	for name := range got.mails {
		if _, ok := want.mails[name]; !ok {
			t.Errorf("%s: %s is one file too many", what, name)
		}
	}
}

func secretDir(t *testing.T) string {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{9}, 32), 0o600)
	return dir
}

// TestReplayResumesAfterKill: a replay killed at several points (while
// reading, between writing the checkpoint and saving the state, between
// saving and writing its mails, between two mails), then run again, leaves
// the same state, journal and mails as one never killed, and says that it
// resumed.
func TestReplayResumesAfterKill(t *testing.T) {
	base := secretDir(t)
	if code, errs := replayChild(t, base, "", 0, replayArgs(t, true)); code != 0 {
		t.Fatalf("replay: exit %d %s", code, errs)
	}
	want := resultOf(t, base)
	if len(want.mails) < 4 {
		t.Fatalf("the uninterrupted replay wrote %d mails", len(want.mails))
	}
	for _, kills := range [][]string{
		{"saving:1"},
		{"saved:1"},
		{"message:3"},
		{"saving:3", "saved:2", "eml:1", "message:1"},
		{"eml:2"},
		{"eml:5", "saving:1", "eml:1"},
	} {
		name := strings.Join(kills, ",")
		dir := secretDir(t)
		for _, k := range kills {
			if code, errs := replayChild(t, dir, k, syscall.SIGKILL, replayArgs(t, true)); code != -1 {
				t.Fatalf("%s: killed at %s: exit %d %s", name, k, code, errs)
			}
		}
		code, errs := replayChild(t, dir, "", 0, replayArgs(t, true))
		if code != 0 {
			t.Fatalf("%s: the replay run again: exit %d %s", name, code, errs)
		}
		if kills[len(kills)-1] != "saving:1" {
			wants(t, name+": the replay run again", errs, "referee replay: resuming the replay stopped before its end")
		}
		sameResult(t, name, resultOf(t, dir), want)
		if _, err := os.Stat(filepath.Join(dir, "data/state.yaml.replay")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the checkpoint is still there after the end: %v", name, err)
		}
		if tmp, _ := filepath.Glob(filepath.Join(dir, "out/.eml-*")); len(tmp) > 0 {
			t.Errorf("%s: temporary files left: %v", name, tmp)
		}
	}
}

// TestReplayMailFilesMode: the mails a replay writes can be read by all
// (mode 0644) whatever the umask, and a mail a killed replay left under a
// number the resumed one writes again, its text and its mode changed, is
// written over, whole and 0644.
func TestReplayMailFilesMode(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o077)) // the children inherit it
	base := secretDir(t)
	if code, errs := replayChild(t, base, "", 0, replayArgs(t, true)); code != 0 {
		t.Fatalf("replay: exit %d %s", code, errs)
	}
	want := resultOf(t, base)
	modes(t, "under umask 077", base)

	syscall.Umask(0o022)
	dir := secretDir(t)
	if code, errs := replayChild(t, dir, "eml:2", syscall.SIGKILL, replayArgs(t, true)); code != -1 {
		t.Fatalf("killed at eml:2: exit %d %s", code, errs)
	}
	// Whatever the file holds, longer than the mail too.
	left := filepath.Join(dir, "out", "0002.eml")
	if err := os.WriteFile(left, bytes.Repeat([]byte("x"), 1<<16), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(left, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, errs := replayChild(t, dir, "", 0, replayArgs(t, true)); code != 0 {
		t.Fatalf("the replay run again: exit %d %s", code, errs)
	}
	sameResult(t, "resumed over a mail changed", resultOf(t, dir), want)
	modes(t, "resumed over a mail of mode 0600", dir)
}

// TestEmlWriterInBackground: the mails a replay hands to its writer
// goroutine are the files the writer makes in place, under the same
// numbers; a file that cannot be written (its name taken by a folder)
// is the error of the next sync, naming it, and the mails handed over
// after it are not written.
func TestEmlWriterInBackground(t *testing.T) {
	addr := bridge.Addresses{Referee: "referee@example.test", PublicList: "agora-business@example.test", OfficialList: "agora-official@example.test", PublicTag: "BUS:", OfficialTag: "OFF:"}
	var outbox []*contract.Outgoing
	for i := range 5 {
		outbox = append(outbox, &contract.Outgoing{Notice: contract.Notice{ID: fmt.Sprintf("receipt/%d@example.test", i), Kind: "receipt",
			Channel: contract.ChanPrivate, To: []string{"alice@example.test"}, Subject: fmt.Sprintf("Re: claim %d", i), Body: "Done.\n",
			Time: time.Date(2026, 11, 2, 8, 0, i, 0, time.UTC)}})
	}
	write := func(dir string, background bool) error {
		w, err := newEmlWriter(dir, addr)
		if err != nil {
			t.Fatal(err)
		}
		defer w.close()
		if background {
			w.background()
		}
		for _, run := range [][]*contract.Outgoing{outbox[:2], outbox[2:3], outbox[3:]} {
			if err := w.write(run, w.first(), func(string) {}); err != nil {
				return err
			}
			if err := w.sync(); err != nil {
				return err
			}
		}
		return nil
	}
	inPlace, behind := t.TempDir(), t.TempDir()
	if err := write(inPlace, false); err != nil {
		t.Fatal(err)
	}
	if err := write(behind, true); err != nil {
		t.Fatal(err)
	}
	want, got := filesIn(t, inPlace), filesIn(t, behind)
	if len(want) != len(outbox) || !maps.Equal(got, want) {
		t.Errorf("written in the background: %v; in place: %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}

	dir := t.TempDir()
	taken := filepath.Join(dir, "0002.eml")
	if err := os.MkdirAll(taken, 0o755); err != nil {
		t.Fatal(err)
	}
	w, _ := newEmlWriter(dir, addr)
	w.background()
	defer w.close()
	if err := w.write(outbox[:3], 1, func(string) {}); err != nil {
		t.Fatalf("handing over: %v", err)
	}
	w.write(outbox[3:], 4, func(string) {})
	if err := w.sync(); err == nil || err.Error() != "write "+taken+": is a directory" {
		t.Errorf("sync after a mail that cannot be written: %v", err)
	}
	for _, name := range []string{"0003.eml", "0004.eml"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s written after the failed 0002.eml", name)
		}
	}
}

// filesIn is the text of each file in dir, by name.
func filesIn(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		out[e.Name()] = string(readFile(t, filepath.Join(dir, e.Name())))
	}
	return out
}

// modes checks that every mail in dir/out has mode 0644.
func modes(t *testing.T, what, dir string) {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "out"))
	if err != nil || len(ents) == 0 {
		t.Fatalf("%s: %d mails (%v)", what, len(ents), err)
	}
	for _, e := range ents {
		if fi, err := e.Info(); err != nil || fi.Mode() != 0o644 {
			t.Errorf("%s: %s: mode %v (%v), want -rw-r--r--", what, e.Name(), fi.Mode(), err)
		}
	}
}

// TestReplayResumesAfterKillAnywhere: killed once at each point a replay
// passes (every message, every save, every mail written), then run again,
// a replay ends as one never killed: over an mbox, and over .eml files and
// a maildir given together.
func TestReplayResumesAfterKillAnywhere(t *testing.T) {
	killAnywhere(t, replayArgs(t, true), []string{"message", "saving", "saved", "eml", "snapshot"})
	// The same messages as .eml files and a maildir.
	a, err := mailin.OpenArchive("testdata/replay.mbox")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	arch := t.TempDir()
	var archives []string
	os.MkdirAll(filepath.Join(arch, "md/cur"), 0o755)
	for i := 1; ; i++ {
		raw, err := a.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if i == 2 || i == 3 {
			os.WriteFile(filepath.Join(arch, "md/cur", fmt.Sprintf("%d.M%dP1.test:2,S", raw.Arrived.Unix(), i)), raw.Data, 0o644)
			if i == 2 {
				archives = append(archives, filepath.Join(arch, "md"))
			}
			continue
		}
		name := filepath.Join(arch, fmt.Sprintf("%d.eml", i))
		os.WriteFile(name, raw.Data, 0o644)
		archives = append(archives, name)
	}
	if len(archives) != 4 {
		t.Fatalf("archives: %v", archives)
	}
	args := append([]string{"replay", "--until", "2026-12-15T00:00:00Z", "--out", "out", "--secret-file", "secret"}, archives...)
	killAnywhere(t, args, []string{"message", "saved"})

	// Killed after the maildir's first message, which is then replaced
	// by another: the replay run again refuses, naming the message.
	dir := secretDir(t)
	if code, errs := replayChild(t, dir, "message:4", syscall.SIGKILL, args); code != -1 {
		t.Fatalf("exit %d %s", code, errs)
	}
	md, _ := filepath.Glob(filepath.Join(arch, "md/cur/*"))
	x, y := readFile(t, md[0]), readFile(t, md[1])
	os.WriteFile(md[0], y, 0o644)
	os.WriteFile(md[1], x, 0o644)
	code, errs := replayChild(t, dir, "", 0, args)
	if code != 1 {
		t.Errorf("replay of a changed archive: exit %d, want 1", code)
	}
	wants(t, "replay of a changed archive", errs, filepath.Join(arch, "md")+": message 1 is r3@example.test, the checkpoint's is r2@example.test: the archive changed since; delete data/state.yaml.replay to replay from the first message")
}

// killAnywhere kills the replay args once at each of its points, for
// every point named, and checks that the replay run again ends as one
// never killed.
func killAnywhere(t *testing.T, args []string, points []string) {
	t.Helper()
	killAnywhereIn(t, args, points, func(string) {})
}

// killAnywhereIn is killAnywhere with setup run on each new directory.
func killAnywhereIn(t *testing.T, args []string, points []string, setup func(dir string)) {
	t.Helper()
	secretDir := func(t *testing.T) string {
		dir := secretDir(t)
		setup(dir)
		return dir
	}
	base := secretDir(t)
	if code, errs := replayChild(t, base, "", 0, args); code != 0 {
		t.Fatalf("replay: exit %d %s", code, errs)
	}
	want := resultOf(t, base)
	if len(want.mails) < 4 {
		t.Fatalf("the uninterrupted replay wrote %d mails", len(want.mails))
	}
	kills := 0
	for _, point := range points {
		for k := 1; ; k++ {
			at := fmt.Sprintf("%s:%d", point, k)
			dir := secretDir(t)
			code, errs, paused := replayChildAt(t, dir, at, syscall.SIGKILL, args)
			if !paused {
				if code != 0 || k == 1 {
					t.Fatalf("%s: exit %d, never paused: %s", at, code, errs)
				}
				sameResult(t, "never killed at "+at, resultOf(t, dir), want)
				break
			}
			kills++
			if code, errs := replayChild(t, dir, "", 0, args); code != 0 {
				t.Fatalf("%s: the replay run again: exit %d %s", at, code, errs)
			}
			sameResult(t, "killed at "+at, resultOf(t, dir), want)
		}
	}
	t.Logf("%d kills, each followed by a resumed replay equal to the uninterrupted one", kills)
}

// TestKilledFreshReplayKeepsOneSecret: a fresh replay without
// --secret-file, killed and run again, draws one master secret: what it
// writes is what a replay given that secret writes, Randomness notices
// included.
func TestKilledFreshReplayKeepsOneSecret(t *testing.T) {
	dir := t.TempDir()
	// Killed during its first save: nothing was kept, no mail written.
	if code, errs := replayChild(t, dir, "saving:1", syscall.SIGKILL, replayArgs(t, false)); code != -1 {
		t.Fatalf("exit %d %s", code, errs)
	}
	if mails, _ := filepath.Glob(filepath.Join(dir, "out/*.eml")); len(mails) > 0 {
		t.Fatalf("mail written before the secret was saved: %v", mails)
	}
	// Killed after it: the secret is saved.
	if code, errs := replayChild(t, dir, "saved:1", syscall.SIGKILL, replayArgs(t, false)); code != -1 {
		t.Fatalf("exit %d %s", code, errs)
	}
	secret := regexp.MustCompile(`(?m)^secret: "?([0-9a-f]{64})"?$`).FindStringSubmatch(string(readFile(t, filepath.Join(dir, "data/state.yaml"))))
	if secret == nil {
		t.Fatalf("no secret in the saved state:\n%s", readFile(t, filepath.Join(dir, "data/state.yaml")))
	}
	for _, k := range []string{"eml:2", "saved:2"} {
		if code, errs := replayChild(t, dir, k, syscall.SIGKILL, replayArgs(t, false)); code != -1 {
			t.Fatalf("killed at %s: exit %d %s", k, code, errs)
		}
	}
	if code, errs := replayChild(t, dir, "", 0, replayArgs(t, false)); code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	got := resultOf(t, dir)

	// An uninterrupted replay given the secret the first save kept.
	base := t.TempDir()
	os.WriteFile(filepath.Join(base, "secret"), []byte(secret[1]+"\n"), 0o600)
	if code, errs := replayChild(t, base, "", 0, replayArgs(t, true)); code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	want := resultOf(t, base)
	sameResult(t, "killed fresh replay", got, want)
	random := 0
	for _, body := range got.mails {
		if strings.Contains(body, "Randomness") {
			random++
		}
	}
	if random == 0 {
		t.Errorf("no Randomness notice among %d mails", len(got.mails))
	}
}

// TestReplayInterrupted: SIGINT stops a replay with exit status 3 after
// saving its checkpoint, leaving no notice in the state's outbox for `run`
// to send; run again, it finishes as an uninterrupted replay.
func TestReplayInterrupted(t *testing.T) {
	base := secretDir(t)
	if code, errs := replayChild(t, base, "", 0, replayArgs(t, true)); code != 0 {
		t.Fatalf("replay: exit %d %s", code, errs)
	}
	want := resultOf(t, base)
	dir := secretDir(t)
	code, errs := replayChild(t, dir, "message:3", syscall.SIGINT, replayArgs(t, true))
	if code != 3 {
		t.Fatalf("interrupted replay: exit %d, want 3: %s", code, errs)
	}
	wants(t, "interrupted replay", errs, "referee replay: stopped by interrupt after 3 messages; the state and the position are saved: run the same command again to resume")
	if _, err := os.Stat(filepath.Join(dir, "data/state.yaml.replay")); err != nil {
		t.Errorf("no checkpoint: %v", err)
	}
	code, out, _ := runCmd(t, dir, "check")
	if strings.Contains(out, "waiting in the outbox") {
		t.Errorf("the interrupted replay left notices in the outbox:\n%s", out)
	}
	// check names the leftover checkpoint, what it means and both ways out.
	if code != 1 {
		t.Errorf("check beside a replay's checkpoint: exit %d, want 1", code)
	}
	wants(t, "check beside a replay's checkpoint", out,
		"data/state.yaml.replay: the checkpoint of a referee replay stopped after message 3 of "+replayArchive(t)+" (3 messages applied)",
		"the state holds that replay only as far as it got",
		"Run the same command again to resume it (referee replay --until 2026-12-15T00:00:00Z --out "+filepath.Join(dir, "out")+" "+replayArchive(t)+", with the same --state and --secret-file",
		"deleting the checkpoint would make referee run mail the notices this replay wrote as files since its last snapshot")
	// status, which lists check's problems, names it too.
	code, out, _ = runCmd(t, dir, "status")
	if code != 2 {
		t.Errorf("status beside a replay's checkpoint: exit %d, want 2\n%s", code, out)
	}
	wants(t, "status beside a replay's checkpoint", out,
		"data/state.yaml.replay: the checkpoint of a referee replay stopped after message 3 of "+replayArchive(t)+" (3 messages applied)")
	// run refuses to start beside it, and mails nothing.
	code, _, errs = runCmd(t, dir, "run")
	if code == 0 {
		t.Errorf("run beside a replay's checkpoint: exit 0")
	}
	wants(t, "run beside a replay's checkpoint", errs,
		"data/state.yaml.replay: the checkpoint of a referee replay stopped after message 3",
		"referee run does not start beside it")
	code, errs = replayChild(t, dir, "", 0, replayArgs(t, true))
	if code != 0 {
		t.Fatalf("resumed replay: exit %d %s", code, errs)
	}
	if code, out, _ := runCmd(t, dir, "check"); code != 0 || strings.Contains(out, ".replay") {
		t.Errorf("check after the resumed replay: exit %d\n%s", code, out)
	}
	if code, out, _ := runCmd(t, dir, "status"); code != 0 || !strings.Contains(out, "problems: none") {
		t.Errorf("status after the resumed replay: exit %d\n%s", code, out)
	}
	wants(t, "resumed replay", errs, "referee replay: resuming the replay stopped before its end, at "+replayArchive(t)+", message 4 (3 messages applied before)")
	sameResult(t, "interrupted replay", resultOf(t, dir), want)
}

// TestReplayFromIMAPResumesAfterKill: a replay of a folder on an IMAP
// server (imap:FOLDER), killed once at each point it passes and run again,
// ends as one never killed, and leaves the folder as it was.
func TestReplayFromIMAPResumesAfterKill(t *testing.T) {
	a, err := mailin.OpenArchive("testdata/replay.mbox")
	if err != nil {
		t.Fatal(err)
	}
	var raws []*mailin.Raw
	for {
		r, err := a.Next()
		if err != nil {
			break
		}
		raws = append(raws, r)
	}
	a.Close()
	i := 0
	hub, err := mailhub.Start(mailhub.Options{Users: []string{"store@example.test"}, Now: func() time.Time { return raws[min(i, len(raws)-1)].Arrived }})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	for i = range raws {
		if err := hub.Deliver("x@example.test", []string{"store@example.test"}, raws[i].Data); err != nil {
			t.Fatal(err)
		}
	}
	before := hub.Mailbox("store@example.test")
	conf := []byte("imap: {addr: '" + hub.IMAPAddr() + "', tls: none, user: store@example.test, password: x}\nsmtp: {addr: '" + hub.SMTPAddr() + "', tls: none}\n")
	args := []string{"replay", "--until", "2026-12-15T00:00:00Z", "--out", "out", "--secret-file", "secret", "imap:INBOX"}
	killAnywhereIn(t, args, []string{"message", "saving"}, func(dir string) {
		if err := os.WriteFile(filepath.Join(dir, "referee.yaml"), conf, 0o600); err != nil {
			t.Fatal(err)
		}
	})
	if diff := cmp.Diff(before, hub.Mailbox("store@example.test")); diff != "" {
		t.Errorf("the folder changed (-before +after):\n%s", diff)
	}
}

// TestReplayAgainInterruptedCountsSkips: an archive replayed again, stopped
// after some of its messages and run again to its end, changes nothing of
// the state file or the journal, and its last line counts every message
// skipped, those before the stop too.
func TestReplayAgainInterruptedCountsSkips(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	state, journal := readFile(t, filepath.Join(dir, "data/state.yaml")), readFile(t, filepath.Join(dir, "data/journal.jsonl"))
	if code, log := replayChild(t, dir, "message:4", syscall.SIGINT, replayArgs(t, true)); code != 3 {
		t.Fatalf("the replay again, interrupted: exit %d\n%s", code, log)
	}
	code, out, errs := runCmd(t, dir, replayArgs(t, true)...)
	if code != 0 {
		t.Fatalf("the replay again, resumed: exit %d %s %s", code, out, errs)
	}
	wants(t, "the replay again, resumed", out, "0 messages applied, 5 skipped (applied before), 0 journal entries, 0 mails written")
	if !bytes.Equal(state, readFile(t, filepath.Join(dir, "data/state.yaml"))) || !bytes.Equal(journal, readFile(t, filepath.Join(dir, "data/journal.jsonl"))) {
		t.Errorf("the replay again, stopped and resumed, changed the state file or the journal")
	}
}

// TestReplayInterruptedAfterOne: a replay stopped after its first message
// says so in the singular, as referee check and the resumed replay do.
func TestReplayInterruptedAfterOne(t *testing.T) {
	dir := secretDir(t)
	code, errs := replayChild(t, dir, "message:1", syscall.SIGINT, replayArgs(t, true))
	if code != 3 {
		t.Fatalf("interrupted replay: exit %d, want 3: %s", code, errs)
	}
	wants(t, "interrupted replay", errs, "referee replay: stopped by interrupt after 1 message; the state")
	_, out, _ := runCmd(t, dir, "check")
	wants(t, "check beside the checkpoint", out, "stopped after message 1 of "+replayArchive(t)+" (1 message applied)")
	if code, errs = replayChild(t, dir, "", 0, replayArgs(t, true)); code != 0 {
		t.Fatalf("resumed replay: exit %d %s", code, errs)
	}
	wants(t, "resumed replay", errs, ", message 2 (1 message applied before)")
}
