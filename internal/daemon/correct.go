package daemon

import (
	"context"
	"fmt"

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
	now := d.clk.Now()
	s, rev, err := d.rerun(fix)
	if err != nil {
		d.log.Info("correction refused", "coe", fix.CoE, "err", err)
		_, werr := d.write(ctx, &contract.Input{Kind: contract.InCorrect, At: now, Fix: &fix, Error: err.Error()}, false)
		return werr
	}
	entries := append(rev.Entries, d.e.PublishRevision(s, rev, now))
	in := &contract.Input{Kind: contract.InCorrect, At: now, Fix: &fix, Seq: s.JournalSeq}
	if err := store.CommitSteps(d.j, d.statePath, s, []store.Step{{Input: in, Entries: entries}}); err != nil {
		d.log.Error("saving the corrected state failed; reading the state again", "coe", fix.CoE, "err", err)
		if rerr := d.reload(); rerr != nil {
			return fmt.Errorf("%w; and reading it again: %w", err, rerr)
		}
		return err
	}
	d.s = s
	d.sinceSnap = 0
	d.logEntries(entries)
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

// rerun finds the history the correction needs and re-runs it.
func (d *Daemon) rerun(fix contract.Correction) (*contract.State, *contract.Revision, error) {
	base, inputs, err := store.CorrectionHistory(d.e, d.statePath, fix, 0)
	if err != nil {
		return nil, nil, err
	}
	ratified := map[string]bool{}
	for _, c := range d.s.Cited {
		if c.Status == "ratified" {
			ratified[c.ID] = true
		}
	}
	return d.e.Rerun(&contract.Rerun{Base: base, Inputs: inputs, Current: d.s, Fix: fix,
		Ratified: func(id string) bool { return ratified[id] }})
}
