package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/internal/testdeadline"
)

// referee run's banner names the hub, the page, the state (just created) and
// what to do; the page's metrics count the mail the daemon reads and the
// actions it applies.
func TestRunBannerAndMetrics(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("hub:\n  imap_addr: 127.0.0.1:0\n  smtp_addr: 127.0.0.1:0\nweb:\n  addr: 127.0.0.1:0\n"), 0o600)
	run := startReferee(t, dir)
	lines, stderr, exited := run.lines, run.stderr, run.exited
	var banner []string
	for len(banner) < 5 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("referee run ended its output after %q", banner)
			}
			banner = append(banner, l)
		case <-time.After(testdeadline.Left(t)):
			t.Fatalf("referee run printed only %q by the test's deadline", banner)
		}
	}
	smtp := hubLine.FindStringSubmatch(banner[0])
	web := regexp.MustCompile(`^web page: (http://127\.0\.0\.1:\d+/)$`).FindStringSubmatch(banner[1])
	if smtp == nil || web == nil || banner[2] != "state: data/state.yaml (created just now from state.yaml)" ||
		banner[4] != `mail "help" to referee@example.test to start; the log follows.` {
		t.Fatalf("the banner:\n%s", strings.Join(banner, "\n"))
	}
	// Every list the hub carries is named, the discussion list too: mail to
	// it reaches every mailbox, as to the others.
	if !strings.HasSuffix(banner[0], "(any user and password; lists agora-business@example.test, agora-official@example.test, agora-discussion@example.test)") ||
		banner[3] != "lists: public agora-business@example.test, official agora-official@example.test, discussion agora-discussion@example.test" {
		t.Errorf("the banner does not name every list the hub carries:\n%s", strings.Join(banner, "\n"))
	}
	metric := func(re string) string {
		resp, err := http.Get(web[1] + "metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if m := regexp.MustCompile(`(?m)^` + re + ` (\S+)$`).FindStringSubmatch(string(b)); m != nil {
			return m[1]
		}
		return ""
	}
	sendMail(t, smtp[2], "Alice <alice@example.test>", "agora-business@example.test", "joining", "join1@example.test", "I join the Life contest.")
	// Every message read is logged once as "message" (the referee's own
	// Randomness notice comes back through the hub too, and is read).
	logged := func() string { return fmt.Sprint(strings.Count(stderr.String(), " msg=message ")) }
	deadline := time.Now().Add(testdeadline.Left(t))
	for metric(`referee_actions_total\{game="life",outcome="applied"\}`) != "1" || metric("referee_messages_read_total") != logged() ||
		!strings.Contains(stderr.String(), "msgid=join1@example.test") || metric("referee_outbox_depth") != "0" {
		if time.Now().After(deadline) {
			t.Fatalf("by the test's deadline the metrics did not count the join: read %q, applied %q, outbox %q", metric("referee_messages_read_total"),
				metric(`referee_actions_total\{game="life",outcome="applied"\}`), metric("referee_outbox_depth"))
		}
		select {
		case err := <-exited:
			t.Fatalf("referee run exited: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
	if v := metric("referee_mail_sent_total"); v == "" || v == "0" {
		t.Errorf("referee_mail_sent_total = %q after the receipt was sent", v)
	}
}

// check --help, the annotated configuration, names every key of the schema.
func TestCheckHelpNamesEveryKey(t *testing.T) {
	help := withSchema(checkUsage)
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, prefix string) {
		for f := range ty.Fields() {
			key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if key == "" || key == "-" {
				continue
			}
			if !regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(key) + `:`).MatchString(help) {
				t.Errorf("check --help does not show %s%s", prefix, key)
			}
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, prefix+key+".")
			}
		}
	}
	walk(reflect.TypeFor[Config](), "")
}

func TestWebConfig(t *testing.T) {
	cfg, err := loadConfig("", false)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Web.Addr != "127.0.0.1:8025" {
		t.Errorf("default web.addr %q", cfg.Web.Addr)
	}
	for v, bad := range map[string]bool{"off": false, "127.0.0.1:0": false, "[::1]:8080": false, "8025": true, "localhost": true} {
		t.Setenv("REFEREE_WEB_ADDR", v)
		cfg, err := loadConfig("", false)
		if err != nil {
			t.Fatal(err)
		}
		probs := strings.Join(cfg.validate(gameIDs()), "\n")
		if got := strings.Contains(probs, "web.addr"); got != bad {
			t.Errorf("web.addr %q: problems %q", v, probs)
		}
	}
}

// TestRunBannerInOnePiece: on a terminal, where the log and the banner share
// one screen, the banner's five lines come together, the hub's line first,
// and the log goes on after them (the README's "It prints what it started
// and what to do next, then its log"); the lines the log writes while the
// referee starts come before them.
func TestRunBannerInOnePiece(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("hub:\n  imap_addr: 127.0.0.1:0\n  smtp_addr: 127.0.0.1:0\nweb:\n  addr: 127.0.0.1:0\n"), 0o600)
	cmd := exec.Command(refereeBinary(t), "run")
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout // one terminal
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var lines []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.HasPrefix(sc.Text(), `mail "help" to `) {
			break
		}
	}
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "embedded mail hub: ") })
	if i < 0 || len(lines)-i != 5 {
		t.Fatalf("the banner is not five lines together, the hub's first:\n%s", strings.Join(lines, "\n"))
	}
}
