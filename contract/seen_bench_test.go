package contract

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"referee/internal/benchanchor"
)

// seenOf is a processed-message memory of n Message-IDs as the bench's
// archives have them ("N.hex@domain", one of three domains), the first
// numbered from, message k arriving about 2.5 min after message k-1 (30 s
// to 4.5 min), with the horizon and the latest arrival set as the engine
// sets them.
func seenOf(from, n int, at time.Time) Seen {
	domains := []string{"agora.example.org", "example.test", "mail.example.net"}
	s := Seen{IDs: make(map[string]time.Time, n)}
	for k := from; k < from+n; k++ {
		t := at.Add(time.Duration(k)*150*time.Second + time.Duration(k*7919%120)*time.Second)
		s.IDs[fmt.Sprintf("%d.%08x@%s", k, uint32(k)*2654435761, domains[k%3])] = t
		s.Latest = t
	}
	s.Horizon = s.Latest.Add(-30 * 24 * time.Hour)
	return s
}

// BenchmarkEncodeSeen encodes states whose memory holds 5,000
// Message-IDs, as a replay of the bench's list-5000 ends with, by an
// Encoder that kept the text of: nothing (cold); a memory none of whose
// IDs the state holds (turnover: a replay's snapshot, 25,000 messages
// after the one before; each encoding is of one of two such states, the
// other encoded just before); the same memory before 10 more messages
// came and the 10 oldest went (few: a daemon's save). cpu-ns/op is the
// thread's CPU time per encoding (the making of the next state not
// counted).
//
//	go test ./contract -run '^$' -bench '^BenchmarkEncodeSeen$' -count 3
func BenchmarkEncodeSeen(b *testing.B) {
	at := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)
	for _, name := range []string{"cold", "turnover", "few"} {
		b.Run(name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			now := &State{Version: Version, Seen: seenOf(25000, 5000, at)}
			other := &State{Version: Version, Seen: seenOf(0, 5000, at)}
			enc := new(Encoder)
			if _, err := enc.Encode(other); err != nil {
				b.Fatal(err)
			}
			next := 30000 // the next message of few
			var cpu time.Duration
			n := 0
			for b.Loop() {
				s := now
				switch name {
				case "cold":
					enc = new(Encoder)
				case "turnover":
					if n%2 == 1 {
						s = other
					}
				case "few":
					b.StopTimer()
					if n > 0 {
						more := seenOf(next, 10, at)
						for id, t := range more.IDs {
							now.Seen.IDs[id] = t
						}
						for id := range seenOf(next-5000, 10, at).IDs {
							delete(now.Seen.IDs, id)
						}
						now.Seen.Latest, now.Seen.Horizon = more.Latest, more.Horizon
						next += 10
					}
					b.StartTimer()
				}
				t0 := threadCPU(b)
				if _, err := enc.Encode(s); err != nil {
					b.Fatal(err)
				}
				cpu += threadCPU(b) - t0
				n++
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
		})
	}
}

// threadCPU is the CPU time the calling thread has used.
func threadCPU(b *testing.B) time.Duration {
	d, err := benchanchor.ThreadCPU()
	if err != nil {
		b.Fatal(err)
	}
	return d
}
