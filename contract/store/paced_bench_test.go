package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkSyncBesideSnapshot times the journal's append and sync of a
// line, one after another, while a snapshot of about 750 kB (2,000
// players) is written and synced beside it, written whole or paced
// (writePaced), and, as the anchor, 20 with no snapshot: the three modes
// in turn, 60 rounds of each, in the same run. It prints the median, p99
// and max (and p90, mean) of each, in ms.
func BenchmarkSyncBesideSnapshot(b *testing.B) {
	dir := b.TempDir()
	jf, err := os.OpenFile(filepath.Join(dir, "journal.jsonl"), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	defer jf.Close()
	line := []byte(`{"in":1,"base":1,"entries":1,"input":{"kind":"message"}}` + "\n")
	data := make([]byte, 750<<10)
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	modes := []string{"none", "whole", "paced"}
	lat := map[string][]float64{}
	const rounds, perRound = 60, 20
	for range rounds {
		for _, mode := range modes {
			done := make(chan error, 1)
			if mode == "none" {
				done <- nil
			} else {
				go func() {
					tmp, err := writeTemp(filepath.Join(dir, "state.yaml"), data, 0o600, mode == "paced")
					if err == nil {
						os.Remove(tmp)
					}
					done <- err
				}()
			}
			for i := 0; ; i++ {
				if mode == "none" && i == perRound {
					break
				}
				if mode != "none" && i > 0 && len(done) > 0 {
					break
				}
				start := time.Now()
				if _, err := jf.Write(line); err != nil {
					b.Fatal(err)
				}
				if err := jf.Sync(); err != nil {
					b.Fatal(err)
				}
				lat[mode] = append(lat[mode], float64(time.Since(start).Microseconds())/1000)
			}
			if err := <-done; err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, mode := range modes {
		s := slices.Sorted(slices.Values(lat[mode]))
		sum := 0.0
		for _, x := range s {
			sum += x
		}
		fmt.Printf("%-6s journal sync ms: median %6.2f p90 %6.2f p99 %6.2f max %7.2f mean %6.2f (%d syncs)\n", mode, s[len(s)/2], s[len(s)*9/10], s[len(s)*99/100], s[len(s)-1], sum/float64(len(s)), len(s))
	}
}
