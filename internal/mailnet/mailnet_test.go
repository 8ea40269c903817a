package mailnet

import (
	"context"
	"crypto/tls"
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
