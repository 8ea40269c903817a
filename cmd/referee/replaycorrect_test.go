package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/store"
)

// TestReplayOfTheHubsStoreAfterCorrections: referee run over the embedded
// hub, a snapshot after every change; Alice's claim, Bob's transfer, a
// Claim of Error in reply to a receipt and the contestmaster's correction,
// then a second correction; Dave and Erin join Rumble and a game begins (a
// notice published after the corrections). A replay of the referee's
// Processed folder with the same master secret writes each revision as the
// lists carried it, state hashes included, and publishes every notice with
// the state hash the referee published. The re-runs journaled their entries
// from the snapshot they started from, which a replay does not keep, and a
// revision's hashes counted the mailbox position: the revisions' hashes and
// those of every notice after a correction differed.
func TestReplayOfTheHubsStoreAfterCorrections(t *testing.T) {
	// A fast clock, so that the messages arrive seconds apart and the
	// snapshots between them are ones a re-run may start from.
	d := startHubDaemon(t, "snapshots: {every: 1}\n", "--clock-start", "2026-12-02T10:00:00Z", "--clock-rate", "3600")
	cm := openMailbox(t, d.imapAddr, "cm@example.test")
	cm.waitFor(t, func(m string) bool { return strings.Contains(m, "Subject: OFF: Randomness") })
	alice := openMailbox(t, d.imapAddr, "alice@example.test")
	bob := openMailbox(t, d.imapAddr, "bob@example.test")
	const list, referee = "agora-business@example.test", "referee@example.test"
	receiptOf := func(mb *mailbox, id string) {
		t.Helper()
		mb.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <"+id+">") })
	}
	sendMail(t, d.smtpAddr, "Alice <alice@example.test>", list, "joining", "a1@example.test", "I join the Life contest.")
	receiptOf(alice, "a1@example.test")
	sendMail(t, d.smtpAddr, "Bob <bob@example.test>", list, "joining", "b1@example.test", "I join the Life contest.")
	receiptOf(bob, "b1@example.test")
	sendMail(t, d.smtpAddr, "Alice <alice@example.test>", list, "cells", "a2@example.test", "I claim cells (5, 5), (6, 5) and (7, 5) in Life.")
	receiptOf(alice, "a2@example.test")
	sendMail(t, d.smtpAddr, "Bob <bob@example.test>", list, "gift", "b2@example.test", "I transfer 5 Vials to Alice.")
	receiptOf(bob, "b2@example.test")
	sendMail(t, d.smtpAddr, "Alice <alice@example.test>", list, "more cells", "a3@example.test", "I claim cells (20, 20), (21, 20), (22, 20), (20, 21), (21, 21), (22, 21), (20, 22), (21, 22), (22, 22), (30, 30) in Life.")
	receiptOf(alice, "a3@example.test")
	// Claims in reply to the receipts (the subject carries the reply's
	// headers: sendMail writes it as it is).
	reply := func(id string) string {
		r := contract.MessageID("receipt/"+id, "example.test")
		return "Re: receipt\r\nIn-Reply-To: <" + r + ">\r\nReferences: <" + id + "> <" + r + ">"
	}
	sendMail(t, d.smtpAddr, "Bob <bob@example.test>", referee, reply("b2@example.test"), "c1@example.test", "CoE: I wrote 1 Vial.")
	receiptOf(bob, "c1@example.test")
	sendMail(t, d.smtpAddr, "Alice <alice@example.test>", referee, reply("a3@example.test"), "c2@example.test", "CoE: I meant fewer Cells.")
	receiptOf(alice, "c2@example.test")
	sendMail(t, d.smtpAddr, "cm@example.test", referee, "CoE 1", "f1@example.test", "I correct CoE #1: message <b2@example.test> reads `I transfer 1 Vial to Alice.`")
	cm.waitFor(t, func(m string) bool { return strings.Contains(m, "Subject: OFF: Revision: the correction of CoE #1") })
	sendMail(t, d.smtpAddr, "cm@example.test", referee, "CoE 2", "f2@example.test", "I correct CoE #2: message <a3@example.test> reads `I claim cells (20, 20), (21, 20) and (22, 20) in Life.`")
	cm.waitFor(t, func(m string) bool { return strings.Contains(m, "Subject: OFF: Revision: the correction of CoE #2") })
	sendMail(t, d.smtpAddr, "Dave <dave@example.test>", list, "join", "d1@example.test", "I join the Rumble contest.")
	sendMail(t, d.smtpAddr, "Erin <erin@example.test>", list, "join", "e1@example.test", "I join the Rumble contest.")
	sendMail(t, d.smtpAddr, "cm@example.test", list, "game", "g1@example.test", "I announce a new game of Rumble with 1 power per contestant and 1 contestmaster powers.")
	cm.waitFor(t, func(m string) bool { return strings.Contains(m, "Rumble game 1 begins") })

	e, _ := newEngine(&Config{Address: referee})
	live, err := store.Load(e, filepath.Join(d.dir, "data/state.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), []byte(live.Secret), 0o600)
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("contestmaster: cm@example.test\nimap: {addr: '"+d.imapAddr+"', tls: none, user: referee@example.test, password: x}\n"), 0o600)
	code, out, errs := runCmd(t, dir, "replay", "--state", "rebuilt/state.yaml", "--secret-file", "secret", "--out", "mails", "imap:Processed")
	if code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
	carried := map[string]string{} // the lists' revisions, by Message-ID
	msgid := regexp.MustCompile(`(?mi)^Message-Id:\s*<([^>]+)>`)
	for _, m := range cm.all(t) {
		if strings.Contains(m, "Subject: OFF: Revision") {
			if id := msgid.FindStringSubmatch(m); id != nil {
				carried[id[1]] = m
			}
		}
	}
	stopReferee(t, d.runningReferee)
	if len(carried) != 2 {
		t.Fatalf("%d revisions on the list, want 2", len(carried))
	}
	hashes := regexp.MustCompile(`State hash (?:before|after): +[0-9a-f]{64}`)
	files, _ := filepath.Glob(filepath.Join(dir, "mails", "*.eml"))
	found := 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		id := msgid.FindStringSubmatch(string(b))
		if id == nil || carried[id[1]] == "" {
			continue
		}
		found++
		want, got := hashes.FindAllString(carried[id[1]], -1), hashes.FindAllString(string(b), -1)
		if len(want) != 2 || strings.Join(want, "\n") != strings.Join(got, "\n") {
			t.Errorf("%s: the replay's revision says\n%s\nthe list's\n%s", id[1], strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if found != 2 {
		t.Fatalf("the replay wrote %d of the 2 revisions", found)
	}
	live, err = store.Load(e, filepath.Join(d.dir, "data/state.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rebuilt, err := store.Load(e, filepath.Join(dir, "rebuilt/state.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	replayed := map[string]string{}
	for _, x := range rebuilt.Cited {
		replayed[x.ID] = x.Hash
	}
	after := false
	for _, x := range live.Cited {
		got, ok := replayed[x.ID]
		if !ok {
			t.Errorf("%s: not published by the replay", x.ID)
			continue
		}
		if got != x.Hash {
			t.Errorf("%s: the replay's state hash %s, the published one %s", x.ID, got, x.Hash)
		}
		after = after || strings.HasPrefix(x.ID, "rumble/1/start")
	}
	if !after {
		ids := []string{}
		for _, x := range live.Cited {
			ids = append(ids, x.ID)
		}
		t.Fatalf("no notice of Rumble's game after the corrections among %v", ids)
	}
}
