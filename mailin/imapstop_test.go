package mailin

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// silentServer accepts connections, says greeting if any, and nothing
// more: an IMAP server hung, or a port whose service is down behind a
// proxy that still accepts. It counts the connections, and signals
// arrived once the client has written to one (so is waiting for an
// answer: the TLS handshake's, STARTTLS's, or LOGIN's after the
// greeting).
type silentServer struct {
	addr    string
	accepts atomic.Int32
	arrived chan struct{}
}

func startSilentServer(t *testing.T, greeting string) *silentServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &silentServer{addr: ln.Addr().String(), arrived: make(chan struct{}, 1)}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			s.accepts.Add(1)
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.Write([]byte(greeting))
				if _, err := c.Read(make([]byte, 1)); err == nil {
					select {
					case s.arrived <- struct{}{}:
					default:
					}
				}
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return s
}

// TestIMAPRunStopsWhileUnreachable: a stop (SIGTERM: the context
// cancelled) while the IMAP server cannot be had ends Run at once,
// whatever it is waiting for: the answer to its login, its STARTTLS or its
// TLS handshake from a server that accepts and says nothing, or the wait
// before the next attempt after a refused connection; and no connection
// is tried after the stop. The waits are set to an hour, so only the context can end
// them before the test's deadline.
func TestIMAPRunStopsWhileUnreachable(t *testing.T) {
	oldCmd, oldDial := cmdTimeout, dialTimeout
	cmdTimeout, dialTimeout = time.Hour, time.Hour
	t.Cleanup(func() { cmdTimeout, dialTimeout = oldCmd, oldDial })
	// Generous for what takes milliseconds, and shorter than the 30 s
	// that bound a TLS handshake.
	limit := min(waitLimit(t), 20*time.Second)

	for mode, greeting := range map[string]string{
		"none":     "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n", // then no answer to LOGIN
		"tls":      "",                                                 // no answer to the ClientHello
		"starttls": "",                                                 // no answer to STARTTLS
	} {
		t.Run("silent server, "+mode, func(t *testing.T) {
			s := startSilentServer(t, greeting)
			cfg := &IMAPConfig{Addr: s.addr, TLS: mode, User: "referee@example.test", Password: "pw", MaxBackoff: time.Hour}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- cfg.Run(ctx, Checkpoint{}, newCollector().apply) }()
			select {
			case <-s.arrived:
			case <-time.After(limit):
				t.Fatal("Run did not connect")
			}
			stopRun(t, cancel, done, limit)
			if n := s.accepts.Load(); n != 1 {
				t.Errorf("%d connections, want 1 (none after the stop)", n)
			}
		})
	}

	t.Run("refused connection, in the backoff", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close() // nothing answers there now
		w := newLogWatch()
		cfg := &IMAPConfig{Addr: addr, TLS: "none", User: "referee@example.test", Password: "pw", MaxBackoff: time.Hour, Logger: w.logger()}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- cfg.Run(ctx, Checkpoint{}, newCollector().apply) }()
		w.waitFor(t, "retry_in=", 1) // the first attempt failed: waiting a second
		stopRun(t, cancel, done, limit)
		if n := strings.Count(w.String(), "retry_in="); n != 1 {
			t.Errorf("%d attempts logged, want 1 (none after the stop):\n%s", n, w.String())
		}
	})
}

// stopRun cancels Run's context and checks that Run, whose error comes on
// done, returns context.Canceled within limit.
func stopRun(t *testing.T, cancel context.CancelFunc, done <-chan error, limit time.Duration) {
	t.Helper()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
	case <-time.After(limit):
		t.Fatalf("Run did not return within %v of the cancel", limit)
	}
}
