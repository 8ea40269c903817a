package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/contract"
	"referee/mailhub"
	"referee/mailin"
)

// runCmd runs the command line in-process from dir and returns its exit status
// and output.
func runCmd(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	var out, errb bytes.Buffer
	code := realMain(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCommittedStateInSync(t *testing.T) {
	e, err := templateEngine()
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := e.NewState(nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := contract.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../state.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("state.yaml is not what `referee init --template` writes; regenerate it with `go run ./cmd/referee init --template --force --state state.yaml`")
	}
	if bytes.Contains(got, []byte("secret:")) {
		t.Error("the committed state holds a secret")
	}
	// And a working state made by init holds the same games and parameters.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{7}, 32), 0o600)
	if code, out, errs := runCmd(t, dir, "init", "--secret-file", "secret", "--start", "2026-12-01T00:00:00Z"); code != 0 || !strings.Contains(out, "(games: life, rumble, steemfield, wackyworld)") {
		t.Fatalf("init: %d %s %s", code, out, errs)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "data/state.yaml"))
	for _, g := range gameIDs() {
		if !bytes.Contains(b, []byte("\n  "+g+":\n")) {
			t.Errorf("init's state lacks game %s", g)
		}
	}
}

func TestCheckUnknownKey(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{7}, 32), 0o600)
	if code, _, errs := runCmd(t, dir, "init", "--secret-file", "secret"); code != 0 {
		t.Fatalf("init: %d %s", code, errs)
	}
	if code, out, errs := runCmd(t, dir, "check"); code != 0 {
		t.Fatalf("check on a fresh state: %d %s %s", code, out, errs)
	}
	p := filepath.Join(dir, "data/state.yaml")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, []byte("surprise_key: 1\n")...), 0o600)
	code, out, _ := runCmd(t, dir, "check")
	if code != 1 || !strings.Contains(out, "surprise_key") || !strings.Contains(out, "data/state.yaml") {
		t.Errorf("check on a state with an unknown key: exit %d, output %q", code, out)
	}
	// A bad configuration key too.
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("adress: x@example.test\n"), 0o600)
	code, out, _ = runCmd(t, dir, "check")
	if code != 2 || !strings.Contains(out, "referee.yaml:1: adress: no such key") {
		t.Errorf("check with an unknown config key: exit %d, %q", code, out)
	}
}

func TestInitRefusesOverwrite(t *testing.T) {
	dir := t.TempDir()
	if code, _, _ := runCmd(t, dir, "init"); code != 0 {
		t.Fatal("first init failed")
	}
	code, _, errs := runCmd(t, dir, "init")
	if code != 2 || !strings.Contains(errs, "--force") {
		t.Errorf("second init: exit %d, %q", code, errs)
	}
}

func TestUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"bogus"}, {"report"}, {"replay"}, {"run", "--clock-rate", "x"}} {
		if code, _, _ := runCmd(t, dir, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// A time not in RFC 3339 is refused with the form it should have.
	for _, args := range [][]string{{"replay", "--until", "2026-12-10", "a.mbox"}, {"run", "--clock-start", "yesterday"}, {"init", "--start", "2026-12-10 10:00"}} {
		code, _, errs := runCmd(t, dir, args...)
		if want := fmt.Sprintf("%s: %q is not a time in RFC 3339, such as 2026-12-15T00:00:00Z", args[1], args[2]); code != 2 || !strings.Contains(errs, want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", args, code, errs, want)
		}
	}
	// The usage asked for is printed on stdout, to be paged; nothing on
	// stderr.
	for _, c := range []string{"run", "replay", "report", "check", "init", "verify", "status"} {
		code, out, errs := runCmd(t, dir, c, "--help")
		if code != 0 || !strings.HasPrefix(out, "Usage: referee "+c) || errs != "" {
			t.Errorf("%s --help: exit %d, stdout %q, stderr %q; want 0 and the usage on stdout alone", c, code, out, errs)
		}
		// The usage line names every option the list under it gives,
		// and the list writes each as the line does.
		usage, _, _ := strings.Cut(out, "\n")
		_, opts, _ := strings.Cut(out, "\nOptions:\n")
		listed := regexp.MustCompile(`(?m)^  --([a-z-]+)( [A-Z]+)?$`).FindAllStringSubmatch(opts, -1)
		if len(listed) < 2 {
			t.Errorf("%s --help lists %d options:\n%s", c, len(listed), opts)
		}
		for _, m := range listed {
			if !strings.Contains(usage, "[--"+m[1]+m[2]+"]") {
				t.Errorf("%s --help: the usage line %q does not name --%s%s", c, usage, m[1], m[2])
			}
		}
	}
	if code, out, errs := runCmd(t, dir, "replay", "--bogus"); code != 2 || out != "" || !strings.Contains(errs, "Usage: referee replay") {
		t.Errorf("replay --bogus: exit %d, stdout %q, stderr %q; want 2 and the usage on stderr", code, out, errs)
	}
}

// replayInto replays the test archive into a fresh state in dir.
func replayInto(t *testing.T, dir string) string {
	t.Helper()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{9}, 32), 0o600)
	arch, _ := filepath.Abs("testdata/replay.mbox")
	code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "--until", "2026-12-15T00:00:00Z", "--out", "out", arch)
	if code != 0 {
		t.Fatalf("replay: %d %s %s", code, out, errs)
	}
	return out
}

func TestReplayDeterministicAndIdempotent(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	replayInto(t, a)
	replayInto(t, b)
	for _, f := range []string{"data/state.yaml", "data/journal.jsonl"} {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two replays of the same archive", f)
		}
	}
	ma, _ := filepath.Glob(filepath.Join(a, "out/*.eml"))
	mb, _ := filepath.Glob(filepath.Join(b, "out/*.eml"))
	if len(ma) == 0 || len(ma) != len(mb) {
		t.Fatalf("replays wrote %d and %d mails", len(ma), len(mb))
	}
	var all []byte
	for i := range ma {
		x, _ := os.ReadFile(ma[i])
		y, _ := os.ReadFile(mb[i])
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between replays", filepath.Base(ma[i]))
		}
		all = append(all, x...)
	}
	// What the players see: receipts for Alice and Bob, a rejection of a claim
	// off the grid, no effect from the discussion list, the guide for help, and
	// the weekly reports with the randomness notices.
	// Each report carries its state hash, which the second replay reproduced.
	for _, want := range []string{"Subject: Re: BUS: joining Life", "Cell (60, 3) does not exist", "discussion list", "Subject: OFF: [Life] Weekly Report", "Randomness", "State hash (HMAC-SHA256"} {
		if !bytes.Contains(all, []byte(want)) {
			t.Errorf("no mail contains %q", want)
		}
	}
	// The same replay again on the resulting state changes nothing, not
	// a byte of the state file or of the journal, and says so: every
	// message was applied before.
	before := readFile(t, filepath.Join(a, "data/state.yaml"))
	jbefore := readFile(t, filepath.Join(a, "data/journal.jsonl"))
	out := replayInto(t, a)
	again, _ := filepath.Glob(filepath.Join(a, "out/*.eml"))
	if !bytes.Equal(before, readFile(t, filepath.Join(a, "data/state.yaml"))) || !bytes.Equal(jbefore, readFile(t, filepath.Join(a, "data/journal.jsonl"))) || len(again) != len(ma) {
		t.Errorf("a second replay changed something: %s", out)
	}
	wants(t, "a second replay", out, "0 messages applied, 5 skipped (applied before), 0 journal entries, 0 mails written")
}

