package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"referee/internal/testdeadline"
)

// loginSMTP is a go-smtp server whose AUTH PLAIN accepts one password;
// it counts the logins it accepted and the mails begun, and keeps the
// transcript.
type loginSMTP struct {
	addr     string
	password string

	mu            sync.Mutex
	logins, mails int
	transcript    strings.Builder
}

func (s *loginSMTP) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.transcript.Write(p)
}

type loginSession struct{ s *loginSMTP }

func (l *loginSession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (l *loginSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, _, password string) error {
		if password != l.s.password {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "authentication credentials invalid"}
		}
		l.s.mu.Lock()
		l.s.logins++
		l.s.mu.Unlock()
		return nil
	}), nil
}
func (l *loginSession) Mail(string, *smtp.MailOptions) error {
	l.s.mu.Lock()
	l.s.mails++
	l.s.mu.Unlock()
	return errors.New("no mail expected")
}
func (l *loginSession) Rcpt(string, *smtp.RcptOptions) error { return errors.New("no mail expected") }
func (l *loginSession) Data(io.Reader) error                 { return errors.New("no mail expected") }
func (l *loginSession) Reset()                               {}
func (l *loginSession) Logout() error                        { return nil }

func startLoginSMTP(t *testing.T, password string) *loginSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return startLoginSMTPOn(t, password, ln)
}

// startLoginSMTPOn is startLoginSMTP on ln.
func startLoginSMTPOn(t *testing.T, password string, ln net.Listener) *loginSMTP {
	t.Helper()
	s := &loginSMTP{password: password}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &loginSession{s}, nil }))
	srv.Domain = "mx.example.test"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = log.New(io.Discard, "", 0)
	srv.Debug = s
	s.addr = ln.Addr().String()
	done := make(chan struct{})
	go func() { srv.Serve(ln); close(done) }()
	t.Cleanup(func() { srv.Close(); ln.Close(); <-done })
	return s
}

// startLoginIMAP is go-imap's in-process server with one user, the
// referee, and its password.
func startLoginIMAP(t *testing.T, password string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return startLoginIMAPOn(t, password, ln)
}

// startLoginIMAPOn is startLoginIMAP on ln.
func startLoginIMAPOn(t *testing.T, password string, ln net.Listener) string {
	t.Helper()
	mem := imapmemserver.New()
	u := imapmemserver.NewUser("referee@example.test", password)
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(u)
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}},
		InsecureAuth: true,
		Logger:       log.New(io.Discard, "", 0),
	})
	done := make(chan struct{})
	go func() { srv.Serve(ln); close(done) }()
	t.Cleanup(func() { srv.Close(); <-done })
	return ln.Addr().String()
}

