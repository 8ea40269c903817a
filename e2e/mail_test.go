//go:build e2e

package e2e

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message"
	"github.com/emersion/go-message/charset"
	gomail "github.com/emersion/go-message/mail"
	"github.com/wneessen/go-mail"
)

// outMail is a mail a player sends; the sender is send's argument.
type outMail struct {
	to      []string
	cc      []string
	subject string
	body    string
	msgID   string // without <>; newMsgID when empty
}

// newMsgID returns a fresh Message-ID (without <>) naming the test.
func newMsgID(t testing.TB) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatalf("message id: %v", err)
	}
	name := strings.NewReplacer("/", ".", " ", "_").Replace(t.Name())
	return fmt.Sprintf("e2e.%s.%s@%s", name, hex.EncodeToString(b[:]), "example.test")
}

// send submits mails as one player over submission, STARTTLS + AUTH PLAIN, as
// a real mail client does, on one connection. It fills in missing
// Message-IDs and returns them.
func send(t testing.TB, from string, mails ...*outMail) []string {
	t.Helper()
	return transmit(t, ms.submitAddr, true, from, mails)
}

// sendRelay hands mails to the stack's plain SMTP port (STARTTLS, no AUTH),
// as another MTA would; it works while Dovecot, which authenticates
// submission, is down.
func sendRelay(t testing.TB, from string, mails ...*outMail) []string {
	t.Helper()
	return transmit(t, ms.smtpAddr, false, from, mails)
}

func transmit(t testing.TB, addr string, auth bool, from string, mails []*outMail) []string {
	t.Helper()
	ids := make([]string, len(mails))
	msgs := make([]*mail.Msg, len(mails))
	for i, om := range mails {
		if om.msgID == "" {
			om.msgID = newMsgID(t)
		}
		ids[i] = om.msgID
		m := mail.NewMsg(mail.WithNoDefaultUserAgent())
		if err := m.From(from); err != nil {
			t.Fatalf("send: from %q: %v", from, err)
		}
		if err := m.To(om.to...); err != nil {
			t.Fatalf("send: to %q: %v", om.to, err)
		}
		if len(om.cc) > 0 {
			if err := m.Cc(om.cc...); err != nil {
				t.Fatalf("send: cc %q: %v", om.cc, err)
			}
		}
		m.Subject(om.subject)
		m.SetMessageIDWithValue(om.msgID)
		m.SetDate()
		m.SetBodyString(mail.TypeTextPlain, om.body)
		msgs[i] = m
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("send: address %q: %v", addr, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		t.Fatalf("send: port %q: %v", port, err)
	}
	opts := []mail.Option{
		mail.WithPort(p),
		mail.WithTLSPolicy(mail.TLSMandatory),
		mail.WithTLSConfig(ms.tls.Clone()),
		mail.WithHELO("client.example.test"),
		mail.WithTimeout(20 * time.Second),
	}
	if auth {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain), mail.WithUsername(from), mail.WithPassword(ms.password))
	}
	c, err := mail.NewClient(host, opts...)
	if err != nil {
		t.Fatalf("send: new client: %v", err)
	}
	if err := c.DialAndSend(msgs...); err != nil {
		t.Fatalf("send: %d mails from %s via %s: %v", len(msgs), from, addr, err)
	}
	return ids
}

// sendOne sends one mail and returns its Message-ID.
func sendOne(t testing.TB, from string, om *outMail) string {
	t.Helper()
	return send(t, from, om)[0]
}

// inMail is a delivered mail as a player's client sees it.
type inMail struct {
	uid       imap.UID
	arrived   time.Time // INTERNALDATE
	raw       []byte
	msgID     string
	inReplyTo []string
	from      string
	to        []string
	cc        []string
	subject   string
	listID    string
	body      string // the first text/plain part, decoded
}

func (m *inMail) String() string {
	return fmt.Sprintf("uid %d from %s to %v subject %q msgid %s in-reply-to %v", m.uid, m.from, m.to, m.subject, m.msgID, m.inReplyTo)
}

func (m *inMail) repliesTo(id string) bool { return slices.Contains(m.inReplyTo, id) }