func TestVerifyAfterReplay(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	code, out, errs := runCmd(t, dir, "verify")
	if code != 0 || !strings.Contains(out, " 0 mismatches") || strings.Contains(out, " 0 draws recomputed") || strings.Contains(out, " 0 state hashes checked") {
		t.Fatalf("verify: exit %d, %s %s", code, out, errs)
	}
	// Tamper with a revealed seed in the journal: verify must notice.
	p := filepath.Join(dir, "data/journal.jsonl")
	b, _ := os.ReadFile(p)
	i := bytes.Index(b, []byte(`"seed":"`))
	if i < 0 {
		t.Fatal("no revealed seed in the journal")
	}
	j := i + len(`"seed":"`)
	if b[j] == '0' {
		b[j] = '1'
	} else {
		b[j] = '0'
	}
	os.WriteFile(p, b, 0o600)
	code, out, _ = runCmd(t, dir, "verify")
	if code != 1 || !strings.Contains(out, "MISMATCH") {
		t.Errorf("verify on a tampered journal: exit %d, %s", code, out)
	}

	// Tamper with the state hash the journal records for the last report:
	// it no longer matches the state's record of it.
	dir = t.TempDir()
	replayInto(t, dir)
	p = filepath.Join(dir, "data/journal.jsonl")
	b, _ = os.ReadFile(p)
	i = bytes.LastIndex(b, []byte(`"cited":[`))
	k := bytes.Index(b[max(i, 0):], []byte(`"hash":"`))
	if i < 0 || k < 0 {
		t.Fatal("no citation in the journal")
	}
	j = i + k + len(`"hash":"`)
	if b[j] == '0' {
		b[j] = '1'
	} else {
		b[j] = '0'
	}
	os.WriteFile(p, b, 0o600)
	code, out, _ = runCmd(t, dir, "verify")
	if code != 1 || !strings.Contains(out, "MISMATCH") || !strings.Contains(out, "state hash") {
		t.Errorf("verify on a tampered state hash: exit %d, %s", code, out)
	}
}

func TestReport(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	code, out, errs := runCmd(t, dir, "report", "life")
	if code != 0 || !strings.Contains(out, "Subject: OFF: [Life] Weekly Report") {
		t.Errorf("report life: %d %s %s", code, out, errs)
	}
	code, _, errs = runCmd(t, dir, "report", "chess")
	if code != 2 || !strings.Contains(errs, `no game "chess" (the games are life, rumble, steemfield, wackyworld)`) {
		t.Errorf("report chess: exit %d, want 2 and the games: %s", code, errs)
	}
	code, _, errs = runCmd(t, dir, "report")
	if code != 2 || !strings.Contains(errs, "name one game: life, rumble, steemfield, wackyworld") {
		t.Errorf("report: exit %d, want 2 and the games: %s", code, errs)
	}
}

// TestReplayFromIMAPFolder rebuilds a game from a folder on an IMAP server, read
// without changing it: the referee's own store of received mail.
func TestReplayFromIMAPFolder(t *testing.T) {
	arrivals := []time.Time{}
	a, err := mailin.OpenArchive("testdata/replay.mbox")
	if err != nil {
		t.Fatal(err)
	}
	var raws [][]byte
	for {
		r, err := a.Next()
		if err != nil {
			break
		}
		raws = append(raws, r.Data)
		arrivals = append(arrivals, r.Arrived)
	}
	a.Close()
	i := 0
	hub, err := mailhub.Start(mailhub.Options{Users: []string{"store@example.test"}, Now: func() time.Time { return arrivals[min(i, len(arrivals)-1)] }})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	for i = range raws {
		if err := hub.Deliver("x@example.test", []string{"store@example.test"}, raws[i]); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{9}, 32), 0o600)
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("imap: {addr: '"+hub.IMAPAddr()+"', tls: none, user: store@example.test, password: x}\nsmtp: {addr: '"+hub.SMTPAddr()+"', tls: none}\n"), 0o600)
	code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", "--out", "out", "imap:INBOX")
	if code != 0 || !strings.Contains(out, "5 messages applied") {
		t.Fatalf("replay imap:INBOX: %d %s %s", code, out, errs)
	}
	// The same archive from the mbox gives the same state.
	d2 := t.TempDir()
	os.WriteFile(filepath.Join(d2, "secret"), bytes.Repeat([]byte{9}, 32), 0o600)
	arch, _ := filepath.Abs("testdata/replay.mbox")
	if code, _, errs := runCmd(t, d2, "replay", "--secret-file", "secret", "--out", "out", arch); code != 0 {
		t.Fatal(errs)
	}
	x, _ := os.ReadFile(filepath.Join(dir, "data/state.yaml"))
	y, _ := os.ReadFile(filepath.Join(d2, "data/state.yaml"))
	if !bytes.Equal(x, y) {
		t.Errorf("the state rebuilt from the IMAP folder differs from the one rebuilt from the mbox")
	}
	if len(hub.Mailbox("store@example.test")) != len(raws) {
		t.Errorf("the folder changed")
	}
}

