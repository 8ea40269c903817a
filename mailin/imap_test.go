package mailin

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"referee/internal/testdeadline"
)

// waitLimit bounds every wait in these tests: shortly before the test
// binary's deadline (testdeadline), not a fixed number of seconds, so that
// a loaded machine or the race detector slows a test without failing it.
func waitLimit(t testing.TB) time.Duration { return testdeadline.Left(t) }

// testServer is go-imap's in-process server (imapserver + imapmemserver)
// behind a listener that tracks connections, so a test can drop them, stop
// and restart the server, watch the client's commands and hide IDLE.
type testServer struct {
	t    *testing.T
	mem  *imapmemserver.Server
	user *imapmemserver.User
	addr string
	tls  *tls.Config // implicit TLS listener when set
	stls *tls.Config // STARTTLS when set

	mu         sync.Mutex
	srv        *imapserver.Server
	conns      []net.Conn
	noIdle     bool             // hide the IDLE capability
	onCommand  func(cmd string) // called with "IDLE" or "DONE" as the client sends them, before the server sees them
	swallow    atomic.Bool      // drop DONE: the server never answers (a dead peer)
	idles      atomic.Int32     // IDLE commands seen
	searches   atomic.Int32     // UID SEARCH commands seen
	fetches    atomic.Int32     // UID FETCH commands seen
	noops      atomic.Int32     // NOOP commands seen
	accepts    atomic.Int32     // connections accepted
	idlers     map[chan struct{}]bool
	pollMu     sync.Mutex   // held by a poll of the mailbox and by deliverAll, so a poll sees all of a burst or none
	squash     atomic.Int32 // EXISTS responses still to drop: deliverAll's burst is told in its last alone
	failFetch  atomic.Bool  // the next FETCH is refused (NO), once
	refuseMove atomic.Bool  // every MOVE is refused (NO)
	onFetch    func()       // called before each FETCH is answered
}

func newTestServer(t *testing.T, mailboxes ...string) *testServer {
	s := &testServer{t: t, mem: imapmemserver.New(), user: imapmemserver.NewUser("referee@example.test", "pw")}
	for _, mb := range append([]string{"INBOX"}, mailboxes...) {
		if err := s.user.Create(mb, nil); err != nil {
			t.Fatal(err)
		}
	}
	s.mem.AddUser(s.user)
	s.start()
	t.Cleanup(s.stop)
	return s
}

// newServerWithoutIdle is a test server that hides the IDLE capability,
// so the client polls it.
func newServerWithoutIdle(t *testing.T) *testServer {
	s := newTestServer(t)
	s.mu.Lock()
	s.noIdle = true
	s.mu.Unlock()
	return s
}

func (s *testServer) start() {
	addr := s.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		s.t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &testSession{Session: s.mem.NewSession(), s: s}, nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapMove: {}, imap.CapUIDPlus: {}},
		InsecureAuth: true,
		TLSConfig:    s.stls,
		Logger:       log.New(io.Discard, "", 0),
	})
	var l net.Listener = &trackingListener{Listener: ln, s: s}
	if s.tls != nil {
		l = tls.NewListener(l, s.tls)
	}
	s.mu.Lock()
	s.srv = srv
	s.mu.Unlock()
	go srv.Serve(l)
}

func (s *testServer) stop() {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	s.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
	s.dropConns()
}

func (s *testServer) dropConns() {
	s.mu.Lock()
	conns := s.conns
	s.conns = nil
	s.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// waitIdles waits (bounded) until the client has sent IDLE n times in all.
func (s *testServer) waitIdles(t *testing.T, n int32) {
	t.Helper()
	deadline := time.Now().Add(waitLimit(t))
	for s.idles.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("waited to the test's deadline for IDLE #%d", n)
		}
		time.Sleep(time.Millisecond)
	}
}

var uidCounter atomic.Int64

// deliver appends a message as an MDA would; the server tells IDLEing
// sessions at once.
func (s *testServer) deliver(mailbox, subject string) {
	raw := fmt.Sprintf("From: player@example.org\r\nTo: referee@example.test\r\nSubject: %s\r\nMessage-ID: <%s.%d@example.org>\r\n\r\nI bid 1 on Flight.\r\n", subject, subject, uidCounter.Add(1))
	if _, err := s.user.Append(mailbox, bytes.NewReader([]byte(raw)), &imap.AppendOptions{Time: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}); err != nil {
		s.t.Errorf("deliver %s: %v", subject, err)
	}
	s.changed()
}

// deliverAll appends n messages named prefix1..prefixN that the session
// IDLE on mailbox is told of in one EXISTS, as a server that notices them
// at one poll does (the memserver sends one EXISTS per message): no poll
// runs while they are appended, and the first n-1 EXISTS are dropped.
func (s *testServer) deliverAll(mailbox, prefix string, n int) {
	s.pollMu.Lock()
	s.squash.Store(int32(n - 1))
	for i := 1; i <= n; i++ {
		raw := fmt.Sprintf("From: player@example.org\r\nTo: referee@example.test\r\nSubject: %s%d\r\nMessage-ID: <%s%d.%d@example.org>\r\n\r\nI bid 1 on Flight.\r\n", prefix, i, prefix, i, uidCounter.Add(1))
		if _, err := s.user.Append(mailbox, bytes.NewReader([]byte(raw)), &imap.AppendOptions{Time: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}); err != nil {
			s.t.Errorf("deliver %s%d: %v", prefix, i, err)
		}
	}
	s.pollMu.Unlock()
	s.changed()
}

