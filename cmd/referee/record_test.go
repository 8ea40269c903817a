package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"referee/contract/store"
)

// The record's guards as an operator meets them: what check, run and
// replay print, their exit status, and the files they leave.

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wants fails unless s holds every one of subs.
func wants(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%s lacks %q:\n%s", what, sub, s)
		}
	}
}

// replayArchive is the test archive's absolute path.
func replayArchive(t *testing.T) string {
	a, err := filepath.Abs("testdata/replay.mbox")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestMissingStateBesideJournal: a journal with no state beside it stops
// run and replay, which change nothing; check explains; check --repair
// moves the whole journal to the cut file, and the referee starts afresh.
func TestMissingStateBesideJournal(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	jpath := filepath.Join(dir, "data/journal.jsonl")
	journal := readFile(t, jpath)
	n := bytes.Count(journal, []byte("\n"))
	os.Rename(filepath.Join(dir, "data/state.yaml"), filepath.Join(dir, "state.elsewhere"))

	code, out, _ := runCmd(t, dir, "check")
	if code != 1 {
		t.Errorf("check: exit %d, want 1", code)
	}
	wants(t, "check", out, "data/state.yaml: missing, but its journal data/journal.jsonl holds",
		"data/journal.jsonl:1: lines 1-", "are history no saved state includes",
		"referee run and referee replay will not start on this journal", "referee check --repair")
	awayFromDefaultPorts(t, dir)
	for _, args := range [][]string{{"replay", replayArchive(t)}, {"run"}} {
		code, _, errs := runCmd(t, dir, args...)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", args[0], code)
		}
		wants(t, args[0], errs, "referee "+args[0]+": data/journal.jsonl:1: lines 1-", "Nothing was changed", "referee check --repair")
		if !bytes.Equal(readFile(t, jpath), journal) {
			t.Fatalf("%s changed the journal", args[0])
		}
		if _, err := os.Stat(filepath.Join(dir, "data/state.yaml")); err == nil {
			t.Fatalf("%s wrote a fresh state beside the journal", args[0])
		}
	}

	code, out, _ = runCmd(t, dir, "check", "--repair")
	if code != 0 {
		t.Errorf("check --repair: exit %d\n%s", code, out)
	}
	cuts, _ := filepath.Glob(jpath + ".cut-*")
	if len(cuts) != 1 || !bytes.Equal(readFile(t, cuts[0]), journal) {
		t.Fatalf("cut files %v do not hold the whole journal", cuts)
	}
	wants(t, "check --repair", out, "moved "+strconv.Itoa(n)+" line(s) (1-"+strconv.Itoa(n)+") to data/journal.jsonl.cut-", "no state yet")
	if b := readFile(t, jpath); len(b) != 0 {
		t.Errorf("the journal after repair holds %q", b)
	}
	// And the way on: a replay starts a fresh state and journal.
	if code, _, errs := runCmd(t, dir, "replay", "--secret-file", "secret", replayArchive(t)); code != 0 {
		t.Errorf("replay after repair: exit %d %s", code, errs)
	}
}

