package mailout

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
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/google/go-cmp/cmp"

	"referee/internal/testdeadline"
)

// delivery is what the recording server saw for one accepted message.
type delivery struct {
	From  string
	Rcpts []string
	Data  string
	User  string // "" without AUTH
	TLS   bool
}

// recorder is an in-process go-smtp server that records what it receives
// and can be told to refuse or break.
type recorder struct {
	addr string
	pool *x509.CertPool

	rcptErr  map[string]error // by recipient
	mailErrs []error          // the replies to the MAIL commands, in turn (then: accepted)
	dataErr  error
	dropIn   bool // close the connection in the middle of DATA

	mu       sync.Mutex
	wire     bytes.Buffer // client and server bytes, as go-smtp's Debug sees them
	got      []delivery
	sessions int        // connections seen
	last     *smtp.Conn // the latest connection
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.wire.Write(p)
}

func (r *recorder) transcript() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.wire.String()
}

func (r *recorder) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

type recSession struct {
	r    *recorder
	c    *smtp.Conn
	d    delivery
	user string
}

func (s *recSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *recSession) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != "player" || pass != "s3cret" {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "bad credentials"}
		}
		s.user = user
		return nil
	}), nil
}

func (s *recSession) Mail(from string, _ *smtp.MailOptions) error {
	s.r.mu.Lock()
	var err error
	if len(s.r.mailErrs) > 0 {
		err, s.r.mailErrs = s.r.mailErrs[0], s.r.mailErrs[1:]
	}
	s.r.mu.Unlock()
	if err != nil {
		return err
	}
	s.d = delivery{From: from, User: s.user}
	_, s.d.TLS = s.c.TLSConnectionState()
	return nil
}

func (s *recSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if err := s.r.rcptErr[to]; err != nil {
		return err
	}
	s.d.Rcpts = append(s.d.Rcpts, to)
	return nil
}

func (s *recSession) Data(rd io.Reader) error {
	if s.r.dropIn {
		buf := make([]byte, 10)
		io.ReadFull(rd, buf)
		s.c.Conn().Close()
		return errors.New("dropped")
	}
	b, err := io.ReadAll(rd)
	if err != nil {
		return err
	}
	if s.r.dataErr != nil {
		return s.r.dataErr
	}
	s.d.Data = string(b)
	s.r.mu.Lock()
	s.r.got = append(s.r.got, s.d)
	s.r.mu.Unlock()
	return nil
}

func (s *recSession) Reset()        { s.d = delivery{} }
func (s *recSession) Logout() error { return nil }

// startWithoutTLS starts a go-smtp server that offers no TLS at all, neither
// implicit nor STARTTLS, and returns its address.
func startWithoutTLS(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &recSession{r: &recorder{}, c: c}, nil }))
	srv.ErrorLog = log.New(io.Discard, "", 0)
	done := make(chan struct{})
	go func() { srv.Serve(ln); close(done) }()
	t.Cleanup(func() { srv.Close(); ln.Close(); <-done })
	return ln.Addr().String()
}

// startRecorder serves SMTP on 127.0.0.1 with STARTTLS offered; implicit
// makes it speak TLS from the first byte instead.
func startRecorder(t *testing.T, implicit bool, edit func(r *recorder)) *recorder {
	t.Helper()
	r := &recorder{rcptErr: map[string]error{}}
	if edit != nil {
		edit(r)
	}
	cert, pool := selfSigned(t)
	r.pool = pool
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		r.mu.Lock()
		if r.last != c { // a second EHLO (after STARTTLS) makes a new session on the same connection
			r.sessions++
		}
		r.last = c
		r.mu.Unlock()
		return &recSession{r: r, c: c}, nil
	}))
	srv.Domain = "mx.example.test"
	srv.AllowInsecureAuth = true
	srv.EnableSMTPUTF8 = true
	srv.Debug = r
	srv.ErrorLog = log.New(io.Discard, "", 0)
	tlsCfg := &tls.Config{Certificates: []tls.Certificate{cert}}
	var ln net.Listener
	var err error
	if implicit {
		ln, err = tls.Listen("tcp", "127.0.0.1:0", tlsCfg)
	} else {
		srv.TLSConfig = tlsCfg
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		t.Fatal(err)
	}
	r.addr = ln.Addr().String()
	done := make(chan struct{})
	go func() { srv.Serve(ln); close(done) }()
	// Close the listener too: Close may run before Serve registered it.
	t.Cleanup(func() { srv.Close(); ln.Close(); <-done })
	return r
}

