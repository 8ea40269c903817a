// Package daemon is the referee at work: it reads new mail over IMAP, applies
// it to the games, runs every scheduled event on time and sends the outbox
// over SMTP with retries (DESIGN "Command line", `referee run`).
//
// Input: an interpreter, the state (loaded or fresh), the mail settings and a
// clock, given once to New. Output: the journal, the state's write-ahead
// log, to which one transaction (write, tx.go) appends and syncs every
// change as an input and its entries; the state file, a snapshot written
// whole from time to time (Options.SnapshotEvery, SnapshotInterval, before a
// report, at the start and on the way out), encoded under the lock and
// written in the background; and the mail it sends, each
// recorded as sent in the journal once the server accepted it.
// It does not parse configuration, start the embedded hub or draw secrets:
// cmd/referee does, and hands New what it built.
//
// Three loops share the state under one lock: the inbox (inbox.go), the
// scheduler (scheduler.go) and the sender (sender.go). The transaction wakes
// the scheduler and the sender after each commit.
package daemon

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"referee/contract"
	"referee/contract/store"
	"referee/internal/bridge"
	"referee/mailin"
	"referee/mailout"
)

// Options is everything the daemon is built from.
type Options struct {
	Engine    *contract.Engine
	StatePath string
	// State is the state loaded from StatePath, or a fresh one; Started are
	// the journal entries of a fresh state's start (none for a loaded one),
	// journaled and saved by New.
	State   *contract.State
	Started []contract.Entry
	Clock   *Clock
	Log     *slog.Logger
	// Mail classifies incoming mail; Addresses address outgoing mail, and
	// Addresses.Referee is the envelope sender.
	Mail      *mailin.Config
	Addresses bridge.Addresses
	IMAP      *mailin.IMAPConfig
	Sender    *mailout.Sender
	// Hub says the mail is the embedded hub's: it dates mail on Clock, so
	// arrival times need no conversion from the wall clock.
	Hub bool
	// RetryBase is the first retry delay of a temporary send failure; it
	// doubles each attempt, capped at ten minutes. Zero means a second.
	RetryBase time.Duration
	// SnapshotEvery and SnapshotInterval: the whole state is written as a
	// snapshot (the state file, and its copy under snapshots/) after
	// SnapshotEvery inputs or SnapshotInterval, whichever comes first, as
	// well as before a report is sent and on the way out; between
	// snapshots each change costs one journal append and sync. Zero means
	// DefaultSnapshotEvery, DefaultSnapshotInterval. SnapshotKeep is how far
	// back, on the state's clock, every snapshot is kept (zero:
	// store.SnapshotKeep).
	SnapshotEvery    int
	SnapshotInterval time.Duration
	SnapshotKeep     time.Duration
	// Hooks, when set, are told of what the daemon does (counters).
	Hooks Hooks
	// OpenJournal opens the journal beside the state, keeping the lines up
	// to keep (the journal guards: it refuses what it cannot prove
	// redundant). Nil means store.OpenJournal on StatePath's journal.
	OpenJournal func(keep store.Position) (*store.Journal, error)
}

// Hooks are the points where counters go. Each is called with the daemon's
// lock held, so it must be quick and must not call back into the daemon.
type Hooks struct {
	// Committed: a transaction saved (err nil) or failed, with its entries
	// and the time the save took.
	Committed func(entries []contract.Entry, save time.Duration, err error)
	// Message: a message was applied (or refused by the parser: unreadable).
	Message func(m *contract.Message, unreadable bool)
	// Applied: the time the interpreter took over one message.
	Applied func(took time.Duration)
	// Reconnect: the mail reader connected again, after its connection was
	// lost or after it stopped on a fault.
	Reconnect func()
	// Sent: a notice left the outbox (err nil), failed for good or will be
	// retried (err set; permanent says which).
	Sent func(o *contract.Outgoing, err error, permanent bool)
	// Halted: the journal stopped at since (a failed sync: see halt), once.
	// It may be called without the daemon's lock (from a snapshot written
	// in the background).
	Halted func(since time.Time)
}

