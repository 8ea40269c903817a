//go:build e2e

package e2e

import (
	"testing"
	"time"
)

// Scenario 4: Dovecot is stopped and started again under the running daemon.
// The daemon loses its IMAP connection (and, since submission authenticates
// through Dovecot, its SMTP too), reconnects, and loses nothing: a mail that
// arrives during the outage and one sent after it both get their receipts,
// and each action is applied once.
func TestDovecotRestart(t *testing.T) {
	web := freeAddr(t)
	r := newReferee(t, "web: {addr: \""+web+"\"}")
	d := r.run()
	p1 := ms.players[0]
	joinLife(t, p1)
	if n := metric(t, web, "referee_imap_reconnects_total"); n != 0 {
		t.Errorf("referee_imap_reconnects_total = %v after the first connection, want 0", n)
	}

	start := time.Now()
	ms.dovecotStop(t)
	t.Logf("dovecot stopped in %v", time.Since(start).Round(time.Millisecond))
	// Submission needs Dovecot's SASL: during the outage the mail comes in
	// as from another MTA, through the plain SMTP port, and waits in
	// Postfix's queue.
	during := sendRelay(t, p1, &outMail{to: []string{ms.businessList}, subject: "Claim during", body: "I claim cell (20, 20) in Life.\n"})[0]
	ms.dovecotStart(t)
	start = time.Now()
	after := sendOne(t, p1, &outMail{to: []string{ms.businessList}, subject: "Claim after", body: "I claim cell (30, 30) in Life.\n"})

	mb := openMailbox(t, p1)
	checkReceipt(t, mb.waitReply(2*receiptTimeout, during), "Claim during", p1)
	checkReceipt(t, mb.waitReply(2*receiptTimeout, after), "Claim after", p1)
	t.Logf("both receipts %v after Dovecot's restart", time.Since(start).Round(time.Millisecond))
	d.mustBeRunning()
	// The reconnection is counted for the operator's alerts: the first
	// connection is not one, the one after the restart is.
	if n := metric(t, web, "referee_imap_reconnects_total"); n < 1 {
		t.Errorf("referee_imap_reconnects_total = %v after Dovecot's restart, want at least 1", n)
	}
	d.stop()

	j := r.journal()
	for name, id := range map[string]string{"during": during, "after": after} {
		if got := applied(j, id); len(got) != 1 {
			t.Errorf("claim %s the outage (<%s>): applied %d times, want once", name, id, len(got))
		}
	}
}
