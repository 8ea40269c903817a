package mailhub

import (
	"fmt"
	"sort"
	"testing"
	"time"
)

// BenchmarkHubDelivery measures send -> IDLE EXISTS latency: each message is
// submitted over a new SMTP connection, as the referee's sender does, and
// timed until the IDLE session of the recipient reports it. Each iteration
// sends 200 messages; the figures are over all of them.
func BenchmarkHubDelivery(b *testing.B) {
	const perRound = 200
	h := startHub(b, Options{Users: []string{"referee@example.test"}})
	w := watch(b, h, "player@example.test", "")
	var lat []time.Duration
	var n uint32
	for b.Loop() {
		for i := range perRound {
			raw := message("referee@example.test", "player@example.test", fmt.Sprintf("m%d", i))
			start := time.Now()
			sendSMTP(b, h, nil, "referee@example.test", []string{"player@example.test"}, raw)
			n++
			w.await(b, n)
			lat = append(lat, time.Since(start))
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "ms-median")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "ms-p99")
	b.ReportMetric(float64(len(lat)), "msgs")
	b.Logf("send -> IDLE EXISTS over %d messages: median %.3f ms, p99 %.3f ms, max %.3f ms",
		len(lat), ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100]), ms(lat[len(lat)-1]))
}

// BenchmarkListPost measures a post to a list over SMTP until the IDLE
// session of the referee reports it, with 4 and with 400 players' mailboxes
// on the hub: a post is written once, so neither its time nor the memory it
// takes (B/op) grows with the players.
func BenchmarkListPost(b *testing.B) {
	for _, players := range []int{4, 400} {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			var addrs []string
			for i := range players {
				addrs = append(addrs, fmt.Sprintf("p%d@example.test", i))
			}
			h := startHub(b, Options{Dir: b.TempDir(), Users: []string{"referee@example.test"}, Players: addrs,
				Lists: map[string]string{"agora-business@example.test": "Agora Business <agora-business.example.test>"}})
			w := watch(b, h, "referee@example.test", "")
			var n uint32
			b.ReportAllocs()
			for b.Loop() {
				raw := message("p0@example.test", "agora-business@example.test", fmt.Sprintf("post %d", n))
				sendSMTP(b, h, nil, "p0@example.test", []string{"agora-business@example.test"}, raw)
				n++
				w.await(b, n)
			}
		})
	}
}
