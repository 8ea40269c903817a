// Command torture kills the referee at random instants and counts what a
// player or an auditor would find wrong afterwards (issue: the record is
// never lost or contradicted). It is not run by CI: it takes minutes, and
// its stack series needs the real Postfix + Dovecot of scripts/mailstack.sh.
//
// Three series, each SIGKILLing the built binary at seeded random instants:
//
//   - replay: `referee replay` of a generated archive, without --secret-file,
//     killed and run again until it finishes, then compared with an
//     uninterrupted replay given the secret the first run drew;
//   - hub: `referee run` over its embedded hub while players mail actions to
//     the public list throughout (a player whose mail the dead hub did not
//     accept sends it again after the restart, as a mail client would);
//   - stack: `referee run` over the real Postfix + Dovecot (MS_* variables of
//     scripts/mailstack.sh; run it through scripts/torture.sh, which takes
//     the end-to-end lock and starts the stack).
//
// After each series it prints: actions lost and doubled (the journal against
// the mail sent in), notices missing and doubled (by Message-ID, and for
// replay by .eml file), secrets drawn, seeds contradicted (two Randomness
// notices with one Message-ID and different commitments) and the share of
// actions whose receipt arrived twice. Exit status 1 when a target is
// missed: 0 lost, 0 doubled, 0 missing, at most 5% of receipts doubled, 1
// secret, 0 contradictions.
//
// Usage (from the repository root):
//
//	go run ./bench/torture -replay 10 -hub 10            # a short try
//	go run ./bench/torture -replay 400 -hub 400          # the full run
//	flock /tmp/referee-e2e.lock bash scripts/torture.sh -stack 250
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	replayKills := flag.Int("replay", 0, "kills of referee replay")
	hubKills := flag.Int("hub", 0, "kills of referee run over the embedded hub")
	stackKills := flag.Int("stack", 0, "kills of referee run over the real mail stack (MS_* variables set)")
	seed := flag.Uint64("seed", 1, "seed of the kill instants and the players' pace")
	players := flag.Int("players", 8, "players mailing actions (hub; the stack has its own six)")
	maxUp := flag.Duration("max-up", 600*time.Millisecond, "longest a referee run lives before its kill")
	messages := flag.Int("messages", 600, "messages in the replay archive")
	keep := flag.Bool("keep", false, "keep the working directory")
	flag.Parse()
	if *replayKills+*hubKills+*stackKills == 0 {
		fmt.Fprintln(os.Stderr, "torture: give the number of kills of at least one series (-replay N, -hub N, -stack N)")
		flag.Usage()
		os.Exit(2)
	}
	work, err := os.MkdirTemp("", "referee-torture-")
	if err != nil {
		fail(err)
	}
	if *keep {
		fmt.Fprintf(os.Stderr, "torture: working directory %s\n", work)
	} else {
		defer os.RemoveAll(work)
	}
	bin, err := build(work)
	if err != nil {
		fail(err)
	}
	rng := rand.New(rand.NewPCG(*seed, 0x70727475))
	ok, total := true, 0
	report := func(f *figures) {
		f.print(os.Stdout)
		ok = ok && f.met()
		total += f.kills
	}
	if *replayKills > 0 {
		report(replaySeries(bin, filepath.Join(work, "replay"), *replayKills, *messages, rng))
	}
	if *hubKills > 0 {
		report(liveSeries(bin, filepath.Join(work, "hub"), hubMail(*players), *hubKills, *maxUp, rng))
	}
	if *stackKills > 0 {
		st, err := stackMail()
		if err != nil {
			fail(err)
		}
		report(liveSeries(bin, filepath.Join(work, "stack"), st, *stackKills, *maxUp, rng))
	}
	fmt.Printf("%d kills in all; targets %s\n", total, map[bool]string{true: "met", false: "MISSED"}[ok])
	if !ok {
		if !*keep {
			os.RemoveAll(work)
		}
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "torture: %v\n", err)
	os.Exit(1)
}

// build builds cmd/referee of the module the current directory is in.
func build(work string) (string, error) {
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m: %w (run from the repository)", err)
	}
	bin := filepath.Join(work, "referee")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/referee")
	cmd.Dir = strings.TrimSpace(string(root))
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/referee: %v\n%s", err, out)
	}
	return bin, nil
}

// uniform is a random duration in [0, max).
func uniform(rng *rand.Rand, max time.Duration) time.Duration {
	return time.Duration(rng.Int64N(int64(max)))
}
