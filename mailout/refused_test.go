package mailout

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// TestLoginRefused: the server answers AUTH with 535 (a wrong password).
// The send fails as temporary (the notice is not at fault) and as a
// refused login (IsAuthRefused); the log says so once at the error level,
// with the server's words and the settings to check, never the password;
// while the hold lasts the next send tries no login (no new connection);
// once it is over, the next send logs in again.
func TestLoginRefused(t *testing.T) {
	r := startRecorder(t, false, nil)
	var logged bytes.Buffer
	s := NewSender(SMTPConfig{Addr: r.addr, TLS: TLSNone, User: "player", Password: "wrong", RefusedWait: time.Minute},
		slog.New(slog.NewTextHandler(&logged, nil)))
	raw := []byte("Subject: x\r\n\r\nbody\r\n")
	send := func() error {
		t.Helper()
		err := s.Send(context.Background(), "referee@example.test", []string{"a@example.test"}, raw)
		if err == nil {
			t.Fatal("Send succeeded with a wrong password")
		}
		if IsPermanent(err) {
			t.Errorf("IsPermanent(%v) = true, want a temporary failure", err)
		}
		if !IsAuthRefused(err) {
			t.Errorf("IsAuthRefused(%v) = false", err)
		}
		return err
	}
	send()
	log := logged.String()
	if n := strings.Count(log, "\n"); n != 1 {
		t.Errorf("%d log lines, want 1:\n%s", n, log)
	}
	for _, want := range []string{"level=ERROR", "smtp server refused the referee's login; retrying", `check="smtp.user and its password"`, "bad credentials", "user=player", "retry_in=1m0s"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "wrong") {
		t.Errorf("the log shows the password:\n%s", log)
	}

	// Held: no login, no connection, nothing more logged.
	r.mu.Lock()
	before := r.sessions
	r.mu.Unlock()
	if err := send(); !strings.Contains(err.Error(), "no login tried before") {
		t.Errorf("held send: %v", err)
	}
	r.mu.Lock()
	after := r.sessions
	r.mu.Unlock()
	if after != before {
		t.Errorf("%d connections while the login is held, want none", after-before)
	}
	if logged.String() != log {
		t.Errorf("the held send logged:\n%s", logged.String()[len(log):])
	}

	// The hold over, the next send logs in again (and is refused again,
	// the wait doubled).
	s.mu.Lock()
	s.loginAt = time.Now()
	s.mu.Unlock()
	send()
	r.mu.Lock()
	after = r.sessions
	r.mu.Unlock()
	if after != before+1 {
		t.Errorf("%d connections after the hold, want 1", after-before)
	}
	if !strings.Contains(logged.String()[len(log):], "retry_in=2m0s") {
		t.Errorf("the second refusal does not double the wait:\n%s", logged.String()[len(log):])
	}
}

// TestIsAuthRefused: only a 5xx answer to AUTH is a refused login.
func TestIsAuthRefused(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{classify("auth", "", &smtpError535), true},
		{classify("auth", "", &smtpError454), false},
		{classify("rcpt", "a@example.test", &smtpError535), false},
		{nil, false},
	} {
		if got := IsAuthRefused(tc.err); got != tc.want {
			t.Errorf("IsAuthRefused(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

var (
	smtpError535 = smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "bad credentials"}
	smtpError454 = smtp.SMTPError{Code: 454, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "try later"}
)

// TestTLSMismatchNamesTheSettings: a TLS that does not match the
// configuration (a plain port set as tls, a certificate the referee does
// not trust, a server without STARTTLS set as starttls) is said at the
// error level, naming the settings to check (SettingsToCheck too), where
// it read "smtp failed" at the warning level like a lost connection. It
// stays temporary.
func TestTLSMismatchNamesTheSettings(t *testing.T) {
	starttls := startRecorder(t, false, nil) // STARTTLS offered, a certificate not trusted
	noTLS := startWithoutTLS(t)

	for _, tc := range []struct {
		name  string
		cfg   SMTPConfig
		err   string // in the err of the log line
		check string // the start of the settings named
	}{
		{"plain port set as tls", SMTPConfig{Addr: noTLS, TLS: TLSImplicit},
			"first record does not look like a TLS handshake", "smtp.tls and the port of smtp.addr"},
		{"certificate not trusted", SMTPConfig{Addr: starttls.addr, TLS: TLSStart},
			"certificate signed by unknown authority", "ca_file"},
		{"no starttls", SMTPConfig{Addr: noTLS, TLS: TLSStart},
			"STARTTLS", "smtp.tls: the server offers no STARTTLS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logged bytes.Buffer
			s := NewSender(tc.cfg, slog.New(slog.NewTextHandler(&logged, nil)))
			err := s.Send(context.Background(), "referee@example.test", []string{"a@example.test"}, []byte("Subject: x\r\n\r\nbody\r\n"))
			if err == nil {
				t.Fatal("Send succeeded")
			}
			if IsPermanent(err) {
				t.Errorf("IsPermanent(%v) = true, want a temporary failure", err)
			}
			if got := SettingsToCheck(err); !strings.HasPrefix(got, tc.check) {
				t.Errorf("SettingsToCheck(%v) = %q, want %q...", err, got, tc.check)
			}
			log := logged.String()
			if n := strings.Count(log, "\n"); n != 1 {
				t.Errorf("%d log lines, want 1:\n%s", n, log)
			}
			for _, want := range []string{"level=ERROR", "smtp TLS with the server failed; retrying", tc.err, `check="` + tc.check} {
				if !strings.Contains(log, want) {
					t.Errorf("the log lacks %q:\n%s", want, log)
				}
			}
		})
	}
	t.Run("password without TLS off loopback", func(t *testing.T) {
		// A server on an address of this machine's that is not loopback,
		// which the sender takes for another host's.
		ip := nonLoopbackIP(t)
		l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
		if err != nil {
			t.Skipf("no listening on %s: %v", ip, err)
		}
		srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &recSession{r: &recorder{}, c: c}, nil }))
		srv.ErrorLog = log.New(io.Discard, "", 0)
		srv.AllowInsecureAuth = true
		done := make(chan struct{})
		go func() { srv.Serve(l); close(done) }()
		t.Cleanup(func() { srv.Close(); l.Close(); <-done })
		var logged bytes.Buffer
		s := NewSender(SMTPConfig{Addr: l.Addr().String(), TLS: TLSNone, User: "referee", Password: "sekrit-pw"}, slog.New(slog.NewTextHandler(&logged, nil)))
		err = s.Send(context.Background(), "referee@example.test", []string{"a@example.test"}, []byte("Subject: x\r\n\r\nbody\r\n"))
		if err == nil || IsPermanent(err) {
			t.Fatalf("Send: %v, want a temporary failure", err)
		}
		log := logged.String()
		for _, want := range []string{"level=ERROR", "smtp password not sent without TLS; retrying", "refusing AUTH PLAIN without TLS", `check="smtp.tls: none is for loopback`} {
			if !strings.Contains(log, want) {
				t.Errorf("the log lacks %q:\n%s", want, log)
			}
		}
		if strings.Contains(log, "sekrit-pw") {
			t.Errorf("the log holds the password:\n%s", log)
		}
	})
	if got := SettingsToCheck(classify("dial", "", errors.New("connection refused"))); got != "" {
		t.Errorf("SettingsToCheck of a refused connection = %q, want none", got)
	}
}

// nonLoopbackIP is an IPv4 address of this machine's that is not loopback;
// the test is skipped on a machine with none.
func nonLoopbackIP(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skipf("no interface addresses: %v", err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	t.Skip("no address but loopback")
	return ""
}
