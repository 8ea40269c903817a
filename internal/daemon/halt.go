package daemon

import (
	"context"
	"errors"
	"time"

	"referee/contract/store"
)

// The journal stops for good when its sync fails (store.SyncFailedError):
// lines written before it may not be on disk, so nothing more may be
// journaled until the operator has checked the disk and removed the
// record of the failure (store.SyncFailedPath), and the referee is
// started again. From then on the daemon halts what it cannot finish:
// the inbox stops reading mail (the mail stays unacknowledged on the
// server, read again at the next start), the scheduler runs no event,
// and no write is tried; the sender goes on sending what was saved
// before, each outcome kept in memory only (settle). The log says so
// once, at the error level, with what to do; Stopped tells the status
// page and the metrics (the hook Halted).

// halt takes note of err when it is the journal's failed sync, and
// reports whether it is. The first time, it logs the stop once, records
// its time and tells the hook Halted. Safe without mu.
func (d *Daemon) halt(err error) bool {
	var sf *store.SyncFailedError
	if !errors.As(err, &sf) {
		return false
	}
	now := d.clk.Now()
	if !d.stopped.CompareAndSwap(nil, &now) {
		return true
	}
	d.log.Error("the journal stopped: no more mail is read or applied, mail already applied is still sent; do what err says, then start the referee again",
		"since", now.UTC().Format(time.RFC3339), "err", err)
	close(d.halted)
	if d.hooks.Halted != nil {
		d.hooks.Halted(now)
	}
	return true
}

// Stopped is when the journal stopped (see halt), or the zero time while
// it takes changes. Safe without the daemon's lock.
func (d *Daemon) Stopped() time.Time {
	if p := d.stopped.Load(); p != nil {
		return *p
	}
	return time.Time{}
}

// haltErr is the error of a change not tried because the journal stopped.
func (d *Daemon) haltErr() error {
	if d.Stopped().IsZero() {
		return nil
	}
	if err := d.j.Failed(); err != nil {
		return err
	}
	return errors.New("the journal stopped")
}

// untilHalted is a context that ends with ctx or when the journal stops.
func (d *Daemon) untilHalted(ctx context.Context) (context.Context, context.CancelFunc) {
	hctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-d.halted:
			cancel()
		case <-hctx.Done():
		}
	}()
	return hctx, cancel
}