// TestBadJournalLine: a line that does not decode, in the middle of the
// journal, stops replay with its file and line; check names it; --repair
// moves that line alone; then all is well.
func TestBadJournalLine(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	jpath := filepath.Join(dir, "data/journal.jsonl")
	lines := strings.SplitAfter(string(readFile(t, jpath)), "\n")
	bad := append(append(append([]string{}, lines[:7]...), "not a journal line\n"), lines[7:]...)
	os.WriteFile(jpath, []byte(strings.Join(bad, "")), 0o600)

	code, out, _ := runCmd(t, dir, "check")
	if code != 1 {
		t.Errorf("check: exit %d, want 1", code)
	}
	wants(t, "check", out, `data/journal.jsonl:8: does not decode as a journal entry`, `"not a journal line"`, "Mend the lines that do not decode")
	code, _, errs := runCmd(t, dir, "replay", replayArchive(t))
	if code != 1 {
		t.Errorf("replay: exit %d, want 1", code)
	}
	wants(t, "replay", errs, "data/journal.jsonl:8: line does not decode", "Mend the line", "referee check --repair")
	if got := string(readFile(t, jpath)); got != strings.Join(bad, "") {
		t.Error("replay changed the refused journal")
	}

	code, out, _ = runCmd(t, dir, "check", "--repair")
	if code != 0 {
		t.Errorf("check --repair: exit %d\n%s", code, out)
	}
	wants(t, "check --repair", out, "moved 1 line(s) (8) to data/journal.jsonl.cut-", "ok")
	cuts, _ := filepath.Glob(jpath + ".cut-*")
	if len(cuts) != 1 || string(readFile(t, cuts[0])) != "not a journal line\n" {
		t.Errorf("cut files %v", cuts)
	}
	if got := string(readFile(t, jpath)); got != strings.Join(lines, "") {
		t.Error("the repaired journal is not the original one")
	}
	if code, _, errs := runCmd(t, dir, "replay", replayArchive(t)); code != 0 {
		t.Errorf("replay after repair: exit %d %s", code, errs)
	}
}

// TestTornLastLine: the torn last line of a crash, and the lines of the
// save it interrupted, are cut by the next start without asking, and said.
func TestTornLastLine(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	jpath := filepath.Join(dir, "data/journal.jsonl")
	journal := readFile(t, jpath)
	f, _ := os.OpenFile(jpath, os.O_APPEND|os.O_WRONLY, 0)
	// One whole line of a save from the state's seq that never finished,
	// then a torn one. The journal's last entry (input lines have no seq)
	// is seq n; the new line is the file's line l.
	entries := regexp.MustCompile(`(?m)^\{"seq":.*\n`).FindAllString(string(journal), -1)
	last := entries[len(entries)-1]
	n := len(entries)
	l := bytes.Count(journal, []byte("\n")) + 1
	unfinished := strings.Replace(strings.Replace(last, `"seq":`+strconv.Itoa(n)+`,`, `"seq":`+strconv.Itoa(n+1)+`,`, 1), `"base":`+regexp.MustCompile(`"base":(\d+)}`).FindStringSubmatch(last)[1]+`}`, `"base":`+strconv.Itoa(n)+`}`, 1)
	torn := `{"seq":` + strconv.Itoa(n+2) + `,"time":"2026-12-1`
	f.WriteString(unfinished + torn)
	f.Close()

	code, out, _ := runCmd(t, dir, "check")
	if code != 1 {
		t.Errorf("check: exit %d, want 1", code)
	}
	wants(t, "check", out, "written by a save that never finished; the next start cuts it", "a torn last line ("+strconv.Itoa(len(torn))+" bytes, no newline)")
	code, _, errs := runCmd(t, dir, "replay", replayArchive(t))
	if code != 0 {
		t.Fatalf("replay: exit %d %s", code, errs)
	}
	wants(t, "replay", errs, "referee replay: journal cut back to the state", "line "+strconv.Itoa(l)+" (seq "+strconv.Itoa(n+1)+") of a save that never finished, copied to journal.jsonl.cut-", "and a torn last line ("+strconv.Itoa(len(torn))+" bytes)")
	cuts, _ := filepath.Glob(jpath + ".cut-*")
	if len(cuts) != 1 || string(readFile(t, cuts[0])) != unfinished {
		t.Errorf("the copy of the unfinished save's lines: %v", cuts)
	}
	// The journal is the one before the crash, then the inputs of the
	// replay again (the same messages: no entry).
	if after := readFile(t, jpath); !bytes.HasPrefix(after, journal) || bytes.Contains(after[len(journal):], []byte(`{"seq":`)) {
		t.Errorf("the journal after the cut is not the one before the crash")
	}
	if code, out, _ := runCmd(t, dir, "check"); code != 0 {
		t.Errorf("check after the cut: exit %d\n%s", code, out)
	}
}

