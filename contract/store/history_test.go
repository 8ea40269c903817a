package store_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/store"
)

// correctionRecord saves a fresh Life state with Alice's open claim of
// error #1 about her receipt for m2 (and the cited notices given), then
// journals m1 (Alice joins), m2 (she takes Cell (3, 4)) and m3 (Bob joins),
// each a save; it returns the state, its journal and the time of the last
// message.
func correctionRecord(t *testing.T, e *contract.Engine, path string, cited ...*contract.Cited) (*contract.State, *store.Journal, time.Time) {
	t.Helper()
	return correctionRecordSnapshots(t, e, path, 0, cited...)
}

// correctionRecordSnapshots is correctionRecord writing also a snapshot
// after each of the first snapshots messages.
func correctionRecordSnapshots(t *testing.T, e *contract.Engine, path string, snapshots int, cited ...*contract.Cited) (*contract.State, *store.Journal, time.Time) {
	t.Helper()
	s, j := freshState(t, e, path)
	s.Claims = append(s.Claims, &contract.Claim{ID: 1, Game: "life", Report: "receipt/m2@example.test", Claimant: "Alice",
		From: "alice@example.test", MsgID: "c@example.test", What: "I wrote (5, 6)", Status: "open"})
	s.Cited = append(s.Cited, cited...)
	if err := j.Snapshot(path, s); err != nil {
		t.Fatal(err)
	}
	at := walStart
	for n, m := range []struct{ from, text string }{
		{"alice@example.test", "I join the Life contest."},
		{"alice@example.test", "I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (3, 4)."},
		{"bob@example.test", "I join the Life contest."},
	} {
		at = at.Add(time.Minute)
		in := &contract.Input{Kind: contract.InMessage, At: at, Msg: &contract.Message{ID: fmt.Sprintf("m%d@example.test", n+1),
			From: m.from, Arrived: at, Date: at, Subject: "s", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: m.text}}
		ent, err := e.Redo(s, in)
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Log(s, []store.Step{{Input: in, Entries: ent}}, true); err != nil {
			t.Fatal(err)
		}
		if n < snapshots {
			if err := j.Snapshot(path, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := s.Games["life"].Data.(*life.State).Cells["alice@example.test"]; got != "3,4" {
		t.Fatalf("before the correction Alice controls %q, want 3,4", got)
	}
	return s, j, at
}

// TestCorrectionRerunsTheJournal: a correction of a message in the record
// re-runs the journal's inputs from the kept snapshot before it: the state
// holds the message as corrected, the revision names the cells that
// changed, the files saved with the correction's step load to that state,
// and the revision re-computes from the journal as journaled (what
// `referee verify` checks), while a tampered one is found out by the field
// that differs.
func TestCorrectionRerunsTheJournal(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j, at := correctionRecord(t, e, path)
	defer j.Close()
	fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m2@example.test",
		Text: "I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (5, 6)."}
	got, step, rev := store.Correct(e, path, s, fix, at.Add(time.Minute))
	if got == nil {
		t.Fatalf("correction refused: %s", step.Input.Error)
	}
	if c := got.Games["life"].Data.(*life.State).Cells["alice@example.test"]; c != "5,6" {
		t.Fatalf("after the correction Alice controls %q, want 5,6", c)
	}
	var published string
	for _, o := range got.Outbox {
		if o.ID == "revision/1" {
			published = o.Body
		}
	}
	if !strings.Contains(published, "Cell (3, 4)") || !strings.Contains(published, "Cell (5, 6)") || rev == nil || rev.OldHash == rev.NewHash {
		t.Fatalf("the revision does not name the cells that changed:\n%s", published)
	}
	if err := store.CommitSteps(j, path, got, []store.Step{step}); err != nil {
		t.Fatal(err)
	}
	loaded, err := store.Load(e, path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encoded(t, loaded), encoded(t, got)) {
		t.Fatal("the files do not load to the corrected state")
	}
	if n, bad, err := store.VerifyRevisions(e, path); err != nil || n != 1 || len(bad) != 0 {
		t.Fatalf("verify: %d revisions checked, mismatches %q, %v; want 1 and none", n, bad, err)
	}
	jpath := store.JournalPath(path)
	b, _ := os.ReadFile(jpath)
	i := bytes.Index(b, []byte(`"new_hash":"`)) + len(`"new_hash":"`)
	tampered := append(append(append([]byte{}, b[:i]...), '0'), b[i+1:]...)
	if err := os.WriteFile(jpath, tampered, 0o600); err != nil {
		t.Fatal(err)
	}
	if n, bad, err := store.VerifyRevisions(e, path); err != nil || n != 1 || len(bad) != 1 ||
		!strings.Contains(bad[0], "the revision of CoE #1 differs from its re-computation (new_hash)") {
		t.Fatalf("a tampered revision: %d checked, %q, %v", n, bad, err)
	}
}

// TestCorrectionStartsFromTheNewestSnapshot: a correction re-runs from
// the newest kept snapshot before the point it touches (m2's arrival),
// not from an older one: the one after m1, with m2 and m3 to re-run, as
// it is being applied (n 0) and when its revision is checked after it was
// saved (n its own input).
func TestCorrectionStartsFromTheNewestSnapshot(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j, at := correctionRecordSnapshots(t, e, path, 1)
	defer j.Close()
	fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m2@example.test",
		Text: "I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (5, 6)."}
	reruns := func(n int64) string {
		t.Helper()
		base, inputs, err := store.CorrectionHistory(e, path, fix, n)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, in := range inputs {
			ids = append(ids, in.Msg.ID)
		}
		return fmt.Sprintf("from input %d: %s", base.JournalInputs, strings.Join(ids, " "))
	}
	want := "from input 1: m2@example.test m3@example.test"
	if got := reruns(0); got != want {
		t.Errorf("the correction being applied re-runs %s, want %s", got, want)
	}
	corrected, step, _ := store.Correct(e, path, s, fix, at.Add(time.Minute))
	if corrected == nil {
		t.Fatalf("correction refused: %s", step.Input.Error)
	}
	if err := store.CommitSteps(j, path, corrected, []store.Step{step}); err != nil {
		t.Fatal(err)
	}
	n := corrected.JournalInputs
	if n != 4 {
		t.Fatalf("the correction saved as input %d, want 4 (after m1, m2, m3)", n)
	}
	if got := reruns(n); got != want {
		t.Errorf("the correction saved, as input %d, re-runs %s, want %s", n, got, want)
	}
	if n, bad, err := store.VerifyRevisions(e, path); err != nil || n != 1 || len(bad) != 0 {
		t.Fatalf("verify: %d revisions checked, mismatches %q, %v; want 1 and none", n, bad, err)
	}
}

// TestCorrectionRefused: a correction of a message the record does not
// hold is refused, with the reason in the input the caller performs, and
// the state and its files are left as they were.
func TestCorrectionRefused(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j, at := correctionRecord(t, e, path)
	defer j.Close()
	before := encoded(t, s)
	journal, _ := os.ReadFile(store.JournalPath(path))
	fix := contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "unknown@example.test"}
	got, step, rev := store.Correct(e, path, s, fix, at.Add(time.Minute))
	if got != nil || rev != nil || step.Input == nil || step.Input.Kind != contract.InCorrect || step.Input.Fix == nil ||
		!strings.Contains(step.Input.Error, "unknown@example.test") || len(step.Entries) != 0 {
		t.Fatalf("a correction of a message not in the record: state %v, step %+v", got != nil, step)
	}
	if !bytes.Equal(encoded(t, s), before) {
		t.Error("the refused correction changed the state")
	}
	if b, _ := os.ReadFile(store.JournalPath(path)); !bytes.Equal(b, journal) {
		t.Error("the refused correction wrote to the journal")
	}
}

