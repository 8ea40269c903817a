package mailout

import (
	"strings"
	"testing"
)

// BenchmarkCompose measures composing a weekly report of about 8 KiB with a
// UTF-8 subject and a wide grid.
func BenchmarkCompose(b *testing.B) {
	m := baseMail()
	m.Subject = "OFF: [Life] Weekly Report — Rêve"
	m.Body = strings.Repeat(grid+"\n", 64)
	var size int
	for b.Loop() {
		raw, err := Compose(m)
		if err != nil {
			b.Fatal(err)
		}
		size = len(raw)
	}
	b.ReportMetric(float64(size), "bytes/msg")
}