// TestJournalGapsAndBehind: check lists a seq gap and a journal that ends
// before its state, each on its line, with exit status 1.
func TestJournalGapsAndBehind(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	jpath := filepath.Join(dir, "data/journal.jsonl")
	lines := strings.SplitAfter(string(readFile(t, jpath)), "\n")
	lines = lines[:len(lines)-1] // the last element is empty
	var entries []int            // the lines of entries (inputs have no seq)
	for i, l := range lines {
		if strings.HasPrefix(l, `{"seq":`) {
			entries = append(entries, i)
		}
	}
	n := len(entries)
	// Entry 5 lost, and the last two; line6 is where entry 6 ends up.
	drop := map[int]bool{entries[4]: true, entries[n-1]: true, entries[n-2]: true}
	var kept []string
	line6 := 0
	for i, l := range lines {
		if !drop[i] {
			kept = append(kept, l)
		}
		if i == entries[5] {
			line6 = len(kept)
		}
	}
	os.WriteFile(jpath, []byte(strings.Join(kept, "")), 0o600)
	code, out, _ := runCmd(t, dir, "check")
	if code != 1 {
		t.Errorf("check: exit %d, want 1", code)
	}
	wants(t, "check", out,
		"data/journal.jsonl:"+strconv.Itoa(line6)+": seq 6 after 4: seq 5 is missing",
		"data/journal.jsonl:"+strconv.Itoa(len(kept))+": the journal ends at seq "+strconv.Itoa(n-2)+" but the state includes up to seq "+strconv.Itoa(n)+": seq "+strconv.Itoa(n-1)+"-"+strconv.Itoa(n)+" are missing")
}

// TestInitForceKeepsCopies: init --force keeps the old state and journal as
// dated copies; without --force, even a journal alone is not overwritten.
func TestInitForceKeepsCopies(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	state, journal := readFile(t, filepath.Join(dir, "data/state.yaml")), readFile(t, filepath.Join(dir, "data/journal.jsonl"))
	code, out, errs := runCmd(t, dir, "init", "--force")
	if code != 0 {
		t.Fatalf("init --force: exit %d %s", code, errs)
	}
	wants(t, "init --force", out, "kept the old data/state.yaml as data/state.yaml.old-", "kept the old data/journal.jsonl as data/journal.jsonl.old-")
	olds, _ := filepath.Glob(filepath.Join(dir, "data/*.old-*"))
	if len(olds) != 2 {
		t.Fatalf("dated copies: %v", olds)
	}
	for _, o := range olds {
		want := state
		if strings.Contains(o, "journal") {
			want = journal
		}
		if !bytes.Equal(readFile(t, o), want) {
			t.Errorf("%s is not the old file", o)
		}
	}
	if bytes.Equal(readFile(t, filepath.Join(dir, "data/state.yaml")), state) {
		t.Error("init --force did not write a fresh state")
	}
	// A journal alone, no state: init refuses without --force.
	os.Remove(filepath.Join(dir, "data/state.yaml"))
	code, _, errs = runCmd(t, dir, "init")
	if code != 2 {
		t.Errorf("init over a lone journal: exit %d, want 2", code)
	}
	wants(t, "init", errs, "data/journal.jsonl exists; use --force")
}

