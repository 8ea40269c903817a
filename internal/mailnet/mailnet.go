// Package mailnet is the plumbing mailin and mailout share to reach a mail
// server: the TLS modes, the loopback test that guards plain text, the TLS
// configuration of a client and the TCP dial. It knows nothing of the games.
package mailnet

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strings"
	"time"
)

// The TLS modes of a connection to a mail server.
const (
	TLSImplicit = "tls"      // RFC 8314 3.3: TLS from the first byte (ports 993, 465)
	TLSStart    = "starttls" // RFC 2595, RFC 3207: mandatory; a server without it is an error
	TLSNone     = "none"     // plain text; meant for loopback
)

// IsLoopback reports whether host (a name or an address, no port) is this
// machine: "localhost" in any case (host names ignore case, RFC 4343) or a
// loopback address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ClientTLS is the TLS configuration of a client of host: a copy of base
// (nil: the system roots, TLS 1.2 at least), naming host as the server
// unless base names one.
func ClientTLS(base *tls.Config, host string) *tls.Config {
	c := &tls.Config{MinVersion: tls.VersionTLS12}
	if base != nil {
		c = base.Clone()
	}
	if c.ServerName == "" {
		c.ServerName = host
	}
	return c
}

// Dial opens a TCP connection to addr (host:port) with keep-alives, giving up
// after timeout or when ctx ends.
func Dial(ctx context.Context, addr string, timeout time.Duration) (net.Conn, error) {
	d := net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}
	return d.DialContext(ctx, "tcp", addr)
}

// TLSCheck names the settings to look at when err is a TLS failure the
// configuration decides rather than the network: a server that does not
// speak TLS where it is configured to (a plain port set as tls: its
// greeting is no TLS record), a certificate that does not verify (an
// authority not trusted, another host's name, expired), or the server's
// refusal of the handshake (a TLS alert: no common version or cipher).
// section is the configuration's, "imap" or "smtp". It is "" for any other
// error (a refused connection, a timeout, a connection reset).
func TLSCheck(err error, section string) string {
	var (
		record  tls.RecordHeaderError
		verify  *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
		op      *net.OpError
	)
	switch {
	case errors.As(err, &record):
		return section + ".tls and the port of " + section + ".addr: the server does not speak TLS from the first byte there (tls wants a port such as " + implicitPort(section) + "; starttls or none a plain one)"
	case errors.As(err, &verify), errors.As(err, &unknown), errors.As(err, &host), errors.As(err, &invalid):
		return "ca_file (the authority of the server's certificate), and that the host of " + section + ".addr is a name the certificate holds"
	case errors.As(err, &op) && op.Op == "remote error":
		// crypto/tls reports an alert from the server so.
		return section + ".tls: the server refused the TLS handshake"
	}
	return ""
}

// implicitPort is the port of implicit TLS for section (RFC 8314 3.3).
func implicitPort(section string) string {
	if section == "smtp" {
		return "465"
	}
	return "993"
}

// SpeaksTLS reports whether the server at addr answers a TLS handshake from
// the first byte (a port of implicit TLS, such as 993 or 465), within
// timeout or until ctx ends. It is for telling an operator why a client set
// to starttls or none got no greeting there: such a server waits for the
// client's handshake and says nothing. Whether the certificate verifies does
// not matter here (the probe sends nothing after the handshake); a server
// that greets in plain text, or does not answer, does not speak TLS.
func SpeaksTLS(ctx context.Context, addr string, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := Dial(ctx, addr, timeout)
	if err != nil {
		return false
	}
	defer conn.Close()
	host, _, _ := net.SplitHostPort(addr)
	c := tls.Client(conn, &tls.Config{ServerName: host, InsecureSkipVerify: true, MinVersion: tls.VersionTLS10})
	err = c.HandshakeContext(ctx)
	var op *net.OpError
	switch {
	case err == nil:
		return true
	case errors.As(err, &op) && op.Op == "remote error":
		// A TLS alert: the server speaks TLS and refused this handshake.
		return true
	}
	return false
}
