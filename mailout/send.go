package mailout

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"referee/internal/mailnet"
)

// TLS modes of SMTPConfig.TLS.
const (
	TLSImplicit = mailnet.TLSImplicit // RFC 8314 3.3: TLS from the first byte (port 465)
	TLSStart    = mailnet.TLSStart    // RFC 3207: mandatory; a server without STARTTLS is an error
	TLSNone     = mailnet.TLSNone     // plain text; meant for loopback
)

// SMTPConfig says how to reach the submission server.
type SMTPConfig struct {
	Addr      string        // host:port
	TLS       string        // "tls" (implicit), "starttls" (mandatory), "none"; "" = starttls
	TLSConfig *tls.Config   // nil = system roots; ServerName defaults to the host of Addr
	User      string        // AUTH PLAIN when not empty
	Password  string        // never logged
	HELO      string        // "" = the domain of the envelope sender
	Timeout   time.Duration // bounds one whole Send, connect to QUIT; 0 = 30 s
	// RefusedWait is how long no login is tried after the server refused
	// one (IsAuthRefused), doubling at each refusal up to ten minutes;
	// 0 = 1 minute.
	RefusedWait time.Duration
}

// Sender delivers composed messages. It keeps the connection of its last
// successful Send open for the next one (saving the dial, TLS and EHLO), and
// opens a fresh one when that connection is gone before anything was sent on
// it. It is safe for concurrent use: a Send takes the idle connection or
// opens its own.
type Sender struct {
	cfg SMTPConfig
	log *slog.Logger

	mu   sync.Mutex
	idle *session // the connection left by the last Send, if any
	// refused is the server's last refusal of the login, while it holds:
	// no login is tried before loginAt (held); wait is the next hold.
	refused *SendError
	loginAt time.Time
	wait    time.Duration
}

// session is one SMTP connection.
type session struct {
	c    *smtp.Client
	conn net.Conn
}

