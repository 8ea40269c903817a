package mailin

import (
	"errors"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestIMAPDialTimeout: a host that never answers the connect is given up
// after dialTimeout, and the operator is told and the dial tried again,
// rather than waiting on the kernel's SYN retries. The host is a listener
// with a backlog of 0 whose accept queue one connection fills: Linux then
// drops each further SYN.
func TestIMAPDialTimeout(t *testing.T) {
	old := dialTimeout
	dialTimeout = 50 * time.Millisecond
	t.Cleanup(func() { dialTimeout = old }) // runs after Run is stopped (cleanups run last-in first-out)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	rc, err := ln.(*net.TCPListener).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) { lerr = syscall.Listen(int(fd), 0) }); err != nil || lerr != nil {
		t.Fatal(errors.Join(err, lerr))
	}
	filler, err := net.Dial("tcp", ln.Addr().String()) // never accepted
	if err != nil {
		t.Fatal(err)
	}
	defer filler.Close()

	logs := newLogWatch()
	cfg := &IMAPConfig{Addr: ln.Addr().String(), TLS: "none", User: "referee@example.test", Password: "pw", MaxBackoff: 10 * time.Millisecond, Logger: logs.logger()}
	c := newCollector()
	stop, _ := runInBackground(t, cfg, Checkpoint{}, c.apply)
	logs.waitFor(t, "imap dial", 2) // the first dial given up, and the next
	stop()
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(line, "imap dial") && (!strings.Contains(line, "connection lost; reconnecting") || !strings.Contains(line, "i/o timeout")) {
			t.Errorf("want each dial's timeout logged as a lost connection retried: %s", line)
		}
	}
}