// TestBadSecretIsALoadError: a bad master secret is named by check, and run
// refuses to start on it instead of panicking at every scheduled event.
func TestBadSecretIsALoadError(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	p := filepath.Join(dir, "data/state.yaml")
	b := readFile(t, p)
	i := bytes.Index(b, []byte("\nsecret: "))
	j := bytes.IndexByte(b[i+1:], '\n')
	bad := append(append(append([]byte{}, b[:i]...), "\nsecret: 0123456789abcdefg"...), b[i+1+j:]...)
	os.WriteFile(p, bad, 0o600)
	want := "data/state.yaml:2: secret: the master secret must be 32 bytes written as 64 hex digits"
	code, out, _ := runCmd(t, dir, "check")
	if code != 1 {
		t.Errorf("check: exit %d, want 1", code)
	}
	wants(t, "check", out, want)
	code, _, errs := runCmd(t, dir, "run")
	if code != 1 {
		t.Errorf("run: exit %d, want 1", code)
	}
	wants(t, "run", errs, want)
	if strings.Contains(errs, "panic") {
		t.Errorf("run panicked: %s", errs)
	}
}

// TestCheckListsEverything: configuration problems (in the file, on their
// line; from the environment, naming the variable) and state problems all
// at once, in words, with exit status 2 for the configuration.
func TestCheckListsEverything(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("address: referee@example.test\nlimits:\n  max_text_bytes: lots\n  receipt_per_hour: 3\nlog:\n  format: xml\n"), 0o600)
	t.Setenv("REFEREE_SMTP_TLS", "ssl")
	p := filepath.Join(dir, "data/state.yaml")
	b := readFile(t, p)
	b = regexp.MustCompile(`\n      rounds: \d+\n`).ReplaceAll(b, []byte("\n      rounds: many\n"))
	os.WriteFile(p, b, 0o600)
	code, out, _ := runCmd(t, dir, "check")
	if code != 2 {
		t.Errorf("check: exit %d, want 2", code)
	}
	wants(t, "check", out,
		`referee.yaml:3: limits.max_text_bytes: "lots" is not a whole number`,
		`referee.yaml:4: limits.receipt_per_hour: no such key`,
		`referee.yaml:6: log.format: "xml" must be text or json`,
		`smtp.tls (set by REFEREE_SMTP_TLS): "ssl" must be tls, starttls or none`,
		`games.life.state.rounds: "many" is not a whole number`)
	for _, goName := range []string{"main.", " int", "life.State", "!!str"} {
		if strings.Contains(out, goName) {
			t.Errorf("check names a Go type (%q):\n%s", goName, out)
		}
	}
	// run refuses the configuration with every problem too.
	code, _, errs := runCmd(t, dir, "run")
	if code != 2 {
		t.Errorf("run: exit %d, want 2", code)
	}
	wants(t, "run", errs, `referee.yaml:3: limits.max_text_bytes: "lots" is not a whole number`, `smtp.tls (set by REFEREE_SMTP_TLS): "ssl" must be`)
}