// The snapshot defaults: start-up re-does at most about this many inputs
// (well under a second), and a snapshot's encode (under the lock; its write
// is in the background) is paid once in so many messages, off the p99 of a
// message's save.
const (
	DefaultSnapshotEvery    = 1000
	DefaultSnapshotInterval = 10 * time.Minute
)

// Daemon ties mailin, contract and mailout together.
type Daemon struct {
	e         *contract.Engine
	statePath string
	log       *slog.Logger
	clk       *Clock
	pipe      *bridge.Pipeline
	addrs     bridge.Addresses
	imap      *mailin.IMAPConfig
	sender    *mailout.Sender
	hub       bool
	retryBase time.Duration
	hooks     Hooks
	connects  int // IMAP connections made, under mu (connected)
	// openJournal opens the journal again after a failed save (reload).
	openJournal func(keep store.Position) (*store.Journal, error)

	snapEvery    int
	snapInterval time.Duration
	snapKeep     time.Duration

	// wmu is held by the change being written (write), from before it is
	// performed until its journal lines are synced, and by every whole
	// save: one change is synced at a time, and no snapshot is encoded
	// while a change's lines are unsynced. Take it before mu (lockWrites).
	wmu sync.Mutex
	mu  sync.Mutex // guards s, j, sinceSnap, lastSnap, inflight, unsynced, bg, reportAt
	s   *contract.State
	j   *store.Journal
	// sinceSnap inputs were journaled since the last snapshot, started at
	// lastSnap.
	sinceSnap int
	lastSnap  time.Time
	// inflight is the notice being sent while the commit that adds it is
	// saved (see prepare); unsynced, the other notices of the change whose
	// lines are being synced. The sender loop leaves both alone.
	inflight map[string]bool
	unsynced map[string]bool
	// bg is the snapshot being written in the background, if any
	// (startSnapshot).
	bg *bgSnapshot
	// reportAt holds each report in the outbox that no snapshot finished
	// since the change that added it (the input number after that change);
	// snapDone is the journal_inputs of the last snapshot finished. A
	// report goes out only from a state on disk whole: the sender holds it
	// until a snapshot that includes it is written (or has failed: the
	// journal holds everything).
	reportAt map[string]int64
	snapDone atomic.Int64
	// last is what the last change's parts took (BenchmarkLiveSave),
	// written under wmu; cpuClock, when set (by the benchmark), reads the
	// thread's CPU time for it.
	last     writeTimes
	cpuClock func() time.Duration
	// syncing, in tests, is called while a change's journal is synced
	// (mu let go, wmu held).
	syncing func()

	// stopped is when the journal stopped, nil while it takes changes;
	// halted is closed then (halt).
	stopped atomic.Pointer[time.Time]
	halted  chan struct{}

	preparing sync.WaitGroup
	wake      chan struct{} // the scheduler: the state changed
	kick      chan struct{} // the sender: the outbox changed
}

