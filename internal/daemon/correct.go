package daemon

import (
	"context"
	"fmt"
	"time"

	"referee/contract"
	"referee/contract/store"
)

// correct re-runs the history with a correction the contestmaster's mail
// made (contract.Corrections of its entries), from the newest kept snapshot
// before the earliest point it touches, with the journal's inputs after it
// (store.History). The new state replaces the old one, saved whole with
// the correction's input and entries appended to the journal (the original
// lines stay), and the revision and the corrected receipts are queued. A
// correction refused (a ratified report it would change, a message not in
// the record) is journaled as such and the contestmaster is told why.
//
// Call with mu held.
func (d *Daemon) correct(ctx context.Context, fix contract.Correction) error {
	// A whole save: no change unsynced, no snapshot being written (the
	// re-run reads the kept snapshots).
	d.lockWrites()
	d.waitSnapshot()
	s, step, rev := store.Correct(d.e, d.statePath, d.s, fix, d.clk.Now())
	if s == nil {
		d.wmu.Unlock()
		d.log.Info("correction refused", "coe", fix.CoE, "err", step.Input.Error)
		_, werr := d.write(ctx, step.Input, false)
		return werr
	}
	defer d.wmu.Unlock()
	if err := store.CommitSteps(d.j, d.statePath, s, []store.Step{step}); err != nil {
		d.log.Error("saving the corrected state failed; reading the state again", "coe", fix.CoE, "err", err)
		if rerr := d.reload(); rerr != nil {
			return fmt.Errorf("%w; and reading it again: %w", err, rerr)
		}
		return err
	}
	d.s = s
	d.sinceSnap, d.lastSnap = 0, time.Now()
	d.snapDone.Store(s.JournalInputs)
	d.logEntries(step.Entries)
	d.log.Info("correction applied", "coe", fix.CoE, "old_hash", rev.OldHash, "new_hash", rev.NewHash, "changed", rev.Changed())
	signal1(d.kick)
	signal1(d.wake)
	return nil
}

// correctPending re-runs every correction accepted whose re-run is not
// yet journaled (State.PendingCorrections): the one the message just
// applied made, or one a crash interrupted after its message was saved.
// Each re-run, made or refused, journals an InCorrect that clears it.
//
// Call with mu held.
func (d *Daemon) correctPending(ctx context.Context) error {
	for _, fix := range d.s.PendingCorrections() {
		if err := d.correct(ctx, fix); err != nil {
			return err
		}
	}
	return nil
}
