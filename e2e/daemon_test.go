//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The referee binary is built once, on first use, into a temporary dir.
var (
	buildOnce sync.Once
	binDir    string
	binPath   string
	buildErr  error
)

func cleanupBinary() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}

// refereeBin builds ./cmd/referee (with -race when the tests run with it, so
// the daemon's races show too) and returns the binary's path.
func refereeBin(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "referee-e2e-bin-")
		if buildErr != nil {
			return
		}
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Dir(filepath.Dir(file))
		binPath = filepath.Join(binDir, "referee")
		args := []string{"build", "-o", binPath}
		if raceEnabled {
			args = append(args, "-race")
		}
		cmd := exec.Command("go", append(args, "./cmd/referee")...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/referee: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatalf("build referee: %v", buildErr)
	}
	return binPath
}

// refereeEnv is the daemon's configuration for the stack: the referee reads
// its INBOX over IMAP STARTTLS and sends over submission as referee@.
func refereeEnv(state string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "REFEREE_") {
			env = append(env, kv)
		}
	}
	return append(env,
		"REFEREE_STATE="+state,
		"REFEREE_ADDRESS="+ms.referee,
		"REFEREE_CONTESTMASTER="+ms.cm,
		"REFEREE_PUBLIC_LISTS="+ms.businessList,
		"REFEREE_OFFICIAL_LIST="+ms.officialList,
		"REFEREE_DISCUSSION_LISTS="+ms.discussList,
		"REFEREE_IMAP_ADDR="+ms.imapAddr,
		"REFEREE_IMAP_TLS=starttls",
		"REFEREE_IMAP_USER="+ms.referee,
		"REFEREE_IMAP_PASSWORD="+ms.password,
		"REFEREE_SMTP_ADDR="+ms.submitAddr,
		"REFEREE_SMTP_TLS=starttls",
		"REFEREE_SMTP_USER="+ms.referee,
		"REFEREE_SMTP_PASSWORD="+ms.password,
		"REFEREE_AUTH_POLICY=none",
		"REFEREE_CA_FILE="+ms.caFile,
	)
}

// referee is one game's state on disk and the daemons run over it.
type referee struct {
	t      testing.TB
	dir    string
	state  string
	config string // referee.yaml in dir, or empty
	runs   int
}

// newReferee clears every mailbox and writes a fresh state with `referee init`.
// Lines of configYAML, if any, become the referee.yaml every command reads
// (the environment still sets the mail endpoints and addresses).
func newReferee(t testing.TB, configYAML ...string) *referee {
	t.Helper()
	clearMailboxes(t)
	dir := t.TempDir()
	r := &referee{t: t, dir: dir, state: filepath.Join(dir, "state.yaml")}
	args := []string{"init", "--state", r.state}
	if len(configYAML) > 0 {
		r.config = filepath.Join(dir, "referee.yaml")
		if err := os.WriteFile(r.config, []byte(strings.Join(configYAML, "\n")+"\n"), 0o600); err != nil {
			t.Fatalf("write referee.yaml: %v", err)
		}
		args = append(args, "--config", r.config)
	}
	r.cmd(args...)
	return r
}

