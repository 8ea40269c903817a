//go:build e2e

package e2e

import (
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
)

// TestStackLists checks the stack the other tests stand on, with no referee:
// a player's mail to each list reaches every member over IMAP, carrying the
// list's List-Id (RFC 2919).
func TestStackLists(t *testing.T) {
	clearMailboxes(t)
	lists := []struct{ addr, listID string }{
		{ms.businessList, "<agora-business.example.test>"},
		{ms.officialList, "<agora-official.example.test>"},
		{ms.discussList, "<agora-discussion.example.test>"},
	}
	ids := map[string]string{} // list -> Message-ID
	for _, l := range lists {
		ids[l.addr] = sendOne(t, ms.players[0], &outMail{
			to: []string{l.addr}, subject: "Hello " + l.addr, body: "Hello, list.\n",
		})
	}
	for _, u := range ms.everyone() {
		mb := openMailbox(t, u)
		got := mb.waitFor(10*time.Second, "the three list mails", func(mails []*inMail) bool {
			n := 0
			for _, m := range mails {
				for _, id := range ids {
					if m.msgID == id {
						n++
					}
				}
			}
			return n == len(ids)
		})
		for _, l := range lists {
			for _, m := range got {
				if m.msgID == ids[l.addr] && m.listID != l.listID {
					t.Errorf("%s: mail to %s has List-Id %q, want %q", u, l.addr, m.listID, l.listID)
				}
			}
		}
	}
}

// TestStackDovecotRestart checks the restart the daemon tests rely on: mail
// that Postfix accepts while Dovecot is down is delivered once it is back,
// and IMAP and submission work again.
func TestStackDovecotRestart(t *testing.T) {
	clearMailboxes(t)
	ms.dovecotStop(t)
	during := sendRelay(t, ms.players[0], &outMail{to: []string{ms.players[1]}, subject: "during", body: "Sent during the outage.\n"})[0]
	ms.dovecotStart(t)
	after := sendOne(t, ms.players[0], &outMail{to: []string{ms.players[1]}, subject: "after", body: "Sent after the outage.\n"})
	mb := openMailbox(t, ms.players[1])
	mb.waitFor(30*time.Second, "both mails", func(mails []*inMail) bool {
		n := 0
		for _, m := range mails {
			if m.msgID == during || m.msgID == after {
				n++
			}
		}
		return n == 2
	})
}

// TestStackIMAPS checks the implicit-TLS IMAP port with the stack's CA, and
// that a wrong password is refused.
func TestStackIMAPS(t *testing.T) {
	c, err := imapclient.DialTLS(ms.imapsAddr, &imapclient.Options{TLSConfig: ms.tls.Clone()})
	if err != nil {
		t.Fatalf("imaps dial %s: %v", ms.imapsAddr, err)
	}
	defer c.Close()
	if err := c.Login(ms.players[0], ms.password+"x").Wait(); err == nil {
		t.Errorf("imaps login with a wrong password succeeded")
	}
	if err := c.Login(ms.players[0], ms.password).Wait(); err != nil {
		t.Fatalf("imaps login: %v", err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatalf("imaps select: %v", err)
	}
	if err := c.Logout().Wait(); err != nil {
		t.Errorf("imaps logout: %v", err)
	}
}
