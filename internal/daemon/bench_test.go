package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/store"
	"referee/internal/bridge"
	"referee/mailin"
	"referee/mailout"
)

// BenchmarkLiveSave times the live path per message: apply and save, with
// 20, 200 and 2,000 players in Life, through the daemon's transaction
// (write: the input performed, journaled and synced, a snapshot when due)
// and the sender's record of the receipt sent (settle), on a real file
// system with its fsyncs; and, in the same run on the same messages, the
// whole-state save it replaced (apply, then store.Commit: the journal's
// entries and the whole state encoded, written, synced and renamed). It
// prints the median, p99 and max of each, the ratio of the medians, and
// the median of a bare append and fsync of one line on the same file
// system, measured just before (the "one fsync" of a message's save). The
// whole-state save runs a fifth as many messages (it is slow).
//
//	go test ./internal/daemon -run '^$' -bench LiveSave -benchtime 1x
func BenchmarkLiveSave(b *testing.B) {
	contract.SetVerifyUndo(false)
	defer contract.SetVerifyUndo(true)
	fmt.Printf("%8s %8s %28s %28s %7s\n", "players", "fsync ms", "journal ms median/p99/max", "whole save ms median/p99/max", "ratio")
	for _, players := range []int{20, 200, 2000} {
		const msgs = 1000
		d, mail := liveSetup(b, players, msgs)
		fsync := fsyncCost(b, filepath.Dir(d.statePath))
		wal := make([]float64, 0, msgs)
		ctx := context.Background()
		runtime.GC()
		for i, m := range mail {
			start := time.Now()
			d.mu.Lock()
			_, err := d.write(ctx, &contract.Input{Kind: contract.InMessage, At: m.Arrived, Msg: m,
				IMAP: &contract.Checkpoint{UIDValidity: 1, LastUID: uint32(i + 1)}}, false)
			for len(d.s.Outbox) > 0 && err == nil {
				d.settle(d.s.Outbox[0].ID, nil)
			}
			d.mu.Unlock()
			wal = append(wal, ms(time.Since(start)))
			if err != nil {
				b.Fatal(err)
			}
		}
		d.Close()

		// The whole-state save, on the same state and messages.
		od, mail := liveSetup(b, players, msgs)
		old := make([]float64, 0, msgs)
		runtime.GC()
		for _, m := range mail[:msgs/5] {
			start := time.Now()
			tx := od.s.Begin()
			ent, err := od.e.Apply(od.s, m)
			if err == nil {
				err = store.Commit(od.j, od.statePath, od.s, ent)
			}
			tx.End()
			od.s.Outbox = nil // sent, saved by the next commit
			old = append(old, ms(time.Since(start)))
			if err != nil {
				b.Fatal(err)
			}
		}
		od.Close()
		wm, wp, wx := quantiles(wal)
		om, op, ox := quantiles(old)
		fmt.Printf("%8d %8.2f %10.2f %7.2f %8.2f %10.2f %7.2f %8.2f %6.1fx\n", players, fsync, wm, wp, wx, om, op, ox, om/wm)
		b.ReportMetric(wm, fmt.Sprintf("median-ms-%d", players))
		b.ReportMetric(wp, fmt.Sprintf("p99-ms-%d", players))
	}
}

// fsyncCost is the median time of 200 appends of one line, each synced, to
// a file in dir.
func fsyncCost(b *testing.B, dir string) float64 {
	f, err := os.Create(filepath.Join(dir, "fsync"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var xs []float64
	line := []byte(`{"seq":1,"outcome":"event"}` + "\n")
	for range 200 {
		start := time.Now()
		if _, err := f.Write(line); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		xs = append(xs, ms(time.Since(start)))
	}
	m, _, _ := quantiles(xs)
	return m
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// quantiles is the median, p99 and max of xs.
func quantiles(xs []float64) (float64, float64, float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2], s[len(s)*99/100], s[len(s)-1]
}

// liveSetup makes a daemon on a new state in a temporary directory, with
// players in Life and a month of processed mail in its memory, saved, and
// the messages to time: one in five a Life action (a claim or a transfer),
// the rest chatter on the public list.
func liveSetup(b *testing.B, players, msgs int) (*Daemon, []*contract.Message) {
	b.Helper()
	const referee = "referee@example.test"
	e, err := testEngine(referee)
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2026, 11, 10, 9, 0, 0, 0, time.UTC)
	s, _, err := e.NewState(make([]byte, 32), at)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	msg := func(from int, text string) *contract.Message {
		n++
		at = at.Add(20 * time.Second)
		return &contract.Message{ID: fmt.Sprintf("m%d@example.test", n), From: fmt.Sprintf("p%04d@example.test", from), Name: fmt.Sprintf("P%04d", from),
			Arrived: at, Date: at, Subject: "Life", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: text}
	}
	for i := range players {
		if _, err := e.Apply(s, msg(i, "I join the Life contest.")); err != nil {
			b.Fatal(err)
		}
		s.Outbox = nil
	}
	for i := range 3000 {
		if _, err := e.Apply(s, msg(i%players, "")); err != nil {
			b.Fatal(err)
		}
	}
	s.Outbox = nil
	log := slog.New(slog.DiscardHandler)
	d, err := New(Options{Engine: e, StatePath: filepath.Join(b.TempDir(), "state.yaml"), State: s, Clock: TestClock(at, 1), Log: log,
		Mail:      &mailin.Config{Referee: referee, PublicLists: []string{"agora-business@example.test"}, AuthPolicy: "none"},
		Addresses: bridge.Addresses{Referee: referee, PublicList: "agora-business@example.test"},
		IMAP:      &mailin.IMAPConfig{Addr: "127.0.0.1:1", TLS: "none", User: referee, Mailbox: "INBOX", Logger: log},
		Sender:    mailout.NewSender(mailout.SMTPConfig{Addr: "127.0.0.1:1", TLS: "none"}, log)})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(players), 3))
	var mail []*contract.Message
	for i := range msgs {
		who := r.IntN(players)
		text := ""
		switch {
		case i%5 != 0:
		case r.IntN(4) == 0:
			text = fmt.Sprintf("I transfer 1 Vial to P%04d.", r.IntN(players))
		default:
			text = fmt.Sprintf("I claim cell (%d, %d) in Life.", r.IntN(51), r.IntN(51))
		}
		mail = append(mail, msg(who, text))
	}
	return d, mail
}
