package daemon

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/contract/store"
	"referee/internal/bridge"
	"referee/internal/testdeadline"
	"referee/mailin"
	"referee/mailout"
)

// flakySMTP refuses according to a script: 4xx, then 5xx for one recipient,
// then drops the connection, then accepts.
type flakySMTP struct {
	mu       sync.Mutex
	attempts int
	got      map[string]int // Message-ID -> deliveries
}

type flakySession struct {
	srv  *flakySMTP
	conn *smtp.Conn
	rcpt string
}

func (s *flakySession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *flakySession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.rcpt = to
	if strings.HasPrefix(to, "nobody@") {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	return nil
}
func (s *flakySession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	s.srv.attempts++
	switch s.srv.attempts {
	case 1, 2:
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	case 3:
		s.conn.Conn().Close() // the connection drops mid-DATA
		return errors.New("connection dropped")
	}
	m := regexp.MustCompile(`(?m)^Message-Id: <([^>]+)>|^Message-ID: <([^>]+)>`).FindSubmatch(raw)
	if m != nil {
		s.srv.got[string(m[1])+string(m[2])]++
	}
	return nil
}
func (s *flakySession) Reset()        {}
func (s *flakySession) Logout() error { return nil }

// smtpDaemon is a daemon, its loops not started, whose mail goes to an
// in-process go-smtp server with session; its clock starts at start and runs
// rate times faster than real time.
func smtpDaemon(t *testing.T, session func(*smtp.Conn) smtp.Session, start time.Time, rate float64) *Daemon {
	t.Helper()
	addr := serveSMTP(t, smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return session(c), nil }))
	const referee = "referee@example.test"
	e, err := testEngine(referee)
	if err != nil {
		t.Fatal(err)
	}
	clk := TestClock(start, rate)
	s, started := startedState(t, e, clk.Now())
	log := slog.New(slog.DiscardHandler)
	d, err := New(Options{Engine: e, StatePath: filepath.Join(t.TempDir(), "state.yaml"), State: s, Started: started, Clock: clk, Log: log,
		Mail: &mailin.Config{Referee: referee, PublicLists: []string{"agora-business@example.test"}, OfficialList: "agora-official@example.test",
			DiscussionLists: []string{"agora-discussion@example.test"}, AuthPolicy: "none"},
		Addresses: bridge.Addresses{Referee: referee, PublicList: "agora-business@example.test", OfficialList: "agora-official@example.test"},
		IMAP:      &mailin.IMAPConfig{Addr: "127.0.0.1:1", TLS: "none", User: referee, Mailbox: "INBOX", Logger: log},
		Sender:    mailout.NewSender(mailout.SMTPConfig{Addr: addr, TLS: "none"}, log)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

// serveSMTP serves backend on 127.0.0.1 as mx.example.test, AUTH allowed
// without TLS, until the test ends, and returns its address.
func serveSMTP(t *testing.T, backend smtp.Backend) string {
	t.Helper()
	srv := smtp.NewServer(backend)
	srv.Domain = "mx.example.test"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// startedState is a new state of e, started at now with a secret of the
// test's name, and the entries its start journals.
func startedState(t *testing.T, e *contract.Engine, now time.Time) (*contract.State, []contract.Entry) {
	t.Helper()
	s, _, err := e.NewState(nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	secret := sha256.Sum256([]byte(t.Name()))
	started, err := e.Start(s, secret[:], now)
	if err != nil {
		t.Fatal(err)
	}
	return s, started
}

// testEngine is the interpreter with the four games, as referee run builds
// it with the default configuration.
func testEngine(referee string) (*contract.Engine, error) {
	return contract.NewEngine(contract.Config{Referee: referee, Contestmaster: "contestmaster@example.test",
		SeenHorizon: 30 * 24 * time.Hour, RulingWait: 48 * time.Hour},
		life.New(), rumble.New(), steemfield.New(), wackyworld.New())
}

func TestOutboxRetries(t *testing.T) {
	fs := &flakySMTP{got: map[string]int{}}
	d := smtpDaemon(t, func(c *smtp.Conn) smtp.Session { return &flakySession{srv: fs, conn: c} }, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), 1000)
	clk := d.clk
	d.retryBase = time.Millisecond
	d.mu.Lock()
	d.s.Outbox = nil
	for i := 0; i < 5; i++ {
		d.s.Outbox = append(d.s.Outbox, &contract.Outgoing{Notice: contract.Notice{ID: fmt.Sprintf("test/%d", i), Kind: "notice",
			Channel: contract.ChanPrivate, To: []string{"alice@example.test"}, Subject: "n", Body: "body\n", Time: clk.Now()}})
	}
	d.s.Outbox = append(d.s.Outbox, &contract.Outgoing{Notice: contract.Notice{ID: "test/bad", Kind: "notice",
		Channel: contract.ChanPrivate, To: []string{"nobody@example.test"}, Subject: "n", Body: "body\n", Time: clk.Now()}})
	// Put in the outbox by hand, not by an input: a snapshot saves them.
	if err := d.snapshot(); err != nil {
		t.Fatal(err)
	}
	d.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.senderLoop(ctx) }()
	deadline := time.Now().Add(testdeadline.Left(t))
	for {
		d.mu.Lock()
		left := len(d.s.Outbox)
		d.mu.Unlock()
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d notices still in the outbox at the test's deadline", left)
		}
		d.kick <- struct{}{}
	}
	cancel()
	<-done
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i := 0; i < 5; i++ {
		id := contract.MessageID(fmt.Sprintf("test/%d", i), "example.test")
		if fs.got[id] < 1 {
			t.Errorf("notice %d was never delivered (got %v)", i, fs.got)
		}
	}
	if len(d.s.Failed) != 1 || d.s.Failed[0].ID != "test/bad" || !strings.Contains(d.s.Failed[0].LastError, "550") {
		t.Errorf("the permanent failure is not kept: %+v", d.s.Failed)
	}
	// And it survives in the saved state (the snapshot and the journal's
	// inputs after it, each send's outcome), for referee check.
	s, err := store.Load(d.e, d.statePath)
	if err != nil || len(s.Failed) != 1 || len(s.Outbox) != 0 {
		t.Errorf("saved state: %v, %d failed, %d in the outbox", err, len(s.Failed), len(s.Outbox))
	}
}

// replySMTP records the In-Reply-To of every mail it accepts.
type replySMTP struct {
	mu  sync.Mutex
	got []string
}

type replySession struct{ srv *replySMTP }

func (s *replySession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *replySession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *replySession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := regexp.MustCompile(`(?m)^In-Reply-To: <([^>]+)>`).FindSubmatch(raw)
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	if m != nil {
		s.srv.got = append(s.srv.got, string(m[1]))
	}
	return nil
}
func (s *replySession) Reset()        {}
func (s *replySession) Logout() error { return nil }

func (r *replySMTP) replies() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

// TestFailedSaveSendsNothing: the receipt of a message is sent while its
// input is journaled, but delivered only once the journal is synced; when
// the journal cannot be written nothing is delivered, the change is undone,
// and the same message, read again, is applied and answered once.
func TestFailedSaveSendsNothing(t *testing.T) {
	rs := &replySMTP{}
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: rs} }, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), 1)
	ctx := context.Background()
	mail := func(uid uint32, id string) *mailin.Raw {
		raw := fmt.Sprintf("From: Alice <alice@example.test>\r\nTo: agora-business@example.test\r\nSubject: hello\r\nMessage-ID: <%s>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n\r\nI join the Life contest.\r\n", id)
		return &mailin.Raw{Data: []byte(raw), Arrived: time.Now(), UID: uint32(uid)}
	}
	cp := func(uid uint32) contract.Checkpoint { return contract.Checkpoint{UIDValidity: 1, LastUID: uid} }

	if err := d.apply(ctx, mail(1, "one@example.test"), cp(1)); err != nil {
		t.Fatal(err)
	}
	d.preparing.Wait()
	if got := rs.replies(); !slices.Equal(got, []string{"one@example.test"}) {
		t.Fatalf("after a good save, receipts for %v", got)
	}

	// The journal's file fails under it (closed): the append fails, and
	// the daemon reads the state and the journal again.
	d.mu.Lock()
	d.j.Close()
	d.mu.Unlock()
	if err := d.apply(ctx, mail(2, "two@example.test"), cp(2)); err == nil {
		t.Fatal("apply succeeded though the state could not be saved")
	}
	d.preparing.Wait()
	if got := rs.replies(); !slices.Equal(got, []string{"one@example.test"}) {
		t.Fatalf("after a failed save, receipts for %v", got)
	}
	d.mu.Lock()
	for _, o := range d.s.Outbox {
		if o.Kind == "receipt" {
			t.Errorf("after the failed save, the outbox holds %s", o.ID)
		}
	}
	if d.s.IMAP.LastUID != 1 {
		t.Errorf("after the failed save, the checkpoint is at UID %d, want 1", d.s.IMAP.LastUID)
	}
	d.mu.Unlock()

	// The message, read again, goes through once.
	if err := d.apply(ctx, mail(2, "two@example.test"), cp(2)); err != nil {
		t.Fatal(err)
	}
	d.preparing.Wait()
	if got := rs.replies(); !slices.Equal(got, []string{"one@example.test", "two@example.test"}) {
		t.Fatalf("after the retry, receipts for %v", got)
	}
}

