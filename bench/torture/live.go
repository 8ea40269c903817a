package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"net/smtp"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"gopkg.in/yaml.v3"
)

// mailSetup is where a live series' mail goes: the embedded hub or the
// real stack.
type mailSetup interface {
	name() string
	players() []string
	list() string
	// command is `referee run` in dir with the test clock at clockStart.
	command(bin, dir string, clockStart time.Time, rate float64) *exec.Cmd
	// smtpAddr reads, from the referee's stdout, where players submit mail
	// ("" if the process ended first).
	smtpAddr(stdout *bufio.Scanner) string
	// mailboxes returns every player's received mail, once the referee
	// has stopped.
	mailboxes(dir string) (map[string][][]byte, error)
	// settled says whether the mail the referee sent has all arrived.
	settled(dir string, want map[string]string) bool
	// pace is the shortest and longest wait of a player between two
	// mails.
	pace() (time.Duration, time.Duration)
	// inProcess says the players' SMTP server dies with the referee (the
	// embedded hub); else it takes mail while the referee is down.
	inProcess() bool
}

// clockRate is how many times faster than real time the referee's clock
// runs in the live series: a week passes in under 17 minutes, so weekly
// events, reports and Randomness notices come in a long series.
const clockRate = 600

// clockStart is the series' simulated start: twelve hours before a week's
// first instant.
var clockStart = time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)

// up is the referee's state as the players see it.
type up struct {
	mu   sync.Mutex
	cond *sync.Cond
	addr string // "" while the referee is down
	gen  int    // starts so far
	stop bool
}

func (u *up) set(addr string) {
	u.mu.Lock()
	u.addr = addr
	if addr != "" {
		u.gen++
	}
	u.mu.Unlock()
	u.cond.Broadcast()
}

// wait returns the address once the referee is up in a generation after
// gen ("" when stopping).
func (u *up) wait(after int) (string, int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for !u.stop && (u.addr == "" || u.gen <= after) {
		u.cond.Wait()
	}
	if u.stop {
		return "", 0
	}
	return u.addr, u.gen
}

