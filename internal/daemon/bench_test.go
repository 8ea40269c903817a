package daemon

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/store"
	"referee/internal/benchgames"
	"referee/internal/bridge"
	"referee/mailin"
	"referee/mailout"
)

// BenchmarkLiveSave times the live path per message: apply and save, with
// 20, 200 and 2,000 players in each game (Life, Rumble, Steemfield, Wacky
// World; REFEREE_BENCH_GAMES=life,rumble runs those named,
// REFEREE_BENCH_PLAYERS=2000 that size alone), through the daemon's
// transaction
// (write: the input performed, journaled and synced, a snapshot started
// when due) and the sender's record of the receipt sent (settle), on a real
// file system with its fsyncs. Each game and size is run twice: with
// snapshots due every 1,000 inputs, the daemon's own cadence
// (DefaultSnapshotEvery: what a message costs in `referee run`), and every
// 100, ten times as often, so that their cost, or their absence from the
// message's path, shows in the p99 (the messages come back to back, so
// that even at the daemon's cadence a tenth of them meet a snapshot being
// written; at ten times it, most). "snapshots" counts them;
// REFEREE_BENCH_SNAP=N runs that cadence alone. The background encode and
// write compete with the messages for the processors. The metrics of the
// stressed run end in "-every100".
//
// Life's play is a month of chatter and 1,000 messages, one in five a
// claim or a transfer; the other games' is internal/benchgames's (each a
// stretch of play behind it, then 1,000 messages, one in two an action of
// the game, valid or not). A game's events fall due among the messages as
// they would in the daemon: the scheduler's input (the clock advanced)
// written on its own before the message that finds them due, and after
// the messages, those of the next eight days, hour by hour; "events" times
// each such input apart from the messages.
//
// It separates the disk's part from ours: for each message, the time of
// its own journal sync, and a bare append and fsync of one line to another
// file in the same directory just after it (the anchor: what one fsync
// costs on this disk at that moment, with the same load). For each size it
// prints the median, p99 and max of: apply+save; the anchor; the message's
// own sync, and that sync split by whether a snapshot was being written in
// the background when the message began (its count in brackets); apply+save
// less its own sync (ours), and ours in its parts:
// the engine performing the message (apply), its journal lines encoded and
// written (journal write), a snapshot taken when one is due (its encoding
// and write go on in the background), and the rest (the receipt's record
// as sent, the outbox's bookkeeping, the waits for the lock and for the
// processor); and beside each, the CPU time it took on its own thread
// (ours without the waits for a processor: on a loaded machine, what
// separates our tail from the scheduler's; ours less the CPU of its own
// sync). With REFEREE_BENCH_WHOLE=1 it also
// times, on the same messages, the whole-state save the journal replaced
// (apply, then store.Commit: the entries and the whole state encoded,
// written, synced and renamed; a fifth as many messages: it is slow).
// With REFEREE_BENCH_SLOW=N it lists the N timed messages of most CPU,
// and of most wall time, and what they did (their journal entries).
// With REFEREE_BENCH_MEMPROFILE=FILE it writes the allocation profile
// before and after the timed messages (FILE-GAME-PLAYERS.before and
// .after: compare them with go tool pprof -diff_base).
// With REFEREE_BENCH_PROFILE=FILE it writes the CPU profile of the timed
// messages and events alone (not of the setups) of each game and size to
// FILE-GAME-PLAYERS.
//
//	go test ./internal/daemon -run '^$' -bench LiveSave -benchtime 1x
func BenchmarkLiveSave(b *testing.B) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	defer SetGC(GCPercent)() // as `referee run` sets it
	whole := os.Getenv("REFEREE_BENCH_WHOLE") != ""
	cadences := []int{DefaultSnapshotEvery, DefaultSnapshotEvery / 10}
	if n, err := strconv.Atoi(os.Getenv("REFEREE_BENCH_SNAP")); err == nil && n > 0 {
		cadences = []int{n}
	}
	games, err := liveGamesNamed(os.Getenv("REFEREE_BENCH_GAMES"))
	if err != nil {
		b.Fatal(err)
	}
	sizes := []int{20, 200, 2000}
	if n, err := strconv.Atoi(os.Getenv("REFEREE_BENCH_PLAYERS")); err == nil && n > 1 {
		sizes = []int{n}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, every := range cadences {
		what := "the daemon's cadence"
		if every != DefaultSnapshotEvery {
			what = fmt.Sprintf("%.3g times the daemon's cadence", float64(DefaultSnapshotEvery)/float64(every))
		}
		fmt.Printf("== snapshots due every %d inputs (%s)\n", every, what)
		for _, g := range games {
			fmt.Printf("%s\n", g.name)
			for _, players := range sizes {
				liveSave(b, g, players, every, whole)
			}
		}
	}
}