// New opens the journal beside the state, saves the state with the entries
// of its start, and returns the daemon, its loops not started (Run).
func New(o Options) (*Daemon, error) {
	if o.Engine == nil || o.State == nil || o.Clock == nil || o.IMAP == nil || o.Sender == nil || o.Mail == nil {
		return nil, errors.New("daemon: Engine, State, Clock, Mail, IMAP and Sender are required")
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := o.State
	openJournal := o.OpenJournal
	if openJournal == nil {
		openJournal = func(keep store.Position) (*store.Journal, error) {
			return store.OpenJournal(store.JournalPath(o.StatePath), keep)
		}
	}
	j, err := openJournal(Keep(s, o.Started))
	if err != nil {
		return nil, err
	}
	j.SetSnapshotKeep(o.SnapshotKeep)
	// A snapshot at every start: the inputs Load re-did are not re-done
	// at the next.
	if err := store.Commit(j, o.StatePath, s, o.Started); err != nil {
		j.Close()
		return nil, err
	}
	// The text the state hashes read, made now rather than at the first
	// public notice (Engine.Prepare).
	if err := o.Engine.Prepare(s); err != nil {
		j.Close()
		return nil, err
	}
	log.Info("state loaded", "state", o.StatePath, "clock", s.Clock.Format(time.RFC3339), "outbox", len(s.Outbox), "journal_seq", s.JournalSeq)
	d := &Daemon{
		e: o.Engine, statePath: o.StatePath, log: log, clk: o.Clock,
		pipe:  &bridge.Pipeline{Engine: o.Engine, Mail: o.Mail},
		addrs: o.Addresses, imap: o.IMAP, sender: o.Sender, hub: o.Hub,
		retryBase: cmp.Or(o.RetryBase, time.Second), hooks: o.Hooks, openJournal: openJournal,
		snapEvery: cmp.Or(o.SnapshotEvery, DefaultSnapshotEvery), snapInterval: cmp.Or(o.SnapshotInterval, DefaultSnapshotInterval),
		snapKeep: o.SnapshotKeep, lastSnap: time.Now(),
		s: s, j: j, wake: make(chan struct{}, 1), kick: make(chan struct{}, 1), halted: make(chan struct{}),
	}
	// The reader is the caller's configuration with the daemon's count of
	// its connections (the hook Reconnect) added, on a copy of its own.
	in := *o.IMAP
	in.Connected = d.connected
	d.imap = &in
	d.snapDone.Store(s.JournalInputs)
	return d, nil
}

// Keep is the journal position that New opens the journal at for the
// state s with the entries of its start (Options.Started): the position the
// state file on disk includes.
func Keep(s *contract.State, started []contract.Entry) store.Position {
	return store.Position{Seq: s.JournalSeq - int64(len(started)), Inputs: s.JournalInputs}
}

// GCPercent is the garbage collector's target of the daemon (`referee
// run`) when the operator sets none. The daemon keeps alive the state and
// the text its snapshots and state hashes were last written from (some
// 100 MB in a Rumble of 2,000 contestants), and each snapshot makes a
// state's text of garbage: at Go's 100 the collector ran 11-13 times in
// the thousand timed messages of BenchmarkLiveSave's Rumble of 2,000,
// its work on the processor beside the message's (two here) delaying
// some by milliseconds; at 200, 5 times (p99 "ours" 5.0-5.9 ms against
// 6.2-6.9 ms, three runs each, interleaved), for a heap up to three
// times the live one.
const GCPercent = 200

// SetGC sets the garbage collector's target to percent (GCPercent for
// the daemon) unless GOGC is set (the operator's choice, which the runtime
// has read), and returns what puts the old target back.
func SetGC(percent int) (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(old) }
}

// Close waits for a snapshot being written and closes the journal.
func (d *Daemon) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.waitSnapshot()
	if d.j != nil {
		d.j.Close()
	}
}

// View calls f with the state under the daemon's lock: f must only read it,
// keep nothing of it after it returns, and be quick (every loop waits).
func (d *Daemon) View(f func(*contract.State)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f(d.s)
}

// Run starts the three loops and waits for them after ctx is done. SIGINT
// or SIGTERM (ctx) finishes the message in hand and saves.
func (d *Daemon) Run(ctx context.Context) error {
	// A correction whose message was saved but whose re-run a crash
	// interrupted is re-run before anything else.
	d.mu.Lock()
	err := d.correctPending(ctx)
	d.mu.Unlock()
	if err != nil {
		d.log.Error("re-running a correction left from before the start failed; it is tried again after the next message", "err", err)
	}
	var wg sync.WaitGroup
	errc := make(chan error, 3)
	for _, f := range []func(context.Context) error{d.inboxLoop, d.schedulerLoop, d.senderLoop} {
		wg.Add(1)
		go func(f func(context.Context) error) {
			defer wg.Done()
			if err := f(ctx); err != nil && ctx.Err() == nil {
				errc <- err
			}
		}(f)
	}
	err = nil
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	d.log.Info("stopping")
	wg.Wait()
	d.preparing.Wait()
	d.mu.Lock()
	d.waitSnapshot()
	if !d.Stopped().IsZero() {
		// Nothing more is written (halt).
	} else if err := d.snapshot(); err != nil {
		d.log.Error("the snapshot on the way out failed; the journal holds everything", "err", err)
	}
	d.mu.Unlock()
	if cerr := d.sender.Close(); cerr != nil {
		d.log.Debug("smtp close", "err", cerr)
	}
	return err
}

func signal1(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