// TestViewAndHooks: a message applied is counted by the hooks, and View shows
// the state it made (the player's receipt waiting in the outbox).
func TestViewAndHooks(t *testing.T) {
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: &replySMTP{}} }, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), 1)
	var commits, messages int
	var journaled []contract.Entry
	d.hooks = Hooks{
		Committed: func(en []contract.Entry, _ time.Duration, err error) {
			if err == nil {
				commits++
				journaled = append(journaled, en...)
			}
		},
		Message: func(*contract.Message, bool) { messages++ },
	}
	raw := "From: Alice <alice@example.test>\r\nTo: referee@example.test\r\nSubject: hello\r\nMessage-ID: <view@example.test>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n\r\nI join the Life contest.\r\n"
	// A cancelled context: the receipt is not sent with the commit, so it
	// stays in the outbox for View to see.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.apply(ctx, &mailin.Raw{Data: []byte(raw), Arrived: time.Now(), UID: 7}, contract.Checkpoint{UIDValidity: 1, LastUID: 7}); err != nil {
		t.Fatal(err)
	}
	d.preparing.Wait()
	var receipt string
	var uid uint32
	d.View(func(s *contract.State) {
		uid = s.IMAP.LastUID
		for _, o := range s.Outbox {
			if o.Kind == "receipt" && o.InReplyTo == "view@example.test" {
				receipt = o.Body
			}
		}
	})
	if !strings.Contains(receipt, "join") {
		t.Errorf("View shows no receipt for the join; outbox receipt %q", receipt)
	}
	if uid != 7 {
		t.Errorf("View shows the checkpoint at UID %d, want 7", uid)
	}
	if commits != 1 || messages != 1 || len(journaled) == 0 {
		t.Errorf("hooks counted %d commits, %d messages, %d entries; want 1, 1 and some", commits, messages, len(journaled))
	}
}

