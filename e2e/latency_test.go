//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"
)

// BenchmarkReceiptLatency measures, one message at a time over the real
// stack:
//   - floor: a mail submitted by player2 to player1 until player1's IDLE
//     client sees it, no referee involved (Dovecot's ~500 ms notification
//     delay dominates);
//   - receipt: a claim submitted by player1 to the business list until the
//     referee's receipt shows in player1's IDLE (two Dovecot notifications:
//     the referee's and the player's, plus the referee's own work).
//
// It prints the median and p99 of both and the difference of the medians
// (the referee's share). It is not run in CI; run it on demand with
//
//	REFEREE_E2E_BENCH=1 scripts/e2e.sh -run '^$'
func BenchmarkReceiptLatency(b *testing.B) {
	if os.Getenv("REFEREE_E2E_BENCH") != "1" {
		b.Skip("REFEREE_E2E_BENCH is not 1: the latency benchmark over the real stack runs only on demand")
	}
	// Every claim gets a receipt: lift the per-sender receipt limit (30 an
	// hour by default) above the benchmark's count.
	r := newReferee(b, "limits:", fmt.Sprintf("  receipts_per_hour: %d", b.N+100))
	d := r.run()
	p1, p2 := ms.players[0], ms.players[1]
	joinLife(b, p1)
	mb := openMailbox(b, p1)
	if err := mb.fetchNew(); err != nil {
		b.Fatal(err)
	}

	var floor, receipt []time.Duration
	b.ResetTimer()
	for i := range b.N {
		// The floor: player2 -> player1, one new message.
		var start time.Time
		n := mb.count()
		seen := mb.idleUntil(n+1, receiptTimeout, func() {
			start = time.Now()
			sendOne(b, p2, &outMail{to: []string{p1}, subject: fmt.Sprintf("Floor %d", i), body: "Just mail.\n"})
		})
		floor = append(floor, seen.Sub(start))

		// The receipt: player1's own copy from the list, then the receipt.
		// A claim beyond the player's Vials is rejected, with a receipt all
		// the same.
		var id string
		n = mb.count()
		seen = mb.idleUntil(n+2, receiptTimeout, func() {
			start = time.Now()
			id = sendOne(b, p1, &outMail{
				to:      []string{ms.businessList},
				subject: fmt.Sprintf("Claim %d", i),
				body:    fmt.Sprintf("I claim cell (%d, %d) in Life.\n", i%51, (i/51)*2),
			})
		})
		if err := mb.fetchNew(); err != nil {
			b.Fatal(err)
		}
		if findReply(mb.mails, id) == nil {
			b.Fatalf("claim %d: the second new message is not the referee's receipt; INBOX: %v", i, mb.mails[max(0, len(mb.mails)-3):])
		}
		receipt = append(receipt, seen.Sub(start))
	}
	b.StopTimer()
	d.mustBeRunning()

	fm, f99 := quantile(floor, 0.5), quantile(floor, 0.99)
	rm, r99 := quantile(receipt, 0.5), quantile(receipt, 0.99)
	milli := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(milli(fm), "floor-median-ms")
	b.ReportMetric(milli(f99), "floor-p99-ms")
	b.ReportMetric(milli(rm), "receipt-median-ms")
	b.ReportMetric(milli(r99), "receipt-p99-ms")
	b.ReportMetric(milli(rm-fm), "referee-median-ms")
	b.Logf("%d messages: floor median %v p99 %v; receipt median %v p99 %v; difference of medians %v",
		len(floor), fm, f99, rm, r99, rm-fm)
}

// quantile returns the q-quantile of ds (nearest rank).
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}
