package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
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

	"referee/contract/store"
	"referee/internal/testdeadline"
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
	*runningReferee
	imapAddr string
	smtpAddr string
	dir      string
}

// runningReferee is `referee run` started by a test in a directory: its
// stdout lines (the banner; the channel is closed when stdout ends), its log
// and its exit. The test's cleanup kills it, and prints its log when the test
// failed.
type runningReferee struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr *syncBuffer
	exited chan error
}

func startReferee(t testing.TB, dir string, args ...string) *runningReferee {
	t.Helper()
	cmd := exec.Command(refereeBinary(t), append([]string{"run"}, args...)...)
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &runningReferee{cmd: cmd, lines: make(chan string, 64), stderr: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-r.exited
		if t.Failed() {
			t.Logf("referee run's log:\n%s", r.stderr.String())
		}
	})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
	}()
	return r
}

type syncBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{} // closed by the next Write (waitFor)
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
	return s.b.Write(p)
}

// waitFor waits, woken by each write, until the text from offset on
// matches, and returns that text; it gives up shortly before the test
// binary's deadline (testdeadline), not after a fixed time, so that a
// loaded machine slows the test without failing it.
func (s *syncBuffer) waitFor(t testing.TB, from int, what string, match func(string) bool) string {
	t.Helper()
	deadline := testdeadline.Timer(t)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		text := s.b.String()[min(from, s.b.Len()):]
		if match(text) {
			s.mu.Unlock()
			return text
		}
		if s.changed == nil {
			s.changed = make(chan struct{})
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("the log does not show %s by the test's deadline:\n%s", what, text)
		}
	}
}

// Len is how much has been written so far.
func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
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
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("hub:\n  imap_addr: 127.0.0.1:0\n  smtp_addr: 127.0.0.1:0\ncontestmaster: cm@example.test\n"+extraConfig), 0o600)
	d := &hubDaemon{runningReferee: startReferee(t, dir, args...), dir: dir}
	select {
	case l := <-d.lines:
		m := hubLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("unexpected first line %q", l)
		}
		d.imapAddr, d.smtpAddr = m[1], m[2]
	case <-time.After(testdeadline.Left(t)):
		t.Fatalf("referee run printed no hub line by the test's deadline:\n%s", d.stderr.String())
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
	// go-imap's client (beta.8) returns from Wait before it records the
	// selected mailbox; a NOOP's answer is read after that is done.
	if err := c.Noop().Wait(); err != nil {
		t.Fatal(err)
	}
	mb.c = c
	return mb
}

// all fetches every message's raw bytes.
func (mb *mailbox) all(t testing.TB) []string {
	t.Helper()
	sel := mb.c.Mailbox()
	if sel == nil {
		t.Fatalf("the IMAP connection is no longer in its mailbox (state %v)", mb.c.State())
	}
	n := sel.NumMessages
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

// waitFor polls the mailbox (woken by EXISTS via NOOP) until a message
// matches, until shortly before the test binary's deadline (testdeadline).
func (mb *mailbox) waitFor(t testing.TB, match func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(testdeadline.Left(t))
	for {
		for _, m := range mb.all(t) {
			if match(m) {
				return m
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no matching mail by the test's deadline; the mailbox holds %d", len(mb.all(t)))
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
	rec := alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <join-1@example.test>") })
	for _, want := range []string{"Subject: Re: joining", "Auto-Submitted: auto-replied", "> I join the Life contest.", "2 done, 1 not done."} {
		if !strings.Contains(rec, want) {
			t.Errorf("receipt lacks %q:\n%s", want, rec)
		}
	}
	rep := alice.waitFor(t, func(m string) bool { return strings.Contains(m, "Subject: OFF: [Life] Weekly Report") })
	if !strings.Contains(rep, "2026-12-07") || !strings.Contains(rep, "List-Id:") {
		t.Errorf("weekly report:\n%s", rep)
	}
	// SIGINT: the daemon saves and exits 0.
	stopReferee(t, d.runningReferee)
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
			case <-time.After(testdeadline.Left(b)):
				b.Fatalf("no new mail by the test's deadline")
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

func TestRunTestClockAgainCarriesOn(t *testing.T) {
	// The README's test clock, given again at a restart, carries on from the
	// state's clock: a player's next mail does not arrive before eir last,
	// and the log says so at INFO, not WARN.
	dir := t.TempDir()
	args := []string{"--clock-start", "2026-12-06T23:58:30Z", "--clock-rate", "3600"}
	arrived := regexp.MustCompile(`arrived at (\d{4}-\d\d-\d\d \d\d:\d\d) UTC`)
	arrival := func(d *hubDaemon, msgid, body string) time.Time {
		t.Helper()
		alice := openMailbox(t, d.imapAddr, "alice@example.test")
		// The weekly report comes at Monday 00:00, so the state's clock
		// is past --clock-start before the mail.
		alice.waitFor(t, func(m string) bool { return strings.Contains(m, "Subject: OFF: [Life] Weekly Report") })
		sendMail(t, d.smtpAddr, "Alice <alice@example.test>", "agora-business@example.test", "life", msgid, body)
		rec := alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <"+msgid+">") })
		m := arrived.FindStringSubmatch(rec)
		if m == nil {
			t.Fatalf("the receipt says not when the mail arrived:\n%s", rec)
		}
		at, err := time.Parse("2006-01-02 15:04", m[1])
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	d := startHubDaemonIn(t, dir, "", args...)
	first := arrival(d, "join-1@example.test", "I join the Life contest.")
	stopReferee(t, d.runningReferee)
	d = startHubDaemonIn(t, dir, "", args...)
	second := arrival(d, "claim-1@example.test", "I claim cell (5, 5) in Life.")
	stopReferee(t, d.runningReferee)
	if second.Before(first) {
		t.Errorf("after a restart with the same test clock, a mail arrived at %s, before the one of %s", second.Format(time.DateTime), first.Format(time.DateTime))
	}
	// A restart with the same options is the documented path (README): the
	// log says so at INFO, keeping WARN for what needs the operator.
	var said string
	for _, l := range strings.Split(d.stderr.String(), "\n") {
		if strings.Contains(l, "the test clock starts at the state's clock") {
			said = l
		}
	}
	if said == "" {
		t.Errorf("the log does not say the test clock starts at the state's clock:\n%s", d.stderr.String())
	} else if !strings.Contains(said, "level=INFO") {
		t.Errorf("the restart with the same test clock is logged otherwise than at INFO: %s", said)
	}
}
