package mailnet

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"io"
	"math/big"
	"net"
	"testing"
	"time"
)

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LocalHost": true, "127.0.0.1": true, "127.1.2.3": true, "::1": true,
		"example.org": false, "10.0.0.1": false, "": false, "localhost.example.org": false,
	} {
		if got := IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestClientTLS(t *testing.T) {
	c := ClientTLS(nil, "mx.example.org")
	if c.ServerName != "mx.example.org" || c.MinVersion != tls.VersionTLS12 {
		t.Errorf("default: %q, min %x", c.ServerName, c.MinVersion)
	}
	base := &tls.Config{ServerName: "named.example.org"}
	if c := ClientTLS(base, "mx.example.org"); c.ServerName != "named.example.org" || c == base {
		t.Errorf("a base's server name is kept, on a copy: %q", c.ServerName)
	}
}

func TestDial(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Write([]byte("220 hello\r\n"))
			c.Close()
		}
	}()
	c, err := Dial(context.Background(), ln.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	buf := make([]byte, 11)
	if _, err := c.Read(buf); err != nil || string(buf) != "220 hello\r\n" {
		t.Errorf("read %q, %v", buf, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Dial(ctx, ln.Addr().String(), 5*time.Second); err == nil {
		t.Error("a dial with an ended context succeeded")
	}
}

// TestSpeaksTLS: a port of implicit TLS answers the probe's handshake; a
// server that greets in plain text, one that says nothing, and a closed
// port do not.
func TestSpeaksTLS(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	serve := func(ln net.Listener, greet string) string {
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go func() {
					defer c.Close()
					if tc, ok := c.(*tls.Conn); ok {
						tc.Handshake()
					}
					c.Write([]byte(greet))
					io.Copy(io.Discard, c)
				}()
			}
		}()
		return ln.Addr().String()
	}
	tlsLn, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}})
	if err != nil {
		t.Fatal(err)
	}
	plainLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	for name, tc := range map[string]struct {
		addr string
		want bool
	}{
		"implicit TLS":    {serve(tlsLn, "* OK IMAP4rev1\r\n"), true},
		"plain greeting":  {serve(plainLn, "* OK IMAP4rev1\r\n"), false},
		"nothing listens": {closedAddr, false},
	} {
		if got := SpeaksTLS(context.Background(), tc.addr, 10*time.Second); got != tc.want {
			t.Errorf("%s: SpeaksTLS = %v, want %v", name, got, tc.want)
		}
	}
	t.Run("says nothing", func(t *testing.T) {
		silent, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer silent.Close()
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			c, err := silent.Accept()
			if err == nil {
				defer c.Close()
				c.Read(make([]byte, 1)) // the probe's handshake has begun
				cancel()
			}
		}()
		if SpeaksTLS(ctx, silent.Addr().String(), time.Hour) {
			t.Error("a server that says nothing speaks TLS")
		}
	})
}