// awayFromDefaultPorts configures the embedded hub on ports of its own and no
// status page: a referee running beside the tests on the default ports would
// stop a run that gets past the problem the test looks for at the hub's
// start, not at the problem.
func awayFromDefaultPorts(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("hub:\n  imap_addr: 127.0.0.1:0\n  smtp_addr: 127.0.0.1:0\nweb:\n  addr: \"off\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestCheckNamesAFailedJournalSync: a failed sync of the journal, recorded
// beside it by the daemon (store.SyncFailedError), is a problem check names
// with the disk's error, and run does not start until it is removed.
func TestCheckNamesAFailedJournalSync(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	rec := store.SyncFailedPath(store.JournalPath(filepath.Join(dir, "data/state.yaml")))
	os.WriteFile(rec, []byte("2026-12-02T05:00:00Z input/output error\n"), 0o600)
	code, out, _ := runCmd(t, dir, "check")
	if code != 1 {
		t.Errorf("check: exit %d, want 1", code)
	}
	wants(t, "check", out, "journal.jsonl.sync-failed: a sync of the journal failed (2026-12-02T05:00:00Z input/output error)", "check the disk, then remove this file")
	awayFromDefaultPorts(t, dir)
	code, _, errs := runCmd(t, dir, "run")
	if code == 0 {
		t.Error("run started beside a failed journal sync")
	}
	wants(t, "run", errs, "a sync of the journal failed", "journal.jsonl.sync-failed")
	if strings.Contains(errs, "mail hub") {
		t.Errorf("run started the embedded mail hub before it refused the journal:\n%s", errs)
	}
	// A replay refuses it too, before it reads a message.
	journal := readFile(t, store.JournalPath(filepath.Join(dir, "data/state.yaml")))
	arch, _ := filepath.Abs("testdata/replay.mbox")
	code, _, errs = runCmd(t, dir, "replay", "--secret-file", "secret", arch)
	if code == 0 || !strings.Contains(errs, "journal.jsonl.sync-failed") {
		t.Errorf("replay beside a failed journal sync: exit %d, %s", code, errs)
	}
	if !bytes.Equal(journal, readFile(t, store.JournalPath(filepath.Join(dir, "data/state.yaml")))) {
		t.Error("a replay refused beside a failed journal sync wrote to the journal")
	}
}

// TestStateIsADirectory: a directory where the state file should be is
// said as such by check and run.
func TestStateIsADirectory(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	p := filepath.Join(dir, "data/state.yaml")
	os.Rename(p, p+".saved")
	os.MkdirAll(filepath.Join(p, "x"), 0o700)
	want := "data/state.yaml is a directory, not a state file: move it away"
	code, out, _ := runCmd(t, dir, "check")
	if code != 1 {
		t.Errorf("check: exit %d, want 1", code)
	}
	wants(t, "check", out, want)
	code, _, errs := runCmd(t, dir, "run")
	if code != 1 {
		t.Errorf("run: exit %d, want 1", code)
	}
	wants(t, "run", errs, want)
	os.RemoveAll(p)
	os.Rename(p+".saved", p)
	if code, out, _ := runCmd(t, dir, "check"); code != 0 {
		t.Errorf("check once the state is back: exit %d\n%s", code, out)
	}
}

// TestInitOnFullOrReadOnlyDisk: on a real full disk and a real read-only
// one, init says so, leaves no state and no temporary file, and works once
// the fault is gone.
func TestInitOnFullOrReadOnlyDisk(t *testing.T) {
	disk := mountTmpfs(t, "64k")
	dir := t.TempDir()
	state := filepath.Join(disk, "state.yaml")
	filler := filepath.Join(disk, "filler")
	os.WriteFile(filler, make([]byte, 60<<10), 0o600)
	code, _, errs := runCmd(t, dir, "init", "--state", state)
	if code != 1 {
		t.Errorf("init on a full disk: exit %d, want 1", code)
	}
	wants(t, "init on a full disk", errs, "no space left on device", state)
	left, _ := os.ReadDir(disk)
	for _, f := range left {
		if f.Name() != "filler" && !(f.Name() == "journal.jsonl") {
			t.Errorf("init on a full disk left %s", f.Name())
		}
	}
	if b, err := os.ReadFile(filepath.Join(disk, "journal.jsonl")); err == nil && len(b) > 0 {
		t.Errorf("init on a full disk left journal lines: %q", b)
	}
	os.Remove(filler)
	if err := syscall.Mount("tmpfs", disk, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCmd(t, dir, "init", "--state", state)
	if code != 1 {
		t.Errorf("init on a read-only disk: exit %d, want 1", code)
	}
	wants(t, "init on a read-only disk", errs, "read-only file system")
	if err := syscall.Mount("tmpfs", disk, "tmpfs", syscall.MS_REMOUNT, ""); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCmd(t, dir, "init", "--state", state); code != 0 {
		t.Errorf("init once the disk is writable and has room: exit %d %s", code, errs)
	}
	if code, out, _ := runCmd(t, dir, "check", "--state", state); code != 0 {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	// check names a full disk before the daemon meets it.
	fillDisk(t, filler)
	code, out, _ := runCmd(t, dir, "check", "--state", state)
	if code != 1 {
		t.Errorf("check on a full disk: exit %d, want 1", code)
	}
	wants(t, "check on a full disk", out, disk+": a save would fail: no space left on device")
	os.Remove(filler)
	if code, out, _ := runCmd(t, dir, "check", "--state", state); code != 0 {
		t.Errorf("check with room again: exit %d\n%s", code, out)
	}
}

// fillDisk writes path until its disk is full.
func fillDisk(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			return
		}
	}
}

// TestRunKilledInItsFirstSave: `referee run` killed between the journal
// lines of a fresh state's first save and the state file (its mark still
// beside them) starts again: it says it cut those lines, keeps them in a
// cut file, and makes a fresh state. Nothing of that save was sent, since
// mail goes only after its save.
func TestRunKilledInItsFirstSave(t *testing.T) {
	dir := t.TempDir()
	d := startHubDaemonIn(t, dir, "")
	stopReferee(t, d.runningReferee)
	state := filepath.Join(dir, "data/state.yaml")
	jpath := filepath.Join(dir, "data/journal.jsonl")
	// What the kill leaves: the first save's lines, no state, the mark.
	var first []byte
	for _, l := range bytes.SplitAfter(readFile(t, jpath), []byte("\n")) {
		if bytes.Contains(l, []byte(`"base":0}`)) {
			first = append(first, l...)
		}
	}
	if len(first) == 0 {
		t.Fatalf("no line of the first save in the journal:\n%s", readFile(t, jpath))
	}
	os.Remove(state)
	os.WriteFile(jpath, first, 0o600)
	os.WriteFile(state+".first-save", []byte("x\n"), 0o600)

	d = startHubDaemonIn(t, dir, "")
	log := d.stderr.waitFor(t, 0, "the fresh state saved", func(s string) bool { return strings.Contains(s, `msg="state loaded"`) })
	wants(t, "the log", log, `msg="the first save of a fresh state never finished: its journal lines are cut (nothing of it was sent); a fresh state is made"`)
	stopReferee(t, d.runningReferee)
	cut, _ := filepath.Glob(jpath + ".cut-*")
	if len(cut) != 1 || !bytes.Equal(readFile(t, cut[0]), first) {
		t.Errorf("the cut lines are not kept whole in one cut file: %v", cut)
	}
	if _, err := os.Stat(state + ".first-save"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the mark is still there: %v", err)
	}
	if code, out, _ := runCmd(t, dir, "check"); code != 0 {
		t.Errorf("check after the restart: exit %d\n%s", code, out)
	}
}

// TestCheckListsInFileOrder: check lists the problems in order of file and
// line, the configuration's on lines 2, 4 and 5 in that order, though the
// file's decoding found line 4's (an unknown key) before the keys that
// decoded were checked (lines 5 and 2); run's refusal lists them so too.
func TestCheckListsInFileOrder(t *testing.T) {
	dir := initState(t, "2099-12-01T09:00:00Z")
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("log:\n  format: xml\nlimits:\n  receipt_per_hour: 3\naddress: bad\n"), 0o600)
	want := []string{
		`referee.yaml:2: log.format: "xml" must be text or json`,
		`referee.yaml:4: limits.receipt_per_hour: no such key`,
		`referee.yaml:5: address: "bad" is not an email address`,
	}
	inOrder := func(name, out string) {
		t.Helper()
		last := -1
		for _, w := range want {
			i := strings.Index(out, w+"\n")
			if i < 0 {
				t.Errorf("%s lacks %q:\n%s", name, w, out)
				return
			}
			if i < last {
				t.Errorf("%s lists %q out of line order:\n%s", name, w, out)
			}
			last = i
		}
	}
	code, out, _ := runCmd(t, dir, "check", "--no-login")
	if code != 2 {
		t.Errorf("check: exit %d, want 2", code)
	}
	inOrder("check", out)
	_, _, errs := runCmd(t, dir, "run")
	inOrder("run's refusal", errs)
}