// TestCheckLogsIn: referee check logs in to the configured IMAP and SMTP
// servers as referee run does, and QUITs without sending: a wrong
// password (either server) is a problem of the configuration (exit 2)
// with the server's words and the settings to check, never the password,
// where check read the configuration alone and a wrong SMTP password was
// found only when the first notice failed. A server that does not answer
// is said without failing the check: referee run keeps trying it.
func TestCheckLogsIn(t *testing.T) {
	smtpSrv := startLoginSMTP(t, "smtp-pw")
	imapAddr := startLoginIMAP(t, "imap-pw")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nobody := ln.Addr().String()
	ln.Close() // nothing answers there now
	for _, tc := range []struct {
		name           string
		imap, smtp     string // addresses
		imapPW, smtpPW string
		code           int
		want, dontWant []string
		logins, quits  int    // the SMTP server's
		smtpTLS        string // "" = none
	}{
		{"both accept", imapAddr, smtpSrv.addr, "imap-pw", "smtp-pw", 0,
			[]string{"imap: logged in to " + imapAddr + " as referee@example.test; INBOX holds 0 messages", "smtp: logged in to " + smtpSrv.addr + " as referee@example.test", "ok"},
			nil, 1, 1, ""},
		{"smtp password wrong", imapAddr, smtpSrv.addr, "imap-pw", "wrong-smtp-pw", 2,
			[]string{"imap: logged in to", "smtp.addr: " + smtpSrv.addr + ": smtp auth: SMTP error 535: authentication credentials invalid; check smtp.user and its password"},
			[]string{"wrong-smtp-pw", "smtp: logged in"}, 0, 0, ""},
		{"imap password wrong", imapAddr, smtpSrv.addr, "wrong-imap-pw", "smtp-pw", 2,
			[]string{"imap.addr: " + imapAddr + ": imap login as referee@example.test:", "; check imap.user and its password", "smtp: logged in to"},
			[]string{"wrong-imap-pw", "imap: logged in"}, 1, 1, ""},
		{"smtp plain port set as tls", imapAddr, smtpSrv.addr, "imap-pw", "smtp-pw", 2,
			[]string{"smtp.addr: " + smtpSrv.addr + ": smtp tls: tls: first record does not look like a TLS handshake; check smtp.tls and the port of smtp.addr"},
			nil, 0, 0, "tls"},
		{"servers not answering", nobody, nobody, "imap-pw", "smtp-pw", 0,
			[]string{"imap: no login to " + nobody, "smtp: no login to " + nobody, "referee run keeps trying it", "ok"},
			nil, 0, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			smtpSrv.mu.Lock()
			smtpSrv.logins, smtpSrv.mails = 0, 0
			smtpSrv.transcript.Reset()
			smtpSrv.mu.Unlock()
			dir := t.TempDir()
			if tc.smtpTLS == "" {
				tc.smtpTLS = "none"
			}
			conf := "imap: {addr: '" + tc.imap + "', tls: none, user: referee@example.test, password: " + tc.imapPW + "}\n" +
				"smtp: {addr: '" + tc.smtp + "', tls: " + tc.smtpTLS + ", user: referee@example.test, password_file: smtp-password}\n"
			os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte(conf), 0o600)
			os.WriteFile(filepath.Join(dir, "smtp-password"), []byte(tc.smtpPW+"\n"), 0o600)
			code, out, errs := runCmd(t, dir, "check")
			if code != tc.code {
				t.Errorf("exit %d, want %d: %s%s", code, tc.code, out, errs)
			}
			wants(t, "check's output", out, tc.want...)
			for _, s := range tc.dontWant {
				if strings.Contains(out+errs, s) {
					t.Errorf("check's output holds %q:\n%s%s", s, out, errs)
				}
			}
			smtpSrv.mu.Lock()
			defer smtpSrv.mu.Unlock()
			quits := strings.Count(smtpSrv.transcript.String(), "QUIT\r\n")
			if smtpSrv.logins != tc.logins || quits != tc.quits || smtpSrv.mails != 0 {
				t.Errorf("the SMTP server saw %d logins, %d QUITs, %d mails; want %d, %d, 0", smtpSrv.logins, quits, smtpSrv.mails, tc.logins, tc.quits)
			}
			if code, out, errs := runCmd(t, dir, "check", "--no-login"); code != 0 || strings.Contains(out, "smtp") {
				t.Errorf("check --no-login: exit %d, %s%s", code, out, errs)
			}
		})
	}
}

// TestCheckLogsInToBothAtOnce: check tries the IMAP and the SMTP server at
// once, so that two servers that accept and never answer cost one wait,
// not two (30 seconds each, one after the other, before). Each server
// here holds the connection it accepts; the check's context is cancelled
// once both have one, which a check trying them in turn never reaches
// before the test's deadline.
func TestCheckLogsInToBothAtOnce(t *testing.T) {
	accepted := make(chan string, 2)
	silent := func(name string) string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		go func() {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
			accepted <- name
		}()
		return ln.Addr().String()
	}
	imapAddr, smtpAddr := silent("imap"), silent("smtp")
	dir := t.TempDir()
	conf := "imap: {addr: '" + imapAddr + "', tls: none, user: referee@example.test, password: imap-pw}\n" +
		"smtp: {addr: '" + smtpAddr + "', tls: none, user: referee@example.test, password: smtp-pw}\n"
	path := filepath.Join(dir, "referee.yaml")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(path, true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for range 2 {
			<-accepted
		}
		cancel()
	}()
	var out strings.Builder
	done := make(chan []string)
	go func() { done <- checkServers(ctx, cfg, &out, time.Hour) }()
	select {
	case p := <-done:
		if len(p) != 0 {
			t.Errorf("problems %q; want none (servers that do not answer are no problem)", p)
		}
	case <-time.After(testdeadline.Left(t)):
		t.Fatal("check did not try both servers at once: the second never saw a connection while the first held its own")
	}
	imapAt, smtpAt := strings.Index(out.String(), "imap: no login to "+imapAddr), strings.Index(out.String(), "smtp: no login to "+smtpAddr)
	if imapAt < 0 || smtpAt < imapAt {
		t.Errorf("check's output, want the IMAP server's line and then the SMTP server's:\n%s", out.String())
	}
}