// parseMail reads the headers and the first text/plain part of raw.
func parseMail(uid imap.UID, arrived time.Time, raw []byte) (*inMail, error) {
	m := &inMail{uid: uid, arrived: arrived, raw: raw}
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil && !message.IsUnknownCharset(err) {
		return nil, fmt.Errorf("parse uid %d: %w", uid, err)
	}
	h := mr.Header
	m.msgID, _ = h.MessageID()
	m.inReplyTo, _ = h.MsgIDList("In-Reply-To")
	if from, err := h.AddressList("From"); err == nil && len(from) > 0 {
		m.from = strings.ToLower(from[0].Address)
	}
	for _, f := range []struct {
		key string
		dst *[]string
	}{{"To", &m.to}, {"Cc", &m.cc}} {
		list, _ := h.AddressList(f.key)
		for _, a := range list {
			*f.dst = append(*f.dst, strings.ToLower(a.Address))
		}
	}
	m.subject, _ = h.Subject()
	m.listID = h.Get("List-Id")
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !message.IsUnknownCharset(err) {
			return m, fmt.Errorf("parse uid %d body: %w", uid, err)
		}
		if ih, ok := p.Header.(*gomail.InlineHeader); ok {
			ct, _, _ := ih.ContentType()
			if ct == "text/plain" || ct == "" {
				b, err := io.ReadAll(p.Body)
				if err != nil {
					return m, fmt.Errorf("parse uid %d body: %w", uid, err)
				}
				m.body = string(b)
				break
			}
		}
	}
	return m, nil
}

// mailbox is one user's INBOX, read over IMAP with STARTTLS and the stack's CA.
// It is not safe for concurrent use.
type mailbox struct {
	t       testing.TB
	user    string
	c       *imapclient.Client
	lastUID imap.UID
	mails   []*inMail
	exists  chan uint32 // EXISTS counts, for IDLE
}

// openMailbox logs user in and selects INBOX; the test's cleanup logs out.
func openMailbox(t testing.TB, user string) *mailbox {
	t.Helper()
	mb := &mailbox{t: t, user: user, exists: make(chan uint32, 64)}
	mb.dial()
	t.Cleanup(mb.close)
	return mb
}

func (mb *mailbox) dial() {
	mb.t.Helper()
	exists := mb.exists
	opts := &imapclient.Options{
		TLSConfig:   ms.tls.Clone(),
		WordDecoder: &mime.WordDecoder{CharsetReader: charset.Reader},
		Dialer:      &net.Dialer{Timeout: 10 * time.Second},
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					select {
					case exists <- *d.NumMessages:
					default: // the reader only needs to learn that something changed
					}
				}
			},
		},
	}
	c, err := imapclient.DialStartTLS(ms.imapAddr, opts)
	if err != nil {
		mb.t.Fatalf("imap %s: dial: %v", mb.user, err)
	}
	if err := c.Login(mb.user, ms.password).Wait(); err != nil {
		c.Close()
		mb.t.Fatalf("imap %s: login: %v", mb.user, err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		c.Close()
		mb.t.Fatalf("imap %s: select: %v", mb.user, err)
	}
	mb.c = c
}

func (mb *mailbox) close() {
	if mb.c != nil {
		_ = mb.c.Logout().Wait()
		_ = mb.c.Close()
		mb.c = nil
	}
}

// fetchNew fetches the mails that arrived since the last call.
func (mb *mailbox) fetchNew() error {
	var since imap.UIDSet
	since.AddRange(mb.lastUID+1, 0)
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := mb.c.Fetch(since, &imap.FetchOptions{
		UID: true, InternalDate: true, BodySection: []*imap.FetchItemBodySection{body},
	}).Collect()
	if err != nil {
		return fmt.Errorf("imap %s: fetch %v: %w", mb.user, since, err)
	}
	for _, msg := range msgs {
		// RFC 3501 6.4.8: "UID n:*" always names the highest UID, even below n.
		if msg.UID <= mb.lastUID {
			continue
		}
		m, err := parseMail(msg.UID, msg.InternalDate, msg.FindBodySection(body))
		if err != nil {
			mb.t.Logf("imap %s: %v (kept what parsed)", mb.user, err)
		}
		mb.mails = append(mb.mails, m)
		mb.lastUID = max(mb.lastUID, msg.UID)
	}
	return nil
}

// pollEvery is how often waitFor polls the mailbox; Dovecot shows new mail
// to a NOOP or FETCH ~20 ms after delivery, to IDLE only after ~500 ms.
const pollEvery = 50 * time.Millisecond