// TestSecretFileForms: --secret-file takes the secret as the state writes it
// (64 hex digits, a newline after them allowed) or as raw bytes, and a state
// made from the one form can be made again from the other; too short a file
// is refused naming both forms.
func TestSecretFileForms(t *testing.T) {
	secretLine := func(dir string) string {
		b, err := os.ReadFile(filepath.Join(dir, "data/state.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "secret: ") {
				return l
			}
		}
		t.Fatalf("no secret line in the state:\n%s", b)
		return ""
	}
	raw := t.TempDir()
	os.WriteFile(filepath.Join(raw, "secret"), bytes.Repeat([]byte{0xab}, 32), 0o600)
	if code, _, errs := runCmd(t, raw, "init", "--secret-file", "secret"); code != 0 {
		t.Fatalf("init with raw bytes: %d %s", code, errs)
	}
	want := secretLine(raw)
	if want != "secret: "+strings.Repeat("ab", 32) {
		t.Fatalf("raw bytes gave %q", want)
	}
	hexDir := t.TempDir()
	os.WriteFile(filepath.Join(hexDir, "secret"), []byte(strings.TrimPrefix(want, "secret: ")+"\n"), 0o600)
	if code, _, errs := runCmd(t, hexDir, "init", "--secret-file", "secret"); code != 0 {
		t.Fatalf("init with the state's hex: %d %s", code, errs)
	}
	if got := secretLine(hexDir); got != want {
		t.Errorf("the state's hex as --secret-file gave %q, want %q", got, want)
	}
	short := t.TempDir()
	os.WriteFile(filepath.Join(short, "secret"), []byte("abcd\n"), 0o600)
	if code, _, errs := runCmd(t, short, "init", "--secret-file", "secret"); code == 0 || !strings.Contains(errs, "64 hex digits") {
		t.Errorf("a 5-byte secret file: exit %d, %q", code, errs)
	}
}

// TestNoArguments: a word after the options of a command that takes none
// ("referee status life", "referee run extra") is bad usage, exit status 2,
// naming the word and the command's --help, before anything is started or
// read, where run, status, verify and config went on as if it were not
// there; --clock-rate without --clock-start, which it would not change,
// is refused the same way.
func TestNoArguments(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"run", "extra"}, {"status", "life"}, {"verify", "now"}, {"config", "imap"}, {"check", "x"}, {"init", "x"}} {
		code, out, errs := runCmd(t, dir, args...)
		want := fmt.Sprintf("unexpected argument %q: referee %s takes options only (referee %s --help lists them)", args[1], args[0], args[0])
		if code != 2 || !strings.Contains(errs, want) || out != "" {
			t.Errorf("referee %s: exit %d, stdout %q, stderr %q; want 2 and %q", strings.Join(args, " "), code, out, errs, want)
		}
	}
	code, _, errs := runCmd(t, dir, "run", "--clock-rate", "60")
	if code != 2 || !strings.Contains(errs, "give --clock-start TIME with it") {
		t.Errorf("referee run --clock-rate 60: exit %d, %q; want 2 and that --clock-start goes with it", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); !os.IsNotExist(err) {
		t.Errorf("a refused command wrote data/ (%v)", err)
	}
}

