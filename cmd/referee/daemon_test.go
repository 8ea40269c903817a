package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	netmail "net/mail"
	netsmtp "net/smtp"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"referee/contract"
	"referee/contract/store"
	"referee/mailin"
)

// buildReferee builds the command once per test binary.
var buildOnce struct {
	sync.Once
	path string
	err  error
}

func refereeBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "referee-bin-")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.path = filepath.Join(dir, "referee")
		out, err := exec.Command("go", "build", "-o", buildOnce.path, ".").CombinedOutput()
		if err != nil {
			buildOnce.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildOnce.err != nil {
		t.Fatal(buildOnce.err)
	}
	return buildOnce.path
}

// hubDaemon is `referee run` over its embedded hub, as a separate process.
type hubDaemon struct {
	cmd      *exec.Cmd
	imapAddr string
	smtpAddr string
	dir      string
	stderr   *syncBuffer
	exited   chan error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var hubLine = regexp.MustCompile(`embedded mail hub: IMAP (\S+), SMTP (\S+) `)

func startHubDaemon(t testing.TB, extraConfig string, args ...string) *hubDaemon {
	t.Helper()
	return startHubDaemonIn(t, t.TempDir(), extraConfig, args...)
}

// startHubDaemonIn is startHubDaemon on a directory of the caller's.
func startHubDaemonIn(t testing.TB, dir, extraConfig string, args ...string) *hubDaemon {
	t.Helper()
	bin := refereeBinary(t)
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("hub:\n  imap_addr: 127.0.0.1:0\n  smtp_addr: 127.0.0.1:0\ncontestmaster: cm@example.test\n"+extraConfig), 0o600)
	cmd := exec.Command(bin, append([]string{"run"}, args...)...)
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	d := &hubDaemon{cmd: cmd, dir: dir, stderr: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = d.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-d.exited
		if t.Failed() {
			t.Logf("referee run's log:\n%s", d.stderr.String())
		}
	})
	lines := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	select {
	case l := <-lines:
		m := hubLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("unexpected first line %q", l)
		}
		d.imapAddr, d.smtpAddr = m[1], m[2]
	case <-time.After(30 * time.Second):
		t.Fatalf("referee run printed no hub line in 30 s:\n%s", d.stderr.String())
	}
	return d
}

// sendMail submits a message over SMTP as a mail client would, and returns
// when the server accepted it (its reply to the end of the data).
func sendMail(t testing.TB, addr, from, to, subject, msgid, body string) (accepted time.Time) {
	t.Helper()
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, to, subject, msgid, time.Now().UTC().Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"))
	env := from
	if a, err := netmail.ParseAddress(from); err == nil {
		env = a.Address
	}
	c, err := netsmtp.Dial(addr)
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	defer c.Close()
	if err := c.Mail(env); err != nil {
		t.Fatalf("send: MAIL: %v", err)
	}
	if err := c.Rcpt(to); err != nil {
		t.Fatalf("send: RCPT: %v", err)
	}
	w, err := c.Data()
	if err != nil {
		t.Fatalf("send: DATA: %v", err)
	}
	if _, err := io.WriteString(w, raw); err != nil {
		t.Fatalf("send: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("send: end of data: %v", err)
	}
	accepted = time.Now()
	if err := c.Quit(); err != nil {
		t.Fatalf("send: QUIT: %v", err)
	}
	return accepted
}

// mailbox is a player's IMAP view.
type mailbox struct {
	c    *imapclient.Client
	news chan struct{}
}

func openMailbox(t testing.TB, addr, user string) *mailbox {
	t.Helper()
	mb := &mailbox{news: make(chan struct{}, 64)}
	c, err := imapclient.DialInsecure(addr, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case mb.news <- struct{}{}:
				default:
				}
			}
		}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	mb.c = c
	return mb
}

// all fetches every message's raw bytes.
func (mb *mailbox) all(t testing.TB) []string {
	t.Helper()
	n := mb.c.Mailbox().NumMessages
	if n == 0 {
		return nil
	}
	var set imap.SeqSet
	set.AddRange(1, n)
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := mb.c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		out = append(out, string(m.FindBodySection(body)))
	}
	return out
}

