package daemon

import (
	"context"
	"fmt"
	"time"

	"referee/contract"
	"referee/contract/store"
)

// write is the one transaction every change to the state goes through (as
// mox's DB.Write): begin, perform the input (Engine.Redo: the code that
// re-does it at start-up), journal it with its entries and sync (DESIGN
// invariant 3: the journal is the write-ahead log), undo on any failure,
// start a snapshot when one is due, then wake the scheduler and the
// sender. When the journal cannot be written, the change is undone, so its
// outbox is never sent and the message that made it is read again later:
// the state is read again from the files, as at a start, or if that fails
// too, the undo puts back the state from before the change.
//
// mu is let go while the journal syncs, so that the sender records a mail
// the server accepted (settle) at once, not after the disk: the change's
// notices are held back from the sender until the sync succeeds
// (unsynced), and wmu keeps the next change, whole saves and snapshots
// out until then. A send recorded meanwhile is journaled after the
// change's lines, so a failed sync cuts it too and the undo takes it back
// with the change: the mail is sent again, with the same Message-ID.
//
// It returns the input's entries, saved or not (err says).
//
// With overlap, the first notice the change adds is sent while the journal
// is synced, and delivered only once it is on disk (prepare).
//
// Call with mu held; it returns with mu held.
func (d *Daemon) write(ctx context.Context, in *contract.Input, overlap bool) ([]contract.Entry, error) {
	if err := d.haltErr(); err != nil {
		return nil, err // the journal stopped: nothing is tried (halt)
	}
	d.lockWrites()
	defer d.wmu.Unlock()
	d.reapSnapshot()
	old := make(map[string]bool, len(d.s.Outbox))
	for _, o := range d.s.Outbox {
		old[o.ID] = true
	}
	// The one place an undo is taken: the state's undo log records what the
	// change touches, so a rejection costs what it changed.
	tx := d.s.Begin()
	defer tx.End()
	d.last = writeTimes{}
	applyStart := d.stamp()
	entries, err := d.e.Redo(d.s, in)
	d.took(partApply, applyStart)
	if in.Kind == contract.InMessage && d.hooks.Applied != nil {
		d.hooks.Applied(d.last.wall[partApply])
	}
	if err != nil {
		tx.Undo()
		return nil, &notPerformed{err}
	}
	var verdict chan<- bool
	if overlap {
		verdict = d.prepare(ctx, old)
	}
	saveStart := d.stamp()
	ps, err := d.j.LogPending(d.s, []store.Step{{Input: in, Entries: entries}})
	d.took(partJournal, saveStart)
	if err == nil {
		at := d.s.JournalInputs
		var added, reports []string
		for _, o := range d.s.Outbox {
			if old[o.ID] {
				continue
			}
			if o.Kind == "report" {
				reports = append(reports, o.ID)
			}
			if !d.inflight[o.ID] {
				added = append(added, o.ID)
			}
		}
		if d.unsynced == nil {
			d.unsynced = map[string]bool{}
		}
		for _, id := range added {
			d.unsynced[id] = true
		}
		d.mu.Unlock()
		if d.syncing != nil {
			d.syncing()
		}
		syncStart := d.stamp()
		err = ps.Sync()
		d.took(partSync, syncStart)
		d.mu.Lock()
		for _, id := range added {
			delete(d.unsynced, id)
		}
		if err != nil {
			ps.Cut()
		} else if len(reports) > 0 {
			if d.reportAt == nil {
				d.reportAt = map[string]int64{}
			}
			for _, id := range reports {
				d.reportAt[id] = at
			}
		}
	}
	if err == nil {
		d.sinceSnap++
		if d.snapshotDue() {
			snapStart := d.stamp()
			d.startSnapshot()
			d.took(partSnapshot, snapStart)
		}
	}
	if verdict != nil {
		verdict <- err == nil
	}
	if d.hooks.Committed != nil {
		d.hooks.Committed(entries, time.Since(saveStart.wall), err)
	}
	if err != nil && d.halt(err) {
		// Reading the files again would be refused (store.SyncFailedRefusal).
		tx.Undo()
		return entries, err
	}
	if err != nil {
		d.log.Error("journaling the change failed; reading the state again", "err", err)
		if rerr := d.reload(); rerr != nil {
			tx.Undo()
			return entries, fmt.Errorf("%w; and reading it again: %w", err, rerr)
		}
		return entries, err
	}
	d.logEntries(entries)
	signal1(d.kick)
	signal1(d.wake)
	return entries, nil
}

// writeTimes is what the parts of one change took in write, in wall time
// and, when the daemon has a cpuClock (a benchmark's), in the CPU time of
// the thread.
type writeTimes struct{ wall, cpu [parts]time.Duration }

// The parts of a change: the engine performing it, its journal lines
// encoded and written, their sync, and a snapshot started (taken: its
// encoding and write go on in the background).
const (
	partApply = iota
	partJournal
	partSync
	partSnapshot
	parts
)

// stamp is an instant of both clocks of writeTimes.
type stamp struct {
	wall time.Time
	cpu  time.Duration
}

func (d *Daemon) stamp() stamp {
	st := stamp{wall: time.Now()}
	if d.cpuClock != nil {
		st.cpu = d.cpuClock()
	}
	return st
}

// took records a part of the change being written, from since to now.
func (d *Daemon) took(part int, since stamp) {
	d.last.wall[part] = time.Since(since.wall)
	if d.cpuClock != nil {
		d.last.cpu[part] = d.cpuClock() - since.cpu
	}
}

// lockWrites takes wmu; mu is let go while it waits (wmu comes first).
// Call with mu held.
func (d *Daemon) lockWrites() {
	if d.wmu.TryLock() {
		return
	}
	d.mu.Unlock()
	d.wmu.Lock()
	d.mu.Lock()
}

