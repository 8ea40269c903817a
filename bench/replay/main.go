// Command replay measures `referee replay` against go-message's parse of the
// same list archive.
//
// It generates a list archive (mbox, seeded: see gen.go) and its prefixes of
// each size asked for, builds referee, and for each size, each GOMAXPROCS
// and each run: parses the archive with go-message in this process (header,
// every part decoded and read, as mailin's BenchmarkArchive does) and times
// `referee replay --out` of it into a fresh data directory, with the child's
// peak RSS from its rusage. It prints messages per second for both, their
// ratio, milliseconds per message, the CPU time per message of both and
// their ratio (the replay's user and system time from its rusage, the
// parse's from this process's), the peak RSS and the page faults per
// message (the heap's growth from nothing: the system CPU a short replay
// pays more of per message), as the median of the runs
// with their range. On a loaded machine the ratios to the parse of the same
// run, and the CPU times, are what mean something; the last lines say how
// each grows from the smallest size to the largest.
//
// Each run's data directory (its .eml files) is made where no file was
// deleted lately, and kept until the end. ext4 (without a journal, as
// here), when it makes a file, looks at every inode of the block group
// freed in the last minute (six while its inode table is not yet written
// back) and skips it: in the group of /tmp, where builds and tests delete
// thousands of files a minute, making a file then costs a millisecond of
// system CPU, most of a 5,000-message replay's, and much less of a
// 200,000-message one's, which outlasts them. The runs' directories are
// made in a folder marked as the top of a hierarchy (chattr +T), which
// ext4 places as it places the root's, each in a group with few
// directories; the replay's system CPU is then its own. Where the mark
// cannot be set (another file system) the bench says so and goes on.
//
// The same ext4 check makes two runs of the bench one after the other
// unlike: the first removes its data directories at its end (some 270,000
// files at the default sizes), and for minutes after, the second's replays
// pay for them in system time (seen here: 0.05 ms a message more, in every
// group). To compare two builds, time both in one run: -against OLD times
// a second build in turn with the first, run by run, and prints the
// first's figures over the second's.
//
// Run from the repository's root (not in CI: minutes, and noisy):
//
//	go run ./bench/replay
//	go run ./bench/replay -sizes 5000,20000 -runs 1 -procs 2
//	go run ./bench/replay -referee /tmp/referee-new -against /tmp/referee-old
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"referee/internal/benchanchor"
	"referee/mailin"
)