// changed signals every IDLE session.
func (s *testServer) changed() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.idlers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// testSession is a memserver session whose IDLE cannot miss an update, as
// the mail hub's: go-imap v2.0.0-beta.8's memserver registers an IDLE for
// updates without polling afterwards, so an update queued between the last
// command's poll and that registration would wait for the next one (the
// client here IDLEs right after a STORE, with no SEARCH between).
type testSession struct {
	imapserver.Session
	s *testServer
}

func (ts *testSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	ch := make(chan struct{}, 1)
	ts.s.mu.Lock()
	if ts.s.idlers == nil {
		ts.s.idlers = map[chan struct{}]bool{}
	}
	ts.s.idlers[ch] = true
	ts.s.mu.Unlock()
	defer func() {
		ts.s.mu.Lock()
		delete(ts.s.idlers, ch)
		ts.s.mu.Unlock()
	}()
	for {
		if err := ts.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-ch:
		case <-stop:
			return nil
		}
	}
}

// Poll tells the session of changes to its mailbox; deliverAll holds it off.
func (ts *testSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	ts.s.pollMu.Lock()
	defer ts.s.pollMu.Unlock()
	return ts.Session.Poll(w, allowExpunge)
}

// Fetch answers FETCH, or refuses it once when failFetch is set.
func (ts *testSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	ts.s.mu.Lock()
	f := ts.s.onFetch
	ts.s.mu.Unlock()
	if f != nil {
		f()
	}
	if ts.s.failFetch.CompareAndSwap(true, false) {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "fetch refused by the test"}
	}
	return ts.Session.Fetch(w, numSet, options)
}

// Move keeps MOVE (RFC 6851): the memserver's session has it, the
// imapserver.Session interface does not. refuseMove makes it answer NO.
func (ts *testSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	if ts.s.refuseMove.Load() {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "move refused by the test"}
	}
	return ts.Session.(imapserver.SessionMove).Move(w, numSet, dest)
}

func (s *testServer) config() *IMAPConfig {
	return &IMAPConfig{
		Addr: s.addr, TLS: "none", User: "referee@example.test", Password: "pw",
		IdleRestart: time.Minute, PollInterval: 20 * time.Millisecond, MaxBackoff: 50 * time.Millisecond,
	}
}

type trackingListener struct {
	net.Listener
	s *testServer
}

func (l *trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.s.accepts.Add(1)
	hc := &hookConn{Conn: c, s: l.s}
	l.s.mu.Lock()
	l.s.conns = append(l.s.conns, c)
	l.s.mu.Unlock()
	return hc, nil
}

var existsRE = regexp.MustCompile(`^\* \d+ EXISTS\r\n$`)

type hookConn struct {
	net.Conn
	s    *testServer
	line []byte // the client's current command line so far
}

func (c *hookConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && c.s.swallow.Load() && string(p[:n]) == "DONE\r\n" {
		return c.Read(p) // never let the server see it: a dead peer
	}
	for _, b := range p[:n] {
		c.line = append(c.line, b)
		if b != '\n' {
			continue
		}
		line := strings.TrimRight(string(c.line), "\r\n")
		c.line = c.line[:0]
		cmd := ""
		switch {
		case line == "DONE":
			cmd = "DONE"
		case strings.HasSuffix(line, " IDLE"):
			cmd = "IDLE"
			c.s.idles.Add(1)
		case strings.Contains(line, " UID SEARCH "):
			c.s.searches.Add(1)
			continue
		case strings.Contains(line, " UID FETCH "):
			c.s.fetches.Add(1)
			continue
		case strings.HasSuffix(line, " NOOP"):
			c.s.noops.Add(1)
			continue
		default:
			continue
		}
		c.s.mu.Lock()
		f := c.s.onCommand
		c.s.mu.Unlock()
		if f != nil {
			f(cmd)
		}
	}
	return n, err
}

