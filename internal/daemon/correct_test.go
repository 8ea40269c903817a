package daemon

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/store"
	"referee/mailin"
)

// TestCorrectionByMail: the contestmaster's correction by private mail
// re-runs the history from the journal: the state is the corrected one, the
// journal keeps the original lines and appends the correction's, a start
// from the files gives the same state, the revision and the corrected
// receipt wait in the outbox, the revision re-computes from the journal, and
// a tampered revision does not.
func TestCorrectionByMail(t *testing.T) {
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: &replySMTP{}} }, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // nothing is sent: the outbox shows what would be
	// An open claim of error about Alice's message, in the state the
	// history starts from.
	d.mu.Lock()
	d.s.Claims = append(d.s.Claims, &contract.Claim{ID: 1, Game: "life", Report: "receipt/m2@example.test", Claimant: "Alice",
		From: "alice@example.test", MsgID: "c@example.test", What: "I wrote (5, 6)", Status: "open"})
	if err := d.snapshot(); err != nil {
		t.Fatal(err)
	}
	d.mu.Unlock()
	arrived := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	send := func(uid uint32, from, to, text string) {
		t.Helper()
		arrived = arrived.Add(time.Minute)
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: s\r\nMessage-ID: <m%d@example.test>\r\nDate: %s\r\n\r\n%s\r\n",
			from, to, uid, arrived.Format(time.RFC1123Z), text)
		if err := d.apply(ctx, &mailin.Raw{Data: []byte(raw), Arrived: arrived, UID: uid}, contract.Checkpoint{UIDValidity: 1, LastUID: uid}); err != nil {
			t.Fatal(err)
		}
	}
	const list = "agora-business@example.test"
	send(1, "Alice <alice@example.test>", list, "I join the Life contest.")
	send(2, "Alice <alice@example.test>", list, "I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (3, 4).")
	send(3, "Bob <bob@example.test>", list, "I join the Life contest.")
	cells := func() map[string]string {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.s.Games["life"].Data.(*life.State).Cells
	}
	if got := cells()["alice@example.test"]; got != "3,4" {
		t.Fatalf("before the correction Alice controls %q", got)
	}
	send(4, "contestmaster@example.test", "referee@example.test",
		"I correct CoE #1: message <m2@example.test> reads `I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (5, 6).`")
	if got := cells()["alice@example.test"]; got != "5,6" {
		d.mu.Lock()
		for _, o := range d.s.Outbox {
			t.Logf("%s %s\n%s", o.ID, o.Subject, o.Body)
		}
		d.mu.Unlock()
		t.Fatalf("after the correction Alice controls %q, want 5,6", got)
	}
	d.mu.Lock()
	var revision, corrected *contract.Outgoing
	for _, o := range d.s.Outbox {
		switch {
		case o.ID == "revision/1":
			revision = o
		case o.ID == "corrected/1/receipt/m2@example.test":
			corrected = o
		}
	}
	want, _ := contract.Encode(d.s)
	d.mu.Unlock()
	if revision == nil || !strings.Contains(revision.Body, "Cell (5, 6)") || !strings.Contains(revision.Body, "Cell (3, 4)") {
		t.Fatalf("no revision naming the cells that changed: %+v", revision)
	}
	if corrected == nil || !strings.HasPrefix(corrected.Subject, "Corrected: ") || !strings.Contains(corrected.Body, "Cell (5, 6)") {
		t.Fatalf("no corrected receipt: %+v", corrected)
	}
	s, err := store.Load(d.e, d.statePath)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := contract.Encode(s); !bytes.Equal(got, want) {
		t.Fatalf("the state read from the files differs from the daemon's:\n%s", firstDiff(got, want))
	}
	jpath := store.JournalPath(d.statePath)
	b, _ := os.ReadFile(jpath)
	if !strings.Contains(string(b), `"kind":"correct"`) || !strings.Contains(string(b), "take control of Cell (3, 4)") {
		t.Fatal("the journal does not keep the original message and the correction")
	}
	n, bad, err := store.VerifyRevisions(d.e, d.statePath)
	if err != nil || n != 1 || len(bad) > 0 {
		t.Fatalf("verify: %d revisions, mismatches %v, %v", n, bad, err)
	}
	// A revision whose new hash was changed is found out.
	i := strings.Index(string(b), `"new_hash":"`) + len(`"new_hash":"`)
	// The first hex digit is changed to another: writing a fixed digit over
	// it changes nothing when the hash already starts with that digit.
	digit := "0"
	if b[i] == '0' {
		digit = "1"
	}
	tampered := string(b[:i]) + digit + string(b[i+1:])
	if err := os.WriteFile(jpath, []byte(tampered), 0o600); err != nil {
		t.Fatal(err)
	}
	_, bad, err = store.VerifyRevisions(d.e, d.statePath)
	if err != nil || len(bad) != 1 || !strings.Contains(bad[0], "new_hash") {
		t.Fatalf("a tampered revision verified: %v, %v", bad, err)
	}
}

