package daemon

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/store"
	"referee/mailin"
)

// TestSecondCorrectionAfterASnapshot: a snapshot written between the
// message a first correction changed and that correction shows the history
// as it was before it. A second correction of a later message re-runs from
// a snapshot older than what the first one touched, so that both apply: it
// was refused with "the earlier correction of CoE #1: correction: no message
// ... in the record after the starting state", as the re-run started from
// that snapshot and could not find the first correction's message.
func TestSecondCorrectionAfterASnapshot(t *testing.T) {
	d, send := claimsDaemon(t, twoClaims()...)
	const list = "agora-business@example.test"
	send(1, "Alice <alice@example.test>", list, "I join the Life contest.")
	send(2, "Alice <alice@example.test>", list, "I claim cell (3, 4) in Life.")
	// A snapshot after Alice's claim, before the correction of it.
	d.mu.Lock()
	if err := d.snapshot(); err != nil {
		t.Fatal(err)
	}
	d.mu.Unlock()
	send(3, "Bob <bob@example.test>", list, "I join the Life contest.")
	send(4, "Bob <bob@example.test>", list, "I claim cell (7, 8) in Life.")
	send(5, "contestmaster@example.test", "referee@example.test", "I correct CoE #1: message <m2@example.test> reads `I claim cell (5, 6) in Life.`")
	send(6, "contestmaster@example.test", "referee@example.test", "I correct CoE #2: message <m4@example.test> reads `I claim cell (9, 9) in Life.`")
	d.mu.Lock()
	cells := d.s.Games["life"].Data.(*life.State).Cells
	alice, bob := cells["alice@example.test"], cells["bob@example.test"]
	var refused []string
	for _, o := range d.s.Outbox {
		if strings.Contains(o.Subject, "refused") {
			refused = append(refused, o.Body)
		}
	}
	d.mu.Unlock()
	if len(refused) > 0 {
		t.Fatalf("a correction was refused:\n%s", strings.Join(refused, "\n"))
	}
	if alice != "5,6" || bob != "9,9" {
		t.Fatalf("after both corrections Alice controls %q and Bob %q, want 5,6 and 9,9", alice, bob)
	}
	if n, bad, err := store.VerifyRevisions(d.e, d.statePath); err != nil || n != 2 || len(bad) > 0 {
		t.Fatalf("verify: %d revisions, mismatches %v, %v", n, bad, err)
	}
}

// TestSecondCorrectionKeepsTheFirstsMails: a second correction made while
// the first one's revision and corrected receipt still wait in the outbox
// (nothing could be sent in between) keeps them there. The re-run keeps what
// was waiting in its re-run version, and the re-run does not make a
// revision: the first revision and its corrected receipt were dropped,
// never to be sent.
func TestSecondCorrectionKeepsTheFirstsMails(t *testing.T) {
	d, send := claimsDaemon(t, twoClaims()...)
	const list = "agora-business@example.test"
	send(1, "Alice <alice@example.test>", list, "I join the Life contest.")
	send(2, "Alice <alice@example.test>", list, "I claim cell (3, 4) in Life.")
	send(3, "Bob <bob@example.test>", list, "I join the Life contest.")
	send(4, "Bob <bob@example.test>", list, "I claim cell (7, 8) in Life.")
	send(5, "contestmaster@example.test", "referee@example.test", "I correct CoE #1: message <m2@example.test> reads `I claim cell (5, 6) in Life.`")
	send(6, "contestmaster@example.test", "referee@example.test", "I correct CoE #2: message <m4@example.test> reads `I claim cell (9, 9) in Life.`")
	d.mu.Lock()
	waiting := map[string]string{}
	for _, o := range d.s.Outbox {
		waiting[o.ID] = o.Body
	}
	d.mu.Unlock()
	for _, id := range []string{"revision/1", "corrected/1/receipt/m2@example.test", "revision/2", "corrected/2/receipt/m4@example.test"} {
		if _, ok := waiting[id]; !ok {
			t.Errorf("%s is not waiting in the outbox", id)
		}
	}
	if b := waiting["corrected/1/receipt/m2@example.test"]; !strings.Contains(b, "Cell (5, 6)") {
		t.Errorf("the first corrected receipt does not name Cell (5, 6):\n%s", b)
	}
}

