package main

import (
	"fmt"
	"io"
	"net/smtp"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/contract/store"
)

// submitTo sends a message whose header says To: headerTo to the envelope
// recipients rcpts, as a mail client does with To and Cc (or Bcc).
func submitTo(t *testing.T, addr, from, headerTo string, rcpts []string, subject, msgid, body string) {
	t.Helper()
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, headerTo, subject, msgid, time.Now().UTC().Format(time.RFC1123Z), body)
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Mail(from); err != nil {
		t.Fatal(err)
	}
	for _, r := range rcpts {
		if err := c.Rcpt(r); err != nil {
			t.Fatal(err)
		}
	}
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, raw)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	c.Quit()
}

// oneLine is a mail with its line breaks and runs of spaces made one space,
// so that wrapped text can be looked for.
func oneLine(m string) string { return strings.Join(strings.Fields(m), " ") }

// TestHeldDirectCopyOverHub: public actions count from the list's copy (G4,
// amended), over the embedded hub. Alice posts to the list with the
// referee in copy: the referee gets her direct copy and the list's, and
// applies the join once, with one receipt. Bob writes To: the list but
// sends to the referee alone: nothing is applied, he gets nothing at
// first, and once lists.list_wait has run out on the referee's clock he is
// told that the list never carried his message.
func TestHeldDirectCopyOverHub(t *testing.T) {
	// An hour of the referee's clock is a second of real time.
	d := startHubDaemon(t, "lists:\n  list_wait: 1h\n", "--clock-start", "2026-12-01T10:00:00Z", "--clock-rate", "3600")
	alice := openMailbox(t, d.imapAddr, "alice@example.test")
	bob := openMailbox(t, d.imapAddr, "bob@example.test")
	from := d.stderr.Len()
	submitTo(t, d.smtpAddr, "bob@example.test", businessList, []string{"referee@example.test"}, "BUS: joining", "bob-1@example.test", "I join the Life contest.")
	held := d.stderr.waitFor(t, from, "Bob's direct copy held", func(s string) bool {
		return strings.Contains(s, "outcome=held msgid=bob-1@example.test")
	})
	if strings.Contains(held, "outcome=applied msgid=bob-1@example.test") {
		t.Errorf("Bob's direct copy was applied:\n%s", held)
	}
	submitTo(t, d.smtpAddr, "alice@example.test", businessList, []string{businessList, "referee@example.test"}, "BUS: joining", "alice-1@example.test", "I join the Life contest.")
	alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <alice-1@example.test>") })

	reply := bob.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <bob-1@example.test>") })
	wants(t, "the reply to Bob", oneLine(reply), "named a public list, but the list's copy of it did not reach the referee within 1 hour",
		"so the list never carried it and nothing in it was performed: public actions count from the list's copy (G4)")
	// The reply is dated an hour or more after Bob's message.
	date := regexp.MustCompile(`(?m)^Date: (.+)\r?$`).FindStringSubmatch(reply)
	arrived := regexp.MustCompile(`Your message of (\d{4}-\d\d-\d\d \d\d:\d\d) UTC`).FindStringSubmatch(oneLine(reply))
	if date == nil || arrived == nil {
		t.Fatalf("the reply has no date or does not say when Bob wrote:\n%s", reply)
	}
	sent, err1 := time.Parse(time.RFC1123Z, strings.TrimSpace(date[1]))
	wrote, err2 := time.Parse("2006-01-02 15:04", arrived[1])
	if err1 != nil || err2 != nil || sent.Sub(wrote) < time.Hour-time.Minute {
		t.Errorf("Bob wrote at %s and was answered at %s: not after the hour's wait (%v, %v)", arrived[1], date[1], err1, err2)
	}
	if got := receiptsIn(t, alice, "alice-1@example.test"); got["alice-1@example.test"] != 1 {
		t.Errorf("Alice got %d receipts for her post, want 1", got["alice-1@example.test"])
	}
	if got := receiptsIn(t, bob, "bob-1@example.test"); got["bob-1@example.test"] != 1 {
		t.Errorf("Bob got %d mails answering his message, want the one reply", got["bob-1@example.test"])
	}
	stopReferee(t, d.runningReferee)
	e, _ := newEngine(&Config{Address: "referee@example.test"})
	s, err := store.Load(e, filepath.Join(d.dir, "data/state.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if p := s.PlayerByAddress("alice@example.test"); p == nil || !p.In("life") {
		t.Errorf("Alice, who posted through the list, is not in Life")
	}
	if p := s.PlayerByAddress("bob@example.test"); p != nil && p.In("life") {
		t.Errorf("Bob, whose post the list never carried, is in Life")
	}
	if len(s.Held) != 0 {
		t.Errorf("copies still held after the wait: %v", s.Held)
	}
	joins := 0
	for _, line := range strings.Split(string(readFile(t, filepath.Join(d.dir, "data/journal.jsonl"))), "\n") {
		if strings.Contains(line, `"msgid":"alice-1@example.test"`) && strings.Contains(line, `"verb":"join"`) {
			joins++
		}
	}
	if joins != 1 {
		t.Errorf("Alice's join is in the journal %d times, want once", joins)
	}
}
