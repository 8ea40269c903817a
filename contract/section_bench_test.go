package contract

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkEncodeSection: a game's section with 1,000 recent events, as a
// state loaded or re-run encodes it, with none of their text kept.
func BenchmarkEncodeSection(b *testing.B) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	g := &GameState{Contestmaster: "cm@example.test", Params: map[string]string{"ratification": "168h"}, LastReport: at,
		Data: &struct {
			Turn int `yaml:"turn"`
		}{7}}
	for i := range 1000 {
		g.Recent = append(g.Recent, Happening{Time: at.Add(time.Duration(i) * time.Minute), Who: fmt.Sprintf("Player%03d", i%200),
			What: fmt.Sprintf("takes control of Cell (%d, %d) (R16)", i%16, i/16)})
	}
	cpu := cpuTime()
	for b.Loop() {
		if _, err := encodeSection(g, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}