// TestCorrectionWhateverItsSnapshot: a correction re-runs from the newest
// kept snapshot before what it touches, and which snapshots are kept is the
// referee's affair (a replay of the same mail keeps others). The corrected
// state, its journal lines and so the state hashes of every later notice
// are the same whichever it started from: the re-run journaled its entries
// from the snapshot on, so that a re-run from an older one numbered every
// later line otherwise.
func TestCorrectionWhateverItsSnapshot(t *testing.T) {
	d, send := claimsDaemon(t, &contract.Claim{ID: 1, Game: "life", Report: "receipt/m4@example.test", Claimant: "Bob",
		From: "bob@example.test", MsgID: "c1@example.test", What: "not what I wrote", Status: "open"})
	const list = "agora-business@example.test"
	send(1, "Alice <alice@example.test>", list, "I join the Life contest.")
	send(2, "Alice <alice@example.test>", list, "I claim cell (3, 4) in Life.")
	send(3, "Bob <bob@example.test>", list, "I join the Life contest.")
	d.mu.Lock()
	if err := d.snapshot(); err != nil {
		t.Fatal(err)
	}
	d.mu.Unlock()
	send(4, "Bob <bob@example.test>", list, "I claim cell (7, 8) in Life.")
	fix := contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m4@example.test", Text: "I claim cell (9, 9) in Life."}
	correct := func() ([]byte, int64, int) {
		t.Helper()
		d.mu.Lock()
		defer d.mu.Unlock()
		s, step, _ := store.Correct(d.e, d.statePath, d.s, fix, d.s.Clock)
		if s == nil {
			t.Fatalf("the correction was refused: %s", step.Input.Error)
		}
		b, err := contract.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		return b, s.JournalSeq, len(step.Entries)
	}
	fromNewest, seqNewest, nNewest := correct()
	snaps, err := store.Snapshots(d.statePath)
	if err != nil || len(snaps) < 2 {
		t.Fatalf("snapshots %+v, %v", snaps, err)
	}
	for _, sn := range snaps[1:] {
		if err := os.Remove(sn.Path); err != nil {
			t.Fatal(err)
		}
	}
	fromFirst, seqFirst, nFirst := correct()
	if seqNewest != seqFirst || nNewest != nFirst {
		t.Errorf("from the newest snapshot: journal number %d, %d lines; from the first: %d, %d lines", seqNewest, nNewest, seqFirst, nFirst)
	}
	if !bytes.Equal(fromNewest, fromFirst) {
		t.Errorf("the corrected states differ:\n%s", firstDiff(fromFirst, fromNewest))
	}
}