func main() {
	sizes := flag.String("sizes", "5000,20000,50000,200000", "archive sizes in messages, comma-separated (each a prefix of the largest)")
	runs := flag.Int("runs", 3, "runs of each measure")
	procs := flag.String("procs", "1,2", "GOMAXPROCS values, comma-separated")
	players := flag.Int("players", 200, "players writing Life actions")
	seed := flag.Uint64("seed", 1, "the generator's seed")
	dir := flag.String("dir", "", "work directory (default: a temporary one, removed at the end)")
	referee := flag.String("referee", "", "a built referee to time (default: build ./cmd/referee)")
	against := flag.String("against", "", "a second built referee (an older build, say) timed in the same runs, in turn with the first, and compared with it")
	genOnly := flag.Bool("generate", false, "only write the archives, list-N.mbox, in -dir")
	flag.Parse()
	ns, err := ints(*sizes)
	if err != nil {
		fail("-sizes: %v", err)
	}
	ps, err := ints(*procs)
	if err != nil {
		fail("-procs: %v", err)
	}
	work := *dir
	if work != "" {
		if err := os.MkdirAll(work, 0o755); err != nil {
			fail("%v", err)
		}
	} else {
		if work, err = os.MkdirTemp("", "replaybench-"); err != nil {
			fail("%v", err)
		}
		defer os.RemoveAll(work)
	}
	if *genOnly {
		if *dir == "" {
			fail("-generate needs -dir")
		}
		if _, err := writeArchives(work, ns, *seed, *players); err != nil {
			fail("%v", err)
		}
		return
	}
	bin := *referee
	if bin == "" {
		bin = filepath.Join(work, "referee")
		build := exec.Command("go", "build", "-o", bin, "./cmd/referee")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fail("go build ./cmd/referee (run from the repository's root): %v", err)
		}
	}
	archives, err := writeArchives(work, ns, *seed, *players)
	if err != nil {
		fail("%v", err)
	}
	// The runs' data directories, each in a group of its own (see the
	// doc).
	runDir := filepath.Join(work, "runs")
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		fail("%v", err)
	}
	if err := spreadDirs(runDir); err != nil {
		fmt.Fprintf(os.Stderr, "replay bench: %s not marked as a top directory (%v): the replays make their files where deleted files may slow them\n", runDir, err)
	}
	secret := filepath.Join(work, "secret")
	if err := os.WriteFile(secret, []byte(strings.Repeat("5a", 32)+"\n"), 0o600); err != nil {
		fail("%v", err)
	}

	fmt.Printf("referee replay against go-message's parse; %d runs each (%s), median [min-max]\n\n", *runs, shortRuns(ns, *runs))
	fmt.Printf("%8s %5s | %-22s | %-22s | %-18s | %-20s | %-24s | %-20s | %-20s | %-18s | %-14s | %-16s\n", "messages", "procs", "parse msgs/s", "replay msgs/s", "replay/parse", "replay ms/msg", "parse CPU ms/msg", "replay CPU ms/msg", "replay user ms/msg", "CPU replay/parse", "peak RSS MB", "page faults/msg")
	// procs → size → median of the runs: wall ms, CPU ms per message, and
	// the replay's CPU over the parse's
	perMsg, cpuMsg, userMsg, cpuRatio, faultMsg := map[int]map[int]float64{}, map[int]map[int]float64{}, map[int]map[int]float64{}, map[int]map[int]float64{}, map[int]map[int]float64{}
	fig := figures{sizes: ns, ratio: map[int]map[int]float64{}, rate: map[int]map[int]float64{}, cpu: cpuMsg, user: userMsg, rss: map[int]map[int]float64{}}
	for _, p := range ps {
		perMsg[p], cpuMsg[p], userMsg[p], cpuRatio[p], faultMsg[p] = map[int]float64{}, map[int]float64{}, map[int]float64{}, map[int]float64{}, map[int]float64{}
		fig.ratio[p], fig.rate[p], fig.rss[p] = map[int]float64{}, map[int]float64{}, map[int]float64{}
	}
	var datas []string // removed at the end, not between runs (see the doc)
	defer func() {
		for _, d := range datas {
			os.RemoveAll(d)
		}
	}()
	// The runs go in rounds: each round replays every size with each
	// GOMAXPROCS (a size run more often than -runs, its share of its runs),
	// so that a slow minute of the host (another process's burst, the file
	// system still freeing the files of a directory deleted before the
	// bench) weighs on every size alike, not on the one measured then.
	type cell struct{ n, p int }
	type cellRuns struct {
		parse, replay, ratio, ms, pcpu, cpu, user, cratio, rss, faults []float64
		mine, other                                                    []replayResult // with -against: each run's two
	}
	cells := map[cell]*cellRuns{}
	for _, n := range ns {
		for _, p := range ps {
			cells[cell{n, p}] = &cellRuns{}
		}
	}
	for round := 0; round < *runs; round++ {
		for _, n := range ns {
			for _, p := range ps {
				c := cells[cell{n, p}]
				for range runsOf(n, *runs) / *runs {
					r := len(c.replay)
					pr, pc, err := parseRate(archives[n], p)
					if err != nil {
						fail("parse %s: %v", archives[n], err)
					}
					// A name no run has used: a directory left by a bench
					// stopped before its end would hold a finished replay,
					// which the next would re-run instead of replaying.
					data, err := os.MkdirTemp(runDir, fmt.Sprintf("data-%d-%d-%d-", n, p, r))
					if err != nil {
						fail("%v", err)
					}
					datas = append(datas, data)
					if *against != "" {
						datas = append(datas, data+"-against") // againstRun's
					}
					// With -against, the two builds take turns to go first.
					if *against != "" && r%2 == 1 {
						c.other = append(c.other, againstRun(*against, archives[n], secret, data, p))
					}
					res, err := replayRun(bin, archives[n], secret, data, p)
					if err != nil {
						fail("replay %s: %v", archives[n], err)
					}
					if *against != "" && r%2 == 0 {
						c.other = append(c.other, againstRun(*against, archives[n], secret, data, p))
					}
					c.mine = append(c.mine, res)
					rate := float64(n) / res.wall.Seconds()
					c.parse = append(c.parse, pr)
					c.replay = append(c.replay, rate)
					c.ratio = append(c.ratio, rate/pr)
					c.ms = append(c.ms, res.wall.Seconds()*1000/float64(n))
					c.pcpu = append(c.pcpu, pc.Seconds()*1000/float64(n))
					c.cpu = append(c.cpu, res.cpu.Seconds()*1000/float64(n))
					c.user = append(c.user, res.user.Seconds()*1000/float64(n))
					c.cratio = append(c.cratio, res.cpu.Seconds()/pc.Seconds())
					c.rss = append(c.rss, float64(res.maxRSS)/(1<<20))
					c.faults = append(c.faults, float64(res.faults)/float64(n))
				}
			}
		}
	}
	for _, n := range ns {
		for _, p := range ps {
			c := cells[cell{n, p}]
			perMsg[p][n], cpuMsg[p][n], userMsg[p][n], cpuRatio[p][n] = median(c.ms), median(c.cpu), median(c.user), median(c.cratio)
			faultMsg[p][n] = median(c.faults)
			fig.ratio[p][n], fig.rate[p][n], fig.rss[p][n] = median(c.ratio), median(c.replay), median(c.rss)
			fmt.Printf("%8d %5d | %-22s | %-22s | %-18s | %-20s | %-24s | %-20s | %-20s | %-18s | %-14s | %-16s\n", n, p,
				spread(c.parse, "%.0f"), spread(c.replay, "%.0f"), spread(c.ratio, "%.2f"), spread(c.ms, "%.3f"),
				spread(c.pcpu, "%.4f"), spread(c.cpu, "%.3f"), spread(c.user, "%.3f"), spread(c.cratio, "%.2f"), spread(c.rss, "%.0f"), spread(c.faults, "%.2f"))
			if *against != "" {
				printAgainst(n, c.mine, c.other)
			}
		}
	}
	fmt.Println()
	for _, p := range ps {
		fmt.Printf("GOMAXPROCS=%d, medians, from the smallest size to the largest:\n", p)
		growth(ns, perMsg[p], "replay ms per message", "%.3f")
		growth(ns, cpuMsg[p], "replay CPU ms per message", "%.3f")
		growth(ns, userMsg[p], "replay user ms per message", "%.3f")
		growth(ns, cpuRatio[p], "replay CPU / parse CPU", "%.2f")
		// The process's memory grows from nothing: each page it first
		// touches is a fault, dear in a virtual machine and dearer with
		// the process's threads on two CPUs (each fault on a page read
		// before it is written flushes the other CPU's TLB). A short
		// replay pays its heap's growth over fewer messages.
		growth(ns, faultMsg[p], "replay page faults per msg", "%.2f")
		marginal(ns, cpuMsg[p])
	}
	fmt.Println("\nIssue 14's targets, medians:")
	for _, v := range verdicts(fig) {
		fmt.Println("  " + v)
	}
}