// snapshotsAfter saves a fresh state at path, then performs inputs 1 to 35
// (a minute apart on the state's clock), writing a snapshot after every
// fifth (in the background, as the daemon does, when background is set),
// with the journal keeping snapshots for keep (0: the default); it returns
// the inputs of the snapshots left.
func snapshotsAfter(t *testing.T, path string, keep time.Duration, background ...bool) []int64 {
	t.Helper()
	e := lifeEngine(t)
	s, j := freshState(t, e, path)
	defer j.Close()
	j.SetSnapshotKeep(keep)
	for n := 1; n <= 35; n++ {
		perform(t, e, j, s, n, true)
		if n%5 == 0 && len(background) > 0 {
			p, err := j.StartSnapshot(path, s)
			if err == nil {
				err = p.Write()
			}
			if err != nil {
				t.Fatal(err)
			}
		} else if n%5 == 0 {
			if err := j.Snapshot(path, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	snaps, err := store.Snapshots(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, sn := range snaps {
		got = append(got, sn.Inputs)
	}
	return got
}

// TestSnapshotsKept: a save removes the snapshots older than the window
// but the first (the start of the history) and the newest older than the
// window (the start for a point at its edge); the ones within the window
// stay, and with the default window of 30 days every one of a day's stays.
func TestSnapshotsKept(t *testing.T) {
	// Snapshots at inputs 0, 5, ..., 35, the clock at walStart plus as
	// many minutes; a window of 10 minutes from the newest (35) starts at
	// 25.
	got := snapshotsAfter(t, filepath.Join(t.TempDir(), "state.yaml"), 10*time.Minute)
	if want := []int64{0, 20, 25, 30, 35}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("a window of 10 minutes: snapshots at inputs %v, want %v", got, want)
	}
	got = snapshotsAfter(t, filepath.Join(t.TempDir(), "state.yaml"), 0)
	if want := []int64{0, 5, 10, 15, 20, 25, 30, 35}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the default window: snapshots at inputs %v, want %v", got, want)
	}
	// The daemon's snapshots, written in the background, keep the same.
	got = snapshotsAfter(t, filepath.Join(t.TempDir(), "state.yaml"), 10*time.Minute, true)
	if want := []int64{0, 20, 25, 30, 35}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("background snapshots, a window of 10 minutes: snapshots at inputs %v, want %v", got, want)
	}
}

// TestFailedSaveLeavesNoSnapshot: a snapshot that cannot replace the state
// file (a directory stands where it goes) leaves no copy in snapshots/ for
// a correction to start from, and the journal as it was; once the file can
// be written, the same save keeps its copy.
func TestFailedSaveLeavesNoSnapshot(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	defer j.Close()
	for n := 1; n <= 3; n++ {
		perform(t, e, j, s, n, true)
	}
	inputs := func() string {
		snaps, err := store.Snapshots(path)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, sn := range snaps {
			got = append(got, fmt.Sprint(sn.Inputs))
		}
		return strings.Join(got, " ")
	}
	journal, _ := os.ReadFile(store.JournalPath(path))
	os.Rename(path, path+".moved")
	os.MkdirAll(filepath.Join(path, "inside"), 0o700)
	if err := j.Snapshot(path, s); err == nil {
		t.Fatal("a snapshot onto a directory succeeded")
	}
	if got := inputs(); got != "0" {
		t.Errorf("after the failed snapshot, snapshots at inputs %q, want only the first, 0", got)
	}
	// So too for a snapshot written in the background, as the daemon does.
	if p, err := j.StartSnapshot(path, s); err != nil {
		t.Fatal(err)
	} else if err := p.Write(); err == nil {
		t.Fatal("a background snapshot onto a directory succeeded")
	}
	if got := inputs(); got != "0" {
		t.Errorf("after the failed background snapshot, snapshots at inputs %q, want only the first, 0", got)
	}
	if b, _ := os.ReadFile(store.JournalPath(path)); !bytes.Equal(b, journal) {
		t.Error("the failed snapshot changed the journal")
	}
	os.RemoveAll(path)
	os.Rename(path+".moved", path)
	if err := j.Snapshot(path, s); err != nil {
		t.Fatal(err)
	}
	if got := inputs(); got != "0 3" {
		t.Errorf("after the snapshot, snapshots at inputs %q, want 0 3", got)
	}
}

// TestSyncAndCommitSteps: lines journaled without a sync are synced by Sync,
// which succeeds again with nothing left to sync; a save of steps writes the
// state file with the inputs counted (a step with no input counts none).
func TestSyncAndCommitSteps(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	defer j.Close()
	perform(t, e, j, s, 1, false)
	for i := 0; i < 2; i++ {
		if err := j.Sync(); err != nil {
			t.Fatalf("Sync %d: %v", i+1, err)
		}
	}
	var steps []store.Step
	for n := 2; n <= 3; n++ {
		in := walInput(s, n)
		ent, err := e.Redo(s, in)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, store.Step{Input: in, Entries: ent})
	}
	steps = append(steps, store.Step{}) // no input: counts none
	if err := store.CommitSteps(j, path, s, steps); err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(path)
	if !bytes.Contains(file, []byte("journal_inputs: 3\n")) {
		t.Errorf("the state file does not count the inputs:\n%s", file)
	}
	loaded, err := store.Load(e, path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encoded(t, loaded), encoded(t, s)) {
		t.Error("the saved state does not load back to the state saved")
	}
}

