// Package mailnet is the plumbing mailin and mailout share to reach a mail
// server: the TLS modes, the loopback test that guards plain text, the TLS
// configuration of a client and the TCP dial. It knows nothing of the games.
package mailnet

import (
	"context"
	"crypto/tls"
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
