package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contests/steemfield"
	"referee/contract"
	"referee/contract/store"
	"referee/internal/daemon"
	"referee/internal/web"
)

// referee status on a fresh state: the clock, every game with its next event,
// the randomness commitment waiting in the outbox, no problem; then with a notice failed for good, the
// problem check lists and exit status 2.
func TestStatus(t *testing.T) {
	dir := initState(t, "2099-12-01T09:00:00Z")
	code, out, errs := runCmd(t, dir, "status")
	if code != 0 {
		t.Fatalf("status: %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"clock: Tue 2099-12-01 09:00 UTC", "web page: http://127.0.0.1:8025/", `outbox: 1 waiting; the first, "Randomness: seed commitment for 2099-W50"`, "problems: none",
		"rumble      no game yet"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	// Life's weekly round is its next event: on the Monday after the start.
	if !regexp.MustCompile(`(?m)^life .* at Mon 2099-12-07 00:00 UTC +5d 15h$`).MatchString(out) {
		t.Errorf("status does not show Life's next round:\n%s", out)
	}

	s, path := loadState(t, dir)
	s.Failed = append(s.Failed, &contract.Outgoing{Notice: contract.Notice{ID: "x/1", Subject: "Lost", To: []string{"a@example.test"}}, LastError: "550 no such user"})
	if err := store.Save(path, s); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCmd(t, dir, "status")
	if code != 2 || !strings.Contains(out, "failed for good: 1") || !strings.Contains(out, "550 no such user") {
		t.Errorf("status with a failed notice: exit %d\n%s", code, out)
	}
}

// TestStatusLastMailFromANonPlayer: the last mail read came from someone
// who is no player (the contestmaster): status names no sender rather than
// printing a placeholder.
func TestStatusLastMailFromANonPlayer(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{7}, 32), 0o600)
	mbox := "From contestmaster@example.test Tue Dec  1 10:00:00 2026\nFrom: Contestmaster <contestmaster@example.test>\nTo: referee@example.test\n" +
		"Subject: s\nDate: Tue, 1 Dec 2026 10:00:00 +0000\nMessage-ID: <c1@example.test>\n\nI deny CoE #5: no such error.\n\n"
	os.WriteFile(filepath.Join(dir, "in.mbox"), []byte(mbox), 0o600)
	if code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "in.mbox"); code != 0 {
		t.Fatalf("replay: %d %s %s", code, out, errs)
	}
	_, out, _ := runCmd(t, dir, "status")
	if !strings.Contains(out, "last mail read: <c1@example.test>, Tue 2026-12-01 10:00 UTC") || strings.Contains(out, "from ?") {
		t.Errorf("status's last mail read:\n%s", out)
	}
}

// TestStatusIntents: referee status lists the open intents, each with its
// sponsor, game, action, method, support, from when it may be done (and in
// how long) and when it expires; with none open it says so.
func TestStatusIntents(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{7}, 32), 0o600)
	mbox := "From alice@example.test Tue Dec  1 10:00:00 2099\nFrom: Alice <alice@example.test>\nTo: agora-business@example.test\nList-Id: <agora-business.example.test>\n" +
		"Subject: s\nDate: Tue, 1 Dec 2099 10:00:00 +0000\nMessage-ID: <i1@example.test>\n\nI intend, without 2 objections, to amend the Rumble contract: SET Deadline = 48h\n\n"
	os.WriteFile(filepath.Join(dir, "in.mbox"), []byte(mbox), 0o600)
	if code, _, errs := runCmd(t, dir, "init", "--secret-file", "secret", "--start", "2099-12-01T09:00:00Z"); code != 0 {
		t.Fatalf("init: %d %s", code, errs)
	}
	if _, out, _ := runCmd(t, dir, "status"); !strings.Contains(out, "\nopen intents: none\n") {
		t.Errorf("status with no intent open:\n%s", out)
	}
	if code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "in.mbox"); code != 0 {
		t.Fatalf("replay: %d %s %s", code, out, errs)
	}
	_, out, _ := runCmd(t, dir, "status")
	row := regexp.MustCompile(`(?m)^#1 +rumble +Alice +amend the Rumble contract: SET Deadline = 48h +without 2 objections +0/0 +from Sat 2099-12-05 10:00 UTC +4d 0h +Tue 2099-12-15 10:00 UTC$`)
	if !strings.Contains(out, "\nopen intents: 1\nINTENT ") || !row.MatchString(out) {
		t.Errorf("status does not list the open intent:\n%s", out)
	}
}

