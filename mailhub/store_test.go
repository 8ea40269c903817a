package mailhub

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/google/go-cmp/cmp"
)

const (
	business   = "agora-business@example.test"
	businessID = "Agora Business <agora-business.example.test>"
)

// seenMsg is a message as a client sees it.
type seenMsg struct {
	UID   imap.UID
	Flags []imap.Flag
	Date  time.Time
	Raw   string
}

// session is a plain IMAP client of the hub with INBOX selected.
func session(t testing.TB, h *Hub, user string) (*imapclient.Client, *imap.SelectData) {
	t.Helper()
	c, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return c, sel
}

// fetchSince fetches every message with a UID of at least from, with its
// flags, date and whole text (BODY.PEEK[]: no \Seen is set).
func fetchSince(t testing.TB, c *imapclient.Client, from imap.UID) []seenMsg {
	t.Helper()
	var set imap.UIDSet
	set.AddRange(from, 0)
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, Flags: true, InternalDate: true, BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []seenMsg
	for _, m := range msgs {
		if m.UID < from { // UID n:* names the highest UID even when below n
			continue
		}
		f := slices.Clone(m.Flags)
		slices.Sort(f)
		out = append(out, seenMsg{m.UID, f, m.InternalDate.UTC(), string(m.FindBodySection(body))})
	}
	slices.SortFunc(out, func(a, b seenMsg) int { return int(a.UID) - int(b.UID) })
	return out
}

func subjects(msgs []seenMsg) []string {
	var out []string
	for _, m := range msgs {
		s := regexp.MustCompile(`(?m)^Subject: (.*)\r$`).FindStringSubmatch(m.Raw)
		if s == nil {
			out = append(out, "?")
			continue
		}
		out = append(out, s[1])
	}
	return out
}

