package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/store"
)

// TestReplayRunsCorrections: a replayed archive holding a claim and the
// contestmaster's correction re-runs the history as referee run does: the
// state is the corrected one, the revision and the corrected receipt are
// among the mails, verify re-computes the revision, and a second replay of
// the same archive gives the same files.
func TestReplayRunsCorrections(t *testing.T) {
	testReplayCorrection(t, "m2@example.test", func(t *testing.T, a string, state, mails []byte) {
		if !bytes.Contains(state, []byte("alice@example.test: 5,6")) {
			t.Fatalf("after the replayed correction the state does not give Alice Cell (5, 6):\n%s", state)
		}
		for _, want := range []string{"Subject: Corrected: ", "Revision"} {
			if !bytes.Contains(mails, []byte(want)) {
				t.Errorf("no mail of the replay contains %q", want)
			}
		}
		e, _ := newEngine(&Config{Address: "referee@example.test"})
		if n, bad, err := store.VerifyRevisions(e, filepath.Join(a, "data/state.yaml")); err != nil || n != 1 || len(bad) > 0 {
			t.Fatalf("verify: %d revisions, mismatches %v, %v", n, bad, err)
		}
	})
}

// TestReplayRefusesCorrection: a correction of a message the record does
// not hold is refused at its re-run: nothing changes, the contestmaster is
// told why, and nothing is left to re-run at the next resume.
func TestReplayRefusesCorrection(t *testing.T) {
	testReplayCorrection(t, "nowhere@example.test", func(t *testing.T, a string, state, mails []byte) {
		if !bytes.Contains(state, []byte("alice@example.test: 3,4")) {
			t.Fatalf("a refused correction changed Alice's Cell:\n%s", state)
		}
		if !bytes.Contains(mails, []byte("Subject: Correction of CoE #1 refused")) {
			t.Errorf("the contestmaster was not told the correction was refused:\n%s", mails)
		}
	})
}

// testReplayCorrection replays Alice's join and claim of Cell (3, 4), her
// claim of error on its receipt and the contestmaster's correction of
// message target to claim (5, 6); check gets the data directory, the state
// file and every mail written.
func testReplayCorrection(t *testing.T, target string, check func(t *testing.T, dir string, state, mails []byte)) {
	receipt := contract.MessageID("receipt/m2@example.test", "example.test")
	msgs := []struct{ from, to, list, date, id, extra, text string }{
		{"Alice <alice@example.test>", "agora-business@example.test", "agora-business", "10:00", "m1", "", "I join the Life contest."},
		{"Alice <alice@example.test>", "agora-business@example.test", "agora-business", "10:05", "m2", "",
			"I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (3, 4)."},
		{"Alice <alice@example.test>", "referee@example.test", "", "10:10", "m3", "In-Reply-To: <" + receipt + ">\nReferences: <m2@example.test> <" + receipt + ">\n",
			"CoE: I wrote Cell (3, 4) but meant (5, 6)."},
		{"Contestmaster <contestmaster@example.test>", "referee@example.test", "", "10:20", "m4", "",
			"I correct CoE #1: message <" + target + "> reads `I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (5, 6).`"},
	}
	var mbox bytes.Buffer
	for _, m := range msgs {
		addr := m.from[strings.Index(m.from, "<")+1 : len(m.from)-1]
		fmt.Fprintf(&mbox, "From %s Tue Dec  1 %s:00 2026\nFrom: %s\nTo: %s\n", addr, m.date, m.from, m.to)
		if m.list != "" {
			fmt.Fprintf(&mbox, "List-Id: <%s.example.test>\n", m.list)
		}
		fmt.Fprintf(&mbox, "Subject: s\nDate: Tue, 1 Dec 2026 %s:00 +0000\nMessage-ID: <%s@example.test>\n%s\n%s\n\n", m.date, m.id, m.extra, m.text)
	}
	replay := func(dir string) {
		t.Helper()
		os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{9}, 32), 0o600)
		os.WriteFile(filepath.Join(dir, "in.mbox"), mbox.Bytes(), 0o600)
		if code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "--out", "out", "in.mbox"); code != 0 {
			t.Fatalf("replay: %d %s %s", code, out, errs)
		}
	}
	a, b := t.TempDir(), t.TempDir()
	replay(a)
	state, err := os.ReadFile(filepath.Join(a, "data/state.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(state, []byte("\n    fix:")) {
		t.Fatalf("a correction is left pending after the replay:\n%s", state)
	}
	var mails []byte
	files, _ := filepath.Glob(filepath.Join(a, "out/*.eml"))
	for _, f := range files {
		x, _ := os.ReadFile(f)
		mails = append(mails, x...)
	}
	check(t, a, state, mails)
	replay(b)
	for _, f := range []string{"data/state.yaml", "data/journal.jsonl"} {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two replays of the same archive", f)
		}
	}
}
