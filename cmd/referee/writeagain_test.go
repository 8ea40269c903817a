package main

import (
	"fmt"
	"testing"
	"time"

	"referee/contract"
	"referee/internal/bridge"
)

// BenchmarkWriteAgain is the start of a replay without its checkpoint on
// a state whose outbox holds 8 notices, the first 4 of them written by the
// killed replay after 20,000 mails of its earlier saves: the files found
// again and written over (writeAgain), the folder opened and closed.
func BenchmarkWriteAgain(b *testing.B) {
	addr := bridge.Addresses{Referee: "referee@example.test", PublicList: "agora-business@example.test", OfficialList: "agora-official@example.test", PublicTag: "BUS:", OfficialTag: "OFF:"}
	notices := func(kind string, n int) []*contract.Outgoing {
		out := make([]*contract.Outgoing, n)
		for i := range out {
			out[i] = &contract.Outgoing{Notice: contract.Notice{ID: fmt.Sprintf("%s/%d@example.test", kind, i), Kind: "receipt",
				Channel: contract.ChanPrivate, To: []string{"alice@example.test"}, Subject: fmt.Sprintf("Re: claim %d", i), Body: "Done.\n",
				Time: time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)}}
		}
		return out
	}
	const earlier = 20000
	outbox := notices("receipt", 8)
	dir := b.TempDir()
	w, err := newEmlWriter(dir, addr)
	if err != nil {
		b.Fatal(err)
	}
	nop := func(string) {}
	if err := w.write(notices("earlier", earlier), 1, nop); err != nil {
		b.Fatal(err)
	}
	if err := w.write(outbox[:4], earlier+1, nop); err != nil {
		b.Fatal(err)
	}
	if err := w.sync(); err != nil {
		b.Fatal(err)
	}
	w.close()
	b.ResetTimer()
	for b.Loop() {
		w, err := newEmlWriter(dir, addr)
		if err != nil {
			b.Fatal(err)
		}
		rest, again, err := w.writeAgain(outbox, nop)
		w.close()
		if err != nil || again != 4 || len(rest) != 4 {
			b.Fatalf("written again: %d, left %d, %v", again, len(rest), err)
		}
	}
}
