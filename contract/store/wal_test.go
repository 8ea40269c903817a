package store_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/store"
)

var walStart = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// lifeEngine is an interpreter with a game, so that messages make entries
// and notices.
func lifeEngine(t testing.TB) *contract.Engine {
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test", Contestmaster: "cm@example.test",
		SeenHorizon: 30 * 24 * time.Hour, RulingWait: 48 * time.Hour}, life.New())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// freshState starts a state for e and saves it at path with the entries
// of its start; it returns the state and its journal.
func freshState(t testing.TB, e *contract.Engine, path string) (*contract.State, *store.Journal) {
	s, started := startedState(t, e)
	j, err := store.OpenJournal(store.JournalPath(path), store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Commit(j, path, s, started); err != nil {
		t.Fatal(err)
	}
	return s, j
}

// startedState is a fresh state started at walStart, and the entries its
// start made.
func startedState(t testing.TB, e *contract.Engine) (*contract.State, []contract.Entry) {
	s, _, err := e.NewState(nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	secret := sha256.Sum256([]byte("wal"))
	started, err := e.Start(s, secret[:], walStart)
	if err != nil {
		t.Fatal(err)
	}
	return s, started
}

// walInput is input number n of the tests' history: messages from
// several senders (each a rejected public action: an entry and a receipt),
// the mailbox position, the receipts sent, a failed send, an advance.
func walInput(s *contract.State, n int) *contract.Input {
	at := walStart.Add(time.Duration(n) * time.Minute)
	switch {
	case n%7 == 3 && len(s.Outbox) > 0:
		return &contract.Input{Kind: contract.InSent, At: at, Notice: s.Outbox[0].ID}
	case n%11 == 5 && len(s.Outbox) > 0:
		return &contract.Input{Kind: contract.InFailed, At: at, Notice: s.Outbox[0].ID, Error: "451 try later", NextTry: at.Add(time.Minute)}
	case n%13 == 0:
		return &contract.Input{Kind: contract.InAdvance, At: at}
	case n%5 == 2:
		return &contract.Input{Kind: contract.InPosition, At: at, IMAP: &contract.Checkpoint{UIDValidity: 1, LastUID: uint32(n)}}
	}
	m := &contract.Message{ID: fmt.Sprintf("m%d@example.test", n), From: fmt.Sprintf("p%d@example.test", n%17), Arrived: at, Date: at,
		Subject: "hi", Channel: contract.ChanPrivate, Authenticated: true, Text: "I join the Life contest."}
	return &contract.Input{Kind: contract.InMessage, At: at, Msg: m, IMAP: &contract.Checkpoint{UIDValidity: 1, LastUID: uint32(n)}}
}

// perform performs input n on s as the daemon does and journals it.
func perform(t testing.TB, e *contract.Engine, j *store.Journal, s *contract.State, n int, sync bool) {
	in := walInput(s, n)
	ent, err := e.Redo(s, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Log(s, []store.Step{{Input: in, Entries: ent}}, sync); err != nil {
		t.Fatal(err)
	}
}

func encoded(t testing.TB, s *contract.State) []byte {
	b, err := contract.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLoadRedoesInputs: between snapshots only the journal is written;
// Load re-does it to the same state byte for byte, the readers of entries
// see the entries alone, and History gives a snapshot and the inputs after.
func TestLoadRedoesInputs(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	defer j.Close()
	var snapAt int64
	for n := 1; n <= 60; n++ {
		perform(t, e, j, s, n, n%3 != 0)
		if n == 25 {
			if err := j.Snapshot(path, s); err != nil {
				t.Fatal(err)
			}
			snapAt = s.JournalInputs
		}
	}
	got, err := store.Load(e, path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encoded(t, got), encoded(t, s)) {
		t.Fatal("the state re-done from the snapshot and the journal differs from the one performed")
	}
	if got.JournalInputs != 60 {
		t.Errorf("journal_inputs %d, want 60", got.JournalInputs)
	}
	file, err := store.LoadSnapshot(e, path)
	if err != nil || file.JournalInputs != snapAt {
		t.Fatalf("the state file is at input %d (%v), want the snapshot's %d", file.JournalInputs, err, snapAt)
	}
	entries, err := store.ReadJournal(store.JournalPath(path))
	if err != nil {
		t.Fatal(err)
	}
	for i, en := range entries {
		if en.Seq != int64(i+1) {
			t.Fatalf("entry %d has seq %d: the readers of entries see the input lines", i, en.Seq)
		}
	}
	if int64(len(entries)) != s.JournalSeq {
		t.Errorf("%d entries, the state's journal_seq is %d", len(entries), s.JournalSeq)
	}
	sc, err := store.ScanJournal(store.JournalPath(path), store.At(got))
	if err != nil || len(sc.Problems()) != 0 {
		t.Errorf("the journal has problems: %v %v", err, sc.Problems())
	}

	// History from a point after the snapshot starts at the snapshot;
	// from before it, at the start.
	for _, c := range []struct{ at, from int64 }{{40, snapAt}, {25, snapAt}, {10, 0}} {
		hs, steps, err := store.History(e, path, c.at)
		if err != nil {
			t.Fatal(err)
		}
		if hs.JournalInputs != c.from || len(steps) != int(60-c.from) || steps[0].N != c.from+1 {
			t.Fatalf("History(%d): from input %d with %d inputs, want from %d", c.at, hs.JournalInputs, len(steps), c.from)
		}
		for _, st := range steps {
			if _, err := e.Redo(hs, st.Input); err != nil {
				t.Fatal(err)
			}
			hs.JournalInputs = st.N
		}
		if !bytes.Equal(encoded(t, hs), encoded(t, s)) {
			t.Fatalf("History(%d) re-done differs from the state", c.at)
		}
	}
}

// TestRedoMismatchNamesTheLine: a journal whose entries this build does
// not make again stops the load at the line, and says which fields
// differ without quoting them.
func TestRedoMismatchNamesTheLine(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	for n := 1; n <= 8; n++ {
		perform(t, e, j, s, n, true)
	}
	j.Close()
	jpath := store.JournalPath(path)
	b, _ := os.ReadFile(jpath)
	lines := strings.SplitAfter(string(b), "\n")
	bad := 0
	for i, l := range lines {
		if strings.Contains(l, `"verb":"join"`) {
			lines[i] = strings.Replace(l, `"verb":"join"`, `"verb":"leave"`, 1)
			bad = i + 1
			break
		}
	}
	if bad == 0 {
		t.Fatalf("no join in the journal:\n%s", b)
	}
	os.WriteFile(jpath, []byte(strings.Join(lines, "")), 0o600)
	_, err := store.Load(e, path)
	if err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("%s:%d: ", jpath, bad)) || !strings.Contains(err.Error(), "[verb]") || strings.Contains(err.Error(), "leave") {
		t.Fatalf("a changed entry on line %d: %v", bad, err)
	}
}

// TestUnfinishedSaveIsCut: a save of several inputs cut short at a line's
// end (a kill between two lines of one write) is not re-done, and the next
// open cuts it, keeping a copy; an input line alone, torn, too.
func TestUnfinishedSaveIsCut(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	for n := 1; n <= 5; n++ {
		perform(t, e, j, s, n, true)
	}
	want := encoded(t, s)
	at := store.At(s)
	// One save of three inputs, as a replay writes them.
	var steps []store.Step
	for n := 6; n <= 8; n++ {
		in := walInput(s, n)
		ent, err := e.Redo(s, in)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, store.Step{Input: in, Entries: ent})
	}
	jpath := store.JournalPath(path)
	before, _ := os.ReadFile(jpath)
	if err := j.Log(s, steps, true); err != nil {
		t.Fatal(err)
	}
	j.Close()
	all, _ := os.ReadFile(jpath)
	added := strings.SplitAfter(string(all[len(before):]), "\n")
	for keep := 1; keep < len(added)-1; keep++ {
		os.WriteFile(jpath, []byte(string(before)+strings.Join(added[:keep], "")+`{"in":9,"ba`), 0o600)
		got, err := store.Load(e, path)
		if err != nil {
			t.Fatalf("%d lines of the save: %v", keep, err)
		}
		if !bytes.Equal(encoded(t, got), want) {
			t.Fatalf("%d lines of an unfinished save were re-done", keep)
		}
		j, err := store.OpenJournal(jpath, store.At(got))
		if err != nil {
			t.Fatalf("%d lines of the save: %v", keep, err)
		}
		if o := j.Opened(); o.Lines != keep || o.Torn == 0 || o.CopiedTo == "" {
			t.Errorf("%d lines of the save: cut %+v", keep, o)
		}
		j.Close()
		if b, _ := os.ReadFile(jpath); !bytes.Equal(b, before) {
			t.Fatalf("%d lines of the save: the journal is not cut back to the state's", keep)
		}
		if store.At(got) != at {
			t.Fatalf("position %+v, want %+v", store.At(got), at)
		}
	}
	// The whole save is re-done.
	os.WriteFile(jpath, all, 0o600)
	got, err := store.Load(e, path)
	if err != nil || !bytes.Equal(encoded(t, got), encoded(t, s)) {
		t.Fatalf("the whole save was not re-done: %v", err)
	}
}

// TestWALLoop is the child process of TestKillDuringWAL: from the state at
// REFEREE_WAL_LOOP (loaded as a start does), it performs the history's
// inputs one by one, syncing most, writing some without a sync as a sent
// mail is, a snapshot every REFEREE_WAL_SNAP inputs, until it is killed.
// After each input it writes its number to the file .n. With
// REFEREE_WAL_BG, as the daemon does: each input is synced by
// LogPending's Sync, and each snapshot encoded (StartSnapshot) and written
// in the background (Write) while the next inputs are performed, one at a
// time; it prints "started N" and "written N" around each write.
func TestWALLoop(t *testing.T) {
	path := os.Getenv("REFEREE_WAL_LOOP")
	if path == "" {
		t.Skip("child process of TestKillDuringWAL only")
	}
	if os.Getenv("REFEREE_WAL_BG") != "" {
		walLoopBackground(t, path)
	}
	every, _ := strconv.Atoi(os.Getenv("REFEREE_WAL_SNAP"))
	e := lifeEngine(t)
	s, err := store.Load(e, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	j, err := store.OpenJournal(store.JournalPath(path), store.At(s))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	for n := int(s.JournalInputs) + 1; ; n++ {
		in := walInput(s, n)
		ent, err := e.Redo(s, in)
		if err == nil {
			err = j.Log(s, []store.Step{{Input: in, Entries: ent}}, in.Kind != contract.InSent)
		}
		if err == nil && n%every == 0 {
			err = j.Snapshot(path, s)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.WriteFile(path+".n", []byte(strconv.Itoa(n)), 0o600)
		fmt.Printf("done %d\n", n)
	}
}

// walLoopBackground is TestWALLoop with REFEREE_WAL_BG.
func walLoopBackground(t *testing.T, path string) {
	every, _ := strconv.Atoi(os.Getenv("REFEREE_WAL_SNAP"))
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	e := lifeEngine(t)
	s, err := store.Load(e, path)
	if err != nil {
		fail(err)
	}
	j, err := store.OpenJournal(store.JournalPath(path), store.At(s))
	if err != nil {
		fail(err)
	}
	var writing chan error // the snapshot being written
	for n := int(s.JournalInputs) + 1; ; n++ {
		in := walInput(s, n)
		ent, err := e.Redo(s, in)
		if err != nil {
			fail(err)
		}
		steps := []store.Step{{Input: in, Entries: ent}}
		if in.Kind == contract.InSent {
			err = j.Log(s, steps, false)
		} else {
			var p *store.PendingSave
			if p, err = j.LogPending(s, steps); err == nil {
				err = p.Sync()
			}
		}
		if err != nil {
			fail(err)
		}
		if n%every == 0 {
			if writing != nil {
				if err := <-writing; err != nil {
					fail(err)
				}
			}
			p, err := j.StartSnapshot(path, s)
			if err != nil {
				fail(err)
			}
			fmt.Printf("started %d\n", n)
			writing = make(chan error, 1)
			go func() {
				err := p.Write()
				fmt.Printf("written %d\n", n)
				writing <- err
			}()
		}
		os.WriteFile(path+".n", []byte(strconv.Itoa(n)), 0o600)
		fmt.Printf("done %d\n", n)
	}
}

// TestKillDuringWAL kills, with SIGKILL at random instants, a process that
// journals inputs and writes snapshots (so during an append, during a
// snapshot, between the two), and shows that each start recovers exactly:
// the state loaded is the one made by performing inputs 1 to N in order on
// the fresh state, N at least the last input the child finished (nothing
// lost, nothing twice), the journal's lines past it are cut and its lines up
// to it all kept.
func TestKillDuringWAL(t *testing.T) {
	e := lifeEngine(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "state.yaml")
	s0, j0 := freshState(t, e, path)
	j0.Close()
	fresh := encoded(t, s0)
	rng := rand.New(rand.NewPCG(3, 4))
	kills, midWrite := 0, 0
	for round := 0; round < 32; round++ {
		// Rounds 20 and after: snapshots written in the background,
		// each kill just after one started.
		bg := round >= 20
		cmd := exec.Command(os.Args[0], "-test.run=^TestWALLoop$")
		cmd.Env = append(os.Environ(), "REFEREE_WAL_LOOP="+path, fmt.Sprintf("REFEREE_WAL_SNAP=%d", 3+round%5))
		if bg {
			cmd.Env = append(cmd.Env, "REFEREE_WAL_BG=1")
		}
		c := startChild(t, cmd)
		c.wait(t, c.done, "performed an input")
		if bg {
			c.wait(t, c.started, "started a snapshot")
			time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond)
		} else {
			time.Sleep(time.Duration(rng.IntN(20000)) * time.Microsecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		c.reading.Wait()
		cmd.Wait()
		kills++
		if out := c.out.String(); bg && strings.Count(out, "started ") > strings.Count(out, "written ") {
			midWrite++
		}
		done, _ := os.ReadFile(path + ".n")
		finished, _ := strconv.Atoi(string(done))

		s, err := store.Load(e, path)
		if err != nil {
			t.Fatalf("after SIGKILL %d the state does not load: %v", kills, err)
		}
		n := int(s.JournalInputs)
		if n < finished {
			t.Fatalf("after SIGKILL %d the state includes input %d, but the child had finished input %d", kills, n, finished)
		}
		// The same inputs performed in order on the fresh state.
		want, err := e.Decode(fresh)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= n; k++ {
			if _, err := e.Redo(want, walInput(want, k)); err != nil {
				t.Fatal(err)
			}
		}
		want.JournalInputs = int64(n)
		if !bytes.Equal(encoded(t, s), encoded(t, want)) {
			t.Fatalf("after SIGKILL %d the state is not inputs 1 to %d performed once each", kills, n)
		}
		j, err := store.OpenJournal(store.JournalPath(path), store.At(s))
		if err != nil {
			t.Fatalf("after SIGKILL %d: %v", kills, err)
		}
		j.Close()
		sc, err := store.ScanJournal(store.JournalPath(path), store.At(s))
		if err != nil || len(sc.Problems()) != 0 || sc.LastInput != int64(n) || sc.LastSeq != s.JournalSeq {
			t.Fatalf("after SIGKILL %d the journal does not end at the state (input %d, seq %d): %v %+v", kills, n, s.JournalSeq, err, sc.Problems())
		}
	}
	snaps, err := store.Snapshots(path)
	if err != nil || len(snaps) < 2 || snaps[0].Inputs != 0 {
		t.Errorf("snapshots kept: %+v (%v)", snaps, err)
	}
	t.Logf("%d kills, %d of them while a snapshot was written in the background; the state reached input %d", kills, midWrite, func() int64 { s, _ := store.LoadSnapshot(e, path); return s.JournalInputs }())
}

// TestBackgroundSnapshot: a snapshot encoded by StartSnapshot is the state
// at that point, whatever the journal takes while Write runs; Load re-does
// the rest; a Write that fails leaves the state file and the journal as
// they were, and the next one succeeds.
func TestBackgroundSnapshot(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	defer j.Close()
	for n := 1; n <= 10; n++ {
		perform(t, e, j, s, n, n%3 != 0)
	}
	p, err := j.StartSnapshot(path, s)
	if err != nil {
		t.Fatal(err)
	}
	at := encoded(t, s)
	written := make(chan error, 1)
	go func() { written <- p.Write() }()
	for n := 11; n <= 20; n++ {
		perform(t, e, j, s, n, n%3 != 0)
	}
	if err := <-written; err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(file, at) {
		t.Fatalf("the state file is not the state at StartSnapshot (%v)", err)
	}
	snaps, err := store.Snapshots(path)
	if err != nil || len(snaps) != 2 || snaps[1].Inputs != 10 {
		t.Fatalf("snapshots kept: %+v (%v), want the start and input 10", snaps, err)
	}
	got, err := store.Load(e, path)
	if err != nil || !bytes.Equal(encoded(t, got), encoded(t, s)) {
		t.Fatalf("Load does not give the state performed (%v)", err)
	}

	// The state file's place taken by a directory: Write fails naming it,
	// the old file's contents and the journal untouched.
	journal, _ := os.ReadFile(store.JournalPath(path))
	if err := os.Rename(path, path+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	p, err = j.StartSnapshot(path, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("Write over a directory: %v, want an error naming it", err)
	}
	if now, _ := os.ReadFile(store.JournalPath(path)); !bytes.Equal(now, journal) {
		t.Fatal("a failed snapshot changed the journal")
	}
	os.RemoveAll(path)
	if err := os.Rename(path+".away", path); err != nil {
		t.Fatal(err)
	}
	p, err = j.StartSnapshot(path, s)
	if err == nil {
		err = p.Write()
	}
	if err != nil {
		t.Fatal(err)
	}
	if file, err := store.LoadSnapshot(e, path); err != nil || file.JournalInputs != 20 {
		t.Fatalf("after the failure, the next snapshot: %v", err)
	}
}

// TestLoadUpToStopsAtASave: saves of several inputs each (a replay's
// checkpoints, the outbox emptied after each); LoadUpTo re-does them from
// the snapshot up to the save that ends at the input asked for and no
// further, each on the outbox as it was, so the state equals the one
// performed at that point byte for byte; asked for an input inside a save,
// it stops before that save.
func TestLoadUpToStopsAtASave(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	defer j.Close()
	type point struct {
		inputs int64
		state  []byte // as performed, its save's notices in the outbox
		file   []byte // the snapshot written there, if one was
	}
	var points []point
	n := 0
	for save := 1; save <= 6; save++ {
		var steps []store.Step
		for range save + 1 {
			n++
			steps = append(steps, messageStep(t, e, s, n, fmt.Sprintf("p%d@example.test", n%5), "I join the Life contest."))
		}
		if err := j.Log(s, steps, true); err != nil {
			t.Fatal(err)
		}
		if len(s.Outbox) == 0 {
			t.Fatal("the save made no notice: the test shows nothing of the outbox")
		}
		points = append(points, point{inputs: s.JournalInputs, state: encoded(t, s)})
		s.Outbox = nil
		if save == 2 {
			if err := j.Snapshot(path, s); err != nil {
				t.Fatal(err)
			}
			points[1].file = encoded(t, s)
		}
	}
	snapAt := points[1].inputs
	empty := func(s *contract.State) { s.Outbox = nil }
	for i, p := range points[2:] {
		got, file, err := store.LoadUpTo(e, path, p.inputs, empty)
		if err != nil {
			t.Fatal(err)
		}
		if file != snapAt {
			t.Errorf("up to %d: the state file's journal_inputs %d, want %d", p.inputs, file, snapAt)
		}
		if got.JournalInputs != p.inputs || !bytes.Equal(encoded(t, got), p.state) {
			t.Errorf("up to %d: the state re-done (journal_inputs %d) differs from the one performed there", p.inputs, got.JournalInputs)
		}
		inside, _, err := store.LoadUpTo(e, path, p.inputs-1, empty)
		if err != nil {
			t.Fatal(err)
		}
		before := points[i+1]
		want := before.state
		if before.file != nil {
			want = before.file // no save re-done: the snapshot as written
		}
		if inside.JournalInputs != before.inputs || !bytes.Equal(encoded(t, inside), want) {
			t.Errorf("up to %d, inside a save: journal_inputs %d, want the save before's %d and its state", p.inputs-1, inside.JournalInputs, before.inputs)
		}
	}
	// Without emptying the outbox, the state differs from the replay's:
	// the notices of the earlier saves are still in it.
	got, _, err := store.LoadUpTo(e, path, points[5].inputs, func(*contract.State) {})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(encoded(t, got), points[5].state) {
		t.Error("the outbox was not what before was for: the test would not see a missing call")
	}
}

// TestLargeSaveInPieces: a save whose lines are longer than Log's piece
// (a replay's checkpoint: megabytes) is journaled whole, its lines in
// order, and Load re-does it to the state performed.
func TestLargeSaveInPieces(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	defer j.Close()
	var steps []store.Step
	for n := 1; n <= 400; n++ {
		steps = append(steps, messageStep(t, e, s, n, fmt.Sprintf("p%d@example.test", n%7), "I join the Life contest.\n\n"+strings.Repeat("A long postscript. ", 80)))
	}
	if err := j.Log(s, steps, true); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(store.JournalPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) < 2*(256<<10) {
		t.Fatalf("the save's lines are %d bytes: too few to be written in pieces", len(raw))
	}
	got, err := store.Load(e, path)
	if err != nil {
		t.Fatal(err)
	}
	if got.JournalInputs != 400 || !bytes.Equal(encoded(t, got), encoded(t, s)) {
		t.Fatalf("the state re-done (journal_inputs %d) differs from the one performed", got.JournalInputs)
	}
}

// TestPendingSave: a save journaled by LogPending and synced loads as
// performed; one taken back by Cut goes from the journal with the line
// written after it, and the state loads as before it.
func TestPendingSave(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	jpath := store.JournalPath(path)
	s, j := freshState(t, e, path)
	defer j.Close()
	pending := func(n int) *store.PendingSave {
		t.Helper()
		in := walInput(s, n)
		ent, err := e.Redo(s, in)
		if err != nil {
			t.Fatal(err)
		}
		p, err := j.LogPending(s, []store.Step{{Input: in, Entries: ent}})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := pending(1).Sync(); err != nil {
		t.Fatalf("Sync of a pending save: %v", err)
	}
	synced := encoded(t, s)
	if got, err := store.Load(e, path); err != nil || !bytes.Equal(encoded(t, got), synced) {
		t.Fatalf("the synced save does not load as performed (%v)", err)
	}
	journal, _ := os.ReadFile(jpath)
	p := pending(2)
	perform(t, e, j, s, 3, false)
	p.Cut()
	if now, _ := os.ReadFile(jpath); !bytes.Equal(now, journal) {
		t.Fatalf("after Cut the journal is %d bytes, was %d before the save", len(now), len(journal))
	}
	if got, err := store.Load(e, path); err != nil || !bytes.Equal(encoded(t, got), synced) {
		t.Fatalf("after Cut the state does not load as before the save (%v)", err)
	}
}

// TestSaveSizeHoldsASave: the buffer Log and CommitSteps grow for a save
// holds its lines, with less than as much again to spare for a message:
// the start's entries, each input of the tests' history (messages,
// receipts sent, positions, advances), messages with a long text, and a
// save of many such steps.
func TestSaveSizeHoldsASave(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	jpath := store.JournalPath(path)
	s, started := startedState(t, e)
	j, err := store.OpenJournal(jpath, store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	size := func() int {
		fi, err := os.Stat(jpath)
		if err != nil {
			t.Fatal(err)
		}
		return int(fi.Size())
	}
	check := func(what string, steps []store.Step, written int) {
		t.Helper()
		hint := store.SaveSize(steps)
		if hint < written {
			t.Errorf("%s: %d bytes of lines, the buffer grown to %d", what, written, hint)
		}
		if len(steps) == 1 && steps[0].Input != nil && steps[0].Input.Msg != nil && hint >= 2*written {
			t.Errorf("%s: %d bytes of lines, the buffer grown to %d: too much", what, written, hint)
		}
	}
	start := []store.Step{{Entries: started}}
	if err := store.CommitSteps(j, path, s, start); err != nil {
		t.Fatal(err)
	}
	check("the start", start, size())
	for n := 1; n <= 40; n++ {
		in := walInput(s, n)
		ent, err := e.Redo(s, in)
		if err != nil {
			t.Fatal(err)
		}
		steps := []store.Step{{Input: in, Entries: ent}}
		before := size()
		if err := j.Log(s, steps, false); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("input %d (%s, %d entries)", n, in.Kind, len(ent)), steps, size()-before)
	}
	text := func(n int) string {
		return "I join the Life contest.\n\n" + strings.Repeat("A long postscript. ", 10*(n%20))
	}
	for n := 1; n <= 20; n++ {
		st := messageStep(t, e, s, 100+n, fmt.Sprintf("p%d@example.test", n%7), text(n))
		before := size()
		if err := j.Log(s, []store.Step{st}, false); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("a message of %d bytes", len(st.Input.Msg.Text)), []store.Step{st}, size()-before)
	}
	var many []store.Step
	for n := 21; n <= 40; n++ {
		many = append(many, messageStep(t, e, s, 100+n, fmt.Sprintf("p%d@example.test", n%7), text(n)))
	}
	before := size()
	if err := store.CommitSteps(j, path, s, many); err != nil {
		t.Fatal(err)
	}
	check("20 messages in one save", many, size()-before)
}

// messageStep performs message n, from from with text, on s and returns
// its step for a save.
func messageStep(t *testing.T, e *contract.Engine, s *contract.State, n int, from, text string) store.Step {
	t.Helper()
	m := &contract.Message{ID: fmt.Sprintf("m%d@example.test", n), From: from, Arrived: walStart.Add(time.Duration(n) * time.Minute),
		Subject: "hi", Channel: contract.ChanPrivate, Authenticated: true, Text: text}
	in := &contract.Input{Kind: contract.InMessage, At: m.Arrived, Msg: m}
	ent, err := e.Redo(s, in)
	if err != nil {
		t.Fatal(err)
	}
	return store.Step{Input: in, Entries: ent}
}

// TestSnapshotJournalSyncFailureSticks: when the journal's sync in a
// background snapshot fails, the snapshot fails, and every later save of
// the journal refuses with the same error (Linux need not report a failed
// write-back to a second fsync, so a later sync that succeeds would hide
// lines lost); the failure is recorded beside the journal, where
// OpenJournal refuses it until the operator removes the record.
func TestSnapshotJournalSyncFailureSticks(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	defer j.Close()
	for n := 1; n <= 4; n++ {
		perform(t, e, j, s, n, false) // written, not synced: the snapshot syncs them
	}
	before, _ := os.ReadFile(path)
	p, err := j.StartSnapshot(path, s)
	if err != nil {
		t.Fatal(err)
	}
	eio := syscall.EIO
	restore := store.FailSnapshotJournalSync(eio)
	err = p.Write()
	restore()
	var sf *store.SyncFailedError
	if !errors.As(err, &sf) || !errors.Is(err, eio) {
		t.Fatalf("Write with the journal's sync failing: %v, want a SyncFailedError wrapping EIO", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, before) {
		t.Fatal("the state file was replaced by a snapshot whose journal lines are not known to be on disk")
	}
	// The disk's next sync would succeed: the journal still refuses.
	in := walInput(s, 5)
	ent, err := e.Redo(s, in)
	if err != nil {
		t.Fatal(err)
	}
	journal, _ := os.ReadFile(store.JournalPath(path))
	for name, save := range map[string]func() error{
		"Log":           func() error { return j.Log(s, []store.Step{{Input: in, Entries: ent}}, true) },
		"LogPending":    func() error { _, err := j.LogPending(s, []store.Step{{Input: in, Entries: ent}}); return err },
		"Snapshot":      func() error { return j.Snapshot(path, s) },
		"StartSnapshot": func() error { _, err := j.StartSnapshot(path, s); return err },
	} {
		if err := save(); !errors.Is(err, eio) || !strings.Contains(err.Error(), store.SyncFailedPath(store.JournalPath(path))) {
			t.Errorf("%s after the failed sync: %v, want the failure again, naming %s", name, err, store.SyncFailedPath(store.JournalPath(path)))
		}
	}
	if now, _ := os.ReadFile(store.JournalPath(path)); !bytes.Equal(now, journal) {
		t.Error("a save after the failed sync wrote to the journal")
	}
	if !errors.Is(j.Failed(), eio) {
		t.Errorf("Failed: %v, want the failed sync", j.Failed())
	}
	// Opened again (a reload, a restart): refused while the record stays.
	rec, err := os.ReadFile(store.SyncFailedPath(store.JournalPath(path)))
	if err != nil || !strings.Contains(string(rec), eio.Error()) {
		t.Fatalf("the failure's record: %q, %v", rec, err)
	}
	if j2, err := store.OpenJournal(store.JournalPath(path), store.At(s)); err == nil {
		j2.Close()
		t.Fatal("OpenJournal took a journal whose sync failed")
	} else if !strings.Contains(err.Error(), store.SyncFailedPath(store.JournalPath(path))) {
		t.Fatalf("OpenJournal's refusal does not name the record: %v", err)
	}
	if err := os.Remove(store.SyncFailedPath(store.JournalPath(path))); err != nil {
		t.Fatal(err)
	}
	loaded, err := store.Load(e, path)
	if err != nil {
		t.Fatal(err)
	}
	j2, err := store.OpenJournal(store.JournalPath(path), store.At(loaded))
	if err != nil {
		t.Fatalf("OpenJournal after the record was removed: %v", err)
	}
	j2.Close()
}

// TestRedoNamesTheLineThatDiffers: when an entry of the journal does not
// re-do as written (another build wrote it, or the file was edited), the
// start's refusal names that entry's own line, the second of an input's
// entries as well as the first.
func TestRedoNamesTheLineThatDiffers(t *testing.T) {
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	at := walStart.Add(time.Minute)
	in := &contract.Input{Kind: contract.InMessage, At: at, Msg: &contract.Message{ID: "two@example.test", From: "p@example.test", Arrived: at, Date: at,
		Subject: "hi", Channel: contract.ChanPrivate, Authenticated: true, Text: "I join the Life contest.\n\nI join the Life contest in earnest."}}
	ent, err := e.Redo(s, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(ent) < 2 {
		t.Fatalf("the message made %d entries, want two", len(ent))
	}
	if err := j.Log(s, []store.Step{{Input: in, Entries: ent}}, true); err != nil {
		t.Fatal(err)
	}
	j.Close()
	jpath := store.JournalPath(path)
	raw, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	// The input's line, then its entries: change the second entry's reason.
	n := 0
	for i, l := range lines {
		if strings.HasPrefix(l, `{"in":1,`) {
			n = i + 3 // 1-based line of the second entry
			break
		}
	}
	if n == 0 || !strings.Contains(lines[n-1], `"reason":"`) {
		t.Fatalf("no second entry with a reason after the input: %q", lines)
	}
	lines[n-1] = strings.Replace(lines[n-1], `"reason":"`, `"reason":"edited: `, 1)
	if err := os.WriteFile(jpath, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = store.Load(e, path)
	want := fmt.Sprintf("%s:%d: entry seq %d of input 1 differs when re-done", jpath, n, ent[1].Seq)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Load of an edited entry: %v, want %q", err, want)
	}
}

// TestJournalSyncFailureSticks: when the journal's own sync fails (a
// save's sync in Log or LogAt, Sync, a PendingSave's sync), the save
// fails, its lines are cut, and every later save and sync of the journal
// refuses with the same error, though the disk's next sync would succeed:
// Linux need not report a failed write-back to a second fsync, so a later
// sync that succeeds would hide lines lost (those written before without
// a sync). The failure is recorded beside the journal, where OpenJournal
// refuses it, as a failed write-back is (TestWriteBackFailureSticks).
func TestJournalSyncFailureSticks(t *testing.T) {
	eio := syscall.EIO
	for _, c := range []struct {
		name string
		fail func(e *contract.Engine, s *contract.State, j *store.Journal) error
	}{
		{"Log", func(e *contract.Engine, s *contract.State, j *store.Journal) error {
			return j.Log(s, []store.Step{redone(t, e, s, 5)}, true)
		}},
		{"LogAt", func(e *contract.Engine, s *contract.State, j *store.Journal) error {
			_, err := j.LogAt(store.At(s), []store.Step{redone(t, e, s, 5)}, true)
			return err
		}},
		{"Sync", func(e *contract.Engine, s *contract.State, j *store.Journal) error { return j.Sync() }},
		{"PendingSave.Sync", func(e *contract.Engine, s *contract.State, j *store.Journal) error {
			p, err := j.LogPending(s, []store.Step{redone(t, e, s, 5)})
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Sync(); err != nil {
				p.Cut()
				return err
			}
			return nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := lifeEngine(t)
			path := filepath.Join(t.TempDir(), "state.yaml")
			s, j := freshState(t, e, path)
			defer j.Close()
			for n := 1; n <= 4; n++ {
				perform(t, e, j, s, n, false) // written, not synced: the next sync covers them
			}
			journal, _ := os.ReadFile(store.JournalPath(path))
			restore := store.FailJournalSync(eio)
			err := c.fail(e, s, j)
			restore()
			var sf *store.SyncFailedError
			if !errors.As(err, &sf) || !errors.Is(err, eio) {
				t.Fatalf("%s with the journal's sync failing: %v, want a SyncFailedError wrapping EIO", c.name, err)
			}
			if now, _ := os.ReadFile(store.JournalPath(path)); !bytes.Equal(now, journal) {
				t.Fatalf("the journal after the failed sync is %d bytes, want it cut back to %d", len(now), len(journal))
			}
			// The disk's next sync would succeed: the journal still refuses.
			next := redone(t, e, s, 6)
			for name, save := range map[string]func() error{
				"Log":          func() error { return j.Log(s, []store.Step{next}, true) },
				"Log unsynced": func() error { return j.Log(s, []store.Step{next}, false) },
				"LogAt":        func() error { _, err := j.LogAt(store.At(s), []store.Step{next}, true); return err },
				"LogPending":   func() error { _, err := j.LogPending(s, []store.Step{next}); return err },
				"Sync":         j.Sync,
				"Snapshot":     func() error { return j.Snapshot(path, s) },
				"StartSnapshot": func() error {
					p, err := j.StartSnapshot(path, s)
					if err == nil {
						p.Write() // so that Close does not wait for it
					}
					return err
				},
			} {
				if err := save(); !errors.Is(err, eio) || !strings.Contains(err.Error(), store.SyncFailedPath(store.JournalPath(path))) {
					t.Errorf("%s after the failed sync: %v, want the failure again, naming %s", name, err, store.SyncFailedPath(store.JournalPath(path)))
				}
			}
			if now, _ := os.ReadFile(store.JournalPath(path)); !bytes.Equal(now, journal) {
				t.Error("a save after the failed sync wrote to the journal")
			}
			if rec, err := os.ReadFile(store.SyncFailedPath(store.JournalPath(path))); err != nil || !strings.Contains(string(rec), eio.Error()) {
				t.Errorf("the failure's record: %q, %v", rec, err)
			}
			if j2, err := store.OpenJournal(store.JournalPath(path), store.At(s)); err == nil {
				j2.Close()
				t.Error("OpenJournal took a journal whose sync failed")
			}
		})
	}
}

// redone is the step of walInput n performed on s.
func redone(t *testing.T, e *contract.Engine, s *contract.State, n int) store.Step {
	t.Helper()
	in := walInput(s, n)
	ent, err := e.Redo(s, in)
	if err != nil {
		t.Fatal(err)
	}
	return store.Step{Input: in, Entries: ent}
}

// TestPendingSaveAfterASnapshotSyncFailed: a save journaled before a
// background snapshot's sync of the journal failed, and synced after it,
// is refused with that failure though its own sync succeeds (Linux reports
// a failed write-back to one fsync of the file alone, and the lines
// written before the failure, the save's among them, are not known to be
// on disk): the daemon, which syncs a message's save outside its lock
// while a snapshot is written, does not send the notices of a save that
// may be lost.
func TestPendingSaveAfterASnapshotSyncFailed(t *testing.T) {
	eio := syscall.EIO
	e := lifeEngine(t)
	path := filepath.Join(t.TempDir(), "state.yaml")
	s, j := freshState(t, e, path)
	defer j.Close()
	for n := 1; n <= 4; n++ {
		perform(t, e, j, s, n, false) // written, not synced: the snapshot syncs them
	}
	p, err := j.LogPending(s, []store.Step{redone(t, e, s, 5)})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := j.StartSnapshot(path, s)
	if err != nil {
		t.Fatal(err)
	}
	restore := store.FailSnapshotJournalSync(eio)
	serr := snap.Write()
	restore()
	if !errors.Is(serr, eio) {
		t.Fatalf("the snapshot with the journal's sync failing: %v, want EIO", serr)
	}
	// The disk's next sync succeeds: the save is still refused.
	err = p.Sync()
	var sf *store.SyncFailedError
	if !errors.As(err, &sf) || !errors.Is(err, eio) {
		t.Fatalf("the save's sync after the snapshot's failed: %v, want the snapshot's SyncFailedError wrapping EIO", err)
	}
}
