package main

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/internal/testdeadline"
	"referee/mailhub"
)

// The faults an operator meets while `referee run` works: its disk full,
// its data directory read-only, its state file replaced by a directory,
// its SMTP server gone for an hour. In each, the referee says what is
// wrong in its log, `referee check` names it, nothing applied is lost, and
// once the fault is gone the referee recovers by itself: the message
// applied once, its receipt sent once.

// mailRig is mail outside the referee: a hub holding the mailboxes (the
// referee's IMAP server and the players' SMTP server), and an SMTP relay
// in front of it, the referee's SMTP server, which can go away and come
// back on the same address.
type mailRig struct {
	hub   *mailhub.Hub
	addr  string // the relay's
	mu    sync.Mutex
	relay *smtp.Server
}

const businessList = "agora-business@example.test"

func newMailRig(t *testing.T) *mailRig {
	t.Helper()
	cfg, err := loadConfig("", false)
	if err != nil {
		t.Fatal(err)
	}
	hub, err := mailhub.Start(mailhub.Options{Lists: hubLists(cfg), Users: []string{"referee@example.test", "cm@example.test"}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hub.Close() })
	r := &mailRig{hub: hub, addr: "127.0.0.1:0"}
	r.startRelay(t)
	t.Cleanup(r.stopRelay)
	return r
}

// startRelay (again) serves SMTP on the relay's address.
func (r *mailRig) startRelay(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &relaySession{hub: r.hub}, nil }))
	srv.Domain = "relay.example.test"
	go srv.Serve(ln)
	r.mu.Lock()
	r.addr, r.relay = ln.Addr().String(), srv
	r.mu.Unlock()
}

// stopRelay closes the relay: connections to it are refused.
func (r *mailRig) stopRelay() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.relay != nil {
		r.relay.Close()
		r.relay = nil
	}
}

type relaySession struct {
	hub   *mailhub.Hub
	from  string
	rcpts []string
}

func (s *relaySession) Mail(from string, _ *smtp.MailOptions) error { s.from = from; return nil }
func (s *relaySession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.rcpts = append(s.rcpts, to)
	return nil
}
func (s *relaySession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	return s.hub.Deliver(s.from, s.rcpts, b)
}
func (s *relaySession) Reset()        { s.from, s.rcpts = "", nil }
func (s *relaySession) Logout() error { return nil }

// startOnRig writes dir's referee.yaml (the state at state, mail through
// the rig) and starts `referee run` there.
func startOnRig(t *testing.T, rig *mailRig, dir, state string, args ...string) *runningReferee {
	t.Helper()
	conf := "state: " + state + "\ncontestmaster: cm@example.test\nweb: {addr: \"off\"}\n" +
		"imap: {addr: '" + rig.hub.IMAPAddr() + "', tls: none, user: referee@example.test, password: x}\n" +
		"smtp: {addr: '" + rig.addr + "', tls: none}\n"
	if err := os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return startReferee(t, dir, args...)
}

// stopReferee sends SIGINT and waits for a clean exit.
func stopReferee(t *testing.T, r *runningReferee) {
	t.Helper()
	r.cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-r.exited:
		r.exited <- err
		if err != nil {
			t.Fatalf("referee run exited with %v after SIGINT:\n%s", err, r.stderr.String())
		}
	case <-time.After(testdeadline.Left(t)):
		t.Fatal("referee run did not stop after SIGINT by the test's deadline")
	}
}

// receiptsIn counts the mails in a mailbox that answer each Message-ID.
func receiptsIn(t *testing.T, mb *mailbox, ids ...string) map[string]int {
	t.Helper()
	got := map[string]int{}
	for _, m := range mb.all(t) {
		for _, id := range ids {
			if strings.Contains(m, "In-Reply-To: <"+id+">") {
				got[id]++
			}
		}
	}
	return got
}