// cmd runs a one-shot subcommand and returns its standard output.
func (r *referee) cmd(args ...string) string {
	r.t.Helper()
	cmd := exec.Command(refereeBin(r.t), args...)
	cmd.Env = refereeEnv(r.state)
	cmd.Dir = r.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		r.t.Fatalf("referee %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// report prints the game's current report (`referee report GAME`).
func (r *referee) report(game string) string {
	r.t.Helper()
	return r.cmd("report", "--state", r.state, game)
}

// daemon is one `referee run` process.
type daemon struct {
	t    testing.TB
	cmd  *exec.Cmd
	log  string
	done chan struct{}
	err  error // set before done closes
}

// run starts `referee run` over the state, logging to a file in the test's
// dir; the test's cleanup stops it.
func (r *referee) run(extra ...string) *daemon {
	r.t.Helper()
	r.runs++
	log := filepath.Join(r.dir, fmt.Sprintf("run%d.log", r.runs))
	f, err := os.Create(log)
	if err != nil {
		r.t.Fatalf("referee run: %v", err)
	}
	args := []string{"run", "--state", r.state, "--log-format", "json"}
	if r.config != "" {
		args = append(args, "--config", r.config)
	}
	args = append(args, extra...)
	cmd := exec.Command(refereeBin(r.t), args...)
	cmd.Env = refereeEnv(r.state)
	cmd.Dir = r.dir
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		r.t.Fatalf("referee run: %v", err)
	}
	d := &daemon{t: r.t, cmd: cmd, log: log, done: make(chan struct{})}
	go func() {
		d.err = cmd.Wait()
		f.Close()
		close(d.done)
	}()
	r.t.Cleanup(func() {
		d.stop()
		if r.t.Failed() {
			d.dumpLog()
		}
	})
	return d
}

// exited reports whether the daemon has exited, and why.
func (d *daemon) exited() (bool, error) {
	select {
	case <-d.done:
		return true, d.err
	default:
		return false, nil
	}
}

// stop asks the daemon to stop (SIGTERM) and waits up to 30 s, then kills it.
func (d *daemon) stop() {
	if done, _ := d.exited(); done {
		return
	}
	start := time.Now()
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
		if took := time.Since(start); took > 2*time.Second {
			d.t.Logf("referee run took %v to stop after SIGTERM", took.Round(time.Millisecond))
		}
		// DESIGN: SIGTERM finishes the message in hand, saves and exits 0.
		if d.err != nil {
			d.t.Errorf("referee run after SIGTERM: %v, want exit status 0", d.err)
		}
	case <-time.After(30 * time.Second):
		d.t.Errorf("referee run (pid %d) ignored SIGTERM for 30 s; killing it", d.cmd.Process.Pid)
		d.kill()
	}
}

// kill ends the daemon at once (SIGKILL), as a crash would.
func (d *daemon) kill() {
	_ = d.cmd.Process.Kill()
	<-d.done
}

// mustBeRunning fails the test if the daemon has exited.
func (d *daemon) mustBeRunning() {
	d.t.Helper()
	if done, err := d.exited(); done {
		d.dumpLog()
		d.t.Fatalf("referee run exited early: %v", err)
	}
}

func (d *daemon) dumpLog() {
	b, err := os.ReadFile(d.log)
	if err != nil {
		d.t.Logf("daemon log: %v", err)
		return
	}
	const keep = 8000
	if len(b) > keep {
		b = b[len(b)-keep:]
	}
	d.t.Logf("daemon log %s (last %d bytes):\n%s", d.log, len(b), b)
}

// journalLine is one line of journal.jsonl, the referee's history.
type journalLine struct {
	Seq     int             `json:"seq"`
	Time    string          `json:"time"`
	MsgID   string          `json:"msgid"`
	Game    string          `json:"game"`
	Player  string          `json:"player"`
	Verb    string          `json:"verb"`
	Outcome string          `json:"outcome"`
	Reason  string          `json:"reason"`
	Detail  json.RawMessage `json:"detail"`
}

// journal reads the entries of journal.jsonl beside the state file (its
// input lines, which have no seq, are left out). A last line without its
// newline is being written by a running daemon and is left out.
func (r *referee) journal() []journalLine {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, "journal.jsonl"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		r.t.Fatalf("journal: %v", err)
	}
	rows := bytes.Split(b, []byte("\n"))
	rows = rows[:len(rows)-1] // after the last newline: empty, or a line in progress
	lines := make([]journalLine, 0, len(rows))
	for n, row := range rows {
		var l journalLine
		if err := json.Unmarshal(row, &l); err != nil {
			r.t.Fatalf("journal line %d: %v: %s", n+1, err, row)
		}
		if l.Seq == 0 {
			continue // an input
		}
		lines = append(lines, l)
	}
	return lines
}