// liveSave runs BenchmarkLiveSave's messages of game g with players and
// prints its table.
func liveSave(b *testing.B, g liveGame, players, every int, whole bool) {
	const msgs = 1000
	d, mail := g.setup(b, players, msgs)
	d.snapEvery = every
	anchor, err := os.Create(filepath.Join(filepath.Dir(d.statePath), "fsync"))
	if err != nil {
		b.Fatal(err)
	}
	d.cpuClock = threadCPU
	var total, bare, own, ours, rest, cpu, ownBeside, ownAlone []float64
	var wall, pcpu [parts][]float64
	var events, eventsOurs []float64
	slowest, _ := strconv.Atoi(os.Getenv("REFEREE_BENCH_SLOW"))
	var slow []slowMessage
	snaps := 0
	ctx := context.Background()
	// advance writes the scheduler's input when an event is due by at, and
	// times it.
	advance := func(at time.Time) {
		d.mu.Lock()
		defer d.mu.Unlock()
		due, ok, err := d.e.NextDue(d.s)
		if err != nil {
			b.Fatal(err)
		}
		if !ok || due.After(at) {
			return
		}
		start := time.Now()
		_, err = d.write(ctx, &contract.Input{Kind: contract.InAdvance, At: at}, false)
		for len(d.s.Outbox) > 0 && err == nil {
			d.settle(d.s.Outbox[0].ID, nil)
		}
		took := time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		events = append(events, ms(took))
		eventsOurs = append(eventsOurs, ms(took-d.last.wall[partSync]))
	}
	runtime.GC()
	if prof := os.Getenv("REFEREE_BENCH_PROFILE"); prof != "" {
		f, err := os.Create(fmt.Sprintf("%s-%s-%d", prof, g.id, players))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	var before, after runtime.MemStats
	memProfile := func(string) {}
	if prof := os.Getenv("REFEREE_BENCH_MEMPROFILE"); prof != "" {
		memProfile = func(when string) {
			f, err := os.Create(fmt.Sprintf("%s-%s-%d.%s", prof, g.id, players, when))
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
	memProfile("before")
	runtime.ReadMemStats(&before)
	for i, m := range mail {
		advance(m.Arrived)
		gcs := gcCycles()
		start, startCPU := time.Now(), threadCPU()
		d.mu.Lock()
		bg := d.bg
		beside := bg != nil && !isClosed(bg.done)
		entries, err := d.write(ctx, &contract.Input{Kind: contract.InMessage, At: m.Arrived, Msg: m,
			IMAP: &contract.Checkpoint{UIDValidity: 1, LastUID: uint32(i + 1)}}, false)
		for len(d.s.Outbox) > 0 && err == nil {
			d.settle(d.s.Outbox[0].ID, nil)
		}
		if d.bg != nil && d.bg != bg {
			snaps++
		}
		t := d.last
		d.mu.Unlock()
		took, tookCPU := time.Since(start), threadCPU()-startCPU
		if err != nil {
			b.Fatal(err)
		}
		sync := t.wall[partSync]
		total = append(total, ms(took))
		own = append(own, ms(sync))
		if beside {
			ownBeside = append(ownBeside, ms(sync))
		} else {
			ownAlone = append(ownAlone, ms(sync))
		}
		ours = append(ours, ms(took-sync))
		r := took
		for p := range parts {
			wall[p] = append(wall[p], ms(t.wall[p]))
			pcpu[p] = append(pcpu[p], ms(t.cpu[p]))
			r -= t.wall[p]
		}
		rest = append(rest, ms(r))
		cpu = append(cpu, ms(tookCPU-t.cpu[partSync]))
		if slowest > 0 {
			slow = append(slow, slowMessage{wall: ms(took - sync), cpu: ms(tookCPU - t.cpu[partSync]), apply: ms(t.cpu[partApply]),
				gc: gcCycles() != gcs, snap: d.bg != bg, what: entriesSaid(m, entries)})
		}
		bare = append(bare, fsyncOnce(b, anchor))
	}
	runtime.ReadMemStats(&after)
	memProfile("after")
	last := mail[len(mail)-1].Arrived
	for h := 1; h <= 8*24; h++ {
		advance(last.Add(time.Duration(h) * time.Hour))
	}
	anchor.Close()
	d.Close()
	fmt.Printf("%d players, %d messages, %d snapshots, %.0f kB allocated a message (%d GC cycles, heap %d MB); ms per message:\n%-26s %7s %7s %7s   %-7s %7s %7s\n", players, msgs, snaps, float64(after.TotalAlloc-before.TotalAlloc)/1024/float64(len(mail)), after.NumGC-before.NumGC, after.HeapAlloc>>20, "", "median", "p99", "max", "CPU:", "median", "p99")
	row := func(name string, xs, cs []float64) {
		m, p, x := quantiles(xs)
		fmt.Printf("%-26s %7.2f %7.2f %7.2f", name, m, p, x)
		if cs != nil {
			cm, cp, _ := quantiles(cs)
			fmt.Printf("   %-7s %7.2f %7.2f", "", cm, cp)
		}
		fmt.Println()
	}
	row("apply+save", total, nil)
	row("anchor: a bare fsync", bare, nil)
	row("its own journal sync", own, pcpu[partSync])
	if len(ownBeside) > 0 && len(ownAlone) > 0 {
		row(fmt.Sprintf("  beside a snapshot (%d)", len(ownBeside)), ownBeside, nil)
		row(fmt.Sprintf("  with none (%d)", len(ownAlone)), ownAlone, nil)
	}
	row("ours (less its own sync)", ours, cpu)
	row("  apply", wall[partApply], pcpu[partApply])
	row("  journal write", wall[partJournal], pcpu[partJournal])
	row("  snapshot taken", wall[partSnapshot], pcpu[partSnapshot])
	row("  the rest", rest, nil)
	if len(events) > 0 {
		row(fmt.Sprintf("events (%d), apply+save", len(events)), events, nil)
		row("  ours (less its sync)", eventsOurs, nil)
	}
	if whole {
		row("whole-state save", wholeSave(b, g, players, msgs/5), nil)
	}
	if slowest > 0 {
		for _, by := range []struct {
			name string
			of   func(slowMessage) float64
		}{{"CPU", func(m slowMessage) float64 { return m.cpu }}, {"wall time", func(m slowMessage) float64 { return m.wall }}} {
			slices.SortFunc(slow, func(x, y slowMessage) int { return cmp.Compare(by.of(y), by.of(x)) })
			fmt.Printf("the %d messages of most %s (ours: wall, CPU; its apply's CPU; a GC cycle ran, a snapshot was taken), and what they did:\n", min(slowest, len(slow)), by.name)
			for _, m := range slow[:min(slowest, len(slow))] {
				fmt.Printf("  %6.2f %6.2f %6.2f %-2s %-4s  %s\n", m.wall, m.cpu, m.apply, map[bool]string{true: "GC"}[m.gc], map[bool]string{true: "snap"}[m.snap], m.what)
			}
		}
	}
	prefix, suffix := "", ""
	if g.id != "life" {
		prefix = g.id + "-"
	}
	if every != DefaultSnapshotEvery {
		suffix = fmt.Sprintf("-every%d", every)
	}
	metric := func(name string, xs []float64) {
		m, p, _ := quantiles(xs)
		b.ReportMetric(m, fmt.Sprintf("%s%s-median-ms-%d%s", prefix, name, players, suffix))
		b.ReportMetric(p, fmt.Sprintf("%s%s-p99-ms-%d%s", prefix, name, players, suffix))
	}
	metric("total", total)
	metric("fsync", bare)
	metric("ours", ours)
	metric("apply", wall[partApply])
	metric("journal", wall[partJournal])
	metric("snapshot", wall[partSnapshot])
	metric("cpu", cpu)
}

// slowMessage is a timed message's CPU (ours, and its apply's) and what
// it did, for REFEREE_BENCH_SLOW.
type slowMessage struct {
	wall, cpu, apply float64
	gc, snap         bool // a GC cycle ended or began while it ran; it took a snapshot
	what             string
}

// gcCycles is the count of GC cycles completed.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// entriesSaid is the first line of m's body and the verbs and outcomes of
// the journal entries it made, events among them.
func entriesSaid(m *contract.Message, entries []contract.Entry) string {
	line, _, _ := strings.Cut(strings.TrimSpace(m.Text), "\n")
	var said []string
	for _, e := range entries {
		said = append(said, e.Verb+":"+e.Outcome)
	}
	return fmt.Sprintf("%.50q → %s", line, strings.Join(said, " "))
}

// A liveGame is a game BenchmarkLiveSave plays: setup makes a daemon on a
// new state in a temporary directory with the game's players and the play
// before the timed messages, saved, and returns msgs messages to time (or
// the 1,000 of its play, for a game of internal/benchgames).
type liveGame struct {
	name, id string
	setup    func(b *testing.B, players, msgs int) (*Daemon, []*contract.Message)
}

// liveGames are Life, then the games of internal/benchgames.
func liveGames() []liveGame {
	games := []liveGame{{name: "Life", id: "life", setup: liveSetup}}
	for _, g := range benchgames.Games {
		games = append(games, liveGame{name: g.Name, id: g.ID, setup: func(b *testing.B, players, msgs int) (*Daemon, []*contract.Message) {
			b.Helper()
			e, s, at := gameSetup(b, g, players)
			mail := benchgames.Mail(g, players, at)
			return liveDaemon(b, e, s, at), mail[:min(msgs, len(mail))]
		}})
	}
	return games
}

// gameSetup is g.Setup with players. With REFEREE_BENCH_CACHE=DIR, the
// state it makes is saved in DIR (GAME-PLAYERS.yaml, and the time the
// timed mail begins in GAME-PLAYERS.at) and, when there, loaded from it
// instead (the setup of 2,000 players takes minutes): a state read from
// its file, as at a start of the daemon, with nothing kept of its
// encodings.
func gameSetup(b *testing.B, g benchgames.Game, players int) (*contract.Engine, *contract.State, time.Time) {
	b.Helper()
	cfg := contract.Config{SeenHorizon: 30 * 24 * time.Hour, RulingWait: 48 * time.Hour}
	dir := os.Getenv("REFEREE_BENCH_CACHE")
	if dir == "" {
		return g.Setup(b, cfg, players)
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%d", g.ID, players))
	if text, err := os.ReadFile(path + ".at"); err == nil {
		at, err := time.Parse(time.RFC3339Nano, string(text))
		if err != nil {
			b.Fatal(err)
		}
		e := benchgames.Engine(b, cfg)
		s, err := store.Load(e, path+".yaml")
		if err != nil {
			b.Fatal(err)
		}
		return e, s, at
	}
	e, s, at := g.Setup(b, cfg, players)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := store.Save(path+".yaml", s); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path+".at", []byte(at.Format(time.RFC3339Nano)), 0o644); err != nil {
		b.Fatal(err)
	}
	s, err := store.Load(e, path+".yaml")
	if err != nil {
		b.Fatal(err)
	}
	return e, s, at
}

// liveGamesNamed are the games of liveGames whose IDs the comma-separated
// list names, all of them when it is empty.
func liveGamesNamed(list string) ([]liveGame, error) {
	all := liveGames()
	if list == "" {
		return all, nil
	}
	var games []liveGame
	for id := range strings.SplitSeq(list, ",") {
		i := slices.IndexFunc(all, func(g liveGame) bool { return g.id == strings.TrimSpace(id) })
		if i < 0 {
			return nil, fmt.Errorf("REFEREE_BENCH_GAMES: no game %q (life, rumble, steemfield, wackyworld)", id)
		}
		games = append(games, all[i])
	}
	return games, nil
}

// wholeSave times n messages applied and saved as before the journal was
// the write-ahead log: the whole state committed per message.
func wholeSave(b *testing.B, g liveGame, players, n int) []float64 {
	od, mail := g.setup(b, players, n)
	defer od.Close()
	old := make([]float64, 0, n)
	runtime.GC()
	for _, m := range mail {
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
	return old
}

// fsyncOnce is the time of one append of a line to f, synced.
func fsyncOnce(b *testing.B, f *os.File) float64 {
	line := []byte(`{"seq":1,"outcome":"event"}` + "\n")
	start := time.Now()
	if _, err := f.Write(line); err != nil {
		b.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	return ms(time.Since(start))
}

// isClosed reports whether ch is closed.
func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// quantiles is the median, p99 and max of xs.
func quantiles(xs []float64) (float64, float64, float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2], s[len(s)*99/100], s[len(s)-1]
}

// liveDaemon is a daemon on state s of engine e, saved in a temporary
// directory, its clock at at.
func liveDaemon(b *testing.B, e *contract.Engine, s *contract.State, at time.Time) *Daemon {
	b.Helper()
	const referee = "referee@example.test"
	log := slog.New(slog.DiscardHandler)
	d, err := New(Options{Engine: e, StatePath: filepath.Join(b.TempDir(), "state.yaml"), State: s, Clock: TestClock(at, 1), Log: log,
		Mail:      &mailin.Config{Referee: referee, PublicLists: []string{"agora-business@example.test"}, AuthPolicy: "none"},
		Addresses: bridge.Addresses{Referee: referee, PublicList: "agora-business@example.test"},
		IMAP:      &mailin.IMAPConfig{Addr: "127.0.0.1:1", TLS: "none", User: referee, Mailbox: "INBOX", Logger: log},
		Sender:    mailout.NewSender(mailout.SMTPConfig{Addr: "127.0.0.1:1", TLS: "none"}, log)})
	if err != nil {
		b.Fatal(err)
	}
	return d
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
	d := liveDaemon(b, e, s, at)
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