// selfSigned makes a certificate for 127.0.0.1 and a pool that trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "mx.example.test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// transcriptMails has what the wire must carry intact: lines starting with
// a dot, a grid wider than 72 columns and a UTF-8 subject in the first
// message; a line over 998 octets (so quoted-printable) in the second.
func transcriptMails(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for i, body := range []string{
		".hidden dot line\n..two dots\n" + grid + "\nRêve\n",
		"short\n" + strings.Repeat("w", 1100) + "\nend\n",
	} {
		m := baseMail()
		m.Subject = "Rêve — 夢"
		m.To = []string{"Alice <alice@example.test>"}
		m.Cc = []string{"bob@example.test"}
		m.MessageID = fmt.Sprintf("t%d@referee.example.test", i)
		m.Body = body
		raw, err := Compose(m)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, raw)
	}
	return out
}

func TestSendTranscript(t *testing.T) {
	tests := []struct {
		name     string
		implicit bool
		cfg      SMTPConfig
		wantUser string
		wantTLS  bool
	}{
		{name: "plain", cfg: SMTPConfig{TLS: TLSNone}},
		{name: "plain with auth on loopback", cfg: SMTPConfig{TLS: TLSNone, User: "player", Password: "s3cret"}, wantUser: "player"},
		{name: "starttls", cfg: SMTPConfig{TLS: TLSStart}, wantTLS: true},
		{name: "starttls default with auth", cfg: SMTPConfig{User: "player", Password: "s3cret"}, wantUser: "player", wantTLS: true},
		{name: "implicit tls", implicit: true, cfg: SMTPConfig{TLS: TLSImplicit, User: "player", Password: "s3cret"}, wantUser: "player", wantTLS: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := startRecorder(t, tc.implicit, nil)
			cfg := tc.cfg
			cfg.Addr = r.addr
			cfg.HELO = "referee.example.test"
			cfg.TLSConfig = &tls.Config{RootCAs: r.pool}
			s := NewSender(cfg, nil)
			defer s.Close()
			var want []delivery
			for _, raw := range transcriptMails(t) {
				err := s.Send(context.Background(), "The Referee <referee@example.test>",
					[]string{"Alice <alice@example.test>", "bob@example.test", "ALICE@example.test"}, raw)
				if err != nil {
					t.Fatalf("Send: %v", err)
				}
				want = append(want, delivery{
					From:  "referee@example.test",
					Rcpts: []string{"alice@example.test", "bob@example.test"},
					Data:  string(raw),
					User:  tc.wantUser,
					TLS:   tc.wantTLS,
				})
			}
			if diff := cmp.Diff(want, r.deliveries()); diff != "" {
				t.Errorf("deliveries (-want +got):\n%s", diff)
			}
			if tc.wantTLS {
				return // the transcript is encrypted
			}
			wire := r.transcript()
			for _, s := range []string{
				"EHLO referee.example.test\r\n",
				"\r\n..hidden dot line\r\n...two dots\r\n", // RFC 5321 4.5.2 dot-stuffing
				"\r\n" + grid + "\r\n",
				"Subject: =?UTF-8?q?R=C3=AAve_=E2=80=94_=E5=A4=A2?=\r\n",
				"Content-Transfer-Encoding: 8bit\r\n",
				"charset=UTF-8\r\n\r\n..hidden dot line\r\n",
				"\r\nR\xc3\xaave\r\n",
				"Content-Transfer-Encoding: quoted-printable\r\n",
				"MAIL FROM:<referee@example.test> BODY=8BITMIME\r\n",
			} {
				if !strings.Contains(wire, s) {
					t.Errorf("transcript lacks %q", s)
				}
			}
			for i, line := range strings.Split(wire, "\r\n") {
				if len(line) > maxLineOctets {
					t.Errorf("wire line %d has %d octets", i+1, len(line))
				}
			}
			if tc.wantUser != "" && strings.Contains(wire, "s3cret") {
				t.Errorf("password in clear on the wire")
			}
		})
	}
}

