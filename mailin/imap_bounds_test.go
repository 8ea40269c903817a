package mailin

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// logWatch is a log destination a test can wait on: the client's
// goroutines write to it, and waitFor returns once a line holds a text.
type logWatch struct {
	mu     sync.Mutex
	b      strings.Builder
	signal chan struct{}
}

func newLogWatch() *logWatch { return &logWatch{signal: make(chan struct{}, 1)} }

func (w *logWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	select {
	case w.signal <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (w *logWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func (w *logWatch) logger() *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

// waitFor waits (bounded) until text occurs n times in the log.
func (w *logWatch) waitFor(t *testing.T, text string, n int) {
	t.Helper()
	deadline := time.NewTimer(waitLimit(t))
	defer deadline.Stop()
	for strings.Count(w.String(), text) < n {
		select {
		case <-w.signal:
		case <-deadline.C:
			t.Fatalf("waited to the test's deadline for %d log lines with %q; log:\n%s", n, text, w.String())
		}
	}
}

// TestIMAPWakeUpBatches: mail announced while IDLE, up to a batch in one
// wake-up, is read by the fetch sent with DONE, whatever the mailbox held
// before (no UID SEARCH, one batch); more than a batch is read by the full
// sync, a batch at a time.
func TestIMAPWakeUpBatches(t *testing.T) {
	s := newTestServer(t)
	for i := 1; i <= 30; i++ { // kept, flagged: the mailbox holds 30 when IDLE starts
		s.deliver("INBOX", fmt.Sprintf("old%d", i))
	}
	c := newCollector()
	cfg := s.config()
	cfg.PollInterval = time.Hour
	runInBackground(t, cfg, Checkpoint{}, c.apply)
	c.waitN(t, 30)
	s.waitIdles(t, 1)
	want := subjectsN("old", 30)
	for _, step := range []struct {
		prefix   string
		n        int
		searched bool
		sizes    []int
	}{
		{"one", 1, false, []int{1}},
		{"fifty", batchSize, false, []int{batchSize}},
		{"more", batchSize + 1, true, []int{batchSize, 1}},
	} {
		c.mu.Lock()
		batches, applied := len(c.sizes), len(c.raws)
		c.mu.Unlock()
		searches, idles := s.searches.Load(), s.idles.Load()
		s.deliverAll("INBOX", step.prefix, step.n) // one EXISTS for all n, while IDLE
		c.waitN(t, applied+step.n)
		s.waitIdles(t, idles+1) // IDLE again: the next step's mail comes while IDLE
		if got := s.searches.Load() - searches; (got > 0) != step.searched {
			t.Errorf("%d messages announced while IDLE: %d UID SEARCH commands; want a full sync %v", step.n, got, step.searched)
		}
		c.mu.Lock()
		sizes := slices.Clone(c.sizes[batches:])
		c.mu.Unlock()
		if !slices.Equal(sizes, step.sizes) {
			t.Errorf("%d messages announced while IDLE applied in batches of %v, want %v", step.n, sizes, step.sizes)
		}
		want = append(want, subjectsN(step.prefix, step.n)...)
	}
	if got := c.subjects(); !slices.Equal(got, want) {
		t.Errorf("subjects = %v, want %v", got, want)
	}
}

// TestIMAPExpungedBeforeFetch: a message the sync's UID SEARCH found and
// another client deleted (flagged \Deleted and expunged, as a mail client's
// delete does) before the FETCH is not applied: the fetch brings only its
// flags. No empty batch is applied or marked, the connection is kept, and
// the next message is read as usual.
func TestIMAPExpungedBeforeFetch(t *testing.T) {
	s := newTestServer(t)
	s.deliver("INBOX", "gone")
	var once sync.Once
	s.mu.Lock()
	s.onFetch = func() {
		once.Do(func() { expunge(t, s, 1) })
	}
	s.mu.Unlock()
	logs := newLogWatch()
	c := newCollector()
	cfg := s.config()
	cfg.PollInterval = time.Hour
	cfg.Logger = logs.logger()
	runInBackground(t, cfg, Checkpoint{}, c.apply)
	s.waitIdles(t, 1)
	s.deliver("INBOX", "kept")
	if got := c.waitN(t, 1); !slices.Equal(got, []string{"kept"}) {
		t.Errorf("subjects = %v, want [kept]", got)
	}
	c.mu.Lock()
	sizes := slices.Clone(c.sizes)
	c.mu.Unlock()
	if !slices.Equal(sizes, []int{1}) {
		t.Errorf("batches of %v applied, want one of 1", sizes)
	}
	if cp := c.lastCheckpoint(); cp.LastUID != 2 {
		t.Errorf("checkpoint %+v, want LastUID 2", cp)
	}
	if strings.Contains(logs.String(), "reconnecting") {
		t.Errorf("the connection was lost:\n%s", logs.String())
	}
}

// expunge removes a message by UID with a client of its own.
func expunge(t *testing.T, s *testServer, uid imap.UID) {
	cl, err := imapclient.DialInsecure(s.addr, nil)
	if err != nil {
		t.Error(err)
		return
	}
	defer cl.Close()
	err = cl.Login("referee@example.test", "pw").Wait()
	if err == nil {
		_, err = cl.Select("INBOX", nil).Wait()
	}
	if err == nil {
		err = cl.Store(imap.UIDSetNum(uid), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
	}
	if err == nil {
		err = cl.Expunge().Close()
	}
	if err != nil {
		t.Errorf("expunge uid %d: %v", uid, err)
	}
}

// TestIMAPWakeUpFetchRefused: a refused fetch of mail announced while IDLE
// is logged with the UIDs it asked for, the connection made again, and the
// mail read on it.
func TestIMAPWakeUpFetchRefused(t *testing.T) {
	s := newTestServer(t)
	s.deliver("INBOX", "m1")
	logs := newLogWatch()
	c := newCollector()
	cfg := s.config()
	cfg.PollInterval = time.Hour
	cfg.Logger = logs.logger()
	runInBackground(t, cfg, Checkpoint{}, c.apply)
	c.waitN(t, 1)
	s.waitIdles(t, 1)
	s.failFetch.Store(true)
	s.deliver("INBOX", "m2")
	logs.waitFor(t, "reconnecting", 1)
	if got := c.waitN(t, 2); !slices.Equal(got, []string{"m1", "m2"}) {
		t.Errorf("subjects = %v, want [m1 m2]", got)
	}
	if l := logs.String(); !strings.Contains(l, "uid fetch 2:*") || !strings.Contains(l, "fetch refused by the test") {
		t.Errorf("the refused fetch is not logged as \"uid fetch 2:*\" with the server's reply:\n%s", l)
	}
}

// TestIMAPPollingDefault: with PollInterval unset, a server without IDLE
// is polled every 30 seconds, and the operator is told so.
func TestIMAPPollingDefault(t *testing.T) {
	s := newServerWithoutIdle(t)
	s.deliver("INBOX", "p1")
	logs := newLogWatch()
	c := newCollector()
	cfg := s.config()
	cfg.PollInterval = 0
	cfg.Logger = logs.logger()
	stop, _ := runInBackground(t, cfg, Checkpoint{}, c.apply)
	logs.waitFor(t, "polling for new mail", 1)
	c.waitN(t, 1)
	stop()
	if l := logs.String(); !strings.Contains(l, "every=30s") {
		t.Errorf("want polling every=30s in the log:\n%s", l)
	}
	if n := s.accepts.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
}

// TestIMAPPollKeepsTheConnection: a server without IDLE is polled with
// NOOP on one connection; a poll answered OK is no reason to reconnect.
func TestIMAPPollKeepsTheConnection(t *testing.T) {
	s := newServerWithoutIdle(t)
	logs := newLogWatch()
	cfg := s.config()
	cfg.Logger = logs.logger()
	c := newCollector()
	runInBackground(t, cfg, Checkpoint{}, c.apply)
	deadline := time.Now().Add(waitLimit(t))
	for s.noops.Load() < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("waited to the test's deadline for 3 polls, saw %d", s.noops.Load())
		}
		time.Sleep(time.Millisecond)
	}
	s.deliver("INBOX", "p1")
	if got := c.waitN(t, 1); !slices.Equal(got, []string{"p1"}) {
		t.Errorf("subjects = %v", got)
	}
	if n := s.accepts.Load(); n != 1 || strings.Contains(logs.String(), "reconnecting") {
		t.Errorf("%d connections for %d polls, want 1; log:\n%s", n, s.noops.Load(), logs.String())
	}
}

// TestIMAPMoveKeepsTheConnection: with Processed set, each batch is moved
// there and the connection kept for the next.
func TestIMAPMoveKeepsTheConnection(t *testing.T) {
	s := newTestServer(t)
	s.deliver("INBOX", "a")
	logs := newLogWatch()
	cfg := s.config()
	cfg.Processed = "Processed"
	cfg.PollInterval = time.Hour
	cfg.Logger = logs.logger()
	c := newCollector()
	runInBackground(t, cfg, Checkpoint{}, c.apply)
	c.waitN(t, 1)
	s.waitIdles(t, 1) // after a's MOVE
	s.deliver("INBOX", "b")
	c.waitN(t, 2)
	s.waitIdles(t, 2) // after b's MOVE
	in, err1 := s.user.Status("INBOX", &imap.StatusOptions{NumMessages: true})
	done, err2 := s.user.Status("Processed", &imap.StatusOptions{NumMessages: true})
	if err1 != nil || err2 != nil || *in.NumMessages != 0 || *done.NumMessages != 2 {
		t.Errorf("INBOX %v %v, Processed %v %v; want 0 and 2 messages", in, err1, done, err2)
	}
	if n := s.accepts.Load(); n != 1 || strings.Contains(logs.String(), "reconnecting") {
		t.Errorf("%d connections for two batches moved, want 1; log:\n%s", n, logs.String())
	}
}