// journalApplied counts, per Message-ID, the journal's entries for it.
func journalApplied(t *testing.T, path string) map[string]int {
	t.Helper()
	got := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(readFile(t, path))), "\n") {
		var e struct {
			MsgID   string `json:"msgid"`
			Outcome string `json:"outcome"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("journal line %q: %v", line, err)
		}
		if e.MsgID != "" {
			got[e.MsgID]++
		}
	}
	return got
}

// mountTmpfs mounts a tmpfs of size on a new directory, unmounted at the
// end of the test: a real full or read-only disk, not an imitation.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root; this test shows a real full or read-only disk")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// diskFault runs a player's join, then injects a fault into the disk
// under the state, sends a claim and checks what the log and check say
// (logWant, checkWant), heals it and checks that the claim is applied
// once and answered once.
//
// The referee meets the fault where it writes: if the claim's own save
// fails, the claim is undone and read again until the fault is gone; if
// the claim's record is written where the fault does not reach (an
// append to the journal it holds open) and the fault waits for the whole
// state's next write, the claim is applied and answered, the referee
// names the fault when it writes the state (at the latest on its way out)
// and starts again once the fault is gone.
func diskFault(t *testing.T, disk string, inject func(state string) (heal func()), logWant, checkWant string) {
	rig := newMailRig(t)
	dir := t.TempDir()
	state := filepath.Join(disk, "state.yaml")
	r := startOnRig(t, rig, dir, state)
	alice := openMailbox(t, rig.hub.IMAPAddr(), "alice@example.test")
	sendMail(t, rig.hub.SMTPAddr(), "Alice <alice@example.test>", businessList, "joining", "join-1@example.test", "I join the Life contest.")
	alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <join-1@example.test>") })

	from := r.stderr.Len()
	heal := inject(state)
	sendMail(t, rig.hub.SMTPAddr(), "Alice <alice@example.test>", businessList, "a claim", "claim-1@example.test", "I claim cell (5, 5) in Life.")
	applied := `msg=message msgid=claim-1@example.test from=alice@example.test channel=public entries=1 saved=true`
	log := r.stderr.waitFor(t, from, "the fault or the claim applied", func(s string) bool {
		return strings.Contains(s, logWant) || strings.Contains(s, applied)
	})
	checkFault := func() {
		t.Helper()
		code, out, _ := runCmd(t, dir, "check")
		if code != 1 {
			t.Errorf("check during the fault: exit %d, want 1", code)
		}
		wants(t, "check during the fault", out, checkWant)
	}
	if strings.Contains(log, logWant) && !strings.Contains(log, applied) {
		// The claim's save failed: nothing of it is kept or sent, and it
		// is read again until the fault is gone.
		log = r.stderr.waitFor(t, from, "the claim left unread", func(s string) bool {
			return strings.Contains(s, `msg="mail reading stopped; retrying"`)
		})
		wants(t, "the log", log, `msg=message msgid=claim-1@example.test from=alice@example.test channel=public entries=1 saved=false`)
		checkFault()
		if got := receiptsIn(t, alice, "claim-1@example.test"); got["claim-1@example.test"] != 0 {
			t.Errorf("a receipt for the claim was sent while its state could not be saved")
		}
		from = r.stderr.Len()
		heal()
		alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <claim-1@example.test>") })
		r.stderr.waitFor(t, from, "the claim applied and saved", func(s string) bool { return strings.Contains(s, applied) })
		stopReferee(t, r)
	} else {
		// The claim is on record: answered now, the fault named when
		// the state is written whole, by the way out at the latest.
		alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <claim-1@example.test>") })
		checkFault()
		stopReferee(t, r)
		wants(t, "the log", r.stderr.String()[from:], logWant)
		heal()
		r = startOnRig(t, rig, dir, state)
		r.stderr.waitFor(t, 0, "the state loaded again", func(s string) bool { return strings.Contains(s, `msg="imap connected"`) })
		stopReferee(t, r)
	}
	if got := receiptsIn(t, alice, "join-1@example.test", "claim-1@example.test"); got["join-1@example.test"] != 1 || got["claim-1@example.test"] != 1 {
		t.Errorf("receipts in alice's mailbox: %v, want one each", got)
	}
	if got := journalApplied(t, filepath.Join(disk, "journal.jsonl")); got["join-1@example.test"] != 1 || got["claim-1@example.test"] != 1 {
		t.Errorf("journal entries: %v, want one each for join-1 and claim-1", got)
	}
	if code, out, _ := runCmd(t, dir, "check"); code != 0 {
		t.Errorf("check after the fault: exit %d\n%s", code, out)
	}
}

// TestRunOnFullDisk: the disk fills up under a running referee.
func TestRunOnFullDisk(t *testing.T) {
	disk := mountTmpfs(t, "1m")
	diskFault(t, disk, func(string) func() {
		filler := filepath.Join(disk, "filler")
		fillDisk(t, filler)
		return func() { os.Remove(filler) }
	}, "no space left on device", disk+": a save would fail: no space left on device")
}

// TestRunOnReadOnlyDirectory: the data directory turns read-only under a
// running referee (a read-only bind mount over it: the journal it holds
// open stays writable, new files cannot be made, as a save needs).
func TestRunOnReadOnlyDirectory(t *testing.T) {
	disk := mountTmpfs(t, "4m")
	diskFault(t, disk, func(string) func() {
		if err := syscall.Mount(disk, disk, "", syscall.MS_BIND, ""); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mount("", disk, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
			syscall.Unmount(disk, 0)
			t.Fatal(err)
		}
		healed := false
		t.Cleanup(func() {
			if !healed {
				syscall.Unmount(disk, syscall.MNT_DETACH)
			}
		})
		return func() {
			healed = true
			if err := syscall.Unmount(disk, 0); err != nil {
				t.Fatal(err)
			}
		}
	}, "read-only file system", disk+": a save would fail: read-only file system")
}

// TestRunStateBecomesDirectory: the state file is replaced by a directory
// under a running referee.
func TestRunStateBecomesDirectory(t *testing.T) {
	disk := t.TempDir()
	diskFault(t, disk, func(state string) func() {
		// A save of the referee's may land between the two steps: then
		// the file it wrote is moved aside too.
		for {
			if err := os.Rename(state, state+".aside"); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(state, 0o700); err == nil {
				break
			} else if !errors.Is(err, os.ErrExist) {
				t.Fatal(err)
			}
		}
		os.WriteFile(filepath.Join(state, "inside"), []byte("x"), 0o600)
		return func() {
			os.RemoveAll(state)
			if err := os.Rename(state+".aside", state); err != nil {
				t.Fatal(err)
			}
		}
	}, "is a directory, not a state file", filepath.Join(disk, "state.yaml")+" is a directory, not a state file: move it away")
}

// TestRunWithoutSMTPForAnHour: the referee's SMTP server goes away for
// more than an hour of the referee's time (its clock runs 3,600 times
// faster, so the retries an hour apart come a second apart).
func TestRunWithoutSMTPForAnHour(t *testing.T) {
	rig := newMailRig(t)
	dir := t.TempDir()
	r := startOnRig(t, rig, dir, "data/state.yaml", "--clock-start", "2026-12-01T10:00:00Z", "--clock-rate", "3600")
	alice := openMailbox(t, rig.hub.IMAPAddr(), "alice@example.test")
	sendMail(t, rig.hub.SMTPAddr(), "Alice <alice@example.test>", businessList, "joining", "join-1@example.test", "I join the Life contest.")
	alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <join-1@example.test>") })

	rig.stopRelay()
	from := r.stderr.Len()
	sendMail(t, rig.hub.SMTPAddr(), "Alice <alice@example.test>", businessList, "a claim", "claim-1@example.test", "I claim cell (5, 5) in Life.")
	// Applied and saved at once; its receipt waits.
	log := r.stderr.waitFor(t, from, "a third failed attempt", func(s string) bool {
		return strings.Contains(s, "attempt=3")
	})
	wants(t, "the log", log, `msg=message msgid=claim-1@example.test`, "saved=true", `msg="send failed; will retry"`, "connection refused")
	code, out, _ := runCmd(t, dir, "check")
	if code != 1 {
		t.Errorf("check while the SMTP server is gone: exit %d, want 1", code)
	}
	m := regexp.MustCompile(`outbox\[\d+\]: notice (\S+) \(Re: a claim\) to alice@example.test not sent after (\d+) attempt\(s\), the next at (\S+); the mail server said: .*connection refused`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("check does not name the receipt waiting for the SMTP server:\n%s", out)
	}
	// The claim's time in the journal, and the next try check names: the
	// server has been gone more than an hour of the referee's time.
	var claimed time.Time
	for _, line := range strings.Split(string(readFile(t, filepath.Join(dir, "data/journal.jsonl"))), "\n") {
		var e struct {
			Time  time.Time `json:"time"`
			MsgID string    `json:"msgid"`
		}
		if json.Unmarshal([]byte(line), &e) == nil && e.MsgID == "claim-1@example.test" {
			claimed = e.Time
		}
	}
	next, err := time.Parse(time.RFC3339, m[3])
	if err != nil || claimed.IsZero() || next.Sub(claimed) < time.Hour {
		t.Errorf("the claim at %v, the next try at %q: not an hour apart (%v)", claimed, m[3], err)
	}

	rig.startRelay(t)
	alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <claim-1@example.test>") })
	stopReferee(t, r)
	if got := receiptsIn(t, alice, "join-1@example.test", "claim-1@example.test"); got["join-1@example.test"] != 1 || got["claim-1@example.test"] != 1 {
		t.Errorf("receipts in alice's mailbox: %v, want one each", got)
	}
	if got := journalApplied(t, filepath.Join(dir, "data/journal.jsonl")); got["claim-1@example.test"] != 1 {
		t.Errorf("journal entries for the claim: %d, want 1", got["claim-1@example.test"])
	}
	if code, out, _ := runCmd(t, dir, "check"); code != 0 {
		t.Errorf("check once the SMTP server is back: exit %d\n%s", code, out)
	}
}
