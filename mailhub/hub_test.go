package mailhub

import (
	"bytes"
	"errors"
	"fmt"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/google/go-cmp/cmp"

	"referee/internal/testdeadline"
)

// waitBound bounds every wait for an event; it is never slept. It ends
// shortly before the test binary's deadline (testdeadline), not after a
// fixed number of seconds, so that a loaded machine or the race detector
// slows a test without failing it.
func waitBound(t testing.TB) time.Duration { return testdeadline.Left(t) }

var t0 = time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC)

// testClock is an injectable clock the test moves by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

func startHub(t testing.TB, opts Options) *Hub {
	t.Helper()
	h, err := Start(opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return h
}

// watcher is an IMAP client IDLEing on INBOX that reports EXISTS counts.
type watcher struct {
	c      *imapclient.Client
	idle   *imapclient.IdleCommand
	exists chan uint32
}

func watch(t testing.TB, h *Hub, user, password string) *watcher {
	t.Helper()
	w := &watcher{exists: make(chan uint32, 1024)}
	c, err := imapclient.DialInsecure(h.IMAPAddr(), &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					w.exists <- *d.NumMessages
				}
			},
		},
	})
	if err != nil {
		t.Fatalf("dial imap: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, password).Wait(); err != nil {
		t.Fatalf("login %s: %v", user, err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatalf("select: %v", err)
	}
	w.c = c
	if w.idle, err = c.Idle(); err != nil {
		t.Fatalf("idle: %v", err)
	}
	return w
}

// await waits until the mailbox holds at least n messages.
func (w *watcher) await(t testing.TB, n uint32) {
	t.Helper()
	timeout := time.After(waitBound(t))
	for {
		select {
		case got := <-w.exists:
			if got >= n {
				return
			}
		case <-timeout:
			t.Fatalf("no EXISTS %d by the test's deadline", n)
		}
	}
}

// stopIdle ends IDLE so that other commands can run.
func (w *watcher) stopIdle(t testing.TB) {
	t.Helper()
	if err := w.idle.Close(); err != nil {
		t.Fatalf("idle close: %v", err)
	}
	if err := w.idle.Wait(); err != nil {
		t.Fatalf("idle wait: %v", err)
	}
}

// sendSMTP submits raw over the hub's SMTP server with go-smtp's client,
// authenticating with a when it is not nil.
func sendSMTP(t testing.TB, h *Hub, a sasl.Client, from string, to []string, raw string) {
	t.Helper()
	c, err := smtp.Dial(h.SMTPAddr())
	if err != nil {
		t.Fatalf("dial smtp: %v", err)
	}
	defer c.Close()
	if a != nil {
		if err := c.Auth(a); err != nil {
			t.Fatalf("auth: %v", err)
		}
	}
	if err := c.SendMail(from, to, strings.NewReader(raw)); err != nil {
		t.Fatalf("send: %v", err)
	}
	if err := c.Quit(); err != nil {
		t.Fatalf("quit: %v", err)
	}
}

func message(from, to, subject string) string {
	return fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s@example.test>\r\n\r\nI join the Life contest.\r\n",
		from, to, subject, strings.ReplaceAll(subject, " ", "."))
}

func TestUnknownUserLoginIdle(t *testing.T) {
	h := startHub(t, Options{Users: []string{"referee@example.test"}})
	w := watch(t, h, "NewPlayer@Example.test", "any password")
	if got := h.Mailbox("newplayer@example.test"); got == nil || len(got) != 0 {
		// Mailbox must see the empty INBOX the login created.
		t.Fatalf("Mailbox after login = %v, want an empty INBOX", got)
	}
	sendSMTP(t, h, nil, "referee@example.test", []string{"newplayer@example.test"}, message("referee@example.test", "newplayer@example.test", "welcome"))
	w.await(t, 1)
	sendSMTP(t, h, nil, "referee@example.test", []string{"NEWPLAYER@example.test"}, message("referee@example.test", "newplayer@example.test", "second"))
	w.await(t, 2)
	w.stopIdle(t)
	if got := len(h.Mailbox("newplayer@example.test")); got != 2 {
		t.Errorf("Mailbox holds %d messages, want 2", got)
	}
}