// shortReplay is the size under which a replay is run more often than
// -runs: runsOf(n) times.
const shortReplay = 20000

// runsOf is how many times an archive of n messages is replayed (and
// parsed): runs, and for fewer than shortReplay messages runs times
// shortReplay/n (rounded up, at most 20), so that each size's median is of
// about as much replaying. A short run is the noisier: a 5,000-message replay takes
// a fifth of a second, in which another process's burst weighs more, and
// the kernel counts its user and system time by its clock tick (250 Hz
// here), some 50 ticks for the run, so the split alone moves by a tenth.
func runsOf(n, runs int) int {
	if n >= shortReplay || n <= 0 {
		return runs
	}
	return runs * min((shortReplay+n-1)/n, 20)
}

// shortRuns says how often the sizes under shortReplay are run.
func shortRuns(ns []int, runs int) string {
	var more []string
	for _, n := range ns {
		if k := runsOf(n, runs); k != runs {
			more = append(more, fmt.Sprintf("%d at %d messages", k, n))
		}
	}
	if len(more) == 0 {
		return "every size"
	}
	return strings.Join(more, ", ")
}

// growth prints a median per size, the largest over the smallest of them,
// and the largest size's over the smallest size's.
func growth(ns []int, v map[int]float64, what, f string) {
	lo, hi := v[ns[0]], v[ns[0]]
	var each []string
	for _, n := range ns {
		lo, hi = min(lo, v[n]), max(hi, v[n])
		each = append(each, fmt.Sprintf(f, v[n]))
	}
	fmt.Printf("  %-26s %s (max/min %.2f, %d/%d %.2f)\n", what+":", strings.Join(each, ", "), hi/lo, ns[len(ns)-1], ns[0], v[ns[len(ns)-1]]/v[ns[0]])
}

