package main

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/google/go-cmp/cmp"

	"referee/internal/testdeadline"
)

// TestHubRestartKeepsMail: `referee run` stopped and started again over
// the embedded hub on the same directory: the player's mailbox is as it
// was, mail sent after the restart is answered, and nothing read before it
// is answered twice.
func TestHubRestartKeepsMail(t *testing.T) {
	dir := t.TempDir()
	d := startHubDaemonIn(t, dir, "")
	alice := openMailbox(t, d.imapAddr, "alice@example.test")
	sendMail(t, d.smtpAddr, "Alice <alice@example.test>", "agora-business@example.test", "joining", "join-1@example.test", "I join the Life contest.")
	alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <join-1@example.test>") })
	before := alice.all(t)
	alice.c.Close()
	stopReferee(t, d.runningReferee)

	d2 := startHubDaemonIn(t, dir, "")
	alice = openMailbox(t, d2.imapAddr, "alice@example.test")
	if diff := cmp.Diff(before, alice.all(t)); diff != "" {
		t.Fatalf("alice's mailbox changed over the restart (-before +after):\n%s", diff)
	}
	sendMail(t, d2.smtpAddr, "Alice <alice@example.test>", "agora-business@example.test", "a claim", "claim-1@example.test", "I claim cell (5, 5) in Life.")
	alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <claim-1@example.test>") })
	// The referee took up its IMAP checkpoint where the first run left it.
	if m := regexp.MustCompile(`imap connected" .* last_uid=(\d+)`).FindStringSubmatch(d2.stderr.String()); m == nil || m[1] == "0" {
		t.Errorf("the second run did not resume from its IMAP checkpoint: %q", m)
	}
	receipts := map[string]int{}
	for _, m := range alice.all(t) {
		for _, id := range []string{"join-1", "claim-1"} {
			if strings.Contains(m, "In-Reply-To: <"+id+"@example.test>") {
				receipts[id]++
			}
		}
	}
	if diff := cmp.Diff(map[string]int{"join-1": 1, "claim-1": 1}, receipts); diff != "" {
		t.Errorf("receipts in alice's mailbox (-want +got):\n%s", diff)
	}
}

// BenchmarkHubRSS measures the resident memory of `referee run` over the
// embedded hub after 2,000 messages to the public list from 400 players
// (five each, every one answered with a receipt): the hub in the same
// process keeps the list's copies for 400 mailboxes. Run it once:
// go test ./cmd/referee -run '^$' -bench HubRSS -benchtime 1x
func BenchmarkHubRSS(b *testing.B) {
	const players, each = 400, 5
	for b.Loop() {
		d := startHubDaemon(b, "limits:\n  receipts_per_hour: 100000\n")
		lastID := fmt.Sprintf("rss-%d-%d@example.test", players-1, each-1)
		for i := range each {
			for p := range players {
				sendMail(b, d.smtpAddr, fmt.Sprintf("p%d@example.test", p), "agora-business@example.test",
					"life", fmt.Sprintf("rss-%d-%d@example.test", p, i), "I join the Life contest.")
			}
		}
		// The referee answers in order: the receipt of the last message
		// means it has read them all.
		mb := openMailbox(b, d.imapAddr, fmt.Sprintf("p%d@example.test", players-1))
		deadline := time.Now().Add(15 * time.Minute)
		for {
			sd, err := mb.c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "In-Reply-To", Value: lastID}}}, nil).Wait()
			if err != nil {
				b.Fatal(err)
			}
			if len(sd.AllUIDs()) > 0 {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("no receipt of %s within 15 minutes", lastID)
			}
			if err := mb.c.Noop().Wait(); err != nil {
				b.Fatal(err)
			}
			select {
			case <-mb.news:
			case <-time.After(time.Second):
			}
		}
		mb.c.Close()
		rss := residentMB(b, d.cmd.Process.Pid)
		b.ReportMetric(rss, "MB-rss")
		fmt.Printf("referee run over the hub after %d messages from %d players: RSS %.1f MB\n", players*each, players, rss)
	}
}

// residentMB is a process's VmRSS from /proc, in MB (10^6 bytes).
func residentMB(t testing.TB, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb * 1024 / 1e6
		}
	}
	t.Fatal("no VmRSS in /proc status")
	return 0
}

// TestHubMovesHandledMail: `referee run` over the embedded hub moves the
// mail it has handled from the referee's INBOX to its Processed folder, as
// the README says, so that the folder is the referee's store of received
// mail and the INBOX holds only what is not handled yet.
func TestHubMovesHandledMail(t *testing.T) {
	d := startHubDaemonIn(t, t.TempDir(), "")
	alice := openMailbox(t, d.imapAddr, "alice@example.test")
	sendMail(t, d.smtpAddr, "Alice <alice@example.test>", "agora-business@example.test", "joining", "join-1@example.test", "I join the Life contest.")
	alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <join-1@example.test>") })
	ref := openMailbox(t, d.imapAddr, "referee@example.test")
	// The move follows the batch's journal line; the INBOX loses the
	// message once it is done.
	deadline := time.Now().Add(testdeadline.Left(t))
	for slices.ContainsFunc(ref.all(t), func(m string) bool { return strings.Contains(m, "Message-ID: <join-1@example.test>") }) {
		if time.Now().After(deadline) {
			t.Fatal("the handled mail is still in the referee's INBOX at the test's deadline")
		}
		if err := ref.c.Noop().Wait(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ref.news:
		case <-time.After(20 * time.Millisecond):
		}
	}
	if _, err := ref.c.Select("Processed", nil).Wait(); err != nil {
		t.Fatalf("the referee's mailbox has no Processed folder: %v", err)
	}
	if err := ref.c.Noop().Wait(); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(ref.all(t), func(m string) bool { return strings.Contains(m, "Message-ID: <join-1@example.test>") }) {
		t.Errorf("the handled mail is not in the referee's Processed folder")
	}
}