// TestStatusTimeLeftAsThePage: referee status and the status page count the
// time left to a game's next event alike, whole days and hours gone by, not
// rounded up: 5 days, 14 hours and 59 minutes 30 seconds before Life's round
// is "5d 14h" in both.
func TestStatusTimeLeftAsThePage(t *testing.T) {
	dir := initState(t, "2099-12-01T09:00:30Z")
	code, out, errs := runCmd(t, dir, "status")
	if code != 0 {
		t.Fatalf("status: %d\n%s%s", code, out, errs)
	}
	if !regexp.MustCompile(`(?m)^life .* at Mon 2099-12-07 00:00 UTC +5d 14h$`).MatchString(out) {
		t.Errorf("status does not count 5d 14h to Life's round:\n%s", out)
	}
	e, err := newEngine(&Config{Contestmaster: "contestmaster@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Load(e, filepath.Join(dir, "data/state.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(web.Options{Engine: e, View: func(f func(*contract.State)) { f(s) },
		Archive: web.OpenArchive(filepath.Join(dir, "sent.jsonl")), Journal: filepath.Join(dir, "data/journal.jsonl"), Now: func() time.Time { return s.Clock }}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(page), "<td>week (2099-W50) at Mon 2099-12-07 00:00 UTC</td><td>5d 14h</td>") {
		t.Errorf("the page does not count 5d 14h to Life's round:\n%s", page)
	}
}

// statusAfter runs referee status on a fresh state changed by change.
func statusAfter(t *testing.T, change func(*contract.State)) string {
	t.Helper()
	dir := initState(t, "2099-12-01T09:00:00Z")
	s, path := loadState(t, dir)
	change(s)
	if err := store.Save(path, s); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, dir, "status")
	if code != 0 {
		t.Fatalf("status: %d\n%s%s", code, out, errs)
	}
	return out
}

// TestStatusCountsOneRound: Life's phase after its first Round with one
// Generation reads "1 round, 1 generation".
func TestStatusCountsOneRound(t *testing.T) {
	out := statusAfter(t, func(s *contract.State) {
		d := s.Games["life"].Data.(*life.State)
		d.Rounds, d.Generations = 1, 1
	})
	if !regexp.MustCompile(`(?m)^life +1 round, 1 generation +`).MatchString(out) {
		t.Errorf("status does not count 1 round, 1 generation:\n%s", out)
	}
}

// TestStatusDissolvedTotem: a Steemfield game ended by the totem's
// dissolution (Meta 3) has no winner, and status says so as the game's
// report does, where it named an empty winner ("over:  won").
func TestStatusDissolvedTotem(t *testing.T) {
	out := statusAfter(t, func(s *contract.State) {
		s.Games["steemfield"].Data.(*steemfield.State).Phase = steemfield.PhaseOver
	})
	if !regexp.MustCompile(`(?m)^steemfield +over: the totem was dissolved +`).MatchString(out) {
		t.Errorf("status does not say the totem was dissolved:\n%s", out)
	}
	out = statusAfter(t, func(s *contract.State) {
		d := s.Games["steemfield"].Data.(*steemfield.State)
		d.Phase, d.Winner = steemfield.PhaseOver, "Alice"
	})
	if !regexp.MustCompile(`(?m)^steemfield +over: Alice won +`).MatchString(out) {
		t.Errorf("status does not say Alice won:\n%s", out)
	}
}

// TestStatusTimeLeftFromNow: status counts the time left to an event from
// now, as the status page does, when the state's clock (that of its last
// change) is behind: a state last changed on Wednesday 1 January 2020 has
// Life's Round of Monday 6 January due, not 4 days and 15 hours away, and
// the clock line says the time left counts from now.
func TestStatusTimeLeftFromNow(t *testing.T) {
	dir := initState(t, "2020-01-01T09:00:00Z")
	code, out, errs := runCmd(t, dir, "status")
	if code != 0 {
		t.Fatalf("status: %d\n%s%s", code, out, errs)
	}
	if !regexp.MustCompile(`(?m)^life .* at Mon 2020-01-06 00:00 UTC +due$`).MatchString(out) {
		t.Errorf("status does not show Life's round of 6 January 2020 due:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^clock: Wed 2020-01-01 09:00 UTC \(its last change; the time left counts from now, \w{3} \d{4}-\d\d-\d\d \d\d:\d\d UTC\)$`).MatchString(out) {
		t.Errorf("the clock line does not say the time left counts from now:\n%s", out)
	}
}

// TestCheckNamesTheListOfANotice: a notice to a list keeps no address of
// its own (the configuration names the lists), and check named nobody, "to
// not sent"; it names the list's address for one waiting in the outbox, and
// the list for one failed for good, as it names a player for a receipt.
func TestCheckNamesTheListOfANotice(t *testing.T) {
	dir := initState(t, "2026-12-01T09:00:00Z")
	s, path := loadState(t, dir)
	if len(s.Outbox) != 1 || len(s.Outbox[0].To) != 0 {
		t.Fatalf("a fresh state's outbox: %+v, want the Randomness notice to the official list alone", s.Outbox)
	}
	s.Outbox[0].Attempts = 2
	s.Outbox[0].NextTry = time.Date(2026, 12, 1, 9, 5, 0, 0, time.UTC)
	s.Outbox[0].LastError = "smtp dial: connection refused"
	s.Failed = append(s.Failed, &contract.Outgoing{Notice: contract.Notice{ID: "x/1", Subject: "Shout", Channel: contract.ChanPublic}, LastError: "550 list closed"})
	if err := store.Save(path, s); err != nil {
		t.Fatal(err)
	}
	_, out, _ := runCmd(t, dir, "check")
	for _, want := range []string{
		"(Randomness: seed commitment for 2026-W50) to agora-official@example.test not sent after 2 attempt(s), the next at 2026-12-01T09:05:00Z; the mail server said: smtp dial: connection refused",
		"failed: notice x/1 (Shout) to the public list could not be delivered: 550 list closed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check lacks %q:\n%s", want, out)
		}
	}
}