// marginal prints what each size's replay cost in CPU beyond the next
// smaller size's, per message it added, and what that leaves of the
// smallest size's as the cost of a run whatever its length (starting the
// process, making the state, the heap's first pages, the last state
// file): the per-message figures above carry that cost over fewer
// messages at the smaller sizes. It is told beside the targets, which
// are of the figures above.
func marginal(ns []int, cpuMsg map[int]float64) {
	if len(ns) < 2 {
		return
	}
	total := func(n int) float64 { return cpuMsg[n] * float64(n) }
	var each []string
	for i := 1; i < len(ns); i++ {
		a, b := ns[i-1], ns[i]
		each = append(each, fmt.Sprintf("%d-%d %.3f", a, b, (total(b)-total(a))/float64(b-a)))
	}
	first := (total(ns[1]) - total(ns[0])) / float64(ns[1]-ns[0])
	own := "each run's own cost, from the smallest sizes: "
	if fixed := total(ns[0]) - first*float64(ns[0]); fixed > 0 {
		own += fmt.Sprintf("%.0f ms", fixed)
	} else {
		// Below nothing: the larger size cost more a message than the
		// smaller by more than a run's own cost (noise, or a cost that
		// grows with the archive), which hides it.
		own += "none to tell"
	}
	fmt.Printf("  %-26s %s (%s)\n", "CPU ms per message added:", strings.Join(each, ", "), own)
}