// waitFor polls the mailbox until done is true of the mails seen so far, and
// fails the test after timeout, listing what did arrive.
func (mb *mailbox) waitFor(timeout time.Duration, what string, done func([]*inMail) bool) []*inMail {
	mb.t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		if err := mb.fetchNew(); err != nil {
			mb.t.Fatalf("wait for %s: %v", what, err)
		}
		if done(mb.mails) {
			return mb.mails
		}
		select {
		case <-deadline.C:
			var seen strings.Builder
			for _, m := range mb.mails {
				fmt.Fprintf(&seen, "\n  %v", m)
			}
			mb.t.Fatalf("%s: no %s within %v; its INBOX holds %d mails:%s", mb.user, what, timeout, len(mb.mails), seen.String())
			return nil
		case <-tick.C:
		}
	}
}

// waitReply waits for the referee's reply to the mail id and returns it.
func (mb *mailbox) waitReply(timeout time.Duration, id string) *inMail {
	mb.t.Helper()
	var got *inMail
	mb.waitFor(timeout, "reply to <"+id+">", func(ms []*inMail) bool {
		got = findReply(ms, id)
		return got != nil
	})
	return got
}

// findReply returns the first mail from the referee that answers id.
func findReply(mails []*inMail, id string) *inMail {
	for _, m := range mails {
		if m.from == ms.referee && m.repliesTo(id) {
			return m
		}
	}
	return nil
}

// clearMailboxes expunges every mailbox of every user, so that a test starts
// from empty mailboxes whatever the previous test left.
func clearMailboxes(t testing.TB) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, len(ms.everyone()))
	for _, u := range ms.everyone() {
		wg.Go(func() {
			if err := clearUser(u); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("clear mailboxes: %v", err)
	}
}

func clearUser(user string) error {
	c, err := imapclient.DialStartTLS(ms.imapAddr, &imapclient.Options{TLSConfig: ms.tls.Clone()})
	if err != nil {
		return fmt.Errorf("%s: dial: %w", user, err)
	}
	defer c.Close()
	if err := c.Login(user, ms.password).Wait(); err != nil {
		return fmt.Errorf("%s: login: %w", user, err)
	}
	boxes, err := c.List("", "*", nil).Collect()
	if err != nil {
		return fmt.Errorf("%s: list: %w", user, err)
	}
	for _, b := range boxes {
		if slices.Contains(b.Attrs, imap.MailboxAttrNoSelect) {
			continue
		}
		sel, err := c.Select(b.Mailbox, nil).Wait()
		if err != nil {
			return fmt.Errorf("%s: select %s: %w", user, b.Mailbox, err)
		}
		if sel.NumMessages == 0 {
			continue
		}
		all := imap.SeqSet{}
		all.AddRange(1, 0)
		if err := c.Store(all, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
			return fmt.Errorf("%s: store %s: %w", user, b.Mailbox, err)
		}
		if err := c.Expunge().Close(); err != nil {
			return fmt.Errorf("%s: expunge %s: %w", user, b.Mailbox, err)
		}
	}
	return c.Logout().Wait()
}

// idleUntil runs IDLE until the server reports at least n messages in the
// mailbox (RFC 3501 7.3.1 EXISTS), and returns when it saw them. It fails the
// test after timeout.
func (mb *mailbox) idleUntil(n uint32, timeout time.Duration, during func()) time.Time {
	mb.t.Helper()
	for drained := false; !drained; {
		select {
		case <-mb.exists:
		default:
			drained = true
		}
	}
	idle, err := mb.c.Idle()
	if err != nil {
		mb.t.Fatalf("imap %s: idle: %v", mb.user, err)
	}
	during()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var seen time.Time
	for seen.IsZero() {
		select {
		case got := <-mb.exists:
			if got >= n {
				seen = time.Now()
			}
		case <-deadline.C:
			_ = idle.Close()
			mb.t.Fatalf("imap %s: IDLE saw fewer than %d messages within %v", mb.user, n, timeout)
		}
	}
	if err := idle.Close(); err != nil {
		mb.t.Fatalf("imap %s: idle done: %v", mb.user, err)
	}
	if err := idle.Wait(); err != nil {
		mb.t.Fatalf("imap %s: idle: %v", mb.user, err)
	}
	return seen
}

// count is the number of messages in the selected mailbox, as the server
// last reported it.
func (mb *mailbox) count() uint32 {
	if sel := mb.c.Mailbox(); sel != nil {
		return sel.NumMessages
	}
	return 0
}