// TestSecretFileRefused: a --secret-file that is missing or holds neither
// form of the secret (a 5-byte file, 64 characters with one not a hex
// digit, 33 raw bytes) is bad usage, exit status 2, saying what is wrong
// with the forms it takes, for init and for replay alike, and nothing is
// written: replay refuses it before it reads a message.
func TestSecretFileRefused(t *testing.T) {
	dir := t.TempDir()
	arch := filepath.Join(dir, "in.mbox")
	os.WriteFile(arch, []byte(mboxMessage("alice@example.test", "a1@example.test", time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))), 0o600)
	files := map[string][]byte{
		"short":   []byte("abcd\n"),
		"typo":    []byte(strings.Repeat("ab", 31) + "ag\n"),
		"raw33":   bytes.Repeat([]byte{0xab}, 33),
		"missing": nil,
	}
	for name, b := range files {
		if b != nil {
			os.WriteFile(filepath.Join(dir, name), b, 0o600)
		}
		for _, args := range [][]string{{"init", "--secret-file", name}, {"replay", "--secret-file", name, arch}} {
			code, _, errs := runCmd(t, dir, args...)
			if code != 2 || !strings.Contains(errs, "--secret-file") || !strings.Contains(errs, "64 hex digits (as the state writes it") || !strings.Contains(errs, "32 raw bytes") {
				t.Errorf("%s with a %s secret file: exit %d, %q; want 2 and the forms a secret file takes", args[0], name, code, errs)
			}
			if _, err := os.Stat(filepath.Join(dir, "data")); !os.IsNotExist(err) {
				t.Fatalf("%s with a %s secret file wrote data/ (%v)", args[0], name, err)
			}
		}
	}
	// What is wrong is said as the operator would count it: the text's
	// characters without the line break, where a hex digit is not one
	// (not which character: the file holds a secret), the bytes of a file
	// that is no text.
	for name, want := range map[string]string{
		"short": "short holds 4 characters, not 64 hex digits;",
		"typo":  "typo holds 64 characters, but character 64 is not a hex digit;",
		"raw33": "raw33 holds 33 bytes, neither 64 hex digits nor 32 raw bytes;",
	} {
		if _, _, errs := runCmd(t, dir, "init", "--secret-file", name); !strings.Contains(errs, want) {
			t.Errorf("init with the %s secret file: %q, want %q", name, errs, want)
		}
	}
	if code, _, errs := runCmd(t, dir, "init", "--template", "--secret-file", "short"); code != 2 || !strings.Contains(errs, "holds no secret") {
		t.Errorf("init --template --secret-file: exit %d, %q; want 2 and that the starting state holds no secret", code, errs)
	}
}

// mboxMessage is a message from from, with Message-ID id, arriving at at,
// as an mbox holds it (the From_ line's date is the arrival time).
func mboxMessage(from, id string, at time.Time) string {
	return fmt.Sprintf("From %s %s\nFrom: %s\nTo: referee@example.test\nSubject: hello\nMessage-ID: <%s>\nDate: %s\n\nHello.\n\n",
		from, at.Format("Mon Jan _2 15:04:05 2006"), from, id, at.Format(time.RFC1123Z))
}

// replayedNewer replays into a new folder an archive of two messages, on
// day and 45 days after it, so that the memory of Message-IDs (30 days)
// begins 15 days after day; it returns the folder and day.
func replayedNewer(t *testing.T) (string, time.Time) {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{9}, 32), 0o600)
	day := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	newer := filepath.Join(dir, "newer.mbox")
	os.WriteFile(newer, []byte(mboxMessage("alice@example.test", "n1@example.test", day)+mboxMessage("alice@example.test", "n2@example.test", day.AddDate(0, 0, 45))), 0o600)
	if code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", newer); code != 0 {
		t.Fatalf("replay: %d %s %s", code, out, errs)
	}
	return dir, day
}