// notPerformed is the error of an input the engine refused to perform (a
// fault: a panic, a state it cannot handle), as opposed to one performed
// whose journal could not be written.
type notPerformed struct{ err error }

func (e *notPerformed) Error() string { return e.err.Error() }
func (e *notPerformed) Unwrap() error { return e.err }

// snapshotDue reports whether the state should be written whole now:
// SnapshotEvery inputs or SnapshotInterval since the last snapshot, or a
// report in the outbox that no snapshot includes yet, so that every report
// goes out from a state on disk whole. Call with mu held.
func (d *Daemon) snapshotDue() bool {
	if d.sinceSnap > 0 && (d.sinceSnap >= d.snapEvery || time.Since(d.lastSnap) >= d.snapInterval) {
		return true
	}
	done := d.snapDone.Load()
	for _, at := range d.reportAt {
		if at > done {
			return true
		}
	}
	return false
}

// bgSnapshot is a snapshot being written in the background: done is
// closed once it is written (err nil) or has failed.
type bgSnapshot struct {
	done  chan struct{}
	err   error
	since int // sinceSnap when it started
}

// startSnapshot encodes the whole state now and writes it as the state
// file (and its kept copy) in the background: the next change does not
// wait for the disk. One at a time: when one is being written, a snapshot
// due waits for it, and is started at the next change or, for a report
// held, when the scheduler is woken by its end. A failed snapshot loses
// nothing (the journal holds every input): it is said, and tried again
// at the next change. Call with mu and wmu held (no change's lines are
// unsynced).
func (d *Daemon) startSnapshot() {
	if d.reapSnapshot(); d.bg != nil {
		return
	}
	p, err := d.j.StartSnapshot(d.statePath, d.s)
	d.lastSnap = time.Now()
	if err != nil {
		d.log.Error("writing a snapshot of the state failed; the journal holds everything, trying again later", "err", err)
		return
	}
	bg := &bgSnapshot{done: make(chan struct{}), since: d.sinceSnap}
	d.bg, d.sinceSnap = bg, 0
	at := p.At()
	go func() {
		bg.err = p.Write()
		if d.halt(bg.err) {
			// Sticky: every save refuses from now on (store.SyncFailedError).
		} else if bg.err != nil {
			d.log.Error("writing a snapshot of the state failed; the journal holds everything, trying again later", "err", bg.err)
		} else {
			d.log.Debug("snapshot", "journal_seq", at.Seq, "journal_inputs", at.Inputs)
		}
		d.snapDone.Store(at.Inputs)
		close(bg.done)
		// The reports it held may go; one it does not include needs
		// the next snapshot (the scheduler starts it).
		signal1(d.kick)
		signal1(d.wake)
	}()
}

// reapSnapshot takes note of a background snapshot that has ended. Call
// with mu held.
func (d *Daemon) reapSnapshot() {
	if d.bg == nil {
		return
	}
	select {
	case <-d.bg.done:
	default:
		return
	}
	if d.bg.err != nil {
		// Due again at the next change.
		d.sinceSnap += max(d.bg.since, d.snapEvery)
	}
	done := d.snapDone.Load()
	for id, at := range d.reportAt {
		if at <= done {
			delete(d.reportAt, id)
		}
	}
	d.bg = nil
}

// waitSnapshot waits for the snapshot being written in the background, if
// any. Call with mu held (the background write never takes it).
func (d *Daemon) waitSnapshot() {
	if d.bg != nil {
		<-d.bg.done
		d.reapSnapshot()
	}
}

// snapshotIfDue starts a snapshot due with no change to start it: a report
// held while the snapshot before it was written. Call with mu held.
func (d *Daemon) snapshotIfDue() {
	if d.reapSnapshot(); d.bg != nil || !d.snapshotDue() || !d.Stopped().IsZero() {
		return
	}
	d.lockWrites()
	defer d.wmu.Unlock()
	if d.reapSnapshot(); d.bg == nil && d.snapshotDue() {
		d.startSnapshot()
	}
}

// snapshot writes the whole state as the state file (and its kept copy)
// and waits for it: at the end. Call with mu held, no snapshot being
// written (waitSnapshot).
func (d *Daemon) snapshot() error {
	p, err := d.j.StartSnapshot(d.statePath, d.s)
	d.lastSnap = time.Now()
	if err == nil {
		err = p.Write()
	}
	if err == nil {
		d.sinceSnap = 0
		d.snapDone.Store(p.At().Inputs)
		d.log.Debug("snapshot", "journal_seq", d.s.JournalSeq, "journal_inputs", d.s.JournalInputs)
	}
	return err
}

// reload replaces the state in memory with the files' (the snapshot and the
// journal's inputs after it) and cuts the journal back to it. Call with mu
// held.
func (d *Daemon) reload() error {
	d.waitSnapshot()
	s, err := store.Load(d.e, d.statePath)
	if err != nil {
		return err
	}
	j, err := d.openJournal(store.At(s))
	if err != nil {
		return err
	}
	j.SetSnapshotKeep(d.snapKeep)
	d.j.Close()
	d.s, d.j = s, j
	return nil
}

func (d *Daemon) logEntries(entries []contract.Entry) {
	for _, en := range entries {
		attrs := []any{"seq", en.Seq, "game", en.Game, "verb", en.Verb, "outcome", en.Outcome}
		if en.MsgID != "" {
			attrs = append(attrs, "msgid", en.MsgID)
		}
		if en.Player != "" {
			attrs = append(attrs, "player", en.Player)
		}
		d.log.Info("journal", attrs...)
		if en.Reason != "" {
			// Reasons can quote a private submission: debug only.
			d.log.Debug("journal reason", "seq", en.Seq, "reason", en.Reason)
		}
	}
}
