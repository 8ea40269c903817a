//go:build e2e

package e2e

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// commitmentRE matches a SHA-256 commitment as the referee prints it.
var commitmentRE = regexp.MustCompile(`\b[0-9a-f]{64}\b`)

// Scenario 5: a Rumble sealed bid (Rumble 5, invariant 4). Two players join,
// the contestmaster announces a game, both send their powers privately, then
// player1 bids privately. The bid's private receipt carries the bid and its
// commitment; the business list sees that player1 sealed bids and the same
// commitment, and no public mail shows the bid before its reveal.
func TestRumbleSealedBid(t *testing.T) {
	r := newReferee(t)
	d := r.run()
	p1, p2 := ms.players[0], ms.players[1]
	mb1, mb2, mbCM := openMailbox(t, p1), openMailbox(t, p2), openMailbox(t, ms.cm)

	// act sends an action to the address to and returns its receipt, as mb
	// (the sender's mailbox) shows it.
	act := func(to, from, subject, body string, mb *mailbox) *inMail {
		t.Helper()
		id := sendOne(t, from, &outMail{to: []string{to}, subject: subject, body: body})
		rep := mb.waitReply(receiptTimeout, id)
		checkReceipt(t, rep, subject, from)
		return rep
	}

	act(ms.businessList, p1, "Rumble", "I join the Rumble contest.\n", mb1)
	act(ms.businessList, p2, "Rumble", "I join the Rumble contest.\n", mb2)
	act(ms.businessList, ms.cm, "Rumble begins", "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers.\n", mbCM)
	// Rumble 2: one power each, privately; the phase closes when both are in.
	act(ms.referee, p1, "My power", "Granite Hide: blows glance off me (ward)\n", mb1)
	act(ms.referee, p2, "My power", "Storm Fist: my blows land harder (fury)\n", mb2)

	// Rumble 5: the sealed bid.
	const bid = "Granite Hide: 30"
	rep := act(ms.referee, p1, "My bid", bid+"\n", mb1)
	commitment := commitmentRE.FindString(rep.body)
	if commitment == "" {
		t.Fatalf("bid receipt carries no commitment:\n%s", rep.body)
	}
	if !strings.Contains(rep.body, "Granite Hide") || !strings.Contains(rep.body, "30") {
		t.Errorf("bid receipt does not repeat the bid %q:\n%s", bid, rep.body)
	}

	// The list's copy, as player2 sees it.
	isNotice := func(m *inMail) bool {
		return m.from == ms.referee && strings.Contains(m.subject, "sealed bids from player1")
	}
	got := mb2.waitFor(receiptTimeout, "the public commitment of player1's bids", func(mails []*inMail) bool {
		for _, m := range mails {
			if isNotice(m) {
				return true
			}
		}
		return false
	})
	for _, m := range got {
		if m.from != ms.referee {
			continue
		}
		if isNotice(m) {
			if m.listID != "<agora-business.example.test>" {
				t.Errorf("commitment notice List-Id %q, want it through the business list", m.listID)
			}
			if !strings.Contains(m.body, commitment) {
				t.Errorf("commitment notice does not carry the receipt's commitment %s:\n%s", commitment, m.body)
			}
		}
		// Invariant 4: before the reveal no mail to player2, through a list
		// or private, shows the bid.
		if strings.Contains(m.body, "Granite Hide: 30") || strings.Contains(m.body, "bid: Granite Hide") ||
			(isNotice(m) && strings.Contains(m.body, "Granite Hide")) {
			t.Errorf("mail %q (List-Id %q) shows player1's sealed bid to player2 before its reveal:\n%s", m.subject, m.listID, m.body)
		}
	}
	d.mustBeRunning()
	// Invariant 4 again: the daemon's log (JSON, Info) shows who acted, never
	// what a private submission said.
	logText, err := os.ReadFile(d.log)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"Granite Hide", "Storm Fist", bid} {
		if strings.Contains(string(logText), secret) {
			t.Errorf("the daemon's log shows %q from a private submission", secret)
		}
	}
	t.Logf("bid receipt:\n%s", rep.body)
}
