package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/store"
)

func engine(t *testing.T) *contract.Engine {
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// version makes state number n: its journal_seq is n and a player list of a size
// that varies, so versions differ in length and a torn write would show.
func version(n int) *contract.State {
	s := &contract.State{Version: contract.Version, JournalSeq: int64(n), Games: map[string]*contract.GameState{}}
	for i := 0; i < n%37; i++ {
		s.Players = append(s.Players, &contract.Player{Name: fmt.Sprintf("p%d-%d", n, i), Addresses: []string{fmt.Sprintf("p%d@example.test", i)}})
	}
	return s
}

// TestSaveLoop is the child process of TestKillDuringSave: it commits
// versions after the one saved, each with its journal line, until it is
// killed: with REFEREE_SAVE_PLAIN set it saves without the journal instead.
func TestSaveLoop(t *testing.T) {
	path := os.Getenv("REFEREE_SAVE_LOOP")
	if path == "" {
		t.Skip("child process of TestKillDuringSave only")
	}
	from := 0
	if s, err := store.Load(engine(t), path); err == nil {
		from = int(s.JournalSeq)
	}
	j, err := store.OpenJournal(store.JournalPath(path), store.Position{Seq: int64(from)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	for n := from + 1; ; n++ {
		if os.Getenv("REFEREE_SAVE_PLAIN") != "" {
			err = store.Save(path, version(n))
		} else {
			err = store.Commit(j, path, version(n), []contract.Entry{{Seq: int64(n), Outcome: "event", Verb: "v"}})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.WriteFile(path+".n", []byte(strconv.Itoa(n)), 0o600)
		fmt.Printf("done %d\n", n)
	}
}

// TestKillDuringSave kills a process with SIGKILL at random points while it
// saves the state in a loop, and shows the file is always a whole version,
// never torn, and that the journal cut back to it holds exactly its lines.
// Rounds alternate between Commit (journal, spare temporary file) and Save.
func TestKillDuringSave(t *testing.T) {
	e := engine(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "state.yaml")
	rng := rand.New(rand.NewPCG(1, 2))
	kills := 0
	for round := 0; round < 15; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSaveLoop$")
		cmd.Env = append(os.Environ(), "REFEREE_SAVE_LOOP="+path)
		if round%3 == 2 {
			cmd.Env = append(cmd.Env, "REFEREE_SAVE_PLAIN=1")
		}
		// Wait until the child has saved at least once more, then kill it
		// after a random extra delay.
		c := startChild(t, cmd)
		c.wait(t, c.done, "saved a version")
		time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		c.reading.Wait()
		cmd.Wait()
		kills++
		s, err := store.Load(e, path)
		if err != nil {
			t.Fatalf("after SIGKILL %d the state does not load: %v", kills, err)
		}
		n := int(s.JournalSeq)
		b, _ := contract.Encode(s)
		want, _ := contract.Encode(version(n))
		if !bytes.Equal(b, want) {
			t.Fatalf("after SIGKILL %d the state is not version %d as written", kills, n)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("state mode %v, want 0600", fi.Mode().Perm())
		}
		if round%3 != 2 {
			// What the next start does: cut the journal back to the state.
			j, err := store.OpenJournal(store.JournalPath(path), store.Position{Seq: int64(n)})
			if err != nil {
				t.Fatal(err)
			}
			j.Close()
			got, err := store.ReadJournal(store.JournalPath(path))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 || got[len(got)-1].Seq != int64(n) {
				t.Fatalf("after SIGKILL %d the journal does not end at the state's line %d: %d lines", kills, n, len(got))
			}
		}
	}
	// Leftover temporary files are allowed (a kill between create and rename,
	// or a spare); they never replace the state, and the next Commit sweeps
	// them.
	entries, _ := os.ReadDir(dir)
	for _, en := range entries {
		if strings.HasPrefix(en.Name(), "journal.jsonl.cut-") {
			// The copy of the lines of a save a kill interrupted: whole
			// lines of one save.
			got, err := store.ReadJournal(filepath.Join(dir, en.Name()))
			if err != nil || len(got) == 0 {
				t.Errorf("%s: %d lines, %v", en.Name(), len(got), err)
			}
			continue
		}
		if !strings.HasPrefix(en.Name(), ".state.yaml.tmp-") && en.Name() != "state.yaml" && en.Name() != "snapshots" && en.Name() != "state.yaml.n" && en.Name() != "journal.jsonl" {
			t.Errorf("unexpected file %s", en.Name())
		}
	}
}

// TestSpareTempFile: a Commit leaves one spare temporary file for the next,
// which the next Commit of the same state file fills and renames into
// place (the state file is that file), the first Commit sweeps what a
// crash left, and Close removes the spare.
func TestSpareTempFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.yaml")
	stale := filepath.Join(dir, ".state.yaml.tmp-12345")
	os.WriteFile(stale, []byte("half a state"), 0o600)
	j, err := store.OpenJournal(store.JournalPath(path), store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	temps := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, ".state.yaml.tmp-*"))
		return m
	}
	// The spare made after the last commit, held open: its file cannot go
	// (and its inode number be given to the next file made) while the
	// test holds it.
	var spare *os.File
	for n := 1; n <= 5; n++ {
		if err := store.Commit(j, path, version(n), []contract.Entry{{Seq: int64(n), Verb: "v"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(stale); !os.IsNotExist(err) {
			t.Fatalf("the stale temporary file is still there after Commit %d", n)
		}
		if spare != nil {
			// The state file is the spare, filled and renamed.
			held, err := spare.Stat()
			if err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Stat(path); err != nil || !os.SameFile(fi, held) {
				t.Fatalf("Commit %d did not write the spare temporary file %s made after the commit before", n, spare.Name())
			}
			spare.Close()
		}
		j.WaitSpare()
		m := temps()
		if len(m) != 1 {
			t.Fatalf("after Commit %d, %d temporary files, want the spare alone: %v", n, len(m), m)
		}
		var err error
		if spare, err = os.Open(m[0]); err != nil {
			t.Fatal(err)
		}
	}
	spare.Close()
	s, err := store.Load(engine(t), path)
	if err != nil || s.JournalSeq != 5 {
		t.Fatalf("state after 5 commits: %v, journal_seq %v", err, s)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("state mode %v, want 0600", fi.Mode().Perm())
	}
	j.Close()
	if m := temps(); len(m) != 0 {
		t.Errorf("after Close, temporary files remain: %v", m)
	}
}

func TestJournalCutBack(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	j, err := store.OpenJournal(path, store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	// Two saves: 1-3, then 4-5, whose state was never written.
	if err := j.Append(entries(1, 3, "v")); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(entries(4, 5, "v")); err != nil {
		t.Fatal(err)
	}
	j.Close()
	// A torn line after them, as a crash mid-write would leave.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":6,"outc`)
	f.Close()
	// The saved state includes only up to 3: lines 4 and 5 and the torn one go.
	j, err = store.OpenJournal(path, store.Position{Seq: 3})
	if err != nil {
		t.Fatal(err)
	}
	o := j.Opened()
	if got, want := o.String(), "lines 4-5 (seq 4-5) of a save that never finished, copied to "+filepath.Base(o.CopiedTo)+" and a torn last line (14 bytes)"; got != want {
		t.Errorf("Opened: %q, want %q", got, want)
	}
	if got := journalLines(t, o.CopiedTo); got != "4:v 5:v" || !strings.HasPrefix(o.CopiedTo, path+".cut-") {
		t.Errorf("the copy %s of the lines cut holds %q", o.CopiedTo, got)
	}
	if err := j.Append([]contract.Entry{{Seq: 4, Verb: "again"}}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	if got := journalLines(t, path); got != "1:v 2:v 3:v 4:again" {
		t.Errorf("journal after cut-back: %v", got)
	}
	// Opened again at 4: nothing to cut.
	j, err = store.OpenJournal(path, store.Position{Seq: 4})
	if err != nil {
		t.Fatal(err)
	}
	if o := j.Opened(); o.Cut() || o.Behind {
		t.Errorf("a journal that matches its state: Opened %+v", o)
	}
	j.Close()
}

// entries are journal entries from seq a to b with the given verb.
func entries(a, b int64, verb string) []contract.Entry {
	var es []contract.Entry
	for i := a; i <= b; i++ {
		es = append(es, contract.Entry{Seq: i, Outcome: "applied", Verb: verb})
	}
	return es
}

// journalOf writes a journal of saves, each a range of seq, and returns its
// path and bytes.
func journalOf(t *testing.T, saves ...[2]int64) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := store.OpenJournal(path, store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sv := range saves {
		if err := j.Append(entries(sv[0], sv[1], "v")); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	b, _ := os.ReadFile(path)
	return path, b
}

// insertLine puts text as line n (1-based) of the file.
func insertLine(t *testing.T, path string, n int, text string) {
	t.Helper()
	b, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(b), "\n")
	lines = append(lines[:n-1], append([]string{text + "\n"}, lines[n-1:]...)...)
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600)
}

// TestJournalRefusals: the journal is never cut where its lines cannot be
// shown redundant; the file is left byte for byte, and the error names the
// file and the line.
func TestJournalRefusals(t *testing.T) {
	cases := []struct {
		name  string
		saves [][2]int64
		bad   int // insert a garbage line here (0: none)
		keep  int64
		want  string
	}{
		{"missing state", [][2]int64{{1, 3}, {4, 4}, {5, 9}}, 0, 0, ":1: lines 1-9 (seq 1-9) are history no saved state includes: the state file is missing or new"},
		{"missing state, one save", [][2]int64{{1, 3}}, 0, 0, ":1: lines 1-3 (seq 1-3) are history no saved state includes"},
		{"older state", [][2]int64{{1, 3}, {4, 4}, {5, 9}}, 0, 3, ":4: lines 4-9 (seq 4-9) go past the state, which includes up to seq 3, and were not all written by the one save that never finished"},
		{"bad line in the middle", [][2]int64{{1, 3}, {4, 4}, {5, 9}}, 5, 9, `:5: line does not decode as a journal entry (invalid character 'g' looking for beginning of value): "garbage here"`},
		{"bad line past the state", [][2]int64{{1, 3}, {4, 4}}, 4, 3, `:4: line does not decode`},
		{"line without seq", [][2]int64{{1, 3}}, 2, 3, `:2: line does not decode as a journal entry (no seq)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path, _ := journalOf(t, c.saves...)
			if c.bad > 0 {
				text := "garbage here"
				if strings.Contains(c.name, "without seq") {
					text = `{"verb":"x"}`
				}
				insertLine(t, path, c.bad, text)
			}
			before, _ := os.ReadFile(path)
			j, err := store.OpenJournal(path, store.Position{Seq: c.keep})
			if err == nil {
				j.Close()
				t.Fatal("opened")
			}
			var je *store.JournalError
			if !errors.As(err, &je) || !strings.Contains(err.Error(), path+c.want) {
				t.Errorf("error %q, want %q", err, path+c.want)
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(before, after) {
				t.Error("the refused journal was changed")
			}
		})
	}
}

// TestJournalScanProblems: what `referee check` lists, each on its line.
func TestJournalScanProblems(t *testing.T) {
	path, _ := journalOf(t, [2]int64{1, 3}, [2]int64{5, 6}, [2]int64{6, 6})
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":7`)
	f.Close()
	sc, err := store.ScanJournal(path, store.Position{Seq: 9})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range sc.Problems() {
		got = append(got, fmt.Sprintf("%d: %s", p.Line, p.Problem))
	}
	want := []string{
		"4: seq 5 after 3: seq 4 is missing",
		"6: seq 6 after 6: out of order",
		"7: a torn last line (8 bytes, no newline): a crash mid-write; the next start cuts it",
		"6: the journal ends at seq 6 but the state includes up to seq 9: seq 7-9 are missing",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A journal that is behind its state is opened (nothing to cut), and
	// says so.
	path, _ = journalOf(t, [2]int64{1, 3})
	j, err := store.OpenJournal(path, store.Position{Seq: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if o := j.Opened(); !o.Behind || o.Cut() {
		t.Errorf("a journal behind its state: Opened %+v", o)
	}
	if sc, _ := store.ScanJournal(filepath.Join(t.TempDir(), "none.jsonl"), store.Position{}); len(sc.Problems()) != 0 {
		t.Errorf("a missing journal beside no state: %v", sc.Problems())
	}
}

// TestRepair: every line that cannot stay is moved, byte for byte, to the
// dated cut file, and the journal keeps the rest.
func TestRepair(t *testing.T) {
	path, _ := journalOf(t, [2]int64{1, 3}, [2]int64{4, 4}, [2]int64{5, 6}, [2]int64{7, 9})
	insertLine(t, path, 3, "garbage")
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":10,`)
	f.Close()
	orig, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(orig), "\n")
	now := time.Date(2026, 12, 1, 20, 30, 0, 0, time.UTC)
	// The state includes up to 4: lines 3 (garbage), 6-10 (seq 5-9) and the torn one go.
	name, cut, err := store.Repair(path, store.Position{Seq: 4}, now)
	if err != nil {
		t.Fatal(err)
	}
	if want := path + ".cut-20261201T203000Z"; name != want {
		t.Errorf("cut file %s, want %s", name, want)
	}
	if fmt.Sprint(cut) != "[3 6 7 8 9 10 11]" {
		t.Errorf("lines cut %v", cut)
	}
	gotCut, _ := os.ReadFile(name)
	if want := lines[2] + strings.Join(lines[5:], ""); string(gotCut) != want {
		t.Errorf("cut file holds\n%s\nwant\n%s", gotCut, want)
	}
	if got := journalLines(t, path); got != "1:v 2:v 3:v 4:v" {
		t.Errorf("journal after repair: %s", got)
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o600 {
		t.Errorf("cut file mode %v, want 0600 (it holds private values)", fi.Mode().Perm())
	}
	j, err := store.OpenJournal(path, store.Position{Seq: 4})
	if err != nil {
		t.Fatalf("after repair: %v", err)
	}
	j.Close()
	// A second repair in the same second cuts nothing and writes nothing.
	if name, cut, err := store.Repair(path, store.Position{Seq: 4}, now); name != "" || cut != nil || err != nil {
		t.Errorf("second repair: %q %v %v", name, cut, err)
	}
	// An empty line is cut alone: the lines after it stay.
	path, _ = journalOf(t, [2]int64{1, 3})
	insertLine(t, path, 2, "")
	name, cut, err = store.Repair(path, store.Position{Seq: 3}, now)
	if err != nil {
		t.Fatal(err)
	}
	if gotCut, _ := os.ReadFile(name); fmt.Sprint(cut) != "[2]" || string(gotCut) != "\n" {
		t.Errorf("an empty line: lines %v cut, the cut file holds %q", cut, gotCut)
	}
	if got := journalLines(t, path); got != "1:v 2:v 3:v" {
		t.Errorf("journal after cutting an empty line: %s", got)
	}
	// Cuts in the same second each keep their own copy, numbered on.
	for i, want := range []string{"", "-2", "-3"} {
		insertLine(t, path, 2, fmt.Sprintf("garbage %d", i))
		name, _, err := store.Repair(path, store.Position{Seq: 3}, now.Add(time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if name != path+".cut-20261201T203001Z"+want {
			t.Errorf("cut %d in the same second: %s, want the suffix %q", i+1, filepath.Base(name), want)
		}
		if b, _ := os.ReadFile(name); string(b) != fmt.Sprintf("garbage %d\n", i) {
			t.Errorf("cut %d holds %q", i+1, b)
		}
	}
	// Reading a journal with a bad line names the file and the line.
	insertLine(t, path, 3, "garbage")
	if _, err := store.ReadJournal(path); err == nil || !strings.HasPrefix(err.Error(), path+":3: ") {
		t.Errorf("a bad third line read: %v", err)
	}
}

// journalLines is the journal's lines as "seq:verb", space-separated.
func journalLines(t *testing.T, path string) string {
	t.Helper()
	got, err := store.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []string
	for _, e := range got {
		seqs = append(seqs, fmt.Sprintf("%d:%s", e.Seq, e.Verb))
	}
	return strings.Join(seqs, " ")
}

func TestLoadRefusesBadState(t *testing.T) {
	e := engine(t)
	dir := t.TempDir()
	cases := map[string]string{
		"unknown key":    "version: 1\njournal_seq: 0\nplayers: []\ngames: {}\nbogus_key: 3\n",
		"future version": "version: 99\njournal_seq: 0\n",
		"no version":     "players: []\n",
		"not yaml":       "version: [1\n",
	}
	want := map[string]string{"unknown key": "bogus_key", "future version": "newer version", "no version": "version: missing", "not yaml": "yaml"}
	for name, body := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".yaml")
		os.WriteFile(p, []byte(body), 0o600)
		_, err := store.Load(e, p)
		if err == nil || !strings.Contains(err.Error(), want[name]) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v, want one naming %q and the file", name, err, want[name])
		}
		after, _ := os.ReadFile(p)
		if string(after) != body {
			t.Errorf("%s: the refused file was changed", name)
		}
	}
}

// TestCommitFailureCutsJournal: when the state cannot be written, the
// journal lines of that step go too, and the next Commit goes on from the
// state that is on disk.
func TestCommitFailureCutsJournal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.yaml")
	j, err := store.OpenJournal(store.JournalPath(path), store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := store.Commit(j, path, version(1), []contract.Entry{{Seq: 1, Verb: "one"}}); err != nil {
		t.Fatal(err)
	}
	// A directory where the state file should go: the rename fails.
	blocked := filepath.Join(dir, "blocked.yaml")
	os.MkdirAll(filepath.Join(blocked, "x"), 0o700)
	if err := store.Commit(j, blocked, version(2), []contract.Entry{{Seq: 2, Verb: "lost"}}); err == nil {
		t.Fatal("a Commit onto a directory succeeded")
	}
	if err := store.Commit(j, path, version(2), []contract.Entry{{Seq: 2, Verb: "two"}}); err != nil {
		t.Fatal(err)
	}
	if got := journalLines(t, store.JournalPath(path)); got != "1:one 2:two" {
		t.Errorf("journal after a failed commit: %v, want 1:one 2:two", got)
	}
}

// fileLimit is the largest file TestWriteFailureChild may write: more than
// version 1 of the state and its journal, less than version 36.
const fileLimit = 1024

// TestWriteFailureChild is the child process of TestWriteFailureKeepsState:
// it commits version 1, then, with files limited to fileLimit bytes (so
// writing version 36 fails part-way, as on a full disk), tries to commit and
// to save version 36, and prints each error.
func TestWriteFailureChild(t *testing.T) {
	path := os.Getenv("REFEREE_WRITE_FAIL")
	if path == "" {
		t.Skip("child process of TestWriteFailureKeepsState only")
	}
	j, err := store.OpenJournal(store.JournalPath(path), store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Commit(j, path, version(1), []contract.Entry{{Seq: 1, Verb: "one"}}); err != nil {
		t.Fatal(err)
	}
	signal.Ignore(syscall.SIGXFSZ) // a write past the limit fails with EFBIG instead
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	limited := lim
	limited.Cur = fileLimit
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &limited); err != nil {
		t.Fatal(err)
	}
	cerr := store.Commit(j, path, version(36), []contract.Entry{{Seq: 36, Verb: "lost"}})
	serr := store.Save(path, version(36))
	// Lifted again for what the test binary writes as it ends (a coverage
	// profile).
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	fmt.Println("commit:", cerr)
	fmt.Println("save:", serr)
}

// TestWriteFailureKeepsState: when writing the new state fails part-way (a
// full disk, here a file size limit), the state file is still the old one,
// whole, and the journal holds only its lines: the new state was written
// beside the file, not over it, and its journal lines were cut back.
func TestWriteFailureKeepsState(t *testing.T) {
	if b, _ := contract.Encode(version(36)); len(b) <= fileLimit {
		t.Fatalf("version 36 is %d bytes, not over the limit", len(b))
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "state.yaml")
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteFailureChild$", "-test.v")
	cmd.Env = append(os.Environ(), "REFEREE_WRITE_FAIL="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	for _, want := range []string{"commit: save " + path, "save: save " + path, "file too large"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the child's output lacks %q:\n%s", want, out)
		}
	}
	s, err := store.Load(engine(t), path)
	if err != nil {
		t.Fatalf("after a failed write the state does not load: %v", err)
	}
	got, _ := contract.Encode(s)
	if want, _ := contract.Encode(version(1)); !bytes.Equal(got, want) {
		t.Errorf("after a failed write the state is not version 1:\n%s", got)
	}
	if got := journalLines(t, store.JournalPath(path)); got != "1:one" {
		t.Errorf("journal after a failed write: %v, want 1:one", got)
	}
}

// TestJournalSave: a save after a commit writes the state as it is now,
// changes made since the commit included, and appends nothing to the
// journal.
func TestJournalSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.yaml")
	j, err := store.OpenJournal(store.JournalPath(path), store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s := version(3)
	s.Seen.IDs = map[string]time.Time{"a@example.test": at, "b@example.test": at}
	if err := store.Commit(j, path, s, []contract.Entry{{Seq: 3, Verb: "v"}}); err != nil {
		t.Fatal(err)
	}
	journal, _ := os.ReadFile(store.JournalPath(path))
	delete(s.Seen.IDs, "a@example.test")
	s.Seen.IDs["c@example.test"] = at.Add(time.Minute)
	s.Players = s.Players[:1]
	if err := j.Save(path, s); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want, _ := contract.Encode(s); !bytes.Equal(got, want) {
		t.Errorf("the saved state is not the state as changed:\n%s\nwant\n%s", got, want)
	}
	if after, _ := os.ReadFile(store.JournalPath(path)); !bytes.Equal(after, journal) {
		t.Errorf("the save changed the journal:\n%s", after)
	}
}
