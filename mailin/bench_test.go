package mailin

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
)

const benchMessages = 50000

// writeBenchMbox writes an mbox of n messages cycling through the corpus,
// each with its own Message-ID, escaped the mboxrd way.
func writeBenchMbox(b *testing.B, path string, n int) int64 {
	var seeds [][]byte
	for _, f := range corpusFiles(b) {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		seeds = append(seeds, bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n")))
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		raw := seeds[i%len(seeds)]
		fmt.Fprintf(w, "From player%d@example.org %s\n", i%97, t0.Add(time.Duration(i)*time.Minute).Format("Mon Jan _2 15:04:05 2006"))
		fmt.Fprintf(w, "X-Bench-Seq: %d\n", i) // makes every message, and so every synthetic id, distinct
		for _, line := range bytes.SplitAfter(raw, []byte("\n")) {
			if bytes.HasPrefix(bytes.TrimLeft(line, ">"), []byte("From ")) {
				w.WriteByte('>')
			}
			w.Write(line)
		}
		if !bytes.HasSuffix(raw, []byte("\n")) {
			w.WriteByte('\n')
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	st, _ := f.Stat()
	f.Close()
	return st.Size()
}

// peakHeap samples the in-use heap (HeapInuse: heap objects plus unused
// space in in-use spans, read from runtime/metrics, which unlike
// runtime.ReadMemStats does not stop the world) every 10 ms until stop is
// called, and returns the peak.
func peakHeap() (stop func() uint64) {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	sample := func() {
		metrics.Read(samples)
		if v := samples[0].Value.Uint64() + samples[1].Value.Uint64(); v > peak.Load() {
			peak.Store(v)
		}
	}
	go func() {
		defer close(finished)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		sample()
		return peak.Load()
	}
}

// parseOnly is the baseline: raw go-message parsing of the header and of
// every part, bodies decoded and read, nothing classified or stripped.
func parseOnly(data []byte) {
	mr, err := gomail.CreateReader(bytes.NewReader(data))
	if err != nil && !message.IsUnknownCharset(err) {
		return
	}
	_, _ = mr.Header.Subject()
	_, _ = mr.Header.AddressList("From")
	_, _ = mr.Header.Date()
	_, _ = mr.Header.MessageID()
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) || (err != nil && !message.IsUnknownCharset(err)) {
			return
		}
		_, _ = io.Copy(io.Discard, p.Body)
	}
}

// BenchmarkArchive replays a generated 50,000-message mbox (the corpus,
// cycled) and reports messages per second for raw go-message parsing and
// for Parse (classify + strip), with the peak HeapInuse of each pass.
// Run: go test ./mailin -run '^$' -bench BenchmarkArchive -benchtime 1x
func BenchmarkArchive(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.mbox")
	size := writeBenchMbox(b, path, benchMessages)
	cfg := corpusConfig()
	for _, bc := range []struct {
		name string
		fn   func(r *Raw)
	}{
		{"parse-only", func(r *Raw) { parseOnly(r.Data) }},
		{"Parse", func(r *Raw) {
			if _, err := Parse(r.Data, r.Arrived, cfg); err != nil {
				b.Fatal(err)
			}
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			runtime.GC()
			stop := peakHeap()
			b.ResetTimer()
			start := time.Now()
			n := 0
			for i := 0; i < b.N; i++ {
				a, err := OpenArchive(path)
				if err != nil {
					b.Fatal(err)
				}
				for {
					r, err := a.Next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					bc.fn(r)
					n++
				}
				a.Close()
			}
			elapsed := time.Since(start)
			b.StopTimer()
			peak := stop()
			if n != benchMessages*b.N {
				b.Fatalf("replayed %d messages, want %d", n, benchMessages*b.N)
			}
			b.ReportMetric(float64(n)/elapsed.Seconds(), "msgs/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(size)/(1<<20), "mbox-MiB")
		})
	}
}

// benchMail is the messages of testdata/bench: the list archive's
// kinds of mail (see its README), by name.
func benchMail(b *testing.B) map[string][]byte {
	files, err := filepath.Glob(filepath.Join("testdata", "bench", "*.eml"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no messages in testdata/bench: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".eml")] = raw
	}
	return out
}

// BenchmarkParse times Parse of each message of testdata/bench against
// go-message's parse of the same message (parseOnly), the two alternating
// in the same loop, each timed by the CPU time of the thread running it
// (cpuTime), so that the machine's load counts little: Parse-ns/msg,
// go-message-ns/msg, and ratio, the first over the second (ns/op is the
// wall time of the two together). The configuration is referee's default
// (the archive's lists, policy none).
//
//	go test ./mailin -run '^$' -bench '^BenchmarkParse$' -count 3
func BenchmarkParse(b *testing.B) {
	cfg := &Config{Referee: "referee@example.test", PublicLists: []string{"agora-business@example.test"},
		OfficialList: "agora-official@example.test", DiscussionLists: []string{"agora-discussion@example.test"}, AuthPolicy: AuthNone}
	msgs := benchMail(b)
	at := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, name := range slices.Sorted(maps.Keys(msgs)) {
		raw := msgs[name]
		b.Run(name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var anchor, parse time.Duration
			n := 0
			for b.Loop() {
				t0 := cpuTime(b)
				parseOnly(raw)
				t1 := cpuTime(b)
				if _, err := Parse(raw, at, cfg); err != nil {
					b.Fatal(err)
				}
				parse += cpuTime(b) - t1
				anchor += t1 - t0
				n++
			}
			b.ReportMetric(float64(parse.Nanoseconds())/float64(n), "Parse-ns/msg")
			b.ReportMetric(float64(anchor.Nanoseconds())/float64(n), "go-message-ns/msg")
			b.ReportMetric(float64(parse)/float64(anchor), "ratio")
		})
	}
}