// TestReplayOlderThanMemory: an archive older than the state, replayed
// after it, has messages from before the memory of Message-IDs begins:
// they are taken as applied (as the referee takes them in any replay) and
// the last line counts them apart, naming where the memory begins, not as
// messages applied before.
func TestReplayOlderThanMemory(t *testing.T) {
	dir, day := replayedNewer(t)
	older := filepath.Join(dir, "older.mbox")
	os.WriteFile(older, []byte(mboxMessage("bob@example.test", "o1@example.test", day.AddDate(0, 0, 3))+mboxMessage("bob@example.test", "n2@example.test", day.AddDate(0, 0, 45))), 0o600)
	code, out, errs := runCmd(t, dir, "replay", "--secret-file", "secret", older)
	if code != 0 {
		t.Fatalf("replay of the older archive: %d %s %s", code, out, errs)
	}
	wants(t, "the older archive's replay", out, "0 messages applied, 1 skipped (applied before), 1 skipped (arrived before 2026-12-16T10:00:00Z, where the memory of applied Message-IDs begins: taken as applied)")
}

// TestReplayOlderThanMemoryInterrupted: the messages older than the
// memory of Message-IDs are counted apart across a stop: a replay of an
// older archive, stopped after some of them and run again to its end,
// counts in its last line those before the stop too.
func TestReplayOlderThanMemoryInterrupted(t *testing.T) {
	dir, day := replayedNewer(t)
	older := filepath.Join(dir, "older.mbox")
	var old strings.Builder
	for i := range 4 {
		old.WriteString(mboxMessage("bob@example.test", fmt.Sprintf("o%d@example.test", i), day.AddDate(0, 0, 3+i)))
	}
	old.WriteString(mboxMessage("alice@example.test", "n2@example.test", day.AddDate(0, 0, 45)))
	os.WriteFile(older, []byte(old.String()), 0o600)
	args := []string{"replay", "--secret-file", "secret", older}
	if code, log := replayChild(t, dir, "message:3", syscall.SIGINT, args); code != 3 {
		t.Fatalf("the older archive's replay, interrupted: exit %d\n%s", code, log)
	}
	code, out, errs := runCmd(t, dir, args...)
	if code != 0 {
		t.Fatalf("the older archive's replay, resumed: %d %s %s", code, out, errs)
	}
	wants(t, "the older archive's replay, resumed", out, "0 messages applied, 1 skipped (applied before), 4 skipped (arrived before 2026-12-16T10:00:00Z, where the memory of applied Message-IDs begins: taken as applied)")
}

// TestFlagsAfterArguments: options may follow the arguments, as operators
// write them ("referee report life --state F"); after "--" every word is an
// argument.
func TestFlagsAfterArguments(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{9}, 32), 0o600)
	arch, _ := filepath.Abs("testdata/replay.mbox")
	code, out, errs := runCmd(t, dir, "replay", arch, "--secret-file", "secret", "--state", "other/state.yaml", "--out", "out")
	if code != 0 || !strings.Contains(out, "5 messages applied") {
		t.Fatalf("replay ARCHIVE --state other/state.yaml: %d %s %s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err == nil {
		t.Error("the replay wrote data/ instead of the state named after the archive")
	}
	code, out, errs = runCmd(t, dir, "report", "life", "--state", "other/state.yaml")
	if code != 0 || !strings.Contains(out, "Subject: OFF: [Life] Weekly Report") || !strings.Contains(out, "Bob") {
		t.Errorf("report life --state other/state.yaml: %d %s %s", code, out, errs)
	}
	code, _, errs = runCmd(t, dir, "report", "--state", "other/state.yaml", "--", "--state")
	if code != 2 || !strings.Contains(errs, `no game "--state"`) {
		t.Errorf("report -- --state: exit %d, %s; want 2 and no game \"--state\"", code, errs)
	}
}