// liveSeries runs `referee run` kills times, each killed at a random
// instant, while the players mail actions; then once more to the end.
func liveSeries(bin, dir string, ms mailSetup, kills int, maxUp time.Duration, rng *rand.Rand) *figures {
	f := &figures{series: "referee run over " + ms.name(), live: true}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail(err)
	}
	logf, err := os.Create(filepath.Join(dir, "run.log"))
	if err != nil {
		fail(err)
	}
	defer logf.Close()
	state := filepath.Join(dir, "data/state.yaml")
	u := &up{}
	u.cond = sync.NewCond(&u.mu)
	var (
		amu      sync.Mutex
		accepted = map[string]string{} // Message-ID -> its sender
	)
	real0 := time.Now()
	lo, hi := ms.pace()
	var wg sync.WaitGroup
	for i, p := range ms.players() {
		prng := rand.New(rand.NewPCG(rng.Uint64(), uint64(i)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			gen := 0
			for k := 0; ; k++ {
				id := fmt.Sprintf("%s.%d@example.test", strings.Split(p, "@")[0], k)
				body := fmt.Sprintf("I claim cell (%d, %d) in Life.", 1+prng.IntN(60), 1+prng.IntN(60))
				if k == 0 {
					body = "I join the Life contest."
				}
				raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: BUS: move %d\r\nMessage-ID: <%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
					p, ms.list(), k, id, time.Now().UTC().Format(time.RFC1123Z), body)
				for {
					addr, g := u.wait(gen - 1)
					if addr == "" {
						return
					}
					if err := submit(addr, p, ms.list(), raw); err == nil {
						amu.Lock()
						accepted[id] = p
						amu.Unlock()
						break
					}
					gen = g + 1 // wait for the next start
				}
				time.Sleep(lo + time.Duration(prng.Int64N(int64(hi-lo)))) // a player's pace
			}
		}()
	}
	secrets := map[string]bool{}
	start := func() (*exec.Cmd, chan error, chan struct{}) {
		at := clockStart.Add(time.Duration(float64(time.Since(real0)) * clockRate))
		cmd := ms.command(bin, dir, at, clockRate)
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlives the series
		cmd.Stderr = logf
		out, err := cmd.StdoutPipe()
		if err != nil {
			fail(err)
		}
		if err := cmd.Start(); err != nil {
			fail(err)
		}
		done, ready := make(chan error, 1), make(chan struct{})
		go func() {
			sc := bufio.NewScanner(out)
			if addr := ms.smtpAddr(sc); addr != "" {
				u.set(addr)
			}
			// The banner's last line comes once the state is loaded
			// and saved.
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), `mail "help" to `) {
					close(ready)
					break
				}
			}
			io.Copy(io.Discard, out)
			done <- cmd.Wait()
		}()
		return cmd, done, ready
	}
	exited := func(err error) {
		b, _ := os.ReadFile(logf.Name())
		fail(fmt.Errorf("after %d kills, referee run exited by itself (%v); the end of its log:\n%s", f.kills, err, tail(string(b), 10)))
	}
	t0 := time.Now()
	for f.kills < kills {
		cmd, done, ready := start()
		// One kill in four falls at a random instant of the start
		// (loading, the hub opening, the first save); the others at a
		// random instant of the work after it, while mail comes in.
		if rng.IntN(4) != 0 {
			select {
			case err := <-done:
				exited(err)
			case <-ready:
			case <-time.After(2 * time.Minute):
				fail(fmt.Errorf("referee run was not ready within 2 minutes; see %s", logf.Name()))
			}
		}
		select {
		case err := <-done:
			exited(err)
		case <-time.After(uniform(rng, maxUp)):
		}
		cmd.Process.Signal(syscall.SIGKILL)
		<-done
		if ms.inProcess() {
			u.set("")
		}
		f.kills++
		if s := secretOf(state); s != "" {
			secrets[s] = true
		}
		if f.kills%50 == 0 {
			amu.Lock()
			fmt.Fprintf(os.Stderr, "torture: %s: %d kills, %d actions accepted, %v\n", ms.name(), f.kills, len(accepted), time.Since(t0).Round(time.Second))
			amu.Unlock()
		}
	}
	// The last run: the players stop, the referee answers everything.
	cmd, done, _ := start()
	u.mu.Lock()
	u.stop = true
	u.mu.Unlock()
	u.cond.Broadcast()
	wg.Wait()
	f.notes = append(f.notes, fmt.Sprintf("%v of kills, the clock at %g times real time", time.Since(t0).Round(time.Second), float64(clockRate)))
	deadline := time.Now().Add(15 * time.Minute)
	for !finished(bin, dir, accepted, ms) {
		if time.Now().After(deadline) {
			f.notes = append(f.notes, "the last run had not answered everything after 15 minutes")
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if err := <-done; err != nil {
		f.notes = append(f.notes, fmt.Sprintf("the last run exited with %v", err))
	}
	if s := secretOf(state); s != "" {
		secrets[s] = true
	}
	f.secrets = len(secrets)
	liveFigures(f, dir, ms, accepted)
	return f
}

// finished: every action accepted is in the journal, the outbox is empty
// (as `referee check` reads the state: the state file may be a snapshot
// the journal goes past) and the mail has arrived.
func finished(bin, dir string, accepted map[string]string, ms mailSetup) bool {
	applied, err := readJournal(filepath.Join(dir, "data/journal.jsonl"))
	if err != nil {
		return false
	}
	for id := range accepted {
		if applied[id] == 0 {
			return false
		}
	}
	check := ms.command(bin, dir, clockStart, clockRate)
	check.Args = []string{bin, "check", "--no-login"} // the state alone, polled: no logins to the servers
	out, _ := check.Output()
	return !strings.Contains(string(out), "waiting in the outbox") && !strings.Contains(string(out), "not sent after") &&
		ms.settled(dir, accepted)
}

// outbox counts the notices waiting and failed for good in a state file.
func outbox(path string) (int, int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	var s struct {
		Outbox []yaml.Node `yaml:"outbox"`
		Failed []yaml.Node `yaml:"failed"`
	}
	if err := yaml.Unmarshal(b, &s); err != nil {
		return 0, 0, err
	}
	return len(s.Outbox), len(s.Failed), nil
}

// liveFigures counts, from the journal and the players' mailboxes.
func liveFigures(f *figures, dir string, ms mailSetup, accepted map[string]string) {
	applied, err := readJournal(filepath.Join(dir, "data/journal.jsonl"))
	if err != nil {
		fail(err)
	}
	boxes, err := ms.mailboxes(dir)
	if err != nil {
		fail(err)
	}
	referee := "referee@example.test"
	receipts := map[string]int{} // Message-ID of the action -> copies of its receipt
	rnd := randomness{}
	contra := map[string]bool{}
	var dupReceipt, dupOther, most int
	for _, raws := range boxes {
		byID := map[string]int{}
		receipt := map[string]bool{}
		for _, raw := range raws {
			m, err := parseMail(raw)
			if err != nil || m.from != referee {
				continue
			}
			byID[m.id]++
			receipt[m.id] = m.inReplyTo != "" && accepted[m.inReplyTo] != ""
			if m.inReplyTo != "" {
				receipts[m.inReplyTo]++
			}
			if rnd.add(m) {
				contra[m.id] = true
			}
		}
		for id, n := range byID {
			f.notices++
			if n > 1 {
				f.dupID += n - 1
				most = max(most, n)
				if receipt[id] {
					dupReceipt += n - 1
				} else {
					dupOther += n - 1
				}
			}
		}
	}
	if f.dupID > 0 {
		f.notes = append(f.notes, fmt.Sprintf("copies delivered again: %d of receipts, %d of other notices (list posts reach every player); at most %d copies of one", dupReceipt, dupOther, most))
	}
	f.contra = len(contra)
	for id := range accepted {
		f.actions++
		switch {
		case applied[id] == 0:
			f.lost++
		case applied[id] > 1:
			f.doubled++
		}
		switch {
		case receipts[id] == 0:
			f.missing++
		case receipts[id] > 1:
			f.receiptsTwice++
		}
	}
	waiting, failed, err := outbox(filepath.Join(dir, "data/state.yaml"))
	if err != nil {
		fail(err)
	}
	f.missing += waiting + failed
	if waiting+failed > 0 {
		f.notes = append(f.notes, fmt.Sprintf("%d notices left in the outbox, %d failed for good", waiting, failed))
	}
}

// submit sends raw as a player's mail client does; nil once the server
// accepted the end of its data.
func submit(addr, from, to, raw string) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Mail(from); err != nil {
		return err
	}
	if err := c.Rcpt(to); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, raw); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	c.Quit()
	return nil
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