func TestSendErrors(t *testing.T) {
	temp := &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"}
	perm := &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	tests := []struct {
		name      string
		edit      func(r *recorder)
		cfg       SMTPConfig
		rcpts     []string
		permanent bool
		partial   bool // a *RecipientsError, delivered to the others
	}{
		{name: "4xx at RCPT", edit: func(r *recorder) { r.rcptErr["a@example.test"] = temp }, permanent: false},
		{name: "5xx at RCPT", edit: func(r *recorder) { r.rcptErr["a@example.test"] = perm }, permanent: true},
		{name: "4xx at DATA", edit: func(r *recorder) { r.dataErr = temp }, permanent: false},
		{name: "5xx at DATA", edit: func(r *recorder) { r.dataErr = perm }, permanent: true},
		{name: "dropped mid-DATA", edit: func(r *recorder) { r.dropIn = true }, permanent: false},
		{name: "one of two refused", edit: func(r *recorder) { r.rcptErr["b@example.test"] = perm },
			rcpts: []string{"a@example.test", "b@example.test"}, permanent: true, partial: true},
		{name: "bad address", rcpts: []string{"not an address"}, permanent: true},
		{name: "wrong password", cfg: SMTPConfig{TLS: TLSNone, User: "player", Password: "wrong"}, permanent: false},
		{name: "bad tls mode", cfg: SMTPConfig{TLS: "maybe"}, permanent: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := startRecorder(t, false, tc.edit)
			cfg := tc.cfg
			if cfg.TLS == "" {
				cfg.TLS = TLSNone
			}
			cfg.Addr = r.addr
			rcpts := tc.rcpts
			if rcpts == nil {
				rcpts = []string{"a@example.test"}
			}
			err := NewSender(cfg, nil).Send(context.Background(), "referee@example.test", rcpts, []byte("Subject: x\r\n\r\nbody\r\n"))
			if err == nil {
				t.Fatal("Send succeeded, want an error")
			}
			if got := IsPermanent(err); got != tc.permanent {
				t.Errorf("IsPermanent(%v) = %v, want %v", err, got, tc.permanent)
			}
			var re *RecipientsError
			if got := errors.As(err, &re); got != tc.partial {
				t.Errorf("partial = %v, want %v (%v)", got, tc.partial, err)
			}
			if tc.partial && len(r.deliveries()) != 1 {
				t.Errorf("deliveries = %d, want 1", len(r.deliveries()))
			}
		})
	}
}

func TestSendConnectionErrors(t *testing.T) {
	// A port nobody listens on: take one and release it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := ln.Addr().String()
	ln.Close()

	plain := startRecorder(t, false, nil)

	noTLS := startWithoutTLS(t)

	tests := []struct {
		name string
		cfg  SMTPConfig
	}{
		{"refused", SMTPConfig{Addr: closedAddr, TLS: TLSNone}},
		{"starttls not offered", SMTPConfig{Addr: noTLS, TLS: TLSStart}},
		{"untrusted certificate", SMTPConfig{Addr: plain.addr, TLS: TLSStart}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := NewSender(tc.cfg, nil).Send(context.Background(), "referee@example.test", []string{"a@example.test"}, []byte("x\r\n"))
			if err == nil {
				t.Fatal("Send succeeded, want an error")
			}
			if IsPermanent(err) {
				t.Errorf("IsPermanent(%v) = true, want false", err)
			}
		})
	}
}

// TestSendCancel: a server that accepts and never greets; cancelling the
// context must end Send with a temporary error. The sender's own timeout is
// a day, so that only the cancel can end Send before the test's deadline.
func TestSendCancel(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	res := make(chan error, 1)
	go func() {
		res <- NewSender(SMTPConfig{Addr: ln.Addr().String(), TLS: TLSNone, Timeout: 24 * time.Hour}, nil).
			Send(ctx, "referee@example.test", []string{"a@example.test"}, []byte("x\r\n"))
	}()
	conn := <-accepted
	defer conn.Close()
	cancel()
	select {
	case err := <-res:
		if err == nil || IsPermanent(err) || !errors.Is(err, context.Canceled) {
			t.Errorf("Send = %v, want a temporary error wrapping context.Canceled", err)
		}
	case <-time.After(testdeadline.Left(t)):
		t.Fatal("Send did not return after cancel by the test's deadline")
	}
}