// waitFor polls the mailbox (woken by EXISTS via NOOP) until a message matches.
func (mb *mailbox) waitFor(t testing.TB, within time.Duration, match func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		for _, m := range mb.all(t) {
			if match(m) {
				return m
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no matching mail within %v; the mailbox holds %d", within, len(mb.all(t)))
		}
		if err := mb.c.Noop().Wait(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-mb.news:
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func TestRunOverEmbeddedHub(t *testing.T) {
	// The test clock starts a minute before Monday 2026-12-07 00:00 and runs 60
	// times faster, so the weekly round and report come within seconds.
	d := startHubDaemon(t, "", "--clock-start", "2026-12-06T23:58:30Z", "--clock-rate", "60")
	alice := openMailbox(t, d.imapAddr, "alice@example.test")
	sendMail(t, d.smtpAddr, "Alice <alice@example.test>", "agora-business@example.test", "joining", "join-1@example.test",
		"Hello!\n\nI join the Life contest.\nI claim cell (5, 5) in Life.\nI claim cell (99, 5) in Life.")
	rec := alice.waitFor(t, 20*time.Second, func(m string) bool { return strings.Contains(m, "In-Reply-To: <join-1@example.test>") })
	for _, want := range []string{"Subject: Re: joining", "Auto-Submitted: auto-replied", "> I join the Life contest.", "2 done, 1 not done."} {
		if !strings.Contains(rec, want) {
			t.Errorf("receipt lacks %q:\n%s", want, rec)
		}
	}
	rep := alice.waitFor(t, 30*time.Second, func(m string) bool { return strings.Contains(m, "Subject: OFF: [Life] Weekly Report") })
	if !strings.Contains(rep, "2026-12-07") || !strings.Contains(rep, "List-Id:") {
		t.Errorf("weekly report:\n%s", rep)
	}
	// SIGINT: the daemon saves and exits 0.
	d.cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-d.exited:
		if err != nil {
			t.Errorf("referee run exited with %v after SIGINT", err)
		}
		d.exited <- err
	case <-time.After(30 * time.Second):
		t.Fatal("referee run did not stop within 30 s of SIGINT")
	}
	e, _ := newEngine(&Config{Address: "referee@example.test"})
	s, err := store.Load(e, filepath.Join(d.dir, "data/state.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if p := s.PlayerByAddress("alice@example.test"); p == nil || !p.In("life") {
		t.Errorf("the saved state does not hold Alice in Life")
	}
}

// BenchmarkHubLatency measures a player's mail submitted -> the receipt in the
// player's mailbox, over the embedded hub and `referee run`: the player's IMAP
// connection IDLEs while the clock runs, and the clock stops at the EXISTS that
// announced the receipt, as a mail client would see it. The clock starts
// twice: when the hub accepted the mail (its reply to the end of the data,
// after which the mail is the referee's to answer) and, for a second figure,
// when the player's client began the SMTP session (connect, EHLO, MAIL,
// RCPT, DATA: the client's and the hub's part). Which message is the
// receipt is checked afterwards, outside the timed span, by its In-Reply-To:
// the list's copy of the player's own post and any notice of the referee's
// that comes between are not counted as the receipt. The state is on the
// test's temporary directory, so every commit pays its fsyncs.
func BenchmarkHubLatency(b *testing.B) {
	// One sender, 200 receipts: lift the per-sender receipt limit.
	d := startHubDaemon(b, "limits:\n  receipts_per_hour: 100000\n")
	type exists struct {
		n  uint32
		at time.Time
	}
	news := make(chan exists, 1024)
	c, err := imapclient.DialInsecure(d.imapAddr, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(m *imapclient.UnilateralDataMailbox) {
			if m.NumMessages != nil {
				news <- exists{*m.NumMessages, time.Now()}
			}
		}}})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("bench@example.test", "pw").Wait(); err != nil {
		b.Fatal(err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		b.Fatal(err)
	}
	inReplyTo := &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, HeaderFields: []string{"In-Reply-To"}, Peek: true}
	var seen []exists // every EXISTS, in order
	checked := sel.NumMessages
	// arrival is when the message at sequence number k was announced.
	arrival := func(k uint32) time.Time {
		for _, e := range seen {
			if e.n >= k {
				return e.at
			}
		}
		b.Fatalf("no EXISTS announced message %d", k)
		return time.Time{}
	}
	// have records the EXISTS already received (waiting for one more if
	// asked) and returns the count they announce.
	have := func(block bool) uint32 {
		for {
			select {
			case e := <-news:
				seen = append(seen, e)
				block = false
				continue
			default:
			}
			if !block {
				break
			}
			select {
			case e := <-news:
				seen = append(seen, e)
			case <-time.After(30 * time.Second):
				b.Fatalf("no new mail within 30 s")
			}
			block = false
		}
		if len(seen) == 0 {
			return checked
		}
		return seen[len(seen)-1].n
	}
	// The first messages make the mailboxes, the Randomness notice and the
	// first files: they are sent but not counted.
	const warmup, n = 20, 200
	var lat, whole []time.Duration
	for i := 0; i < warmup+n; i++ {
		id := fmt.Sprintf("bench-%d@example.test", i)
		idle, err := c.Idle()
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		accepted := sendMail(b, d.smtpAddr, "bench@example.test", "agora-business@example.test", "x", id, "I claim cell (1, 1) in Life.")
		// The list's copy and the receipt at least; then look, and wait for
		// one more each time the receipt is not among them.
		var got time.Time
		for need := checked + 2; got.IsZero(); need = checked + 1 {
			for have(false) < need {
				have(true)
			}
			if err := idle.Close(); err != nil {
				b.Fatal(err)
			}
			if err := idle.Wait(); err != nil {
				b.Fatal(err)
			}
			top := c.Mailbox().NumMessages
			var set imap.SeqSet
			set.AddRange(checked+1, top)
			msgs, err := c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{inReplyTo}}).Collect()
			if err != nil {
				b.Fatal(err)
			}
			have(false)
			for _, m := range msgs {
				if strings.Contains(string(m.FindBodySection(inReplyTo)), "<"+id+">") {
					got = arrival(m.SeqNum)
				}
			}
			checked = top
			if got.IsZero() {
				if idle, err = c.Idle(); err != nil {
					b.Fatal(err)
				}
			}
		}
		if i >= warmup {
			lat = append(lat, got.Sub(accepted))
			whole = append(whole, got.Sub(start))
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	med, p99 := percentiles(lat)
	wmed, wp99 := percentiles(whole)
	b.ReportMetric(ms(med), "ms-median")
	b.ReportMetric(ms(p99), "ms-p99")
	b.ReportMetric(ms(wmed), "ms-session-median")
	b.ReportMetric(ms(wp99), "ms-session-p99")
	fmt.Printf("hub receipt latency over %d messages, from the mail accepted: median %v, p99 %v; from the start of the SMTP session: median %v, p99 %v\n", n, med, p99, wmed, wp99)
}

// percentiles returns the median and the 99th percentile.
func percentiles(d []time.Duration) (median, p99 time.Duration) {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2], d[len(d)*99/100]
}

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
func smtpDaemon(t *testing.T, session func(*smtp.Conn) smtp.Session, start time.Time, rate float64) *daemon {
	t.Helper()
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return session(c), nil }))
	srv.Domain = "mx.example.test"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	cfg := &Config{State: filepath.Join(t.TempDir(), "state.yaml"), IMAP: IMAPConfig{Addr: "127.0.0.1:1", TLS: "none", User: "referee@example.test"},
		SMTP: SMTPConfig{Addr: ln.Addr().String(), TLS: "none"}}
	cfg.defaults()
	d, err := newDaemon(cfg, &clock{real0: time.Now(), start: start, rate: rate}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.close)
	return d
}

