package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// replaySeries replays a generated archive again and again, each time
// killed at random instants until one run finishes, and holds the result
// against an uninterrupted replay given the secret the killed one drew.
func replaySeries(bin, dir string, kills, messages int, rng *rand.Rand) *figures {
	f := &figures{series: "referee replay"}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail(err)
	}
	archive := filepath.Join(dir, "archive.mbox")
	ids, until := writeArchive(archive, messages, rng)
	f.notes = append(f.notes, fmt.Sprintf("archive of %d messages over %s", messages, until))
	args := []string{"replay", "--until", until, "--out", "out", archive}
	// An uninterrupted replay times the kills.
	t0 := time.Now()
	if _, err := replayOnce(bin, filepath.Join(dir, "timing"), args, 0); err != nil {
		fail(err)
	}
	whole := time.Since(t0)
	f.notes = append(f.notes, fmt.Sprintf("an uninterrupted replay takes %v; kills fall in its first %v", whole.Round(time.Millisecond), (whole*6/5).Round(time.Millisecond)))
	secrets := map[string]bool{}
	runs := 0
	for f.kills < kills {
		runs++
		run := filepath.Join(dir, fmt.Sprintf("run%d", runs))
		state := filepath.Join(run, "data/state.yaml")
		seen := map[string]bool{}
		for {
			killed, err := replayOnce(bin, run, args, uniform(rng, whole*6/5)+time.Millisecond)
			if err != nil {
				fail(err)
			}
			if s := secretOf(state); s != "" {
				seen[s] = true
			}
			if !killed {
				break
			}
			f.kills++
		}
		for s := range seen {
			secrets[s] = true
		}
		// Each fresh replay draws its own secret: the figure is the most
		// one run drew through its kills.
		f.secrets = max(f.secrets, len(seen))
		compareReplay(bin, f, run, args, ids, secretOf(state))
		os.RemoveAll(run)
	}
	f.notes = append(f.notes, fmt.Sprintf("%d fresh replays run to their end through the kills (%d distinct secrets over them; secrets drawn is the most in one)", runs, len(secrets)))
	return f
}

// replayOnce runs the replay in dir, killing it after kill (0: never). It
// reports whether the kill came before the replay finished.
func replayOnce(bin, dir string, args []string, kill time.Duration) (bool, error) {
	os.MkdirAll(dir, 0o755)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlives the series
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return false, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var timer <-chan time.Time
	if kill > 0 {
		timer = time.After(kill)
	}
	select {
	case err := <-done:
		if err != nil {
			return false, fmt.Errorf("replay in %s: %v\n%s", dir, err, stderr.String())
		}
		return false, nil
	case <-timer:
		cmd.Process.Signal(syscall.SIGKILL)
		err := <-done
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == -1 {
			return true, nil
		}
		if err != nil {
			return false, fmt.Errorf("replay in %s: %v\n%s", dir, err, stderr.String())
		}
		return false, nil // it finished just before the kill
	}
}

// compareReplay holds the killed replay's journal and mails against an
// uninterrupted replay with its secret.
func compareReplay(bin string, f *figures, run string, args []string, ids []string, secret string) {
	ref := run + "-ref"
	os.MkdirAll(ref, 0o755)
	os.WriteFile(filepath.Join(ref, "secret"), []byte(secret+"\n"), 0o600)
	refArgs := append([]string{args[0], "--secret-file", "secret"}, args[1:]...)
	if _, err := replayOnce(bin, ref, refArgs, 0); err != nil {
		fail(err)
	}
	defer os.RemoveAll(ref)
	got, err := readJournal(filepath.Join(run, "data/journal.jsonl"))
	if err != nil {
		fail(err)
	}
	want, err := readJournal(filepath.Join(ref, "data/journal.jsonl"))
	if err != nil {
		fail(err)
	}
	for _, id := range ids {
		f.actions++
		switch {
		case got[id] < want[id]:
			f.lost++
		case got[id] > want[id]:
			f.doubled++
		}
	}
	gotMails, _ := emlDir(filepath.Join(run, "out"))
	wantMails, _ := emlDir(filepath.Join(ref, "out"))
	f.notices += len(wantMails)
	for id := range wantMails {
		if len(gotMails[id]) == 0 {
			f.missing++
		}
	}
	rnd := randomness{}
	for id, ms := range gotMails {
		if len(ms) > 1 {
			f.dupID += len(ms) - 1
			f.dupFile += len(ms) - 1
		}
		for _, m := range ms {
			if rnd.add(m) {
				f.contra++
			}
		}
		if len(wantMails[id]) == 0 {
			f.dupFile++ // a file the uninterrupted replay did not write
		}
	}
}

// emlDir reads the .eml files of dir by Message-ID, and counts them.
func emlDir(dir string) (map[string][]*mail, int) {
	out := map[string][]*mail{}
	names, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			fail(err)
		}
		m, err := parseMail(b)
		if err != nil {
			fail(fmt.Errorf("%s: %v", n, err))
		}
		out[m.id] = append(out[m.id], m)
	}
	return out, len(names)
}

// writeArchive writes an mbox of n messages from a dozen players to the
// public list, as the list delivers them, over three weeks (so weekly
// rounds, reports and Randomness notices come between them). It returns
// the Message-IDs and the --until instant.
func writeArchive(path string, n int, rng *rand.Rand) ([]string, string) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	span := 21 * 24 * time.Hour
	var b strings.Builder
	var ids []string
	joined := map[int]bool{}
	for i := range n {
		p := rng.IntN(12)
		at := start.Add(span * time.Duration(i) / time.Duration(n))
		id := fmt.Sprintf("t%d@example.test", i)
		ids = append(ids, id)
		body := fmt.Sprintf("I claim cell (%d, %d) in Life.", 1+rng.IntN(40), 1+rng.IntN(40))
		if !joined[p] {
			joined[p] = true
			body = "I join the Life contest."
		}
		from := fmt.Sprintf("p%d@example.test", p)
		fmt.Fprintf(&b, "From %s %s\nFrom: P%d <%s>\nTo: agora-business@example.test\nList-Id: Agora Business <agora-business.example.test>\nSubject: BUS: move %d\nDate: %s\nMessage-ID: <%s>\nContent-Type: text/plain; charset=utf-8\n\n%s\n\n",
			from, at.Format("Mon Jan _2 15:04:05 2006"), p, from, i, at.Format(time.RFC1123Z), id, body)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		fail(err)
	}
	return ids, start.Add(span).Format(time.RFC3339)
}