func (c *hookConn) Write(p []byte) (int, error) {
	if c.s.squash.Load() > 0 && existsRE.Match(p) {
		c.s.squash.Add(-1)
		return len(p), nil
	}
	c.s.mu.Lock()
	noIdle := c.s.noIdle
	c.s.mu.Unlock()
	if noIdle && bytes.Contains(p, []byte("CAPABILITY")) {
		if _, err := c.Conn.Write(bytes.ReplaceAll(p, []byte(" IDLE"), nil)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// collector is an apply function that records what it was given.
type collector struct {
	mu     sync.Mutex
	raws   []*Raw
	sizes  []int // each batch's number of messages
	cps    []Checkpoint
	signal chan struct{}
	fail   error
}

func newCollector() *collector { return &collector{signal: make(chan struct{}, 1)} }

func (c *collector) apply(_ context.Context, b Batch) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail != nil {
		return c.fail
	}
	for i, r := range b.Messages {
		if r.UID == 0 || (i > 0 && r.UID <= b.Messages[i-1].UID) || r.UID > b.Checkpoint.LastUID {
			panic(fmt.Sprintf("batch out of order: %v", b))
		}
	}
	c.raws = append(c.raws, b.Messages...)
	c.sizes = append(c.sizes, len(b.Messages))
	c.cps = append(c.cps, b.Checkpoint)
	select {
	case c.signal <- struct{}{}:
	default:
	}
	return nil
}

// waitN waits (bounded) until at least n messages were applied.
func (c *collector) waitN(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.NewTimer(waitLimit(t))
	defer deadline.Stop()
	for {
		c.mu.Lock()
		got := len(c.raws)
		c.mu.Unlock()
		if got >= n {
			return c.subjects()
		}
		select {
		case <-c.signal:
		case <-deadline.C:
			t.Fatalf("waited to the test's deadline for %d messages, got %d: %v", n, got, c.subjects())
		}
	}
}

func (c *collector) subjects() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var s []string
	for _, r := range c.raws {
		h, _, _ := readHeader(r.Data)
		s = append(s, h.Get("Subject"))
	}
	return s
}

// checkUIDOrder reports any message applied out of UID order.
func (c *collector) checkUIDOrder(t *testing.T) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := 1; i < len(c.raws); i++ {
		if c.raws[i].UID <= c.raws[i-1].UID {
			t.Errorf("UIDs out of order: %d after %d", c.raws[i].UID, c.raws[i-1].UID)
		}
	}
}

func (c *collector) lastCheckpoint() Checkpoint {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cps[len(c.cps)-1]
}