func TestListFanOut(t *testing.T) {
	const list, listID = "agora-business@example.test", "Agora Business <agora-business.example.test>"
	h := startHub(t, Options{
		Users: []string{"referee@example.test", "cm@example.test"},
		Lists: map[string]string{list: listID, "agora-discussion@example.test": "Agora Discussion <agora-discussion.example.test>"},
	})
	watchers := map[string]*watcher{
		"referee@example.test": watch(t, h, "referee@example.test", "x"),
		"cm@example.test":      watch(t, h, "cm@example.test", "y"),
		"goethe@example.test":  watch(t, h, "goethe@example.test", "z"), // a new player
	}
	// A post to the list with the referee also in Cc, and a stale List-Id
	// that the list must replace.
	raw := "List-Id: forged <forged.example.test>\r\n" + message("goethe@example.test", list, "BUS: I join")
	sendSMTP(t, h, sasl.NewPlainClient("", "goethe@example.test", "whatever"),
		"goethe@example.test", []string{list, "referee@example.test"}, raw)

	want := map[string]int{"referee@example.test": 2, "cm@example.test": 1, "goethe@example.test": 1}
	for addr, w := range watchers {
		w.await(t, uint32(want[addr]))
		w.stopIdle(t)
	}
	for addr, n := range want {
		msgs := h.Mailbox(addr)
		if len(msgs) != n {
			t.Fatalf("%s holds %d messages, want %d", addr, len(msgs), n)
		}
		var listCopies int
		for _, b := range msgs {
			m, err := mail.ReadMessage(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s: parse: %v", addr, err)
			}
			if got := m.Header.Get("Delivered-To"); got != addr {
				t.Errorf("%s: Delivered-To = %q", addr, got)
			}
			if m.Header.Get("Received") == "" {
				t.Errorf("%s: no Received", addr)
			}
			if m.Header.Get("Return-Path") == "<agora-business-bounces@example.test>" {
				listCopies++
				if diff := cmp.Diff([]string{listID}, m.Header["List-Id"]); diff != "" {
					t.Errorf("%s: List-Id (-want +got):\n%s", addr, diff)
				}
				if got := m.Header.Get("List-Post"); got != "<mailto:"+list+">" {
					t.Errorf("%s: List-Post = %q", addr, got)
				}
			} else {
				if got := m.Header.Get("Return-Path"); got != "<goethe@example.test>" {
					t.Errorf("%s: direct copy Return-Path = %q", addr, got)
				}
				if got := m.Header.Get("List-Id"); got != "forged <forged.example.test>" {
					t.Errorf("%s: direct copy List-Id changed to %q", addr, got)
				}
			}
			if !bytes.HasSuffix(b, []byte("\r\n\r\nI join the Life contest.\r\n")) {
				t.Errorf("%s: body changed: %q", addr, b)
			}
		}
		if listCopies != 1 {
			t.Errorf("%s: %d list copies, want 1", addr, listCopies)
		}
	}
}