// TestStartRedoesTheJournal: between snapshots each message is only
// journaled; the state loaded from the files (the last snapshot and the
// journal's inputs re-done) is the daemon's byte for byte, and a journal
// line that does not re-do as written stops the load naming the line.
func TestStartRedoesTheJournal(t *testing.T) {
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: &replySMTP{}} }, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), 1)
	d.snapEvery, d.snapInterval = 1<<30, time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the receipts stay in the outbox
	for i, body := range []string{"I join the Life contest.", "I join the Rumble contest.", "hello"} {
		raw := fmt.Sprintf("From: Alice <alice@example.test>\r\nTo: referee@example.test\r\nSubject: s\r\nMessage-ID: <m%d@example.test>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n\r\n%s\r\n", i, body)
		if err := d.apply(ctx, &mailin.Raw{Data: []byte(raw), Arrived: time.Now(), UID: uint32(i + 1)}, contract.Checkpoint{UIDValidity: 1, LastUID: uint32(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	d.mu.Lock()
	d.settle(d.s.Outbox[0].ID, nil)
	want, _ := contract.Encode(d.s)
	d.mu.Unlock()
	snap, err := store.LoadSnapshot(d.e, d.statePath)
	if err != nil {
		t.Fatal(err)
	}
	if snap.JournalInputs != 0 {
		t.Fatalf("a snapshot was written after %d inputs; none was due", snap.JournalInputs)
	}
	s, err := store.Load(d.e, d.statePath)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := contract.Encode(s); !bytes.Equal(got, want) {
		t.Fatalf("the state re-done from the journal differs from the daemon's:\n%s", firstDiff(got, want))
	}
	if s.JournalInputs != 4 {
		t.Errorf("journal_inputs %d, want 4 (three messages, one send)", s.JournalInputs)
	}

	// An entry changed in the journal: the load says where.
	jpath := store.JournalPath(d.statePath)
	b, _ := os.ReadFile(jpath)
	lines := strings.SplitAfter(string(b), "\n")
	bad := -1
	for i, l := range lines {
		if strings.Contains(l, `"outcome":"rejected"`) {
			lines[i] = strings.Replace(l, `"outcome":"rejected"`, `"outcome":"applied"`, 1)
			bad = i + 1
			break
		}
	}
	if bad < 0 {
		t.Fatalf("no rejected entry in the journal:\n%s", b)
	}
	os.WriteFile(jpath, []byte(strings.Join(lines, "")), 0o600)
	_, err = store.Load(d.e, d.statePath)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("journal.jsonl:%d:", bad)) || !strings.Contains(err.Error(), "outcome") {
		t.Fatalf("a changed entry on line %d loaded with: %v", bad, err)
	}
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d: %q, want %q", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(al), len(bl))
}

// TestSendRecordedDuringSync: while a change's journal is synced, the
// daemon's lock is free, so a mail the server accepted is recorded at once
// (settle), not after the disk; the change's own notices are not offered
// to the sender until its sync is done; and the journal, with the send
// written after the change, loads to the daemon's state byte for byte.
func TestSendRecordedDuringSync(t *testing.T) {
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: &replySMTP{}} }, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), 1)
	d.snapEvery, d.snapInterval = 1<<30, time.Hour
	ctx := context.Background()
	msg := func(i int) *contract.Input {
		at := d.clk.Now()
		m := &contract.Message{ID: fmt.Sprintf("m%d@example.test", i), From: "alice@example.test", Name: "Alice", Arrived: at, Date: at,
			Subject: "s", Channel: contract.ChanPrivate, Authenticated: true, Text: "I join the Life contest."}
		return &contract.Input{Kind: contract.InMessage, At: at, Msg: m, IMAP: &contract.Checkpoint{UIDValidity: 1, LastUID: uint32(i)}}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.write(ctx, msg(1), false); err != nil {
		t.Fatal(err)
	}
	first, _ := d.nextToSend()
	if first == nil {
		t.Fatal("the first message's receipt is not offered to the sender")
	}
	var during *contract.Outgoing
	recorded := false
	d.syncing = func() {
		if !d.mu.TryLock() {
			t.Error("the daemon's lock is held while the change's journal is synced")
			return
		}
		defer d.mu.Unlock()
		during, _ = d.nextToSend()
		d.settle(first.ID, nil)
		recorded = true
	}
	if _, err := d.write(ctx, msg(2), false); err != nil {
		t.Fatal(err)
	}
	d.syncing = nil
	if !recorded {
		t.Fatal("no send recorded during the sync")
	}
	if during == nil || during.ID != first.ID {
		t.Fatalf("during the sync the sender was offered %v, want the first receipt only", during)
	}
	second, _ := d.nextToSend()
	if second == nil || second.ID == first.ID {
		t.Fatalf("after the sync the sender is offered %v, want the second message's notice", second)
	}
	want, _ := contract.Encode(d.s)
	s, err := store.Load(d.e, d.statePath)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := contract.Encode(s); !bytes.Equal(got, want) {
		t.Fatalf("the state re-done from the journal differs from the daemon's:\n%s", firstDiff(got, want))
	}
	hist, err := os.ReadFile(store.JournalPath(d.statePath))
	if err != nil {
		t.Fatal(err)
	}
	if i, j := bytes.Index(hist, []byte(`m2@example.test`)), bytes.Index(hist, []byte(`"kind":"sent"`)); i < 0 || j < i {
		t.Fatalf("the journal does not hold the second message (at %d) before the send (at %d)", i, j)
	}
}