// runInBackground starts Run and returns a stop function that cancels it
// and returns its error (bounded wait), and a channel closed when Run returns.
func runInBackground(t *testing.T, cfg *IMAPConfig, from Checkpoint, apply func(context.Context, Batch) error) (stop func() error, done <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	finished := make(chan struct{})
	var result error
	go func() {
		result = cfg.Run(ctx, from, apply)
		close(finished)
	}()
	stop = func() error {
		cancel()
		select {
		case <-finished:
		case <-time.After(waitLimit(t)):
			t.Fatal("Run did not return after cancel by the test's deadline")
		}
		return result
	}
	t.Cleanup(func() { stop() })
	return stop, finished
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func subjectsN(prefix string, n int) []string {
	var s []string
	for i := 1; i <= n; i++ {
		s = append(s, fmt.Sprintf("%s%d", prefix, i))
	}
	return s
}

// fetchFlags reads the flags of every message in a mailbox with a second client.
func fetchFlags(t *testing.T, s *testServer, mailbox string) map[uint32][]imap.Flag {
	t.Helper()
	cl, err := imapclient.DialInsecure(s.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.Login("referee@example.test", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	var all imap.UIDSet
	all.AddRange(1, 0)
	msgs, err := cl.Fetch(all, &imap.FetchOptions{UID: true, Flags: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint32][]imap.Flag{}
	for _, m := range msgs {
		out[uint32(m.UID)] = m.Flags
	}
	return out
}

func TestIMAPRunIdle(t *testing.T) {
	s := newTestServer(t)
	s.deliver("INBOX", "old1")
	s.deliver("INBOX", "old2")
	c := newCollector()
	cfg := s.config()
	cfg.Logger = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	cfg.PollInterval = time.Hour // IDLE must be what notices the new mail
	stop, _ := runInBackground(t, cfg, Checkpoint{}, c.apply)
	c.waitN(t, 2)
	s.waitIdles(t, 1)
	// New mail while IDLE.
	for i := 1; i <= 3; i++ {
		s.deliver("INBOX", fmt.Sprintf("new%d", i))
	}
	got := c.waitN(t, 5)
	if want := []string{"old1", "old2", "new1", "new2", "new3"}; !slices.Equal(got, want) {
		t.Errorf("subjects = %v, want %v", got, want)
	}
	// Marking follows apply: wait (bounded) until every message is flagged.
	deadline := time.Now().Add(waitLimit(t))
	for {
		unflagged := 0
		flags := fetchFlags(t, s, "INBOX")
		for _, f := range flags {
			// Keywords compare case-insensitively (the memserver lower-cases them).
			has := func(want imap.Flag) bool {
				return slices.ContainsFunc(f, func(g imap.Flag) bool { return strings.EqualFold(string(want), string(g)) })
			}
			if !has(imap.FlagSeen) || !has(DoneFlag) {
				unflagged++
			}
		}
		if len(flags) == 5 && unflagged == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("flags at the test's deadline: %v, want \\Seen and %s on all 5", flags, DoneFlag)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	cp := c.lastCheckpoint()
	if cp.LastUID != 5 || cp.UIDValidity == 0 {
		t.Errorf("checkpoint = %+v, want LastUID 5", cp)
	}
	for i, r := range c.raws {
		if r.UID != uint32(i+1) || !r.Arrived.Equal(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)) {
			t.Errorf("message %d: UID %d Arrived %v", i, r.UID, r.Arrived)
		}
	}
}

// TestIMAPIdleFetchesAtOnce: mail announced while IDLE is read with one
// UID FETCH sent with DONE, no UID SEARCH first; a burst larger than a batch
// still arrives whole, once each and in UID order.
func TestIMAPIdleFetchesAtOnce(t *testing.T) {
	s := newTestServer(t)
	s.deliver("INBOX", "old1")
	c := newCollector()
	cfg := s.config()
	cfg.PollInterval = time.Hour
	runInBackground(t, cfg, Checkpoint{}, c.apply)
	c.waitN(t, 1)
	s.waitIdles(t, 1)
	searches, fetches := s.searches.Load(), s.fetches.Load()
	for i := 1; i <= 3; i++ {
		s.deliver("INBOX", fmt.Sprintf("new%d", i))
		c.waitN(t, 1+i)
	}
	if got := s.searches.Load() - searches; got != 0 {
		t.Errorf("%d UID SEARCH commands for 3 messages announced while IDLE, want none", got)
	}
	if got := s.fetches.Load() - fetches; got != 3 {
		t.Errorf("%d UID FETCH commands for 3 messages announced one by one while IDLE, want 3", got)
	}
	if got, want := c.subjects(), []string{"old1", "new1", "new2", "new3"}; !slices.Equal(got, want) {
		t.Errorf("subjects = %v, want %v", got, want)
	}

	// A burst of two and a half batches, delivered as fast as the server takes it.
	const burst = 2*batchSize + batchSize/2
	for i := 1; i <= burst; i++ {
		s.deliver("INBOX", fmt.Sprintf("burst%d", i))
	}
	got := c.waitN(t, 4+burst)
	if want := append([]string{"old1", "new1", "new2", "new3"}, subjectsN("burst", burst)...); !slices.Equal(got, want) {
		t.Errorf("after the burst, subjects = %v, want %v", got, want)
	}
	c.checkUIDOrder(t)
}

func TestIMAPResumeFromCheckpoint(t *testing.T) {
	s := newTestServer(t)
	for i := 1; i <= 4; i++ {
		s.deliver("INBOX", fmt.Sprintf("m%d", i))
	}
	st, err := s.user.Status("INBOX", &imap.StatusOptions{UIDValidity: true})
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	runInBackground(t, s.config(), Checkpoint{UIDValidity: st.UIDValidity, LastUID: 2}, c.apply)
	if got := c.waitN(t, 2); !slices.Equal(got, []string{"m3", "m4"}) {
		t.Errorf("subjects = %v, want [m3 m4]", got)
	}
}

func TestIMAPMoveToProcessed(t *testing.T) {
	s := newTestServer(t)
	s.deliver("INBOX", "a")
	s.deliver("INBOX", "b")
	cfg := s.config()
	cfg.Processed = "Processed" // created by Run
	c := newCollector()
	runInBackground(t, cfg, Checkpoint{}, c.apply)
	c.waitN(t, 2)
	deadline := time.Now().Add(waitLimit(t))
	for {
		in, err1 := s.user.Status("INBOX", &imap.StatusOptions{NumMessages: true})
		done, err2 := s.user.Status("Processed", &imap.StatusOptions{NumMessages: true})
		if err1 == nil && err2 == nil && *in.NumMessages == 0 && *done.NumMessages == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("messages not moved: %v %v %v %v", in, err1, done, err2)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestIMAPApplyErrorStopsRun(t *testing.T) {
	s := newTestServer(t)
	s.deliver("INBOX", "a")
	c := newCollector()
	boom := errors.New("state file is read-only")
	c.fail = boom
	stop, done := runInBackground(t, s.config(), Checkpoint{}, c.apply)
	select {
	case <-done:
		if err := stop(); !errors.Is(err, boom) {
			t.Errorf("Run returned %v, want %v", err, boom)
		}
	case <-time.After(waitLimit(t)):
		t.Fatal("Run did not return the apply error")
	}
	for uid, flags := range fetchFlags(t, s, "INBOX") {
		if len(flags) != 0 {
			t.Errorf("uid %d flagged %v although apply failed", uid, flags)
		}
	}
}

// TestIMAPReconnect drops the connection, then stops and restarts the server
// on the same address: mail delivered meanwhile is read once.
func TestIMAPReconnect(t *testing.T) {
	s := newTestServer(t)
	c := newCollector()
	cfg := s.config()
	var connects atomic.Int32
	cfg.Connected = func() { connects.Add(1) }
	runInBackground(t, cfg, Checkpoint{}, c.apply)
	s.deliver("INBOX", "m1")
	c.waitN(t, 1)

	s.dropConns()
	s.deliver("INBOX", "m2")
	c.waitN(t, 2)
	// Connected is told of each connection before its mail is read.
	if n := connects.Load(); n != 2 {
		t.Errorf("Connected called %d times after one connection lost, want 2", n)
	}

	s.stop()
	s.deliver("INBOX", "m3")
	s.start()
	s.deliver("INBOX", "m4")
	got := c.waitN(t, 4)
	if want := subjectsN("m", 4); !slices.Equal(got, want) {
		t.Errorf("subjects = %v, want %v", got, want)
	}
	// The attempts while the server was down made no connection.
	if n := connects.Load(); n != 3 {
		t.Errorf("Connected called %d times after the server's restart, want 3", n)
	}
}

// TestIMAPDeadConnection: the server stops answering (DONE is swallowed, as
// when the peer vanished without a FIN); the client gives up after
// cmdTimeout, reconnects and reads what arrived meanwhile.
func TestIMAPDeadConnection(t *testing.T) {
	old := cmdTimeout
	cmdTimeout = 200 * time.Millisecond
	t.Cleanup(func() { cmdTimeout = old }) // runs after Run is stopped (cleanups run last-in first-out)
	s := newTestServer(t)
	cfg := s.config()
	cfg.IdleRestart = 20 * time.Millisecond
	c := newCollector()
	runInBackground(t, cfg, Checkpoint{}, c.apply)
	s.deliver("INBOX", "m1")
	c.waitN(t, 1)
	s.swallow.Store(true)
	// With every DONE swallowed the connection is dead after its next
	// IDLE restart: only a new connection brings progress.
	deadline := time.Now().Add(waitLimit(t))
	for s.accepts.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("no reconnect by the test's deadline after the connection went dead")
		}
		time.Sleep(time.Millisecond)
	}
	s.swallow.Store(false)
	s.deliver("INBOX", "m2")
	if got := c.waitN(t, 2); !slices.Equal(got, []string{"m1", "m2"}) {
		t.Errorf("subjects = %v", got)
	}
}

// TestIMAPUIDValidityChange deletes and re-creates the mailbox: the new
// UIDVALIDITY makes Run read it again from the start.
func TestIMAPUIDValidityChange(t *testing.T) {
	s := newTestServer(t, "Game")
	s.deliver("Game", "a1")
	s.deliver("Game", "a2")
	cfg := s.config()
	cfg.Mailbox = "Game"
	var logMu sync.Mutex
	var logged strings.Builder
	cfg.Logger = slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logged}, nil))
	c := newCollector()
	stop, _ := runInBackground(t, cfg, Checkpoint{}, c.apply)
	c.waitN(t, 2)
	before := c.lastCheckpoint()

	if err := s.user.Delete("Game"); err != nil {
		t.Fatal(err)
	}
	if err := s.user.Create("Game", nil); err != nil {
		t.Fatal(err)
	}
	s.deliver("Game", "b1")
	s.dropConns()
	got := c.waitN(t, 3)
	if !slices.Equal(got, []string{"a1", "a2", "b1"}) {
		t.Errorf("subjects = %v", got)
	}
	after := c.lastCheckpoint()
	if after.UIDValidity == before.UIDValidity || after.LastUID != 1 {
		t.Errorf("checkpoint before %+v, after %+v; want a new UIDVALIDITY and LastUID 1", before, after)
	}
	// The operator is told of the change, once, and not of the first
	// connection's UIDVALIDITY.
	stop()
	logMu.Lock()
	defer logMu.Unlock()
	want := fmt.Sprintf("old=%d new=%d", before.UIDValidity, after.UIDValidity)
	if n := strings.Count(logged.String(), "UIDVALIDITY changed"); n != 1 || !strings.Contains(logged.String(), want) {
		t.Errorf("%d warnings of a UIDVALIDITY change, want 1 with %s; log:\n%s", n, want, logged.String())
	}
}

// lockedWriter is a log destination the client's goroutines share.
type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// TestIMAPAppendDuringIdleRestart appends a message at the moment the
// client ends IDLE (DONE) and at the moment it starts IDLE again, many times,
// and also from a concurrent deliverer: every message is applied exactly
// once, in UID order.
func TestIMAPAppendDuringIdleRestart(t *testing.T) {
	s := newTestServer(t)
	const hooked = 10
	var fired atomic.Int32
	s.mu.Lock()
	s.onCommand = func(cmd string) {
		if n := fired.Add(1); n <= hooked {
			s.deliver("INBOX", fmt.Sprintf("hook-%s-%d", cmd, n))
		}
	}
	s.mu.Unlock()
	cfg := s.config()
	cfg.IdleRestart = 3 * time.Millisecond
	c := newCollector()
	runInBackground(t, cfg, Checkpoint{}, c.apply)

	const concurrent = 40
	go func() {
		for i := 1; i <= concurrent; i++ {
			s.deliver("INBOX", fmt.Sprintf("bg-%d", i))
			time.Sleep(time.Millisecond)
		}
	}()
	c.waitN(t, hooked+concurrent)
	// Let a few more IDLE restarts pass: nothing may come twice.
	s.waitIdles(t, s.idles.Load()+5)
	got := c.subjects()
	if len(got) != hooked+concurrent {
		t.Errorf("%d messages applied, want %d: %v", len(got), hooked+concurrent, got)
	}
	seen := map[string]bool{}
	for _, sub := range got {
		if seen[sub] {
			t.Errorf("%s applied twice", sub)
		}
		seen[sub] = true
	}
	var hooks int
	for sub := range seen {
		if strings.HasPrefix(sub, "hook-") {
			hooks++
		}
	}
	if hooks != hooked {
		t.Errorf("%d hooked messages applied, want %d", hooks, hooked)
	}
	c.checkUIDOrder(t)
}

func TestIMAPPollingWithoutIdle(t *testing.T) {
	s := newServerWithoutIdle(t)
	c := newCollector()
	runInBackground(t, s.config(), Checkpoint{}, c.apply)
	s.deliver("INBOX", "p1")
	c.waitN(t, 1)
	s.deliver("INBOX", "p2")
	if got := c.waitN(t, 2); !slices.Equal(got, []string{"p1", "p2"}) {
		t.Errorf("subjects = %v", got)
	}
	if n := s.idles.Load(); n != 0 {
		t.Errorf("client sent IDLE %d times to a server without IDLE", n)
	}
	if n := s.accepts.Load(); n != 1 {
		t.Errorf("%d connections, want each poll on the first", n)
	}
}

// TestIMAPIdleRestartSameConnection: IDLE is ended and started again on
// the same connection, not by a new login each time.
func TestIMAPIdleRestartSameConnection(t *testing.T) {
	s := newTestServer(t)
	cfg := s.config()
	cfg.IdleRestart = 20 * time.Millisecond
	c := newCollector()
	runInBackground(t, cfg, Checkpoint{}, c.apply)
	s.waitIdles(t, 4)
	s.deliver("INBOX", "m1")
	c.waitN(t, 1)
	if n := s.accepts.Load(); n != 1 {
		t.Errorf("%d connections for %d IDLE commands, want 1", n, s.idles.Load())
	}
}

// TestOpenIMAPArchiveCancelled: reading an IMAP archive after its context
// ended says so (context.Canceled), not that the connection broke.
func TestOpenIMAPArchiveCancelled(t *testing.T) {
	s := newTestServer(t)
	s.deliver("INBOX", "r1")
	ctx, cancel := context.WithCancel(context.Background())
	a, err := OpenIMAPArchive(ctx, s.config())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	cancel()
	if r, err := a.Next(); !errors.Is(err, context.Canceled) {
		t.Errorf("Next after cancel: %v, %v; want context.Canceled", r, err)
	}
}

func TestOpenIMAPArchive(t *testing.T) {
	s := newTestServer(t)
	for i := 1; i <= 3; i++ {
		s.deliver("INBOX", fmt.Sprintf("r%d", i))
	}
	a, err := OpenIMAPArchive(context.Background(), s.config())
	if err != nil {
		t.Fatal(err)
	}
	raws := readAll(t, a)
	if len(raws) != 3 {
		t.Fatalf("%d messages, want 3", len(raws))
	}
	for i, r := range raws {
		h, _, _ := readHeader(r.Data)
		if r.UID != uint32(i+1) || h.Get("Subject") != fmt.Sprintf("r%d", i+1) || r.Arrived.IsZero() {
			t.Errorf("message %d: UID %d Subject %q Arrived %v", i, r.UID, h.Get("Subject"), r.Arrived)
		}
	}
	for uid, flags := range fetchFlags(t, s, "INBOX") {
		if len(flags) != 0 {
			t.Errorf("read-only replay changed flags of uid %d: %v", uid, flags)
		}
	}
}

func TestIMAPRefusesPlainTextOffLoopback(t *testing.T) {
	cfg := &IMAPConfig{Addr: "192.0.2.1:143", TLS: "none", User: "u", Password: "p"}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit(t))
	defer cancel()
	if _, err := OpenIMAPArchive(ctx, cfg); err == nil || !strings.Contains(err.Error(), "off loopback") {
		t.Errorf("err = %v, want a refusal", err)
	}
}