// TestReplayLateArchive: an archive older than the state, replayed after
// it, is applied at the state's clock (G2), and the last line says how many
// messages came late and what to do instead.
func TestReplayLateArchive(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{9}, 32), 0o600)
	if code, _, errs := runCmd(t, dir, "init", "--secret-file", "secret", "--start", "2026-12-10T00:00:00Z"); code != 0 {
		t.Fatalf("init: %d %s", code, errs)
	}
	arch, _ := filepath.Abs("testdata/replay.mbox")
	code, out, errs := runCmd(t, dir, "replay", arch)
	want := "5 messages applied, 5 of them late (arrived before the state's clock and applied at it, ruling G2: replay archives in the order their mail arrived)"
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("replay of an older archive: %d %s %s\nwant %q", code, out, errs, want)
	}
	// In order, nothing is late.
	code, out, errs = runCmd(t, t.TempDir(), "replay", arch)
	if code != 0 || !strings.Contains(out, "5 messages applied, ") || strings.Contains(out, "late") {
		t.Errorf("replay in order: %d %s %s", code, out, errs)
	}
}

// TestNoStateYet: report, verify and status where no state exists yet say
// so and how one is made, rather than the system's words for a missing
// file, and exit 1, a failure, as each does for a state lost beside its
// journal (status exited 2, its code for the problems referee check
// lists, which lists none for a referee not started yet); they create
// nothing.
func TestNoStateYet(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"report", "life"}, {"verify"}, {"status"}} {
		code, out, errs := runCmd(t, dir, args...)
		if code != 1 || !strings.Contains(errs, "data/state.yaml: no state yet; referee run, referee init or referee replay creates it") || strings.Contains(errs, "no such file") {
			t.Errorf("%v without a state: exit %d, %s%s", args, code, out, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err == nil {
		t.Error("report, verify or status without a state created data/")
	}
	// A state lost beside its journal is not "no state yet".
	lost := t.TempDir()
	replayInto(t, lost)
	os.Remove(filepath.Join(lost, "data/state.yaml"))
	for _, args := range [][]string{{"report", "life"}, {"verify"}, {"status"}} {
		code, out, errs := runCmd(t, lost, args...)
		if code != 1 || !strings.Contains(errs, "data/state.yaml: missing, but its journal data/journal.jsonl is there: restore the state file (referee check explains)") {
			t.Errorf("%v beside a journal without its state: exit %d, %s%s", args, code, out, errs)
		}
	}
}

// TestReplayOutIsAFile: --out naming a file is bad usage, refused before
// anything is read or written.
func TestReplayOutIsAFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "out"), []byte("notes\n"), 0o600)
	arch, _ := filepath.Abs("testdata/replay.mbox")
	code, out, errs := runCmd(t, dir, "replay", "--out", "out", arch)
	if code != 2 || !strings.Contains(errs, "--out: out is a file; name a directory (created if missing) for the mails") {
		t.Errorf("replay --out FILE: exit %d, %s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err == nil {
		t.Error("replay --out FILE created the state")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "out")); string(b) != "notes\n" {
		t.Errorf("replay --out FILE changed the file: %q", b)
	}
}

// TestRunHubPortInUse: referee run whose embedded hub cannot have its port
// (another program listens there) says so and names the keys that choose
// other ports, exit status 1, where it printed the system's "bind: address
// already in use" alone.
func TestRunHubPortInUse(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("hub: {imap_addr: '"+l.Addr().String()+"', smtp_addr: '127.0.0.1:0'}\nweb: {addr: 'off'}\n"), 0o600)
	code, _, errs := runCmd(t, dir, "run")
	if code != 1 || !strings.Contains(errs, "another program holds the port (another referee run?)") || !strings.Contains(errs, "hub.imap_addr and hub.smtp_addr") {
		t.Errorf("run with the hub's port taken: exit %d, %q", code, errs)
	}
}