func TestOutboxRetries(t *testing.T) {
	fs := &flakySMTP{got: map[string]int{}}
	d := smtpDaemon(t, func(c *smtp.Conn) smtp.Session { return &flakySession{srv: fs, conn: c} }, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), 1000)
	cfg, clk := d.cfg, d.clk
	d.retryBase = time.Millisecond
	d.mu.Lock()
	d.s.Outbox = nil
	for i := 0; i < 5; i++ {
		d.s.Outbox = append(d.s.Outbox, &contract.Outgoing{Notice: contract.Notice{ID: fmt.Sprintf("test/%d", i), Kind: "notice",
			Channel: contract.ChanPrivate, To: []string{"alice@example.test"}, Subject: "n", Body: "body\n", Time: clk.now()}})
	}
	d.s.Outbox = append(d.s.Outbox, &contract.Outgoing{Notice: contract.Notice{ID: "test/bad", Kind: "notice",
		Channel: contract.ChanPrivate, To: []string{"nobody@example.test"}, Subject: "n", Body: "body\n", Time: clk.now()}})
	d.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.senderLoop(ctx) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		d.mu.Lock()
		left := len(d.s.Outbox)
		d.mu.Unlock()
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d notices still in the outbox after 30 s", left)
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
	// And it survives in the saved state, for referee check.
	e, _ := newEngine(cfg)
	s, err := store.Load(e, cfg.State)
	if err != nil || len(s.Failed) != 1 {
		t.Errorf("saved state: %v, %d failed", err, len(s.Failed))
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
// state is saved, but delivered only once the save succeeds; when the save
// fails nothing is delivered, the change is undone, and the same message,
// read again, is applied and answered once.
func TestFailedSaveSendsNothing(t *testing.T) {
	rs := &replySMTP{}
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: rs} }, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), 1)
	cfg := d.cfg
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

	// A directory takes the state file's place: the save fails.
	os.Remove(cfg.State)
	os.MkdirAll(filepath.Join(cfg.State, "x"), 0o700)
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

	// The place is free again: the message, read again, goes through once.
	os.RemoveAll(cfg.State)
	if err := d.apply(ctx, mail(2, "two@example.test"), cp(2)); err != nil {
		t.Fatal(err)
	}
	d.preparing.Wait()
	if got := rs.replies(); !slices.Equal(got, []string{"one@example.test", "two@example.test"}) {
		t.Fatalf("after the retry, receipts for %v", got)
	}
}