func TestIMAPTLSModes(t *testing.T) {
	cert, pool := selfSigned(t)
	serverTLS := &tls.Config{Certificates: []tls.Certificate{cert}}
	for _, mode := range []string{"tls", "starttls"} {
		t.Run(mode, func(t *testing.T) {
			s := &testServer{t: t, mem: imapmemserver.New(), user: imapmemserver.NewUser("referee@example.test", "pw")}
			s.user.Create("INBOX", nil)
			s.mem.AddUser(s.user)
			if mode == "tls" {
				s.tls = serverTLS
			} else {
				s.stls = serverTLS
			}
			s.start()
			t.Cleanup(s.stop)
			s.deliver("INBOX", "secure")
			cfg := s.config()
			cfg.TLS = mode
			cfg.TLSConfig = &tls.Config{RootCAs: pool}
			_, port, _ := net.SplitHostPort(s.addr)
			cfg.Addr = "localhost:" + port
			a, err := OpenIMAPArchive(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if raws := readAll(t, a); len(raws) != 1 {
				t.Errorf("%d messages over %s, want 1", len(raws), mode)
			}
		})
	}
}

func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		DNSNames: []string{"localhost"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, IsCA: true, BasicConstraintsValid: true,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(c)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

// TestIMAPLoginFailureRetries: a refused login is retried with backoff
// (not a tight loop, not an exit) until ctx ends.
func TestIMAPLoginFailureRetries(t *testing.T) {
	s := newTestServer(t)
	cfg := s.config()
	cfg.Password = "wrong"
	cfg.MaxBackoff = 40 * time.Millisecond
	c := newCollector()
	start := time.Now()
	stop, _ := runInBackground(t, cfg, Checkpoint{}, c.apply)
	deadline := time.Now().Add(waitLimit(t))
	for s.accepts.Load() < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d connection attempts by the test's deadline", s.accepts.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Backoff 1st..3rd: min(1s, 40ms)=40ms each at least: 3 waits before the 4th dial.
	if elapsed := time.Since(start); elapsed < 100*time.Millisecond {
		t.Errorf("4 attempts in %v: no backoff", elapsed)
	}
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
}

// TestIMAPDefaultBackoff: with MaxBackoff unset, a refused login is tried
// again after the first backoff of a second, not at once, and not later: the
// log line of the refusal names the wait, a second.
func TestIMAPDefaultBackoff(t *testing.T) {
	s := newTestServer(t)
	cfg := s.config()
	cfg.Password = "wrong"
	cfg.MaxBackoff = 0
	w := newLogWatch()
	cfg.Logger = w.logger()
	c := newCollector()
	start := time.Now()
	stop, _ := runInBackground(t, cfg, Checkpoint{}, c.apply)
	deadline := time.Now().Add(waitLimit(t))
	for s.accepts.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d connection attempts by the test's deadline", s.accepts.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if elapsed := time.Since(start); elapsed < time.Second {
		t.Errorf("a second attempt %v after the first: want the default backoff of 1s", elapsed)
	}
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	log := w.String()
	i := strings.Index(log, "imap server refused the referee")
	if i < 0 {
		t.Fatalf("no log line of the refused login; log:\n%s", log)
	}
	if first, _, _ := strings.Cut(log[i:], "\n"); !strings.Contains(first, " retry_in=1s") {
		t.Errorf("the first reconnection's log line: %q, want a wait of 1s (retry_in=1s)", first)
	}
}

// TestIMAPWakeUpForMailAlreadyRead: a message delivered while the last
// batch is being applied is announced (EXISTS) before IDLE starts, and the
// sync that follows reads it; the IDLE then wakes at once for it. The
// fetch of that wake-up ("UID FETCH last+1:*") returns the highest UID,
// which was already read (RFC 3501 §6.4.8): it is not applied again.
func TestIMAPWakeUpForMailAlreadyRead(t *testing.T) {
	s := newTestServer(t)
	s.deliver("INBOX", "m1")
	c := newCollector()
	var once sync.Once
	apply := func(ctx context.Context, b Batch) error {
		// The STORE that flags m1 carries m2's EXISTS back to the client.
		once.Do(func() { s.deliver("INBOX", "m2") })
		return c.apply(ctx, b)
	}
	cfg := s.config()
	cfg.PollInterval = time.Hour
	runInBackground(t, cfg, Checkpoint{}, apply)
	c.waitN(t, 2)
	// The first IDLE wakes for m2; the second follows the empty fetch.
	s.waitIdles(t, 2)
	if got := c.subjects(); !slices.Equal(got, []string{"m1", "m2"}) {
		t.Errorf("subjects = %v, want [m1 m2], each once", got)
	}
	if got := s.fetches.Load(); got != 3 {
		t.Errorf("%d UID FETCH commands, want 3 (m1, m2, the wake-up's)", got)
	}
}

// TestIMAPIdleRestartDefault: with IdleRestart unset, IDLE is restarted
// after the default 9 minutes, not at once: three messages announced one
// by one while IDLE are each read by the fetch sent with DONE, with no UID
// SEARCH (a restart's full sync) and no IDLE but the one after each fetch.
func TestIMAPIdleRestartDefault(t *testing.T) {
	s := newTestServer(t)
	c := newCollector()
	cfg := s.config()
	cfg.IdleRestart = 0
	cfg.PollInterval = time.Hour
	runInBackground(t, cfg, Checkpoint{}, c.apply)
	s.waitIdles(t, 1)
	searches := s.searches.Load()
	for i := 1; i <= 3; i++ {
		s.deliver("INBOX", fmt.Sprintf("m%d", i))
		c.waitN(t, i)
		s.waitIdles(t, int32(1+i))
	}
	if got := s.searches.Load() - searches; got != 0 {
		t.Errorf("%d UID SEARCH commands while IDLE with the default restart, want none", got)
	}
	if got := s.idles.Load(); got != 4 {
		t.Errorf("%d IDLE commands for 3 messages, want 4 (the first, one after each fetch)", got)
	}
	if got := c.subjects(); !slices.Equal(got, subjectsN("m", 3)) {
		t.Errorf("subjects = %v, want %v", got, subjectsN("m", 3))
	}
}

// TestIMAPRefusalNamesTheSettings: a wrong password, a mailbox that does
// not exist and a folder for handled mail the server will not take are the
// operator's to mend: each is logged at the error level as a refusal,
// naming the settings to check, not as a lost connection, and retried.
func TestIMAPRefusalNamesTheSettings(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(*testServer, *IMAPConfig)
		err   string // in the err of the log line
		check string // the settings the log line names
	}{
		{"wrong password", func(_ *testServer, c *IMAPConfig) { c.Password = "wrong" },
			"imap login as referee@example.test", "imap.user and its password"},
		{"missing mailbox", func(_ *testServer, c *IMAPConfig) { c.Mailbox = "Incoming" },
			"select Incoming", "imap.mailbox"},
		{"move refused", func(s *testServer, c *IMAPConfig) {
			c.Processed = "Processed"
			s.refuseMove.Store(true)
			s.deliver("INBOX", "m1")
		}, "move 1 to Processed", "imap.processed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestServer(t)
			cfg := s.config()
			tc.setup(s, cfg)
			checkRefusalLogged(t, cfg, "imap server refused the referee", tc.err, tc.check)
		})
	}
}

