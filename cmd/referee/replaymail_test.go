package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/mailhub"
)

// TestReplayNeedsNoSMTP: a replay sends nothing, so a configuration with
// an IMAP server and no SMTP server (no smtp.addr, an smtp.password_file
// that is not there) replays an imap:FOLDER and an mbox, where both were
// refused for smtp.addr; an imap:FOLDER without imap.user is still refused
// naming it, and an mbox is replayed without it. referee run, which sends,
// and check, which checks the configuration for run, still require
// smtp.addr.
func TestReplayNeedsNoSMTP(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	hub, err := mailhub.Start(mailhub.Options{Users: []string{"store@example.test"}, Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	msg := mboxMessage("alice@example.test", "a1@example.test", at)
	if err := hub.Deliver("alice@example.test", []string{"store@example.test"}, []byte(msg[strings.Index(msg, "\n")+1:])); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	arch := filepath.Join(dir, "in.mbox")
	os.WriteFile(arch, []byte(mboxMessage("bob@example.test", "b1@example.test", at.Add(time.Hour))), 0o600)
	imap := "imap: {addr: '" + hub.IMAPAddr() + "', tls: none, user: store@example.test, password: x}\n"
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte(imap+"smtp: {password_file: /nonexistent/smtp}\n"), 0o600)
	code, out, errs := runCmd(t, dir, "replay", "imap:INBOX", arch)
	if code != 0 || !strings.Contains(out, "2 messages applied") {
		t.Fatalf("replay imap:INBOX and an mbox with no SMTP server configured: exit %d, %s%s", code, out, errs)
	}
	for _, args := range [][]string{{"run"}, {"check"}} {
		if code, out, errs := runCmd(t, dir, args...); code != 2 || !strings.Contains(out+errs, "smtp.addr: required when imap.addr is set") {
			t.Errorf("%s with no SMTP server configured: exit %d, %s%s; want 2 and smtp.addr required", args[0], code, out, errs)
		}
	}

	noUser := t.TempDir()
	os.WriteFile(filepath.Join(noUser, "referee.yaml"), []byte("imap: {addr: '"+hub.IMAPAddr()+"', tls: none}\n"), 0o600)
	code, out, errs = runCmd(t, noUser, "replay", "imap:INBOX")
	if code != 2 || !strings.Contains(errs, "imap.user: required when imap.addr is set") || strings.Contains(errs, "smtp.addr") {
		t.Errorf("replay imap:INBOX without imap.user: exit %d, %s%s; want 2 and imap.user alone required", code, out, errs)
	}
	if code, out, errs := runCmd(t, noUser, "replay", arch); code != 0 || !strings.Contains(out, "1 message applied") {
		t.Errorf("replay of an mbox with an IMAP server configured without imap.user: exit %d, %s%s", code, out, errs)
	}
}