// TestReportWaitsForItsSnapshot: a report goes out only from a state on
// disk whole. A change that queues a report while another snapshot is
// still being written cannot start one (one at a time): the report is held
// from the sender, the other notices are not; once that snapshot ends, the
// scheduler's pass starts the next, and when it is written the state file
// holds the report and the sender is offered it.
func TestReportWaitsForItsSnapshot(t *testing.T) {
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: &replySMTP{}} }, start, 1)
	d.mu.Lock()
	defer d.mu.Unlock()
	// A snapshot being written, as far as the daemon knows.
	other := &bgSnapshot{done: make(chan struct{})}
	d.bg = other
	if _, err := d.write(context.Background(), &contract.Input{Kind: contract.InAdvance, At: start.Add(8 * 24 * time.Hour)}, false); err != nil {
		t.Fatal(err)
	}
	var report string
	for _, o := range d.s.Outbox {
		if o.Kind == "report" {
			report = o.ID
		}
	}
	if report == "" {
		t.Fatal("a week's advance queued no report")
	}
	offered := func() []string { return offeredNotices(d) }
	if ids := offered(); len(ids) == 0 || slices.Contains(ids, report) {
		t.Fatalf("while the snapshot before it is written the sender is offered %v: want the other notices, not %s", ids, report)
	}
	close(other.done)
	d.snapshotIfDue()
	if d.bg == nil || d.bg == other {
		t.Fatal("the snapshot the report waits for was not started when the one before ended")
	}
	d.waitSnapshot()
	file, err := store.LoadSnapshot(d.e, d.statePath)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(file.Outbox, func(o *contract.Outgoing) bool { return o.ID == report }) {
		t.Fatalf("the state file does not hold %s", report)
	}
	if ids := offered(); !slices.Contains(ids, report) {
		t.Fatalf("after its snapshot the sender is offered %v, without %s", ids, report)
	}
}
