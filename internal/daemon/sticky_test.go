package daemon

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/contract"
	"referee/contract/store"
	"referee/mailin"
)

// lockedBuffer is a log's output written by several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *lockedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestStickySyncFailureLog: the journal's sync beside a background
// snapshot fails once (a failed write-back, which Linux need not report to
// a later fsync). The operator's log says so once, at the error level,
// naming the file to remove once the disk is checked, and the daemon says
// when it stopped (Stopped, the hook Halted); every message after it is
// refused without another line at the error level; the refused message is
// neither journaled nor answered, and stays unacknowledged.
func TestStickySyncFailureLog(t *testing.T) {
	rs := &replySMTP{}
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: rs} }, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), 1)
	var logged lockedBuffer
	d.log = slog.New(slog.NewTextHandler(&logged, nil))
	halted := make(chan time.Time, 2)
	d.hooks.Halted = func(since time.Time) { halted <- since }
	d.snapEvery = 1 // every change starts a snapshot
	defer store.FailSnapshotJournalSync(syscall.EIO)()
	ctx := context.Background()
	mail := func(uid uint32, id string) *mailin.Raw {
		raw := fmt.Sprintf("From: Alice <alice@example.test>\r\nTo: agora-business@example.test\r\nSubject: hello\r\nMessage-ID: <%s>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n\r\nI join the Life contest.\r\n", id)
		return &mailin.Raw{Data: []byte(raw), Arrived: time.Now(), UID: uid}
	}
	cp := func(uid uint32) contract.Checkpoint { return contract.Checkpoint{UIDValidity: 1, LastUID: uid} }
	record := store.SyncFailedPath(store.JournalPath(d.statePath))

	if !d.Stopped().IsZero() {
		t.Fatalf("Stopped is %v before any failure", d.Stopped())
	}
	// The first message is saved (its own sync succeeds); the snapshot it
	// starts fails on the journal's sync.
	if err := d.apply(ctx, mail(1, "one@example.test"), cp(1)); err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	d.waitSnapshot()
	inputs := d.s.JournalInputs
	d.mu.Unlock()
	d.preparing.Wait()
	if _, err := os.Stat(record); err != nil {
		t.Fatalf("the failed sync is not recorded beside the journal: %v", err)
	}
	since := d.Stopped()
	if want := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC); since.Before(want) {
		t.Errorf("Stopped = %v, want the referee's clock at the failure (from %v)", since, want)
	}
	select {
	case got := <-halted:
		if !got.Equal(since) {
			t.Errorf("the hook Halted was told %v, Stopped says %v", got, since)
		}
	default:
		t.Errorf("the hook Halted was not called")
	}
	stopLine := logLine(t, logged.String(), "the journal stopped")
	for _, want := range []string{"level=ERROR", "no more mail is read or applied", "input/output error", "lines written before it may not be on disk", "remove " + record} {
		if !strings.Contains(stopLine, want) {
			t.Errorf("the stop's log line lacks %q:\n%s", want, stopLine)
		}
	}

	// Every later message is refused, and said no more at the error level.
	for uid, id := range []string{"two@example.test", "three@example.test"} {
		before := len(logged.String())
		if err := d.apply(ctx, mail(uint32(uid+2), id), cp(uint32(uid+2))); err == nil {
			t.Fatalf("message %s applied though the journal's sync had failed", id)
		}
		d.preparing.Wait()
		if after := logged.String()[before:]; strings.Contains(after, "level=ERROR") {
			t.Errorf("message %s: the stop is said again at the error level:\n%s", id, after)
		}
		msgLine := logLine(t, logged.String()[before:], "msgid="+id)
		if !strings.Contains(msgLine, "saved=false") {
			t.Errorf("message %s: its log line does not say it was not saved:\n%s", id, msgLine)
		}
	}
	if n := strings.Count(logged.String(), "level=ERROR"); n != 1 {
		t.Errorf("%d lines at the error level, want the stop's alone:\n%s", n, logged.String())
	}
	if len(halted) != 0 {
		t.Errorf("the hook Halted was called again")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.s.JournalInputs != inputs || d.s.IMAP.LastUID != 1 {
		t.Errorf("after the refusals, journal_inputs %d at UID %d; want %d at UID 1", d.s.JournalInputs, d.s.IMAP.LastUID, inputs)
	}
	journal, err := os.ReadFile(store.JournalPath(d.statePath))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(journal, []byte("two@example.test")) || bytes.Contains(journal, []byte("three@example.test")) {
		t.Errorf("a refused message is in the journal")
	}
	if got := rs.replies(); len(got) != 1 || got[0] != "one@example.test" {
		t.Errorf("receipts sent for %v, want only one@example.test's", got)
	}
}

// logLine is the first line of log that holds s.
func logLine(t *testing.T, log, s string) string {
	t.Helper()
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	t.Fatalf("no log line holds %q; the log:\n%s", s, log)
	return ""
}
