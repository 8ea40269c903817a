package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	netsmtp "net/smtp"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/store"
	"referee/internal/bridge"
	"referee/internal/testdeadline"
	"referee/internal/web"
	"referee/mailhub"
	"referee/mailin"
	"referee/mailout"
)

// TestStoppedJournalEndToEnd: a player's mail over a real IMAP and SMTP
// server (the embedded hub) is applied, and the snapshot it starts meets a
// failed sync of the journal. The referee says it once at the error level,
// stops reading mail (the next message stays on the server, neither
// journaled nor answered), has sent the reply to the mail it applied, and
// the status page says at its top since when it applies no mail,
// without the disk's words or a path; /healthz answers 503 and
// referee_journal_stopped is 1.
func TestStoppedJournalEndToEnd(t *testing.T) {
	const referee = "referee@example.test"
	hub, err := mailhub.Start(mailhub.Options{Users: []string{referee, "alice@example.test"}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	e, err := testEngine(referee)
	if err != nil {
		t.Fatal(err)
	}
	clk := TestClock(time.Now(), 1)
	s, started := startedState(t, e, clk.Now())
	var logged lockedBuffer
	log := slog.New(slog.NewTextHandler(&logged, nil))
	metrics := web.NewMetrics(nil)
	halted := make(chan time.Time, 2)
	sent := make(chan string, 8)
	statePath := filepath.Join(t.TempDir(), "state.yaml")
	d, err := New(Options{Engine: e, StatePath: statePath, State: s, Started: started, Clock: clk, Log: log,
		Mail:      &mailin.Config{Referee: referee, PublicLists: []string{"agora-business@example.test"}, OfficialList: "agora-official@example.test", AuthPolicy: "none"},
		Addresses: bridge.Addresses{Referee: referee, PublicList: "agora-business@example.test", OfficialList: "agora-official@example.test"},
		IMAP:      &mailin.IMAPConfig{Addr: hub.IMAPAddr(), TLS: "none", User: referee, Password: "x", Mailbox: "INBOX", Logger: log},
		Sender:    mailout.NewSender(mailout.SMTPConfig{Addr: hub.SMTPAddr(), TLS: "none"}, log),
		Hooks: Hooks{
			Halted: func(since time.Time) { metrics.Halted(since); halted <- since },
			Sent: func(o *contract.Outgoing, err error, _ bool) {
				if err == nil {
					sent <- o.ID
				}
			},
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.snapEvery = 1 // the first message's snapshot meets the failure
	defer store.FailSnapshotJournalSync(syscall.EIO)()
	page := httptest.NewServer(web.New(web.Options{Engine: e, View: d.View, Archive: web.OpenArchive(web.SentPath(statePath)),
		Journal: store.JournalPath(statePath), Now: clk.Now, Metrics: metrics, Referee: referee, Stopped: d.Stopped}))
	defer page.Close()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	deadline := testdeadline.Timer(t)
	defer deadline.Stop()

	send := func(id string) {
		raw := fmt.Sprintf("From: Alice <alice@example.test>\r\nTo: %s\r\nSubject: help\r\nMessage-ID: <%s>\r\nDate: %s\r\n\r\nhelp\r\n", referee, id, time.Now().UTC().Format(time.RFC1123Z))
		if err := netsmtp.SendMail(hub.SMTPAddr(), nil, "alice@example.test", []string{referee}, []byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	send("one@example.test")
	var since time.Time
	select {
	case since = <-halted:
	case <-deadline.C:
		t.Fatalf("the journal never stopped; the log:\n%s", logged.String())
	}
	for !strings.Contains(logged.String(), "mail reading stopped") {
		select {
		case <-deadline.C:
			t.Fatalf("the reader did not stop; the log:\n%s", logged.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	for receipt := false; !receipt; {
		select {
		case id := <-sent:
			receipt = id == "help/one@example.test"
		case <-deadline.C:
			t.Fatalf("the receipt of the mail applied was not sent; the log:\n%s", logged.String())
		}
	}
	send("two@example.test")

	get := func(path string, status int) string {
		t.Helper()
		resp, err := http.Get(page.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != status {
			t.Errorf("%s: status %d, want %d:\n%s", path, resp.StatusCode, status, b)
		}
		return string(b)
	}
	stamp := since.UTC().Format("Mon 2006-01-02 15:04 UTC")
	for _, path := range []string{"/", "/game/life", "/journal"} {
		body := get(path, 200)
		if !strings.Contains(body, `id="stopped"`) || !strings.Contains(body, "The referee has stopped applying mail since <time>"+stamp+"</time>") {
			t.Errorf("%s does not say the referee stopped applying mail since %s:\n%s", path, stamp, body)
		}
		for _, secret := range []string{"input/output", "sync-failed", filepath.Dir(statePath)} {
			if strings.Contains(body, secret) {
				t.Errorf("%s shows %q", path, secret)
			}
		}
	}
	if body := get("/healthz", 503); !strings.HasPrefix(body, "stopped: no mail applied since "+since.UTC().Format(time.RFC3339)) {
		t.Errorf("/healthz: %q", body)
	}
	if body := get("/metrics", 200); !strings.Contains(body, "\nreferee_journal_stopped 1\n") {
		t.Errorf("/metrics lacks referee_journal_stopped 1")
	}

	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
	done <- nil
	journal, err := os.ReadFile(store.JournalPath(statePath))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(journal), "two@example.test") {
		t.Errorf("the message sent after the stop is in the journal")
	}
	if n := strings.Count(logged.String(), "level=ERROR"); n != 1 {
		t.Errorf("%d lines at the error level, want the stop's alone:\n%s", n, logged.String())
	}
	if line := logLine(t, logged.String(), "the journal stopped"); !strings.Contains(line, "remove "+store.SyncFailedPath(store.JournalPath(statePath))) {
		t.Errorf("the stop's line does not name the file to remove:\n%s", line)
	}
}