// TestCorrectionOfARatifiedNotice: a correction that would change a notice
// the current state says has ratified is refused, naming it, unless it
// overrides the ratification; a notice still pending does not stop it.
func TestCorrectionOfARatifiedNotice(t *testing.T) {
	for _, c := range []struct {
		status   string
		override bool
		refused  bool
	}{
		{"ratified", false, true},
		{"ratified", true, false},
		{"pending", false, false},
	} {
		e := lifeEngine(t)
		path := filepath.Join(t.TempDir(), "state.yaml")
		s, j, at := correctionRecord(t, e, path, &contract.Cited{ID: "receipt/m2@example.test", Kind: "receipt", Status: c.status})
		fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m2@example.test", Override: c.override,
			Text: "I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (5, 6)."}
		got, step, rev := store.Correct(e, path, s, fix, at.Add(time.Minute))
		j.Close()
		if refused := got == nil; refused != c.refused {
			t.Errorf("the receipt %s, override %v: refused %v (%q), want %v", c.status, c.override, refused, step.Input.Error, c.refused)
			continue
		}
		if c.refused && !strings.Contains(step.Input.Error, "receipt/m2@example.test") {
			t.Errorf("the refusal does not name the ratified receipt: %q", step.Input.Error)
		}
		if c.override && (rev == nil || len(rev.Overrides) != 1 || !strings.HasPrefix(rev.Overrides[0], "receipt/m2@example.test")) {
			t.Errorf("the revision does not say what it overrides: %+v", rev)
		}
	}
}