func TestIsPermanent(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("other"), false},
		{&smtp.SMTPError{Code: 554}, true},
		{&smtp.SMTPError{Code: 421}, false},
		{classify("hello", "", &smtp.SMTPError{Code: 554}), false},
		{classify("rcpt", "x", &smtp.SMTPError{Code: 552}), true},
		{classify("data", "", io.ErrUnexpectedEOF), false},
	}
	for _, tc := range tests {
		if got := IsPermanent(tc.err); got != tc.want {
			t.Errorf("IsPermanent(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestSendKeepsConnection: a second Send uses the first one's connection; when
// the server has closed it meanwhile, Send opens a new one and delivers once.
func TestSendKeepsConnection(t *testing.T) {
	r := startRecorder(t, false, nil)
	s := NewSender(SMTPConfig{Addr: r.addr, TLS: TLSStart, TLSConfig: &tls.Config{RootCAs: r.pool}}, nil)
	defer s.Close()
	ctx := context.Background()
	raw := []byte("Subject: x\r\n\r\nbody\r\n")
	for i := 0; i < 2; i++ {
		if err := s.Send(ctx, "referee@example.test", []string{"a@example.test"}, raw); err != nil {
			t.Fatal(err)
		}
	}
	r.mu.Lock()
	sessions, last := r.sessions, r.last
	r.mu.Unlock()
	if sessions != 1 || len(r.deliveries()) != 2 {
		t.Fatalf("%d connections for 2 mails (%d delivered), want 1", sessions, len(r.deliveries()))
	}
	last.Conn().Close() // the server drops the idle connection
	if err := s.Send(ctx, "referee@example.test", []string{"a@example.test"}, raw); err != nil {
		t.Fatalf("send after the server closed the kept connection: %v", err)
	}
	r.mu.Lock()
	sessions = r.sessions
	r.mu.Unlock()
	if sessions != 2 || len(r.deliveries()) != 3 {
		t.Errorf("after a drop: %d connections, %d delivered; want 2 and 3", sessions, len(r.deliveries()))
	}
}

// TestPrepareFinishAbort: a prepared mail is delivered at Finish and not
// before; an aborted one is never delivered, and the next Send goes on a
// new connection.
func TestPrepareFinishAbort(t *testing.T) {
	r := startRecorder(t, false, nil)
	s := NewSender(SMTPConfig{Addr: r.addr, TLS: TLSStart, TLSConfig: &tls.Config{RootCAs: r.pool}}, nil)
	defer s.Close()
	ctx := context.Background()
	raw := []byte("Subject: x\r\n\r\nbody\r\n")
	p, err := s.Prepare(ctx, "referee@example.test", []string{"a@example.test", "b@example.test"}, raw)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.deliveries()); n != 0 {
		t.Fatalf("%d mails delivered before Finish", n)
	}
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := r.deliveries(); len(got) != 1 || len(got[0].Rcpts) != 2 || !strings.Contains(got[0].Data, "body") {
		t.Fatalf("after Finish: %+v", got)
	}
	if err := p.Finish(); err == nil {
		t.Error("a second Finish did not fail")
	}

	p, err = s.Prepare(ctx, "referee@example.test", []string{"a@example.test"}, []byte("Subject: never\r\n\r\nnever\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	p.Abort()
	p.Abort() // harmless
	if err := s.Send(ctx, "referee@example.test", []string{"a@example.test"}, []byte("Subject: after\r\n\r\nafter\r\n")); err != nil {
		t.Fatalf("send after an abort: %v", err)
	}
	got := r.deliveries()
	if len(got) != 2 || !strings.Contains(got[1].Data, "after") {
		t.Fatalf("after abort and send: %d delivered: %+v", len(got), got)
	}
	for _, d := range got {
		if strings.Contains(d.Data, "never") {
			t.Errorf("the aborted mail was delivered: %+v", d)
		}
	}
	r.mu.Lock()
	sessions := r.sessions
	r.mu.Unlock()
	if sessions != 2 {
		t.Errorf("%d connections, want 2 (the aborted one is not reused)", sessions)
	}
}