// initState is a directory in which referee init made a state starting at
// start (RFC 3339), with a secret file of its own.
func initState(t *testing.T, start string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{7}, 32), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCmd(t, dir, "init", "--secret-file", "secret", "--start", start); code != 0 {
		t.Fatalf("init: %d %s", code, errs)
	}
	return dir
}

// loadState loads the state referee init made in dir, and its path.
func loadState(t *testing.T, dir string) (*contract.State, string) {
	t.Helper()
	e, err := newEngine(&Config{Contestmaster: "contestmaster@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "data/state.yaml")
	s, err := store.Load(e, path)
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}

// TestStatusTimeLeftFromATestClock: a state whose clock is ahead of now (a
// test clock's, --clock-start in 2099), with no referee run going on it, has
// the time left counted from that clock, the state's last change: the clock
// line says what the IN column counts from, rather than nothing.
func TestStatusTimeLeftFromATestClock(t *testing.T) {
	dir := initState(t, "2099-12-01T09:00:00Z")
	code, out, errs := runCmd(t, dir, "status")
	if code != 0 {
		t.Fatalf("status: %d\n%s%s", code, out, errs)
	}
	const want = "clock: Tue 2099-12-01 09:00 UTC (its last change, ahead of now: a test clock's, no referee run going on it; the time left counts from it)\n"
	if !strings.Contains(out, want) {
		t.Errorf("the clock line does not say what the time left counts from; want %q in:\n%s", want, out)
	}
	if !regexp.MustCompile(`(?m)^life .* at Mon 2099-12-07 00:00 UTC +5d 15h$`).MatchString(out) {
		t.Errorf("status does not count Life's next round from the state's clock:\n%s", out)
	}
}

// TestStatusTimeLeftFromARunningTestClock: the test clock of a referee run
// going (STATE.clock, locked by the run) has run on for 60 game hours since
// the state's last change at Tue 09:00: status counts Life's round on
// Monday from the test clock, Thu 21:00, as the running referee sees it,
// where it counted from the state's clock (5d 15h, the round two days
// nearer than that) and said it could not read a test clock still running.
// The file a killed run left (its lock free) counts for nothing.
func TestStatusTimeLeftFromARunningTestClock(t *testing.T) {
	dir := initState(t, "2099-12-01T09:00:00Z")
	state := filepath.Join(dir, "data/state.yaml")
	start := time.Date(2099, 12, 1, 9, 0, 0, 0, time.UTC)
	release, err := publishClock(state, &daemon.Clock{Start: start, Real0: time.Now().Add(-time.Hour), Rate: 60})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, dir, "status")
	if code != 0 {
		t.Fatalf("status: %d\n%s%s", code, out, errs)
	}
	// A status slower than a minute would see 22:00.
	if !regexp.MustCompile(`(?m)^clock: Tue 2099-12-01 09:00 UTC \(its last change; the time left counts from the test clock of the referee run going, Thu 2099-12-03 21:\d\d UTC, 60 times real time\)$`).MatchString(out) {
		t.Errorf("the clock line does not give the running test clock:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^life .* at Mon 2099-12-07 00:00 UTC +3d 2h$`).MatchString(out) {
		t.Errorf("status does not count Life's next round from the running test clock:\n%s", out)
	}
	left := readFile(t, clockPath(state))
	release()
	if _, err := os.Stat(clockPath(state)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the test clock's file is still there after its release: %v", err)
	}
	// As a killed run leaves it: the file, its lock gone with the process.
	if err := os.WriteFile(clockPath(state), left, 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ = runCmd(t, dir, "status")
	if !strings.Contains(out, "clock: Tue 2099-12-01 09:00 UTC (its last change, ahead of now: a test clock's, no referee run going on it; the time left counts from it)\n") ||
		!regexp.MustCompile(`(?m)^life .* at Mon 2099-12-07 00:00 UTC +5d 15h$`).MatchString(out) {
		t.Errorf("status counts from the test clock of a run that is gone:\n%s", out)
	}
}

// TestRunKeepsItsTestClockForStatus: referee run on a test clock keeps it
// in STATE.clock while it runs, so that referee status, another process,
// counts from it; the file goes when the run stops, and a run on the wall
// clock writes none.
func TestRunKeepsItsTestClockForStatus(t *testing.T) {
	d := startHubDaemon(t, "", "--clock-start", "2099-12-01T09:00:00Z", "--clock-rate", "60")
	state := filepath.Join(d.dir, "data/state.yaml")
	clk, ok := runningClock(state)
	if !ok || clk.Rate != 60 || clk.Now().Before(time.Date(2099, 12, 1, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("referee run keeps no test clock for status: %v %v", clk, ok)
	}
	_, out, _ := runCmd(t, d.dir, "status")
	if !strings.Contains(out, "the time left counts from the test clock of the referee run going, ") {
		t.Errorf("status does not count from the running test clock:\n%s", out)
	}
	stopReferee(t, d.runningReferee)
	if _, err := os.Stat(clockPath(state)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the test clock's file is left after the run stopped: %v", err)
	}
	wall := startHubDaemonIn(t, d.dir, "")
	if _, err := os.Stat(clockPath(state)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("referee run on the wall clock writes a test clock: %v", err)
	}
	stopReferee(t, wall.runningReferee)
}
