package daemon

import (
	"context"
	"fmt"
	"time"

	"referee/contract"
	"referee/contract/store"
)

// change is the work of one transaction: it changes s and returns the
// journal entries it made. An error leaves nothing changed.
type change func(s *contract.State) ([]contract.Entry, error)

// write is the one transaction every change to the state goes through (as
// mox's DB.Write): begin, apply the change, journal its entries and save the
// state (DESIGN invariant 3), undo on any failure, then wake the scheduler
// and the sender. When the save fails, the change is undone, so its outbox is
// never sent and the message that made it is read again later: the state is
// read again from the file, as at a start, or if that fails too, the undo
// puts back the state from before the change.
//
// It returns the change's entries, saved or not (err says).
//
// With overlap, the first notice the change adds is sent while the state is
// saved, and delivered only once it is on disk (prepare).
//
// Call with mu held.
func (d *Daemon) write(ctx context.Context, apply change, overlap bool) ([]contract.Entry, error) {
	var old map[string]bool
	if overlap {
		old = make(map[string]bool, len(d.s.Outbox))
		for _, o := range d.s.Outbox {
			old[o.ID] = true
		}
	}
	// The one place an undo is taken: the state's undo log records what the
	// change touches, so a rejection costs what it changed.
	tx := d.s.Begin()
	defer tx.End()
	entries, err := apply(d.s)
	if err != nil {
		tx.Undo()
		return nil, err
	}
	var verdict chan<- bool
	if overlap {
		verdict = d.prepare(ctx, old)
	}
	saveStart := time.Now()
	err = store.Commit(d.j, d.statePath, d.s, entries)
	if verdict != nil {
		verdict <- err == nil
	}
	if d.hooks.Committed != nil {
		d.hooks.Committed(entries, time.Since(saveStart), err)
	}
	if err != nil {
		d.log.Error("saving the state failed; reading it again", "err", err)
		if rerr := d.reload(); rerr != nil {
			tx.Undo()
			return entries, fmt.Errorf("%w; and reading it again: %w", err, rerr)
		}
		return entries, err
	}
	d.unsaved = false
	d.logEntries(entries)
	signal1(d.kick)
	signal1(d.wake)
	return entries, nil
}

// reload replaces the state in memory with the file's and cuts the journal
// back to it. Call with mu held.
func (d *Daemon) reload() error {
	s, err := store.Load(d.e, d.statePath)
	if err != nil {
		return err
	}
	j, err := d.openJournal(s.JournalSeq)
	if err != nil {
		return err
	}
	d.j.Close()
	d.s, d.j = s, j
	return nil
}

// saveSent saves the state for the outbox's sake: no entries, nothing to
// undo (what it records has happened). Call with mu held.
func (d *Daemon) saveSent() bool {
	if err := d.j.Save(d.statePath, d.s); err != nil {
		d.log.Error("save after sending", "err", err)
		return false
	}
	d.unsaved = false
	return true
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