func TestInternalDateFollowsClock(t *testing.T) {
	clock := &testClock{now: t0}
	h := startHub(t, Options{Now: clock.Now})
	if err := h.Deliver("a@example.test", []string{"b@example.test"}, []byte("Subject: one\n\nbody\n")); err != nil {
		t.Fatal(err)
	}
	later := t0.Add(7 * 24 * time.Hour)
	clock.Set(later)
	if err := h.Deliver("a@example.test", []string{"b@example.test"}, []byte("Subject: two\r\n\r\nbody\r\n")); err != nil {
		t.Fatal(err)
	}
	c, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("b@example.test", "").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs, err := c.Fetch(imap.SeqSetNum(1, 2), &imap.FetchOptions{InternalDate: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var got []time.Time
	for _, m := range msgs {
		got = append(got, m.InternalDate.UTC())
	}
	if diff := cmp.Diff([]time.Time{t0, later}, got); diff != "" {
		t.Errorf("INTERNALDATE (-want +got):\n%s", diff)
	}
	raw := h.Mailbox("b@example.test")
	if len(raw) != 2 {
		t.Fatalf("Mailbox holds %d, want 2", len(raw))
	}
	if !bytes.Contains(raw[0], []byte(" Mon, 30 Nov 2026 09:15:00 +0000\r\n")) {
		t.Errorf("Received date does not follow the clock:\n%s", raw[0])
	}
	if bytes.Contains(bytes.ReplaceAll(raw[0], []byte("\r\n"), nil), []byte("\n")) {
		t.Errorf("bare LF left in a delivered message: %q", raw[0])
	}
}

func TestSMTPAuthMechanisms(t *testing.T) {
	h := startHub(t, Options{})
	for _, a := range []sasl.Client{
		sasl.NewPlainClient("", "anyone@example.test", "anything"),
		sasl.NewLoginClient("someone@example.test", "else"),
	} {
		sendSMTP(t, h, a, "x@example.test", []string{"y@example.test"}, message("x@example.test", "y@example.test", "auth"))
	}
	if got := len(h.Mailbox("y@example.test")); got != 2 {
		t.Errorf("y holds %d, want 2", got)
	}
}

func TestDeliverErrors(t *testing.T) {
	h := startHub(t, Options{MaxMessageBytes: 100})
	tests := []struct {
		name  string
		rcpts []string
		raw   string
	}{
		{"too big", []string{"a@example.test"}, strings.Repeat("x", 101)},
		{"no recipients", nil, "Subject: x\r\n\r\n"},
		{"header injection in address", []string{"a@example.test\r\nBcc: b@example.test"}, "Subject: x\r\n\r\n"},
		{"empty address", []string{"<>"}, "Subject: x\r\n\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := h.Deliver("s@example.test", tc.rcpts, []byte(tc.raw)); err == nil {
				t.Error("Deliver succeeded, want an error")
			}
		})
	}
	if got := h.Mailbox("a@example.test"); got != nil {
		t.Errorf("Mailbox(a) = %d messages, want none and no mailbox", len(got))
	}
	if got := h.Mailbox("nobody@example.test"); got != nil {
		t.Errorf("Mailbox(unknown) = %v, want nil", got)
	}
	// Over SMTP the size limit is a 552 (RFC 1870 6.3).
	c, err := smtp.Dial(h.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.SendMail("s@example.test", []string{"a@example.test"}, strings.NewReader(strings.Repeat("y", 200)+"\r\n"))
	if se, ok := err.(*smtp.SMTPError); !ok || se.Code/100 != 5 {
		t.Errorf("oversized SMTP message: %v, want a 5xx", err)
	}
}

func TestCloseDropsIdleClients(t *testing.T) {
	h, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := watch(t, h, "p@example.test", "")
	if err := h.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := h.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	select {
	case <-w.c.Closed():
	case <-time.After(waitBound(t)):
		t.Fatal("IDLE client not disconnected by Close")
	}
}

func TestStartErrors(t *testing.T) {
	h := startHub(t, Options{})
	if _, err := Start(Options{IMAPAddr: h.IMAPAddr()}); err == nil {
		t.Error("Start on a busy IMAP port succeeded")
	}
	if _, err := Start(Options{SMTPAddr: h.SMTPAddr()}); err == nil {
		t.Error("Start on a busy SMTP port succeeded")
	}
	dir := t.TempDir()
	h1 := startHub(t, Options{Dir: dir})
	if _, err := Start(Options{Dir: dir}); err == nil || !strings.Contains(err.Error(), "another mail hub is using this directory") {
		t.Errorf("a second hub on %s: %v, want refused", dir, err)
	}
	if err := h1.Close(); err != nil {
		t.Fatal(err)
	}
	h3, err := Start(Options{Dir: dir})
	if err != nil {
		t.Fatalf("a hub on a directory closed by another: %v", err)
	}
	h3.Close()
	if _, err := Start(Options{Lists: map[string]string{"l@example.test": "x\r\nBcc: y"}}); err == nil {
		t.Error("Start with a List-Id holding CRLF succeeded")
	}
	if _, err := Start(Options{Users: []string{"a b@example.test"}}); err == nil {
		t.Error("Start with a user address holding a space succeeded")
	}
	// Unset settings (empty addresses) are skipped, not errors.
	h2, err := Start(Options{Users: []string{"", "r@example.test"}, Lists: map[string]string{"": "unset <x>"}})
	if err != nil {
		t.Fatalf("Start with empty user and list addresses: %v", err)
	}
	defer h2.Close()
	if got := h2.members(); !cmp.Equal(got, []string{"r@example.test"}) {
		t.Errorf("members = %q, want only r@example.test", got)
	}
}

// TestStartOnBusyPortWritesNothing: a hub that cannot have its IMAP or
// its SMTP port creates no directory and no mailbox, where it created its
// directory and its users' mailboxes before it met the port.
func TestStartOnBusyPortWritesNothing(t *testing.T) {
	h := startHub(t, Options{})
	for _, o := range []Options{{IMAPAddr: h.IMAPAddr()}, {SMTPAddr: h.SMTPAddr()}} {
		o.Dir = filepath.Join(t.TempDir(), "hub")
		o.Users = []string{"referee@example.test"}
		o.Players = []string{"alice@example.test"}
		if _, err := Start(o); err == nil || !strings.Contains(err.Error(), "address already in use") {
			t.Errorf("Start on a busy port (IMAP %q, SMTP %q): %v, want the port in use", o.IMAPAddr, o.SMTPAddr, err)
		}
		if _, err := os.Stat(o.Dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Start on a busy port (IMAP %q, SMTP %q) created %s (%v)", o.IMAPAddr, o.SMTPAddr, o.Dir, err)
		}
	}
}

func TestNormAddr(t *testing.T) {
	for in, want := range map[string]string{
		"Player@Example.TEST":          "player@example.test",
		" <a@b> ":                      "a@b",
		"Goethe <goethe@example.test>": "goethe@example.test",
		"a@b\r\nBcc: c":                "",
		"a b@c":                        "",
		"":                             "",
	} {
		if got := normAddr(in); got != want {
			t.Errorf("normAddr(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDropFields(t *testing.T) {
	tests := []struct{ in, want string }{
		{"List-Id: a\r\nSubject: s\r\n\r\nList-Id: body\r\n", "Subject: s\r\n\r\nList-Id: body\r\n"},
		{"Subject: s\r\nlist-id: a\r\n  folded\r\nTo: t\r\n\r\nb", "Subject: s\r\nTo: t\r\n\r\nb"},
		{"List-Post: <mailto:x>\r\n", ""},
		{"Subject: s\r\n", "Subject: s\r\n"},
	}
	for _, tc := range tests {
		if got := string(dropFields([]byte(tc.in), "List-Id", "List-Post")); got != tc.want {
			t.Errorf("dropFields(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestToCRLF(t *testing.T) {
	for in, want := range map[string]string{
		"a\nb\n":     "a\r\nb\r\n",
		"a\r\nb\n":   "a\r\nb\r\n",
		"a\r\nb\r\n": "a\r\nb\r\n",
		"\n":         "\r\n",
		"none":       "none",
	} {
		if got := string(toCRLF([]byte(in))); got != want {
			t.Errorf("toCRLF(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzDropFields(f *testing.F) {
	f.Add([]byte("List-Id: a\r\nSubject: s\r\n\r\nList-Id: body\r\n"))
	f.Add([]byte("Subject: s\r\nlist-id: a\r\n  folded\r\n\r\n"))
	f.Add([]byte("\r\n\r\n"))
	f.Add([]byte(" leading continuation\r\nList-Post: x"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		got := dropFields(msg, "List-Id", "List-Post")
		end := bytes.Index(msg, []byte("\r\n\r\n"))
		if end >= 0 && !bytes.HasSuffix(got, msg[end+2:]) {
			t.Fatalf("body not kept: %q -> %q", msg, got)
		}
		if len(got) > len(msg) {
			t.Fatalf("output longer than input: %q -> %q", msg, got)
		}
		head := got
		if i := bytes.Index(got, []byte("\r\n\r\n")); i >= 0 {
			head = got[:i+2]
		}
		if bytes.HasPrefix(got, []byte("\r\n")) {
			head = nil // every field was dropped: the body follows at once
		}
		for _, line := range strings.Split(string(head), "\r\n") {
			if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
				continue // a continuation line, not a field
			}
			name, _, ok := strings.Cut(line, ":")
			if ok && (strings.EqualFold(strings.TrimSpace(name), "List-Id") || strings.EqualFold(strings.TrimSpace(name), "List-Post")) {
				t.Fatalf("field left in %q -> %q", msg, got)
			}
		}
	})
}