// TestCorrectionKilledBeforeItsStateFile: the referee killed after a
// correction's lines are synced to the journal and before the corrected
// state replaces the state file (the save's two writes). A start re-runs the
// correction from the snapshots and the journal before it and checks it
// against the journaled lines: it stopped with "input N (correct) made 0
// entries when re-done, the journal has M: the journal and this build
// disagree", and the referee would not start.
func TestCorrectionKilledBeforeItsStateFile(t *testing.T) {
	d, send := claimsDaemon(t, &contract.Claim{ID: 1, Game: "life", Report: "receipt/m2@example.test", Claimant: "Alice",
		From: "alice@example.test", MsgID: "c1@example.test", What: "not what I wrote", Status: "open"})
	const list = "agora-business@example.test"
	send(1, "Alice <alice@example.test>", list, "I join the Life contest.")
	send(2, "Alice <alice@example.test>", list, "I claim cell (3, 4) in Life.")
	send(3, "Bob <bob@example.test>", list, "I join the Life contest.")
	// The state file as it is before the correction's save (the message
	// that makes the correction saves it whole first, as a correction does).
	d.mu.Lock()
	if err := d.snapshot(); err != nil {
		t.Fatal(err)
	}
	d.mu.Unlock()
	before, err := os.ReadFile(d.statePath)
	if err != nil {
		t.Fatal(err)
	}
	send(4, "contestmaster@example.test", "referee@example.test", "I correct CoE #1: message <m2@example.test> reads `I claim cell (5, 6) in Life.`")
	d.mu.Lock()
	want, _ := contract.Encode(d.s)
	cell := d.s.Games["life"].Data.(*life.State).Cells["alice@example.test"]
	d.mu.Unlock()
	if cell != "5,6" {
		t.Fatalf("after the correction Alice controls %q", cell)
	}
	// The kill: the journal holds the correction's lines, the state file
	// is the one before (put back by a rename, as the save's rename never
	// happened: the new file is the save's snapshot too).
	if err := os.WriteFile(d.statePath+".before", before, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(d.statePath+".before", d.statePath); err != nil {
		t.Fatal(err)
	}
	load := func(how string) {
		t.Helper()
		s, err := store.Load(d.e, d.statePath)
		if err != nil {
			t.Fatalf("%s: the state cannot be read again: %v", how, err)
		}
		if got, _ := contract.Encode(s); !bytes.Equal(got, want) {
			t.Fatalf("%s: the state read again differs from the corrected one:\n%s", how, firstDiff(got, want))
		}
		var revision bool
		for _, o := range s.Outbox {
			revision = revision || o.ID == "revision/1"
		}
		if !revision {
			t.Errorf("%s: the revision does not wait in the outbox of the state read again", how)
		}
	}
	snaps, err := store.Snapshots(d.statePath)
	if err != nil || len(snaps) < 2 {
		t.Fatalf("snapshots %v, %v", snaps, err)
	}
	saved := snaps[len(snaps)-1] // the correction's save's own copy
	others := map[string][]byte{}
	for _, sn := range snaps[:len(snaps)-1] {
		b, err := os.ReadFile(sn.Path)
		if err != nil {
			t.Fatal(err)
		}
		others[sn.Path] = b
	}
	load("with every snapshot")
	// Another snapshot at the correction's count of inputs, read first (a
	// save killed after it linked its copy and before its journal's sync,
	// whose count the next input journaled took): the start takes the one
	// the journal holds, whose state hash the journaled revision gives.
	cellLine := []byte("alice@example.test: 5,6")
	if !bytes.Contains(want, cellLine) {
		t.Fatalf("the corrected state holds no %q", cellLine)
	}
	stray := filepath.Join(filepath.Dir(saved.Path), fmt.Sprintf("%012d-%s.yaml", saved.Inputs, saved.Clock.Add(-time.Minute).Format("20060102T150405Z")))
	if err := os.WriteFile(stray, bytes.Replace(want, cellLine, []byte("alice@example.test: 7,8"), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	if snaps, _ := store.Snapshots(d.statePath); snaps[len(snaps)-2].Path != stray {
		t.Fatalf("the stray snapshot is not read before the save's: %v", snaps)
	}
	load("with another snapshot at its count")
	if err := os.Remove(stray); err != nil {
		t.Fatal(err)
	}
	// The save made its snapshot's copy before the rename: the start
	// takes it and needs no other (those before the correction gone, or
	// a journal whose correction a build before this one wrote, its
	// re-run's lines counted otherwise).
	for p := range others {
		os.Remove(p)
	}
	load("with the save's snapshot alone")
	// Without it (a state file put back from an older copy, that snapshot
	// gone), the start makes the correction again from the others.
	for p, b := range others {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(saved.Path); err != nil {
		t.Fatal(err)
	}
	load("without the save's snapshot")
	// A correction an earlier build journaled, its revision without the
	// marks of ruling requests and games' series that keep their numbers
	// and of series' items matched by their text:
	// made again as it was made, unmarked, it agrees with the journal.
	jpath := store.JournalPath(d.statePath)
	journal, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	for _, mark := range [][]byte{[]byte(`,"rulings":"kept"`), []byte(`,"series":"kept"`), []byte(`,"items":"text"`)} {
		if bytes.Count(journal, mark) != 1 {
			t.Fatalf("the journal has %d revisions marked %s", bytes.Count(journal, mark), mark)
		}
		journal = bytes.Replace(journal, mark, nil, 1)
	}
	if err := os.WriteFile(jpath, journal, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Load(d.e, d.statePath); err != nil {
		t.Fatalf("a correction journaled unmarked, made again: %v", err)
	}
	// referee verify re-computes it so too.
	if n, bad, err := store.VerifyRevisions(d.e, d.statePath); err != nil || n != 1 || len(bad) > 0 {
		t.Errorf("verify of a revision journaled unmarked: %d checked, %v, %v", n, bad, err)
	}
}

// claimsDaemon is a daemon on a state holding the open claims, snapshotted,
// and send, which applies a message arriving a minute after the one before
// (the clock stands still, rate 0, and is moved a minute before each).
// Nothing is sent (its context is cancelled): the outbox shows what would
// be.
func claimsDaemon(t *testing.T, claims ...*contract.Claim) (*Daemon, func(uid uint32, from, to, text string)) {
	t.Helper()
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: &replySMTP{}} }, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d.mu.Lock()
	d.s.Claims = append(d.s.Claims, claims...)
	d.s.NextClaim = len(claims) + 1
	if err := d.snapshot(); err != nil {
		t.Fatal(err)
	}
	d.mu.Unlock()
	send := func(uid uint32, from, to, text string) {
		t.Helper()
		d.mu.Lock()
		d.clk.Start = d.clk.Start.Add(time.Minute)
		arrived := d.clk.Now()
		d.mu.Unlock()
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: s\r\nMessage-ID: <m%d@example.test>\r\nDate: %s\r\n\r\n%s\r\n",
			from, to, uid, arrived.Format(time.RFC1123Z), text)
		if err := d.apply(ctx, &mailin.Raw{Data: []byte(raw), Arrived: arrived, UID: uid}, contract.Checkpoint{UIDValidity: 1, LastUID: uid}); err != nil {
			t.Fatal(err)
		}
	}
	return d, send
}

// twoClaims are Alice's open claim on her receipt for m2 (#1) and Bob's on
// his for m4 (#2).
func twoClaims() []*contract.Claim {
	var cs []*contract.Claim
	for i, who := range []string{"Alice", "Bob"} {
		cs = append(cs, &contract.Claim{ID: i + 1, Game: "life", Report: fmt.Sprintf("receipt/m%d@example.test", 2*i+2),
			Claimant: who, From: strings.ToLower(who) + "@example.test", MsgID: fmt.Sprintf("c%d@example.test", i+1), What: "not what I wrote", Status: "open"})
	}
	return cs
}