// TestRestartKeepsMail: mail, UIDs, UIDVALIDITY and flags are the same after
// the hub is closed and started again on its directory, and a client that
// resumes from its checkpoint (UIDVALIDITY, last UID) gets each message once.
func TestRestartKeepsMail(t *testing.T) {
	dir := t.TempDir()
	clock := &testClock{now: t0}
	opts := Options{Dir: dir, Users: []string{"referee@example.test"}, Lists: map[string]string{business: businessID}, Now: clock.Now}
	h, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	w := watch(t, h, "referee@example.test", "")
	sendSMTP(t, h, nil, "goethe@example.test", []string{business}, message("goethe@example.test", business, "one"))
	w.await(t, 1)
	if err := h.Deliver("referee@example.test", []string{business}, []byte(message("referee@example.test", business, "notice"))); err != nil {
		t.Fatal(err)
	}
	w.await(t, 2)
	clock.Set(t0.Add(time.Hour))
	sendSMTP(t, h, nil, "goethe@example.test", []string{"referee@example.test"}, message("goethe@example.test", "referee@example.test", "private"))
	w.await(t, 3)
	w.stopIdle(t)

	// The referee reads the first message and stops there: its checkpoint.
	c := w.c
	before := fetchSince(t, c, 1)
	if diff := cmp.Diff([]string{"one", "notice", "private"}, subjects(before)); diff != "" {
		t.Fatalf("before the restart (-want +got):\n%s", diff)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	checkpoint := struct {
		uidValidity uint32
		last        imap.UID
	}{sel.UIDValidity, before[0].UID}
	store := func(uid imap.UID, op imap.StoreFlagsOp, f ...imap.Flag) {
		t.Helper()
		if err := c.Store(imap.UIDSetNum(uid), &imap.StoreFlags{Op: op, Flags: f, Silent: true}, nil).Close(); err != nil {
			t.Fatal(err)
		}
	}
	store(before[0].UID, imap.StoreFlagsAdd, imap.FlagSeen, "$Processed")
	store(before[2].UID, imap.StoreFlagsAdd, imap.FlagFlagged, imap.FlagDeleted)
	store(before[2].UID, imap.StoreFlagsDel, imap.FlagDeleted)
	before = fetchSince(t, c, 1)
	goethe := h.Mailbox("goethe@example.test")
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}

	clock.Set(t0.Add(2 * time.Hour))
	h2 := startHub(t, opts)
	c2, sel2 := session(t, h2, "referee@example.test")
	if sel2.UIDValidity != checkpoint.uidValidity {
		t.Errorf("UIDVALIDITY %d after the restart, was %d", sel2.UIDValidity, checkpoint.uidValidity)
	}
	if sel2.NumMessages != 3 || sel2.UIDNext <= before[2].UID {
		t.Errorf("after the restart: %d messages, UIDNEXT %d; want 3 and above %d", sel2.NumMessages, sel2.UIDNext, before[2].UID)
	}
	if diff := cmp.Diff(before, fetchSince(t, c2, 1)); diff != "" {
		t.Errorf("INBOX changed over the restart (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(goethe, h2.Mailbox("goethe@example.test")); diff != "" {
		t.Errorf("the sender's mailbox changed over the restart (-before +after):\n%s", diff)
	}

	// New mail after the restart, to the list and direct: the client
	// resuming from its checkpoint gets what follows it, each once.
	if err := h2.Deliver("referee@example.test", []string{business}, []byte(message("referee@example.test", business, "after"))); err != nil {
		t.Fatal(err)
	}
	if err := h2.Deliver("goethe@example.test", []string{"referee@example.test"}, []byte(message("goethe@example.test", "referee@example.test", "later"))); err != nil {
		t.Fatal(err)
	}
	if err := c2.Noop().Wait(); err != nil {
		t.Fatal(err)
	}
	resumed := fetchSince(t, c2, checkpoint.last+1)
	if diff := cmp.Diff([]string{"notice", "private", "after", "later"}, subjects(resumed)); diff != "" {
		t.Errorf("resuming after UID %d (-want +got):\n%s", checkpoint.last, diff)
	}
	if resumed[1].UID <= resumed[0].UID || resumed[2].UID <= before[2].UID || resumed[3].UID <= resumed[2].UID {
		t.Errorf("UIDs not ascending in arrival order: %v then %v", before, resumed)
	}
}

// TestListReachesKnownPlayer: a list post reaches a player the hub was told
// of at start before the player ever logged in or wrote, and every mailbox
// made before the post; a mailbox made after it starts empty.
func TestListReachesKnownPlayer(t *testing.T) {
	h := startHub(t, Options{
		Dir:     t.TempDir(),
		Users:   []string{"referee@example.test"},
		Players: []string{"Known <Known@example.test>", "not an address"},
		Lists:   map[string]string{business: businessID},
	})
	watch(t, h, "visitor@example.test", "").stopIdle(t) // a mailbox made by a login
	if err := h.Deliver("referee@example.test", []string{business}, []byte(message("referee@example.test", business, "Randomness"))); err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"known@example.test", "visitor@example.test", "referee@example.test"} {
		msgs := h.Mailbox(who)
		if len(msgs) != 1 {
			t.Fatalf("%s holds %d messages, want the notice", who, len(msgs))
		}
		for _, want := range []string{"Delivered-To: " + who + "\r\n", "List-Id: " + businessID + "\r\n", "Return-Path: <agora-business-bounces@example.test>\r\n", "Subject: Randomness\r\n"} {
			if !strings.Contains(string(msgs[0]), want) {
				t.Errorf("%s's copy lacks %q:\n%s", who, want, msgs[0])
			}
		}
	}
	c, sel := session(t, h, "latecomer@example.test")
	if sel.NumMessages != 0 {
		t.Errorf("a mailbox made after the post holds %d messages", sel.NumMessages)
	}
	if err := h.Deliver("referee@example.test", []string{business}, []byte(message("referee@example.test", business, "Report"))); err != nil {
		t.Fatal(err)
	}
	if err := c.Noop().Wait(); err != nil {
		t.Fatal(err)
	}
	if got := subjects(fetchSince(t, c, 1)); !cmp.Equal(got, []string{"Report"}) {
		t.Errorf("latecomer sees %q, want the post made after it came", got)
	}
}