// TestCorrectionInterruptedIsRerunAtStart: a crash after the correction's
// message is saved and before its re-run is: the state read from the files
// keeps the accepted correction on its claim, and the start re-runs it, once.
func TestCorrectionInterruptedIsRerunAtStart(t *testing.T) {
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: &replySMTP{}} }, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d.mu.Lock()
	d.s.Claims = append(d.s.Claims, &contract.Claim{ID: 1, Game: "life", Report: "receipt/m2@example.test", Claimant: "Alice",
		From: "alice@example.test", MsgID: "c@example.test", What: "I wrote (5, 6)", Status: "open"})
	if err := d.snapshot(); err != nil {
		t.Fatal(err)
	}
	d.mu.Unlock()
	arrived := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	raw := func(uid uint32, from, to, text string) []byte {
		arrived = arrived.Add(time.Minute)
		return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: s\r\nMessage-ID: <m%d@example.test>\r\nDate: %s\r\n\r\n%s\r\n",
			from, to, uid, arrived.Format(time.RFC1123Z), text))
	}
	const list = "agora-business@example.test"
	for uid, m := range []struct{ from, text string }{
		{"Alice <alice@example.test>", "I join the Life contest."},
		{"Alice <alice@example.test>", "I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (3, 4)."},
	} {
		u := uint32(uid + 1)
		if err := d.apply(ctx, &mailin.Raw{Data: raw(u, m.from, list, m.text), Arrived: arrived, UID: u}, contract.Checkpoint{UIDValidity: 1, LastUID: u}); err != nil {
			t.Fatal(err)
		}
	}
	// The correction's message is saved, and the referee killed before
	// the re-run: only the message's own transaction happens.
	m, err := d.pipe.Read(raw(3, "contestmaster@example.test", "referee@example.test",
		"I correct CoE #1: message <m2@example.test> reads `I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (5, 6).`"), arrived)
	if err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	if _, err := d.write(ctx, &contract.Input{Kind: contract.InMessage, At: arrived, Msg: m, IMAP: &contract.Checkpoint{UIDValidity: 1, LastUID: 3}}, false); err != nil {
		t.Fatal(err)
	}
	d.mu.Unlock()
	s, err := store.Load(d.e, d.statePath)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Games["life"].Data.(*life.State).Cells["alice@example.test"]; got != "3,4" {
		t.Fatalf("before the re-run Alice controls %q", got)
	}
	if p := s.PendingCorrections(); len(p) != 1 || p[0].CoE != 1 {
		t.Fatalf("the state read from the files does not keep the accepted correction: %+v", p)
	}
	// The start: what Run does first.
	d.mu.Lock()
	d.s = s
	err = d.correctPending(ctx)
	d.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	s, err = store.Load(d.e, d.statePath)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Games["life"].Data.(*life.State).Cells["alice@example.test"]; got != "5,6" {
		t.Fatalf("after the start Alice controls %q, want 5,6", got)
	}
	if p := s.PendingCorrections(); len(p) != 0 {
		t.Fatalf("a correction is still pending after its re-run: %+v", p)
	}
	if n, bad, err := store.VerifyRevisions(d.e, d.statePath); err != nil || n != 1 || len(bad) > 0 {
		t.Fatalf("verify: %d revisions, mismatches %v, %v", n, bad, err)
	}
	// A second start finds nothing left to re-run.
	d.mu.Lock()
	d.s = s
	err = d.correctPending(ctx)
	d.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if n, _, _ := store.VerifyRevisions(d.e, d.statePath); n != 1 {
		t.Fatalf("%d revisions after a second start, want 1", n)
	}
}