// TestJournalInputLinesChecked: what `referee check` lists for input lines:
// inputs past the state that made no entry, named as such, and an input line
// that does not decode, with the decoder's reason.
func TestJournalInputLinesChecked(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	keep := store.At(s)
	for _, n := range []int{2, 7} { // mailbox positions: inputs with no entry
		perform(t, e, j, s, n, true)
	}
	j.Close()
	jpath := store.JournalPath(path)
	sc, err := store.ScanJournal(jpath, keep)
	if err != nil {
		t.Fatal(err)
	}
	first := sc.Lines - 1 // the two input lines are the last
	want := fmt.Sprintf("lines %d-%d (inputs with no entry) written by a save that never finished; the next start cuts it, keeping a copy", first, first+1)
	if p := sc.Problems(); len(p) != 1 || p[0].Line != first || p[0].Problem != want {
		t.Errorf("inputs past the state: %v, want line %d: %q", p, first, want)
	}
	// The next start cuts them (here from a copy of the journal), and its log
	// line names them the same way.
	b, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	cpath := filepath.Join(t.TempDir(), "journal.jsonl")
	if err := os.WriteFile(cpath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cut, err := store.OpenJournal(cpath, keep)
	if err != nil {
		t.Fatal(err)
	}
	cut.Close()
	if got, want := cut.Opened().String(), fmt.Sprintf("lines %d-%d (inputs with no entry) of a save that never finished, copied to %s", first, first+1, filepath.Base(cut.Opened().CopiedTo)); got != want {
		t.Errorf("the start's log line:\n%s\nwant\n%s", got, want)
	}
	// An input line numbered 0 is no input line, however it decodes.
	last := strings.LastIndex(strings.TrimSuffix(string(b), "\n"), "\n") + 1
	zero := regexp.MustCompile(`^\{"in":\d+,`).ReplaceAllString(string(b[last:]), `{"in":0,`)
	if err := os.WriteFile(cpath, append(b[:last:last], zero...), 0o600); err != nil {
		t.Fatal(err)
	}
	if sc, err := store.ScanJournal(cpath, keep); err != nil {
		t.Fatal(err)
	} else if p := sc.Problems(); len(p) == 0 || p[0].Line != first+1 || !strings.HasPrefix(p[0].Problem, `does not decode as a journal input (no input): "{\"in\":0,`) {
		t.Errorf("an input line numbered 0: %v", p)
	}
	// An input line that does not follow the one before is listed.
	inNum := regexp.MustCompile(`^\{"in":(\d+),`)
	n, _ := strconv.Atoi(inNum.FindStringSubmatch(string(b[last:]))[1])
	skipped := inNum.ReplaceAllString(string(b[last:]), fmt.Sprintf(`{"in":%d,`, n+1))
	if err := os.WriteFile(cpath, append(b[:last:last], skipped...), 0o600); err != nil {
		t.Fatal(err)
	}
	want = fmt.Sprintf("input %d after input %d: out of order", n+1, n-1)
	if sc, err := store.ScanJournal(cpath, keep); err != nil {
		t.Fatal(err)
	} else if p := sc.Problems(); !slices.Contains(p, store.LineProblem{Line: first + 1, Problem: want}) {
		t.Errorf("an input line out of order: %v, want line %d: %q", p, first+1, want)
	}
	insertLine(t, jpath, 2, `{"in":9,"base":0,"entries":0,"input":{`)
	sc, err = store.ScanJournal(jpath, store.At(s))
	if err != nil {
		t.Fatal(err)
	}
	if p := sc.Problems(); len(p) == 0 || p[0].Line != 2 || p[0].Problem != `does not decode as a journal input (unexpected end of JSON input): "{\"in\":9,\"base\":0,\"entries\":0,\"input\":{"` {
		t.Errorf("an input line that does not decode: %v", p)
	}
}

// TestVerifySaysWhichInputReadsOtherwise: a revision that differs from its
// re-computation because this build reads an input before the correction
// otherwise than the build that journaled it (a newer build reading some
// message otherwise, here m3's text changed in the journal) is said to be
// so, naming the journal line, not only "differs".
func TestVerifySaysWhichInputReadsOtherwise(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j, at := correctionRecord(t, e, path)
	defer j.Close()
	fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m2@example.test",
		Text: "I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (5, 6)."}
	got, step, _ := store.Correct(e, path, s, fix, at.Add(time.Minute))
	if got == nil {
		t.Fatalf("correction refused: %s", step.Input.Error)
	}
	if err := store.CommitSteps(j, path, got, []store.Step{step}); err != nil {
		t.Fatal(err)
	}
	jpath := store.JournalPath(path)
	b, _ := os.ReadFile(jpath)
	i := bytes.Index(b, []byte(`m3@example.test`))
	if i < 0 {
		t.Fatalf("m3 not found in the journal:\n%s", b)
	}
	k := bytes.Index(b[i:], []byte(`I join the Life contest.`))
	if k < 0 {
		t.Fatalf("m3's text not found in the journal:\n%s", b)
	}
	tampered := append(append(append([]byte{}, b[:i+k]...), "I like the Life contest."...), b[i+k+len("I join the Life contest."):]...)
	if err := os.WriteFile(jpath, tampered, 0o600); err != nil {
		t.Fatal(err)
	}
	n, bad, err := store.VerifyRevisions(e, path)
	if err != nil || n != 1 || len(bad) != 1 {
		t.Fatalf("verify: %d checked, %q, %v; want 1 and one mismatch", n, bad, err)
	}
	if !strings.Contains(bad[0], "this build re-does the history before it otherwise than the journal holds it") || !strings.Contains(bad[0], "input 3 (message)") {
		t.Errorf("the mismatch does not say which input this build reads otherwise:\n%s", bad[0])
	}
}
