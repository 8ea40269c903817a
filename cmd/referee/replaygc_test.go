package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// gcPercent is the garbage collector's target now.
func gcPercent() uint64 { return gcMetric("/gc/gogc:percent") }

// gcMetric is one of the runtime's metrics now.
func gcMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// gcAtWrite keeps what a command writes and the garbage collector's target
// and heap goal when it wrote it.
type gcAtWrite struct {
	bytes.Buffer
	percent, goal uint64
}

func (w *gcAtWrite) Write(p []byte) (int, error) {
	w.percent, w.goal = gcPercent(), gcMetric("/gc/heap/goal:bytes")
	return w.Buffer.Write(p)
}

// TestReplayGCTarget: a replay runs with the garbage collector's target at
// 200 or more and a heap goal of 64 MiB at least (its live heap is small)
// when the operator sets no GOGC, and at the operator's GOGC when it is
// set (which the runtime reads at start: set here as it would have), with
// no such floor, and leaves the target as it found it. The target and
// goal are read when the replay prints its summary, its last write before
// it returns.
func TestReplayGCTarget(t *testing.T) {
	arch, err := filepath.Abs("testdata/replay.mbox")
	if err != nil {
		t.Fatal(err)
	}
	replay := func(t *testing.T) (during, goal, after uint64) {
		t.Helper()
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "secret"), bytes.Repeat([]byte{9}, 32), 0o600); err != nil {
			t.Fatal(err)
		}
		old, _ := os.Getwd()
		if err := os.Chdir(dir); err != nil {
			t.Fatal(err)
		}
		defer os.Chdir(old)
		var out gcAtWrite
		var errb bytes.Buffer
		if code := realMain([]string{"replay", "--secret-file", "secret", "--until", "2026-12-15T00:00:00Z", "--out", "out", arch}, &out, &errb); code != 0 || !bytes.Contains(out.Bytes(), []byte(" messages applied, ")) {
			t.Fatalf("replay: exit status %d, %s %s", code, out.String(), errb.String())
		}
		return out.percent, out.goal, gcPercent()
	}

	t.Run("GOGC unset", func(t *testing.T) {
		t.Setenv("GOGC", "")
		os.Unsetenv("GOGC")
		before := gcPercent()
		during, goal, after := replay(t)
		if during < 200 || goal < replayHeapFloor || after != before {
			t.Errorf("target %d and heap goal %d MiB during the replay, target %d after it; want 200 or more and 64 MiB at least, then %d as before", during, goal>>20, after, before)
		}
	})
	t.Run("GOGC set", func(t *testing.T) {
		t.Setenv("GOGC", "50")
		defer debug.SetGCPercent(debug.SetGCPercent(50))
		during, goal, after := replay(t)
		if during != 50 || goal >= replayHeapFloor || after != 50 {
			t.Errorf("target %d and heap goal %d MiB during the replay, target %d after it; want the operator's 50 throughout, and no floor", during, goal>>20, after)
		}
	})
}