// TestMailboxCommands: flags, COPY, MOVE, EXPUNGE, SEARCH, APPEND, LIST,
// STATUS, RENAME and DELETE over the files, and what of them a restart
// keeps.
func TestMailboxCommands(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Dir: dir, Lists: map[string]string{business: businessID}}
	h := startHub(t, opts)
	for i, subj := range []string{"alpha", "beta", "gamma"} {
		to := []string{"p@example.test"}
		if i == 1 {
			to = []string{business}
		}
		if err := h.Deliver("q@example.test", to, []byte(message("q@example.test", to[0], subj))); err != nil {
			t.Fatal(err)
		}
	}
	c, _ := session(t, h, "p@example.test")
	all := fetchSince(t, c, 1)
	if got := subjects(all); !cmp.Equal(got, []string{"alpha", "beta", "gamma"}) {
		t.Fatalf("INBOX = %q", got)
	}
	search := func(cr *imap.SearchCriteria) []imap.UID {
		t.Helper()
		d, err := c.UIDSearch(cr, nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		return d.AllUIDs()
	}
	if got := search(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "List-Id", Value: "agora-business"}}}); !cmp.Equal(got, []imap.UID{all[1].UID}) {
		t.Errorf("SEARCH HEADER List-Id = %v, want %v", got, all[1].UID)
	}
	if got := search(&imap.SearchCriteria{Body: []string{"LIFE CONTEST"}, Not: []imap.SearchCriteria{{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "gamma"}}}}}); !cmp.Equal(got, []imap.UID{all[0].UID, all[1].UID}) {
		t.Errorf("SEARCH BODY ... NOT SUBJECT gamma = %v", got)
	}
	if err := c.Create("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(imap.UIDSetNum(all[0].UID), "Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Copy(imap.UIDSetNum(all[1].UID), "Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(all[1].UID), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	app := c.Append("Processed", int64(len("Subject: own\r\n\r\nx\r\n")), &imap.AppendOptions{Flags: []imap.Flag{imap.FlagSeen}})
	app.Write([]byte("Subject: own\r\n\r\nx\r\n"))
	if err := app.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Wait(); err != nil {
		t.Fatal(err)
	}
	check := func(h *Hub) {
		t.Helper()
		c, _ := session(t, h, "p@example.test")
		if got := subjects(fetchSince(t, c, 1)); !cmp.Equal(got, []string{"gamma"}) {
			t.Errorf("INBOX = %q, want gamma alone", got)
		}
		st, err := c.Status("Processed", &imap.StatusOptions{NumMessages: true, NumUnseen: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if *st.NumMessages != 3 || *st.NumUnseen != 2 {
			t.Errorf("STATUS Processed: %d messages, %d unseen; want 3, 2", *st.NumMessages, *st.NumUnseen)
		}
		if _, err := c.Select("Processed", nil).Wait(); err != nil {
			t.Fatal(err)
		}
		if got := subjects(fetchSince(t, c, 1)); !cmp.Equal(got, []string{"alpha", "beta", "own"}) {
			t.Errorf("Processed = %q", got)
		}
		list, err := c.List("", "*", nil).Collect()
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, l := range list {
			names = append(names, l.Mailbox)
		}
		if !cmp.Equal(names, []string{"INBOX", "Processed"}) {
			t.Errorf("LIST = %q", names)
		}
	}
	check(h)
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	h2 := startHub(t, opts)
	check(h2)

	c2, _ := session(t, h2, "p@example.test")
	if err := c2.Rename("Processed", "Done", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c2.Delete("INBOX").Wait(); err == nil {
		t.Error("DELETE INBOX succeeded")
	}
	if _, err := c2.Select("Processed", nil).Wait(); err == nil {
		t.Error("SELECT of a renamed mailbox succeeded")
	}
	if err := c2.Delete("Done").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c2.Create("Done", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if st, err := c2.Status("Done", &imap.StatusOptions{NumMessages: true}).Wait(); err != nil || *st.NumMessages != 0 {
		t.Errorf("a re-created mailbox: %v, %v; want it empty", st, err)
	}
}

// TestTornWrites: what a crash leaves half written (a message's text at
// the end of mail.dat, a log line without its end) is not shown, and the
// next delivery is whole.
func TestTornWrites(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Dir: dir, Lists: map[string]string{business: businessID}}
	h, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Deliver("q@example.test", []string{"p@example.test"}, []byte(message("q@example.test", "p@example.test", "whole"))); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	inbox := filepath.Join(dir, "users", "u-p%40example.test", "m-INBOX.log")
	appendTo := func(path, s string) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	appendTo(filepath.Join(dir, "mail.dat"), "Subject: half")
	appendTo(inbox, `{"op":"a","uid":99,"off":800,"size":4`)
	appendTo(filepath.Join(dir, "lists.log"), `{"uid":98,"list":"agora-business@example.te`)

	h2 := startHub(t, opts)
	if got := len(h2.Mailbox("p@example.test")); got != 1 {
		t.Fatalf("after the torn writes p holds %d messages, want 1", got)
	}
	if err := h2.Deliver("q@example.test", []string{"p@example.test", business}, []byte(message("q@example.test", "p@example.test", "next"))); err != nil {
		t.Fatal(err)
	}
	c, _ := session(t, h2, "p@example.test")
	if got := subjects(fetchSince(t, c, 1)); !cmp.Equal(got, []string{"whole", "next", "next"}) {
		t.Errorf("INBOX = %q, want whole, next (direct), next (list)", got)
	}
	for _, m := range h2.Mailbox("p@example.test") {
		if strings.Contains(string(m), "half") {
			t.Errorf("the half-written text shows:\n%s", m)
		}
	}
}

const crashEnv = "MAILHUB_CRASH_DIR"

// TestKillDuringDelivery kills its child once it has confirmed
// crashConfirmed deliveries; the child makes crashDeliveries at most.
const crashConfirmed, crashDeliveries = 50, 4 * 50

// TestKillDuringDelivery kills (SIGKILL) a process that delivers mail
// without pause, at a moment it does not choose, then opens its directory:
// every message it confirmed is there, and nothing half written shows.
func TestKillDuringDelivery(t *testing.T) {
	if dir := os.Getenv(crashEnv); dir != "" {
		crashChild(dir)
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringDelivery$")
	cmd.Env = append(os.Environ(), crashEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	confirmed := 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if n, ok := strings.CutPrefix(sc.Text(), "delivered "); ok {
			confirmed, _ = strconv.Atoi(n)
			if confirmed >= crashConfirmed {
				break
			}
		}
	}
	cmd.Process.Kill()
	// What the child printed before it died counts too.
	for sc.Scan() {
		if n, ok := strings.CutPrefix(sc.Text(), "delivered "); ok {
			confirmed, _ = strconv.Atoi(n)
		}
	}
	cmd.Wait()
	if confirmed < crashConfirmed {
		t.Fatalf("the child confirmed %d deliveries before it stopped", confirmed)
	}

	h := startHub(t, Options{Dir: dir, Lists: map[string]string{business: businessID}})
	for _, who := range []string{"p@example.test", "r@example.test"} {
		c, _ := session(t, h, who)
		msgs := fetchSince(t, c, 1)
		var got []int
		for _, m := range msgs {
			n, err := crashBody(m.Raw)
			if err != nil {
				t.Fatalf("%s UID %d: %v", who, m.UID, err)
			}
			got = append(got, n)
		}
		// Each message is one delivery, in order, none missing up to the
		// last one confirmed; at most the one being written when the kill
		// came follows.
		if len(got) < confirmed || len(got) > confirmed+1 {
			t.Fatalf("%s holds %d messages; %d were confirmed", who, len(got), confirmed)
		}
		for i, n := range got {
			if n != i+1 {
				t.Fatalf("%s: message %d is delivery %d", who, i+1, n)
			}
		}
	}
}

// crashChild delivers numbered messages of 200 KB to a list and to a
// player, alternately, until it is killed, or at most crashDeliveries of
// them (four times the deliveries TestKillDuringDelivery waits for,
// however slowly they go: a bound on the disk it fills, not on time). A
// parent gone ends it too: its next line, on a broken pipe, kills it
// (SIGPIPE).
func crashChild(dir string) {
	h, err := Start(Options{Dir: dir, Users: []string{"p@example.test", "r@example.test"}, Lists: map[string]string{business: businessID}})
	if err != nil {
		fmt.Println("start:", err)
		os.Exit(1)
	}
	for n := 1; n <= crashDeliveries; n++ {
		to := []string{"p@example.test", "r@example.test"}
		if n%2 == 0 {
			to = []string{business}
		}
		if err := h.Deliver("q@example.test", to, crashMessage(n)); err != nil {
			fmt.Println("deliver:", err)
			os.Exit(1)
		}
		fmt.Printf("delivered %d\n", n)
	}
	os.Exit(0)
}

func crashMessage(n int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Subject: delivery %d\r\n\r\n", n)
	for range 200 << 10 / 64 {
		fmt.Fprintf(&b, "%-62d\r\n", n)
	}
	b.WriteString("end\r\n")
	return b.Bytes()
}

// crashBody checks that raw holds the whole of crashMessage(n) and returns n.
func crashBody(raw string) (int, error) {
	i := strings.Index(raw, "Subject: delivery ")
	if i < 0 {
		return 0, fmt.Errorf("no Subject in %.200q", raw)
	}
	var n int
	fmt.Sscanf(raw[i:], "Subject: delivery %d", &n)
	if !strings.HasSuffix(raw, string(crashMessage(n))) {
		return 0, fmt.Errorf("delivery %d is not whole (%d bytes)", n, len(raw))
	}
	return n, nil
}

// FuzzMailboxLog: any mailbox log loads without panic into messages in
// ascending UID order below UIDNEXT, and a message appended after it (past
// whatever unfinished line it ends with) is read back last.
func FuzzMailboxLog(f *testing.F) {
	f.Add([]byte("{\"uidvalidity\":5,\"join\":2}\n{\"op\":\"a\",\"uid\":3,\"blob\":3,\"size\":4}\n"))
	f.Add([]byte("{\"uidvalidity\":5}\n{\"op\":\"a\",\"uid\":7}\n{\"op\":\"f\",\"uid\":7,\"flags\":[\"\\\\Seen\"]}\n{\"op\":\"x\",\"uid\":3"))
	f.Add([]byte("{\"uidvalidity\":1}\n{\"op\":\"a\",\"uid\":4294967295}\n{\"op\":\"a\"}\n"))
	f.Add([]byte("garbage\n\x00"))
	f.Fuzz(func(t *testing.T, log []byte) {
		s, err := openStore(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer s.close()
		if _, err := s.createUser("p@example.test"); err != nil {
			t.Fatal(err)
		}
		path := s.boxPath("p@example.test", "Processed")
		if err := os.WriteFile(path, log, 0o600); err != nil {
			t.Fatal(err)
		}
		b, err := s.load("p@example.test", "Processed")
		if err != nil {
			return
		}
		for i, m := range b.msgs {
			if m.uid == 0 || m.uid >= b.uidNext || (i > 0 && m.uid <= b.msgs[i-1].uid) {
				t.Fatalf("message %d has UID %d (UIDNEXT %d) in %q", i, m.uid, b.uidNext, log)
			}
		}
		if b.uidNext == ^uint32(0) {
			return
		}
		if err := appendLog(path, logRec{Op: "a", UID: b.uidNext, Size: 1}); err != nil {
			t.Fatal(err)
		}
		b2, err := s.load("p@example.test", "Processed")
		if err != nil {
			t.Fatalf("load after an append: %v", err)
		}
		if n := len(b2.msgs); n == 0 || b2.msgs[n-1].uid != b.uidNext {
			t.Fatalf("the appended message (UID %d) is not last in %q", b.uidNext, log)
		}
	})
}