// writeArchives makes sure dir holds list-N.mbox for each of sizes, each
// the first N messages of the same generated archive. Archives that
// already hold exactly what the generator makes are left as they are:
// rewriting them (420 MB at the default sizes) would leave the runs that
// follow to time their replays while the kernel writes the old blocks'
// release and the new pages back (seen: 5,000-message replays at 0.062 ms
// of CPU a message in a bench just started, 0.036-0.048 run alone). Those
// it writes, it writes beside and renames into place (a replay reading the
// old one keeps it), and syncs before the runs begin.
func writeArchives(dir string, sizes []int, seed uint64, players int) (map[int]string, error) {
	paths := map[int]string{}
	for _, n := range sizes {
		paths[n] = filepath.Join(dir, fmt.Sprintf("list-%d.mbox", n))
	}
	if archivesHold(paths, sizes, seed, players) {
		return paths, nil
	}
	var files []*os.File
	var ws []*bufio.Writer
	defer func() {
		for _, f := range files {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	for _, n := range sizes {
		f, err := os.CreateTemp(dir, fmt.Sprintf("list-%d-*.tmp", n))
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		ws = append(ws, bufio.NewWriterSize(f, 1<<20))
	}
	g := newGenerator(seed, players)
	var buf bytes.Buffer
	one := bufio.NewWriter(&buf)
	for i := 0; i < slices.Max(sizes); i++ {
		buf.Reset()
		g.next(one)
		one.Flush()
		for k, n := range sizes {
			if i < n {
				ws[k].Write(buf.Bytes())
			}
		}
	}
	for k, f := range files {
		if err := ws[k].Flush(); err != nil {
			return nil, err
		}
		if err := f.Sync(); err != nil {
			return nil, err
		}
		if err := os.Rename(f.Name(), paths[sizes[k]]); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// archivesHold reports whether each of paths holds exactly the archive of
// its size that the generator makes with seed and players (a missing or
// shorter, longer or other file: false). It reads them as it generates,
// and stops at the first byte that differs.
func archivesHold(paths map[int]string, sizes []int, seed uint64, players int) bool {
	var rs []*bufio.Reader
	for _, n := range sizes {
		f, err := os.Open(paths[n])
		if err != nil {
			return false
		}
		defer f.Close()
		rs = append(rs, bufio.NewReaderSize(f, 1<<20))
	}
	g := newGenerator(seed, players)
	var buf bytes.Buffer
	one := bufio.NewWriter(&buf)
	var got []byte
	for i := 0; i < slices.Max(sizes); i++ {
		buf.Reset()
		g.next(one)
		one.Flush()
		if cap(got) < buf.Len() {
			got = make([]byte, buf.Len())
		}
		for k, n := range sizes {
			if i >= n {
				continue
			}
			got = got[:buf.Len()]
			if _, err := io.ReadFull(rs[k], got); err != nil || !bytes.Equal(got, buf.Bytes()) {
				return false
			}
		}
	}
	for _, r := range rs {
		if _, err := r.ReadByte(); err != io.EOF {
			return false
		}
	}
	return true
}

// againstRun times the -against build as replayRun times the first, in a
// data directory of its own beside the first's.
func againstRun(bin, archive, secret, data string, procs int) replayResult {
	res, err := replayRun(bin, archive, secret, data+"-against", procs)
	if err != nil {
		fail("replay %s with %s: %v", archive, bin, err)
	}
	return res
}

// printAgainst prints the -against build's figures under the first's, and
// the first's over the second's, run by run (the two ran in turn, in the
// same minute): wall time, whole CPU and user CPU, median [min-max]; and
// the second's peak RSS.
func printAgainst(n int, mine, other []replayResult) {
	var rate, cpu, user, rss, rWall, rCPU, rUser []float64
	for i, o := range other {
		m := mine[i]
		rate = append(rate, float64(n)/o.wall.Seconds())
		rss = append(rss, float64(o.maxRSS)/(1<<20))
		cpu = append(cpu, o.cpu.Seconds()*1000/float64(n))
		user = append(user, o.user.Seconds()*1000/float64(n))
		rWall = append(rWall, m.wall.Seconds()/o.wall.Seconds())
		rCPU = append(rCPU, m.cpu.Seconds()/o.cpu.Seconds())
		rUser = append(rUser, m.user.Seconds()/o.user.Seconds())
	}
	fmt.Printf("%8s %5s | against: replay msgs/s %s, CPU ms/msg %s, user ms/msg %s, peak RSS MB %s; this build over it, run by run: wall %s, CPU %s, user %s\n", "", "",
		spread(rate, "%.0f"), spread(cpu, "%.3f"), spread(user, "%.3f"), spread(rss, "%.0f"), spread(rWall, "%.2f"), spread(rCPU, "%.2f"), spread(rUser, "%.2f"))
}

// parseRate parses every message of the archive with go-message, with
// GOMAXPROCS procs, and returns the messages per second and the CPU time
// this process used for it (the garbage collector's too).
func parseRate(path string, procs int) (float64, time.Duration, error) {
	old := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(old)
	runtime.GC()
	cpu0 := processCPU()
	start := time.Now()
	a, err := mailin.OpenArchive(path)
	if err != nil {
		return 0, 0, err
	}
	defer a.Close()
	n := 0
	for {
		r, err := a.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, 0, err
		}
		benchanchor.GoMessageParse(r.Data)
		n++
	}
	return float64(n) / time.Since(start).Seconds(), processCPU() - cpu0, nil
}

// processCPU is the user and system time this process has used.
func processCPU() time.Duration {
	cpu, err := benchanchor.ProcessCPU()
	if err != nil {
		fail("getrusage: %v", err)
	}
	return cpu
}

type replayResult struct {
	wall   time.Duration
	cpu    time.Duration // user + system
	user   time.Duration
	maxRSS int64 // bytes
	faults int64 // minor page faults
}

// replayRun times `referee replay --out out ARCHIVE` in a fresh data
// directory with GOMAXPROCS procs. The directory is left for the caller
// to remove.
func replayRun(bin, archive, secret, data string, procs int) (replayResult, error) {
	if err := os.MkdirAll(data, 0o755); err != nil {
		return replayResult{}, err
	}
	// A fresh replay: a state already there would make it a re-run of
	// what that state remembers, not the replay measured.
	if _, err := os.Stat(filepath.Join(data, "state.yaml")); err == nil {
		return replayResult{}, fmt.Errorf("%s holds a state already: a replay there would re-run it", data)
	}
	cmd := exec.Command(bin, "replay", "--state", "state.yaml", "--secret-file", secret, "--out", "out", archive)
	cmd.Dir = data
	cmd.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(procs))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return replayResult{}, fmt.Errorf("%v: %s", err, errb.String())
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	res := replayResult{wall: wall}
	if ru != nil {
		res.maxRSS = ru.Maxrss * 1024 // kilobytes on Linux
		res.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		res.user = time.Duration(ru.Utime.Nano())
		res.faults = ru.Minflt
	}
	if !strings.Contains(out.String(), " messages applied") {
		return res, fmt.Errorf("unexpected output: %s", out.String())
	}
	return res, nil
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("%q is not a positive number", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// spread is "median [min-max]".
func spread(v []float64, f string) string {
	if len(v) == 1 {
		return fmt.Sprintf(f, v[0])
	}
	return fmt.Sprintf(f+" ["+f+"-"+f+"]", median(v), slices.Min(v), slices.Max(v))
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "replay bench: "+format+"\n", args...)
	os.Exit(1)
}