// NewSender returns a Sender for cfg; a nil log discards.
func NewSender(cfg SMTPConfig, log *slog.Logger) *Sender {
	if cfg.TLS == "" {
		cfg.TLS = TLSStart
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.RefusedWait <= 0 {
		cfg.RefusedWait = time.Minute
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Sender{cfg: cfg, log: log}
}

// Close ends the idle connection, if any, with QUIT.
func (s *Sender) Close() error {
	s.mu.Lock()
	sess := s.idle
	s.idle = nil
	s.mu.Unlock()
	if sess == nil {
		return nil
	}
	err := sess.c.Quit()
	sess.c.Close()
	return err
}

func (s *Sender) take() *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.idle
	s.idle = nil
	return sess
}

func (s *Sender) put(sess *session) {
	s.mu.Lock()
	old := s.idle
	s.idle = sess
	s.mu.Unlock()
	if old != nil {
		old.c.Close()
	}
}

// Send delivers raw to every recipient, with envelopeFrom as the reverse
// path (RFC 5321 3.3). Addresses may carry display names. A recipient the
// server refuses does not stop delivery to the others: the result is then
// a *RecipientsError. Errors are *SendError or *RecipientsError; see
// IsPermanent.
func (s *Sender) Send(ctx context.Context, envelopeFrom string, rcpts []string, raw []byte) error {
	p, err := s.Prepare(ctx, envelopeFrom, rcpts, raw)
	if err != nil {
		return err
	}
	return p.Finish()
}

// Prepared is a mail taken through MAIL, RCPT and DATA and written, all but
// the final "." that ends the data: until Finish, nothing is delivered.
// Abort drops the connection instead, and the server discards the
// transaction (RFC 5321 4.1.1.4: it completes only at the end of the data).
// So the round trips of a send can overlap work that must be finished before
// the mail may go, such as saving the state that records it.
type Prepared struct {
	s        *Sender
	ctx      context.Context
	cancel   context.CancelFunc
	stop     func() bool
	sess     *session
	w        io.WriteCloser
	from     string
	size     int
	accepted []string
	refused  []*SendError
	done     bool
}

// Prepare does all of Send but the end of the data; see Prepared. Finish or
// Abort must follow, within the Sender's Timeout of the call.
func (s *Sender) Prepare(ctx context.Context, envelopeFrom string, rcpts []string, raw []byte) (*Prepared, error) {
	from, err := envelopeAddr(envelopeFrom)
	if err != nil {
		return nil, classify("address", envelopeFrom, err)
	}
	var refused []*SendError
	var to []string
	seen := map[string]bool{}
	for _, r := range rcpts {
		a, err := envelopeAddr(r)
		if err != nil {
			refused = append(refused, classify("address", r, err))
			continue
		}
		if k := strings.ToLower(a); !seen[k] {
			seen[k] = true
			to = append(to, a)
		}
	}
	if len(to) == 0 {
		if len(refused) > 0 {
			return nil, refused[0]
		}
		return nil, classify("address", "", errors.New("no recipients"))
	}

	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	sess := s.take()
	reused := sess != nil
	if sess == nil {
		var err error
		if sess, err = s.open(ctx, from); err != nil {
			cancel()
			return nil, err
		}
	}
	// The smtp client takes no context: closing the connection unblocks it.
	stop := context.AfterFunc(ctx, func() { sess.conn.Close() })
	p := &Prepared{s: s, ctx: ctx, cancel: cancel, stop: stop, sess: sess, from: from, size: len(raw)}
	// fail ends the attempt; keep says the connection is still good for
	// the next Send.
	fail := func(err error, keep bool) (*Prepared, error) {
		p.done = true
		if p.stop() && keep {
			s.put(p.sess)
		} else {
			p.sess.c.Close()
		}
		cancel()
		return nil, err
	}
	c := sess.c
	// SMTPUTF8 (RFC 6531 3.4) only when an envelope address is not ASCII:
	// Compose's headers are (RFC 2047 encoded words).
	opts := &smtp.MailOptions{UTF8: !isASCII(from) || !allASCII(to)}
	if err := c.Mail(from, opts); err != nil {
		var pe *smtp.SMTPError
		if !reused || (errors.As(err, &pe) && pe.Code != 421) {
			return fail(s.fail(ctx, "mail", "", err), false)
		}
		// The kept connection went away while idle (a server's timeout, a
		// restart): nothing was sent on it, so start again on a new one.
		s.log.Debug("smtp kept connection gone; reconnecting", "err", err)
		p.stop()
		sess.c.Close()
		if sess, err = s.open(ctx, from); err != nil {
			cancel()
			return nil, err
		}
		p.sess = sess
		p.stop = context.AfterFunc(ctx, func() { sess.conn.Close() })
		c = sess.c
		if err := c.Mail(from, opts); err != nil {
			return fail(s.fail(ctx, "mail", "", err), false)
		}
	}
	for _, r := range to {
		if err := c.Rcpt(r, nil); err != nil {
			var pe *smtp.SMTPError
			if !errors.As(err, &pe) {
				return fail(s.fail(ctx, "rcpt", r, err), false) // the connection is gone
			}
			refused = append(refused, classify("rcpt", r, err))
			continue
		}
		p.accepted = append(p.accepted, r)
	}
	p.refused = refused
	if len(p.accepted) == 0 {
		keep := c.Reset() == nil
		// Permanent only when every refusal is.
		perm := true
		errs := make([]error, len(refused))
		for i, r := range refused {
			perm = perm && r.Permanent
			errs[i] = r
		}
		return fail(&SendError{Op: "rcpt", Permanent: perm, Err: errors.Join(errs...)}, keep)
	}
	w, err := c.Data()
	if err != nil {
		return fail(s.fail(ctx, "data", "", err), false)
	}
	if _, err := io.Copy(w, bytes.NewReader(raw)); err != nil {
		return fail(s.fail(ctx, "data", "", err), false)
	}
	p.w = w
	return p, nil
}

// Finish ends the data and returns the server's verdict, as Send does.
func (p *Prepared) Finish() error {
	if p.done {
		return classify("data", "", errors.New("prepared mail already finished or aborted"))
	}
	p.done = true
	defer p.cancel()
	if err := p.w.Close(); err != nil {
		p.stop()
		p.sess.c.Close()
		return p.s.fail(p.ctx, "data", "", err)
	}
	if p.stop() {
		p.s.put(p.sess)
	} else {
		p.sess.c.Close()
	}
	p.s.log.Info("mail sent", "from", p.from, "rcpts", len(p.accepted), "bytes", p.size)
	if len(p.refused) > 0 {
		e := &RecipientsError{Delivered: p.accepted, Refused: p.refused}
		p.s.log.Warn("mail partly refused", "from", p.from, "err", e)
		return e
	}
	return nil
}

// Abort drops the connection before the end of the data: the server
// delivers nothing. Abort after Finish does nothing.
func (p *Prepared) Abort() {
	if p.done {
		return
	}
	p.done = true
	p.stop()
	p.sess.c.Close()
	p.cancel()
}

// Login connects, secures and logs in as a Send does (the same TLS, the
// same AUTH when User is set), then says QUIT without sending anything:
// referee check's test of the configuration. from names the referee for
// EHLO when HELO is empty. Its errors are a Send's (*SendError); a refused
// login holds the next as a Send's does.
func (s *Sender) Login(ctx context.Context, from string) error {
	addr, err := envelopeAddr(from)
	if err != nil {
		return classify("address", from, err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	sess, err := s.open(ctx, addr)
	if err != nil {
		return err
	}
	defer sess.c.Close()
	stop := context.AfterFunc(ctx, func() { sess.conn.Close() })
	defer stop()
	if err := sess.c.Quit(); err != nil {
		return s.fail(ctx, "quit", "", err)
	}
	return nil
}

// open connects, secures and authenticates one session bounded by ctx.
func (s *Sender) open(ctx context.Context, from string) (*session, error) {
	if err := s.held(); err != nil {
		return nil, err
	}
	host, _, err := net.SplitHostPort(s.cfg.Addr)
	if err != nil {
		return nil, classify("dial", "", fmt.Errorf("address %q: %w", s.cfg.Addr, err))
	}
	tlsCfg := mailnet.ClientTLS(s.cfg.TLSConfig, host)
	conn, err := mailnet.Dial(ctx, s.cfg.Addr, s.cfg.Timeout)
	if err != nil {
		return nil, s.fail(ctx, "dial", "", err)
	}
	// The smtp client takes no context: closing the connection unblocks it.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	ok := false
	defer func() {
		if !stop() {
			ok = false // ctx ended: the connection is closed
		}
		if !ok {
			conn.Close()
		}
	}()

	var c *smtp.Client
	switch s.cfg.TLS {
	case TLSImplicit:
		tc := tls.Client(conn, tlsCfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			return nil, s.fail(ctx, "tls", "", err)
		}
		c = smtp.NewClient(tc)
	case TLSStart:
		// The EHLO before STARTTLS says "localhost"; the one after it
		// (RFC 3207 4.2) uses the configured name.
		c, err = smtp.NewClientStartTLS(conn, tlsCfg)
		if err != nil {
			return nil, s.fail(ctx, "tls", "", err)
		}
	case TLSNone:
		c = smtp.NewClient(conn)
	default:
		return nil, classify("dial", "", fmt.Errorf("tls mode %q: want tls, starttls or none", s.cfg.TLS))
	}
	c.CommandTimeout = s.cfg.Timeout
	c.SubmissionTimeout = s.cfg.Timeout
	if err := c.Hello(s.helo(from)); err != nil {
		return nil, s.fail(ctx, "hello", "", err)
	}
	if s.cfg.User != "" {
		if _, isTLS := c.TLSConnectionState(); !isTLS && !mailnet.IsLoopback(host) {
			// The operator's to mend, as a refused login is.
			err := classify("auth", "", fmt.Errorf("%w to %s", errPlainAuth, host))
			s.log.Error("smtp password not sent without TLS; retrying", "addr", s.cfg.Addr, "check", SettingsToCheck(err), "err", err.Err)
			return nil, err
		}
		// RFC 4616: PLAIN with an empty authorization identity.
		if err := c.Auth(sasl.NewPlainClient("", s.cfg.User, s.cfg.Password)); err != nil {
			return nil, s.fail(ctx, "auth", "", err)
		}
		s.loggedIn()
	}
	ok = true
	return &session{c: c, conn: conn}, nil
}

// fail classifies err, naming the context's end when that caused it.
func (s *Sender) fail(ctx context.Context, op, rcpt string, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		err = fmt.Errorf("%w: %w", cerr, err)
	}
	e := classify(op, rcpt, err)
	if IsAuthRefused(e) {
		s.refuse(e)
		return e
	}
	if check := tlsCheck(e); check != "" {
		// The operator's to mend, as a refused login is; temporary all
		// the same (a certificate renewed, the server's side mended).
		s.log.Error("smtp TLS with the server failed; retrying", "addr", s.cfg.Addr, "check", check, "err", err)
		return e
	}
	s.log.Warn("smtp failed", "addr", s.cfg.Addr, "op", op, "permanent", e.Permanent, "err", err)
	return e
}

// refuse takes note of the server's refusal of the login e: it is the
// operator's to mend (smtp.user and its password), so it is said at the
// error level, and no login is tried for RefusedWait, doubling up to ten
// minutes: every notice waiting would otherwise try its own at its own
// retry, and a server may lock the account or the address after a few
// failed logins. It stays temporary (IsPermanent): the notices are not at
// fault, and go once the login is mended.
func (s *Sender) refuse(e *SendError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refused == nil {
		s.wait = s.cfg.RefusedWait
	} else {
		s.wait = min(s.wait*2, max(10*time.Minute, s.cfg.RefusedWait))
	}
	s.refused, s.loginAt = e, time.Now().Add(s.wait)
	s.log.Error("smtp server refused the referee's login; retrying", "addr", s.cfg.Addr, "user", s.cfg.User,
		"check", SettingsToCheck(e), "err", e.Err, "retry_in", s.wait)
}

// held is the refusal of the login while no login is tried (refuse), or nil.
func (s *Sender) held() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refused == nil || !time.Now().Before(s.loginAt) {
		return nil
	}
	return &SendError{Op: "auth", Err: fmt.Errorf("no login tried before %s, the server refused the last: %w", s.loginAt.UTC().Format(time.RFC3339), s.refused.Err)}
}

// loggedIn takes note of a login accepted.
func (s *Sender) loggedIn() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refused != nil {
		s.log.Info("smtp server accepted the referee's login again", "addr", s.cfg.Addr)
		s.refused, s.wait = nil, 0
	}
}

func (s *Sender) helo(from string) string {
	if s.cfg.HELO != "" {
		return s.cfg.HELO
	}
	// from is a parsed address (envelopeAddr): its domain follows the
	// last '@'.
	return from[strings.LastIndexByte(from, '@')+1:]
}

// envelopeAddr returns the bare address of s, which may carry a display
// name ("The Referee <referee@example.test>").
func envelopeAddr(s string) (string, error) {
	if strings.ContainsAny(s, "\r\n") {
		return "", fmt.Errorf("address %q: line break", s)
	}
	a, err := mail.ParseAddress(s)
	if err != nil {
		return "", fmt.Errorf("address %q: %w", s, err)
	}
	return a.Address, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func allASCII(list []string) bool {
	for _, s := range list {
		if !isASCII(s) {
			return false
		}
	}
	return true
}
