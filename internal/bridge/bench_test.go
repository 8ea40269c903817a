package bridge_test

import (
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/internal/benchanchor"
	"referee/internal/bridge"
	"referee/mailin"
)

// cpuTime is the CPU time the calling thread has used.
func cpuTime(b *testing.B) time.Duration {
	d, err := benchanchor.ThreadCPU()
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkRead times, for each message of mailin's testdata/bench (the
// list archive's kinds of mail), the two halves of Pipeline.Read against
// go-message's parse of the same message, all three alternating in the
// same loop, each timed by the CPU time of the thread running it, so that
// the machine's load counts little: Parse-ns/msg (mailin.Parse and
// the bridge), sentences-ns/msg (Engine.ReadAhead with referee's four
// games), go-message-ns/msg, and each half over go-message (ratio-parse,
// ratio-sentences).
//
//	go test ./internal/bridge -run '^$' -bench '^BenchmarkRead$' -count 3
func BenchmarkRead(b *testing.B) {
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test"}, life.New(), rumble.New(), steemfield.New(), wackyworld.New())
	if err != nil {
		b.Fatal(err)
	}
	cfg := &mailin.Config{Referee: "referee@example.test", PublicLists: []string{"agora-business@example.test"},
		OfficialList: "agora-official@example.test", DiscussionLists: []string{"agora-discussion@example.test"}, AuthPolicy: mailin.AuthNone}
	files, err := filepath.Glob(filepath.Join("..", "..", "mailin", "testdata", "bench", "*.eml"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no messages in mailin/testdata/bench: %v", err)
	}
	msgs := map[string][]byte{}
	for _, f := range files {
		if msgs[strings.TrimSuffix(filepath.Base(f), ".eml")], err = os.ReadFile(f); err != nil {
			b.Fatal(err)
		}
	}
	at := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)
	for _, name := range slices.Sorted(maps.Keys(msgs)) {
		raw := msgs[name]
		b.Run(name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var anchor, parse, read time.Duration
			n := 0
			for b.Loop() {
				t0 := cpuTime(b)
				benchanchor.GoMessageParse(raw)
				t1 := cpuTime(b)
				m, err := mailin.Parse(raw, at, cfg)
				if err != nil {
					b.Fatal(err)
				}
				cm := bridge.Message(m)
				t2 := cpuTime(b)
				e.ReadAhead(cm)
				read += cpuTime(b) - t2
				parse += t2 - t1
				anchor += t1 - t0
				n++
			}
			b.ReportMetric(float64(parse.Nanoseconds())/float64(n), "Parse-ns/msg")
			b.ReportMetric(float64(read.Nanoseconds())/float64(n), "sentences-ns/msg")
			b.ReportMetric(float64(anchor.Nanoseconds())/float64(n), "go-message-ns/msg")
			b.ReportMetric(float64(parse)/float64(anchor), "ratio-parse")
			b.ReportMetric(float64(read)/float64(anchor), "ratio-sentences")
		})
	}
}
