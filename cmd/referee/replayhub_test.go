package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/contract/store"
)

// TestReplayOfTheHubsStoreAgrees: referee run over the embedded hub makes
// its state and sends the first Randomness notice; a player joins Life. A
// replay of the referee's Processed folder into a new state, with the same
// master secret, makes the state at the same second, so the state hash the
// Randomness notice published (and every later one) is the replay's too.
// The live state was made at the wall clock's nanosecond, and the replay at
// the notice's arrival, so the first hash published could not be
// recomputed from the referee's store of mail.
func TestReplayOfTheHubsStoreAgrees(t *testing.T) {
	d := startHubDaemon(t, "")
	cm := openMailbox(t, d.imapAddr, "cm@example.test")
	cm.waitFor(t, func(m string) bool { return strings.Contains(m, "Subject: OFF: Randomness") })
	alice := openMailbox(t, d.imapAddr, "alice@example.test")
	sendMail(t, d.smtpAddr, "Alice <alice@example.test>", "agora-business@example.test", "joining", "join-1@example.test",
		"I join the Life contest. I claim cell (5, 5) in Life.")
	alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <join-1@example.test>") })

	e, _ := newEngine(&Config{Address: "referee@example.test"})
	live, err := store.Load(e, filepath.Join(d.dir, "data/state.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), []byte(live.Secret), 0o600)
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("contestmaster: cm@example.test\nimap: {addr: '"+d.imapAddr+"', tls: none, user: referee@example.test, password: x}\n"), 0o600)
	code, out, errs := runCmd(t, dir, "replay", "--state", "rebuilt/state.yaml", "--secret-file", "secret", "imap:Processed")
	if code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
	var notice string // the Randomness notice as the lists carried it
	for _, m := range cm.all(t) {
		if strings.Contains(m, "Subject: OFF: Randomness") {
			notice = strings.ReplaceAll(m, "\r\n", "\n")
		}
	}
	stopReferee(t, d.runningReferee)
	live, err = store.Load(e, filepath.Join(d.dir, "data/state.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rebuilt, err := store.Load(e, filepath.Join(dir, "rebuilt/state.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !live.Created.Equal(rebuilt.Created) {
		t.Errorf("the replay made its state at %s, the referee at %s", rebuilt.Created, live.Created)
	}
	replayed := map[string]string{}
	for _, x := range rebuilt.Cited {
		replayed[x.ID] = x.Hash
	}
	n := 0
	for _, x := range live.Cited {
		got, ok := replayed[x.ID]
		if !ok {
			continue // published after the replay read the folder
		}
		n++
		if got != x.Hash {
			t.Errorf("%s: the replay's state hash %s, the published one %s", x.ID, got, x.Hash)
		}
	}
	if n == 0 || !strings.HasPrefix(live.Cited[0].ID, "randomness/") {
		t.Fatalf("%d published notices compared; the first is %q, want the Randomness notice", n, live.Cited[0].ID)
	}

	// The notice archived as arriving three seconds after the state was
	// made (a list that carried it slowly): the state is still made at the
	// second its Message-ID names.
	late := live.Created.Add(3 * time.Second)
	mbox := filepath.Join(dir, "late.mbox")
	os.WriteFile(mbox, []byte("From referee@example.test "+late.Format("Mon Jan _2 15:04:05 2006")+"\n"+notice+"\n"), 0o600)
	code, out, errs = runCmd(t, dir, "replay", "--state", "late/state.yaml", "--secret-file", "secret", mbox)
	if code != 0 {
		t.Fatalf("replay of %s: exit %d\n%s%s", mbox, code, out, errs)
	}
	slow, err := store.Load(e, filepath.Join(dir, "late/state.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !slow.Created.Equal(live.Created) || len(slow.Cited) == 0 || slow.Cited[0].Hash != live.Cited[0].Hash {
		t.Errorf("the notice arriving 3s late: the replay made its state at %s (want %s), its notices %+v", slow.Created, live.Created, slow.Cited)
	}
}
