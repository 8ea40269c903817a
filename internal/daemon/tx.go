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
// write a snapshot when one is due, then wake the scheduler and the
// sender. When the journal cannot be written, the change is undone, so its
// outbox is never sent and the message that made it is read again later:
// the state is read again from the files, as at a start, or if that fails
// too, the undo puts back the state from before the change.
//
// It returns the input's entries, saved or not (err says).
//
// With overlap, the first notice the change adds is sent while the journal
// is synced, and delivered only once it is on disk (prepare).
//
// Call with mu held.
func (d *Daemon) write(ctx context.Context, in *contract.Input, overlap bool) ([]contract.Entry, error) {
	var old map[string]bool
	if overlap {
		old = make(map[string]bool, len(d.s.Outbox))
		for _, o := range d.s.Outbox {
			old[o.ID] = true
		}
	}
	reports := countReports(d.s.Outbox)
	// The one place an undo is taken: the state's undo log records what the
	// change touches, so a rejection costs what it changed.
	tx := d.s.Begin()
	defer tx.End()
	applyStart := time.Now()
	entries, err := d.e.Redo(d.s, in)
	if in.Kind == contract.InMessage && d.hooks.Applied != nil {
		d.hooks.Applied(time.Since(applyStart))
	}
	if err != nil {
		tx.Undo()
		return nil, &notPerformed{err}
	}
	var verdict chan<- bool
	if overlap {
		verdict = d.prepare(ctx, old)
	}
	saveStart := time.Now()
	err = d.j.Log(d.s, []store.Step{{Input: in, Entries: entries}}, true)
	if err == nil {
		d.sinceSnap++
		if d.snapshotDue(reports) {
			// A failed snapshot loses nothing (the journal holds the
			// input): it is said, and tried again at the next input.
			if serr := d.snapshot(); serr != nil {
				d.log.Error("writing a snapshot of the state failed; the journal holds everything, trying again later", "err", serr)
			}
		}
	}
	if verdict != nil {
		verdict <- err == nil
	}
	if d.hooks.Committed != nil {
		d.hooks.Committed(entries, time.Since(saveStart), err)
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

// notPerformed is the error of an input the engine refused to perform (a
// fault: a panic, a state it cannot handle), as opposed to one performed
// whose journal could not be written.
type notPerformed struct{ err error }

func (e *notPerformed) Error() string { return e.err.Error() }
func (e *notPerformed) Unwrap() error { return e.err }

// snapshotDue reports whether the state should be written whole now:
// SnapshotEvery inputs or SnapshotInterval since the last snapshot, or a
// report among the notices the change added (the outbox held reports
// before it), so that every report goes out from a state on disk whole.
// Call with mu held.
func (d *Daemon) snapshotDue(reports int) bool {
	return d.sinceSnap >= d.snapEvery || time.Since(d.lastSnap) >= d.snapInterval ||
		countReports(d.s.Outbox) > reports
}

// countReports counts the reports in an outbox.
func countReports(outbox []*contract.Outgoing) int {
	n := 0
	for _, o := range outbox {
		if o.Kind == "report" {
			n++
		}
	}
	return n
}

// snapshot writes the whole state as the state file (and its kept copy).
// Call with mu held.
func (d *Daemon) snapshot() error {
	err := d.j.Snapshot(d.statePath, d.s)
	d.lastSnap = time.Now()
	if err == nil {
		d.sinceSnap = 0
		d.log.Debug("snapshot", "journal_seq", d.s.JournalSeq, "journal_inputs", d.s.JournalInputs)
	}
	return err
}

// reload replaces the state in memory with the files' (the snapshot and the
// journal's inputs after it) and cuts the journal back to it. Call with mu
// held.
func (d *Daemon) reload() error {
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
