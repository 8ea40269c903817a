package mailin

import (
	"crypto/tls"
	"net"
	"testing"

	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// TestIMAPTLSMismatchNamesTheSettings: a TLS that does not match the
// configuration (a plain port set as tls, a certificate the referee does
// not trust, a server without STARTTLS set as starttls) is logged at the
// error level as such, naming the settings to check, where it read "imap
// connection lost; reconnecting" at the warning level with the x509 or
// record error inside.
func TestIMAPTLSMismatchNamesTheSettings(t *testing.T) {
	cert, _ := selfSigned(t)
	serverTLS := &tls.Config{Certificates: []tls.Certificate{cert}}
	for _, tc := range []struct {
		name   string
		server func(*testServer) // before start
		mode   string
		err    string // in the err of the log line
		check  string // the start of the settings the log line names
	}{
		{"plain port set as tls", func(*testServer) {}, "tls",
			"first record does not look like a TLS handshake", "imap.tls and the port of imap.addr"},
		{"certificate not trusted", func(s *testServer) { s.tls = serverTLS }, "tls",
			"certificate signed by unknown authority", "ca_file"},
		{"no starttls", func(*testServer) {}, "starttls",
			"imap starttls", "imap.tls: the server refused STARTTLS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &testServer{t: t, mem: imapmemserver.New(), user: imapmemserver.NewUser("referee@example.test", "pw")}
			s.user.Create("INBOX", nil)
			s.mem.AddUser(s.user)
			tc.server(s)
			s.start()
			t.Cleanup(s.stop)
			cfg := s.config()
			cfg.TLS = tc.mode
			_, port, _ := net.SplitHostPort(s.addr)
			cfg.Addr = "localhost:" + port
			checkRefusalLogged(t, cfg, "imap TLS with the server failed; retrying", tc.err, tc.check)
		})
	}
}
