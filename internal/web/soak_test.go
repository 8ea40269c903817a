package web

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/contract/contracttest"
	"referee/internal/bridge"
	"referee/mailin"
)

// BenchmarkPages is the soak figure: each page rendered over four running
// games (the four scenario archives interleaved by arrival, as one mailbox
// would have them) and a journal padded to 5,000 entries. It reports the
// process's resident set size after the run (MB-RSS) and the CPU time per
// page (cpu-ms/op; the whole process's, so the GC's too), and has an anchor:
// "report-anchor" builds Life's report alone, the core of its page.
//
//	go test -run '^$' -bench Pages -count 3 ./internal/web/
func BenchmarkPages(b *testing.B) {
	h := contracttest.New(b, "2026-11-16T12:00:00Z", life.New(), rumble.New(), steemfield.New(), wackyworld.New())
	type msg struct {
		at  time.Time
		raw []byte
	}
	var msgs []msg
	for _, f := range []string{"life/testdata/month.mbox", "rumble/testdata/scenario.mbox", "steemfield/testdata/scenario.mbox",
		"wackyworld/testdata/scenario/joins.mbox", "wackyworld/testdata/scenario/play.mbox"} {
		a, err := mailin.OpenArchive(filepath.Join("../../contests", f))
		if err != nil {
			b.Fatal(err)
		}
		for {
			raw, err := a.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			msgs = append(msgs, msg{raw.Arrived, raw.Data})
		}
		a.Close()
	}
	sort.SliceStable(msgs, func(i, j int) bool { return msgs[i].at.Before(msgs[j].at) })
	for _, m := range msgs {
		pm, err := mailin.Parse(m.raw, m.at, contracttest.Config())
		if err != nil {
			b.Fatal(err)
		}
		cm := bridge.Message(pm)
		if cm.Channel == contract.ChanPrivate {
			cm.Authenticated = true
		}
		h.Send(cm)
	}
	running := 0
	for _, g := range h.E.Games() {
		if len(h.S.Members(g.Spec().ID)) > 0 {
			running++
		}
	}
	if running != 4 {
		b.Fatalf("%d games with contestants, want 4", running)
	}
	// The journal: the scenario's entries, then copies renumbered up to 5,000.
	dir := b.TempDir()
	jpath := filepath.Join(dir, "journal.jsonl")
	f, err := os.Create(jpath)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := 0; i < 5000; i++ {
		e := h.Entries[i%len(h.Entries)]
		e.Seq = int64(i + 1)
		line, _ := json.Marshal(e)
		w.Write(append(line, '\n'))
	}
	w.Flush()
	f.Close()
	a := OpenArchive(filepath.Join(dir, "sent.jsonl"))
	for _, o := range h.Sent {
		a.Append(&o.Notice, contract.MessageID(o.ID, "example.test"), o.Time)
	}
	srv := New(Options{Engine: h.E, View: func(f func(*contract.State)) { f(h.S) }, Archive: a, Journal: jpath,
		Now: func() time.Time { return h.S.Clock }, Referee: contracttest.Referee})
	b.Run("report-anchor", func(b *testing.B) {
		cpu0 := cpuTime()
		for b.Loop() {
			if _, err := h.E.Report(h.S, "life", h.S.Clock); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
	})
	for _, p := range []string{"/", "/game/life", "/game/rumble", "/game/steemfield", "/game/wackyworld", "/archive",
		"/journal", "/journal?game=life&outcome=rejected", "/feed.atom"} {
		b.Run(strings.NewReplacer("/", "_", "?", "_", "&", "_", "=", "-").Replace(p), func(b *testing.B) {
			cpu0 := cpuTime()
			for b.Loop() {
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
				if rec.Code != 200 {
					b.Fatalf("GET %s: %d", p, rec.Code)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(rssMB(), "MB-RSS")
		})
	}
}

// cpuTime is the process's user and system CPU time: on a loaded machine a
// steadier figure than the wall clock's ns/op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rssMB is the process's resident set size (Linux), 0 where unknown.
func rssMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