// checkRefusalLogged runs cfg until it has logged two retries, stops it,
// and checks that each retry was logged at the error level as what, with
// err in its error and the settings to check starting with check, and that
// none was logged as a lost connection.
func checkRefusalLogged(t *testing.T, cfg *IMAPConfig, what, err, check string) {
	t.Helper()
	w := newLogWatch()
	cfg.Logger = w.logger()
	stop, _ := runInBackground(t, cfg, Checkpoint{}, newCollector().apply)
	w.waitFor(t, "retry_in=", 2)
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	log := w.String()
	if strings.Contains(log, "connection lost") {
		t.Errorf("%q logged as a lost connection; log:\n%s", what, log)
	}
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		if !strings.Contains(line, "retry_in=") {
			continue
		}
		if !strings.Contains(line, "level=ERROR") || !strings.Contains(line, what) ||
			!strings.Contains(line, err) || !strings.Contains(line, "check=\""+check) {
			t.Errorf("log line %q: want level=ERROR, %q, %q and check=%q...", line, what, err, check)
		}
	}
}

// TestIMAPMovesMailLeftBehind: messages at or below the checkpoint still in
// the mailbox were applied before a stop that came before their MOVE (the
// checkpoint is saved with each message, the MOVE follows the batch): Run
// moves them to Processed when it connects, without applying them again,
// so that the Processed folder, the store a replay rebuilds from, holds
// every message applied.
func TestIMAPMovesMailLeftBehind(t *testing.T) {
	s := newTestServer(t, "Processed")
	for i := 1; i <= 4; i++ {
		s.deliver("INBOX", fmt.Sprintf("m%d", i))
	}
	st, err := s.user.Status("INBOX", &imap.StatusOptions{UIDValidity: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := s.config()
	cfg.Processed = "Processed"
	c := newCollector()
	runInBackground(t, cfg, Checkpoint{UIDValidity: st.UIDValidity, LastUID: 2}, c.apply)
	if got := c.waitN(t, 2); !slices.Equal(got, []string{"m3", "m4"}) {
		t.Errorf("applied %v, want [m3 m4]: m1 and m2 were applied before", got)
	}
	deadline := time.Now().Add(waitLimit(t))
	for {
		in, err1 := s.user.Status("INBOX", &imap.StatusOptions{NumMessages: true})
		done, err2 := s.user.Status("Processed", &imap.StatusOptions{NumMessages: true})
		if err1 == nil && err2 == nil && *in.NumMessages == 0 && *done.NumMessages == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("INBOX %v (%v), Processed %v (%v): want 0 and 4 messages", *in.NumMessages, err1, *done.NumMessages, err2)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := c.subjects(); !slices.Equal(got, []string{"m3", "m4"}) {
		t.Errorf("applied %v, want [m3 m4]", got)
	}
}

// TestIMAPFlagsMailLeftBehind: without a Processed folder, messages at or
// below the checkpoint left unflagged by a stop before their STORE are
// flagged \Seen and $RefereeDone when Run connects, without being applied
// again, as every handled message is.
func TestIMAPFlagsMailLeftBehind(t *testing.T) {
	s := newTestServer(t)
	for i := 1; i <= 4; i++ {
		s.deliver("INBOX", fmt.Sprintf("m%d", i))
	}
	st, err := s.user.Status("INBOX", &imap.StatusOptions{UIDValidity: true})
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	stop, _ := runInBackground(t, s.config(), Checkpoint{UIDValidity: st.UIDValidity, LastUID: 2}, c.apply)
	if got := c.waitN(t, 2); !slices.Equal(got, []string{"m3", "m4"}) {
		t.Errorf("applied %v, want [m3 m4]: m1 and m2 were applied before", got)
	}
	deadline := time.Now().Add(waitLimit(t))
	for {
		flags := fetchFlags(t, s, "INBOX")
		done := 0
		for _, f := range flags {
			// Keywords compare case-insensitively (the memserver lower-cases them).
			has := func(want imap.Flag) bool {
				return slices.ContainsFunc(f, func(g imap.Flag) bool { return strings.EqualFold(string(want), string(g)) })
			}
			if has(imap.FlagSeen) && has(DoneFlag) {
				done++
			}
		}
		if done == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("flags %v: want all 4 messages \\Seen and %s", flags, DoneFlag)
		}
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	if got := c.subjects(); !slices.Equal(got, []string{"m3", "m4"}) {
		t.Errorf("applied %v, want [m3 m4]", got)
	}
}