// listenTLS is a listener on loopback that speaks TLS from the first byte,
// with a certificate of its own for 127.0.0.1 that nobody trusts.
func listenTLS(t *testing.T) net.Listener {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}})
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// TestCheckNamesATLSPortSetPlain: a port that speaks TLS from the first
// byte (993, 465) set as starttls or none waits for the client's handshake
// and says nothing, so the login timed out and check read it as a server
// that does not answer ("no login to ...; referee run keeps trying it")
// and said ok, the configuration being wrong. Check now looks whether the
// port speaks TLS, and if it does that is a problem of the configuration
// naming imap.tls or smtp.tls (exit 2). A server that does not answer at
// all is still no problem.
func TestCheckNamesATLSPortSetPlain(t *testing.T) {
	imapAddr := startLoginIMAPOn(t, "imap-pw", listenTLS(t))
	smtpAddr := startLoginSMTPOn(t, "smtp-pw", listenTLS(t)).addr
	path := filepath.Join(t.TempDir(), "referee.yaml")
	conf := "imap: {addr: '" + imapAddr + "', tls: starttls, user: referee@example.test, password: imap-pw}\n" +
		"smtp: {addr: '" + smtpAddr + "', tls: none, user: referee@example.test, password: smtp-pw}\n"
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(path, true)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	// Two seconds for the greeting that never comes.
	p := checkServers(context.Background(), cfg, &out, 2*time.Second)
	wants(t, "check's problems", strings.Join(p, "\n"),
		"imap.addr: "+imapAddr+": ", "; the server speaks TLS from the first byte there, and imap.tls is starttls: check imap.tls (tls for such a port) and the port of imap.addr",
		"smtp.addr: "+smtpAddr+": ", "; the server speaks TLS from the first byte there, and smtp.tls is none: check smtp.tls (tls for such a port) and the port of smtp.addr")
	if len(p) != 2 || strings.Contains(out.String(), "no login to") || strings.Contains(out.String()+strings.Join(p, ""), "-pw") {
		t.Errorf("check's problems %q and output %q: want the two above, no server read as not answering, no password", p, out.String())
	}
}

// TestCheckSaysBothServersProblems: an SMTP password file that cannot be
// read (here a directory: it exists, so the configuration's own check
// passes it) is a problem, and the IMAP server is tried all the same, its
// wrong password a problem beside it: every problem at once. Since the
// logins ran at once the unreadable file returned before the IMAP login,
// and check said nothing of the IMAP server.
func TestCheckSaysBothServersProblems(t *testing.T) {
	imapAddr := startLoginIMAP(t, "imap-pw")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "smtp-password"), 0o700); err != nil {
		t.Fatal(err)
	}
	conf := "imap: {addr: '" + imapAddr + "', tls: none, user: referee@example.test, password: wrong-imap-pw}\n" +
		"smtp: {addr: '127.0.0.1:25', tls: none, user: referee@example.test, password_file: smtp-password}\n"
	if err := os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, dir, "check")
	if code != 2 {
		t.Errorf("exit %d, want 2: %s%s", code, out, errs)
	}
	wants(t, "check's output", out, "imap.addr: "+imapAddr+": imap login as referee@example.test:", "read password file:")
	if strings.Contains(out+errs, "wrong-imap-pw") {
		t.Errorf("check's output holds the password:\n%s%s", out, errs)
	}
}
