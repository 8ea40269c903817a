package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"referee/contract"
	"referee/mailin"
	"referee/mailout"
)

// refusingSession answers every AUTH with 535, counting the attempts.
type refusingSession struct {
	replySession
	auths *atomic.Int32
}

func (s *refusingSession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *refusingSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, _, _ string) error {
		s.auths.Add(1)
		return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "authentication credentials invalid"}
	}), nil
}

// TestSMTPLoginRefused: the SMTP server refuses the referee's login (535,
// a wrong password). Two players' messages are applied; their receipts
// stay in the outbox to be retried, none given up; the log says once at
// the error level that the server refused the login, naming the settings
// to check, and the second receipt tries no login of its own while the
// refusal holds.
func TestSMTPLoginRefused(t *testing.T) {
	rs := &replySMTP{}
	var auths atomic.Int32
	addr := serveSMTP(t, smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &refusingSession{replySession: replySession{srv: rs}, auths: &auths}, nil
	}))
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: rs} }, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), 1)
	var logged lockedBuffer
	d.log = slog.New(slog.NewTextHandler(&logged, nil))
	d.sender = mailout.NewSender(mailout.SMTPConfig{Addr: addr, TLS: mailout.TLSNone, User: "referee@example.test", Password: "wrong"}, d.log)
	ctx := context.Background()
	for i, from := range []string{"Alice <alice@example.test>", "Bob <bob@example.test>"} {
		raw := fmt.Sprintf("From: %s\r\nTo: agora-business@example.test\r\nSubject: hello\r\nMessage-ID: <m%d@example.test>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n\r\nI join the Life contest.\r\n", from, i)
		if err := d.apply(ctx, &mailin.Raw{Data: []byte(raw), Arrived: time.Now(), UID: uint32(i + 1)}, contract.Checkpoint{UIDValidity: 1, LastUID: uint32(i + 1)}); err != nil {
			t.Fatal(err)
		}
		d.preparing.Wait()
	}
	d.mu.Lock()
	var receipts []string
	for _, o := range d.s.Outbox {
		if o.Kind == "receipt" {
			receipts = append(receipts, o.ID)
			if o.Attempts != 1 || !strings.Contains(o.LastError, "535") {
				t.Errorf("%s: %d attempts, last error %q; want 1 attempt refused with 535", o.ID, o.Attempts, o.LastError)
			}
		}
	}
	failed := len(d.s.Failed)
	d.mu.Unlock()
	if len(receipts) != 2 || failed != 0 {
		t.Errorf("receipts in the outbox %v, %d failed for good; want both to be retried", receipts, failed)
	}
	if n := auths.Load(); n != 1 {
		t.Errorf("%d logins tried, want 1 (the second held)", n)
	}
	log := logged.String()
	if n := strings.Count(log, "level=ERROR"); n != 1 {
		t.Errorf("%d lines at the error level, want 1:\n%s", n, log)
	}
	line := logLine(t, log, "smtp server refused the referee's login; retrying")
	for _, want := range []string{"level=ERROR", `check="smtp.user and its password"`, "authentication credentials invalid"} {
		if !strings.Contains(line, want) {
			t.Errorf("the log line lacks %q:\n%s", want, line)
		}
	}
	if strings.Contains(log, "wrong") {
		t.Errorf("the log shows the password:\n%s", log)
	}
	if got := rs.replies(); len(got) != 0 {
		t.Errorf("delivered %v though the login was refused", got)
	}
}
