package daemon

import (
	"context"
	"fmt"
	"time"

	"referee/contract"
	"referee/contract/store"
	"referee/internal/bridge"
	"referee/mailout"
)

// senderLoop drains the outbox: each notice is composed with its deterministic
// Message-ID and sent; temporary failures are retried with capped exponential
// backoff, permanent ones kept in the state and shown by referee check.
//
// Sent mail leaves the outbox as soon as the server accepted it: an input
// (InSent) written to the journal at once without a sync, which a killed
// process keeps; the next synced save makes it durable against a power cut
// too (DESIGN invariant 3: a mail lost that way is sent again with the same
// Message-ID). So a save's fsyncs never stand between a player's next
// message and its receipt.
func (d *Daemon) senderLoop(ctx context.Context) error {
	for {
		d.mu.Lock()
		next, soonest := d.nextToSend()
		d.mu.Unlock()
		if next == nil {
			wait := time.Minute
			if !soonest.IsZero() {
				wait = min(wait, d.clk.RealDelay(soonest))
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case <-d.kick:
			case <-t.C:
			}
			t.Stop()
			continue
		}
		err := d.send(ctx, next)
		if ctx.Err() != nil {
			// Stopping mid-send: the notice stays; it goes again, with the
			// same Message-ID, at the next start.
			return nil
		}
		d.mu.Lock()
		d.settle(next.ID, err)
		d.mu.Unlock()
	}
}

// nextToSend is a copy of the first notice of the outbox due now and free
// to go, or nil and the soonest next try of the others. Not free: a notice
// being sent with its commit (inflight), one whose change is being synced
// (unsynced), a report no snapshot includes yet (reportAt), and a notice of
// that report's game made after it (but for receipts), so that a game's
// posts reach the lists in the order it made them. Call with mu held.
func (d *Daemon) nextToSend() (*contract.Outgoing, time.Time) {
	var soonest time.Time
	now := d.clk.Now()
	snapDone := d.snapDone.Load()
	waiting := map[string]bool{} // games with a report held before this notice
	for _, o := range d.s.Outbox {
		if d.heldForReport(o, false, snapDone, waiting) {
			continue
		}
		if d.inflight[o.ID] || d.unsynced[o.ID] {
			continue
		}
		if !o.NextTry.After(now) {
			c := *o
			return &c, time.Time{}
		}
		if soonest.IsZero() || o.NextTry.Before(soonest) {
			soonest = o.NextTry
		}
	}
	return nil, soonest
}

// heldForReport reports whether o waits for a report of its game: o is a
// report no snapshot includes yet (reportAt; or, fresh from the change
// being saved, one that write has still to note there: it waits as one
// made before does), or a notice of a game whose report waits, made after
// it (but for receipts), so that a game's posts reach the lists in the
// order it made them. Called on the outbox in its order, it notes in
// waiting the games whose report waits.
func (d *Daemon) heldForReport(o *contract.Outgoing, fresh bool, snapDone int64, waiting map[string]bool) bool {
	if at, ok := d.reportAt[o.ID]; (ok && at > snapDone) || (fresh && o.Kind == "report") {
		waiting[o.Game] = true
		return true
	}
	return waiting[o.Game] && o.Kind != "receipt"
}

// prepare starts sending the first notice that the change just applied put
// in the outbox (old holds the outbox's IDs before it), while the commit that
// records it is saved: the SMTP transaction is taken up to the end of its
// data (mailout.Prepared), and completed only when the verdict says the state
// is on disk, or dropped if the save failed. So DESIGN invariant 3 holds, the
// mail is delivered only after the save, yet the receipt's round trips
// overlap the fsyncs. A notice of a game whose report waits for its snapshot
// waits too (but for receipts), as in nextToSend (heldForReport). It returns nil when there
// is nothing to send. Call with mu held.
func (d *Daemon) prepare(ctx context.Context, old map[string]bool) chan<- bool {
	var o *contract.Outgoing
	now := d.clk.Now()
	snapDone := d.snapDone.Load()
	waiting := map[string]bool{} // games with a report held before this notice
	for _, c := range d.s.Outbox {
		if d.heldForReport(c, !old[c.ID], snapDone, waiting) {
			continue
		}
		if !old[c.ID] && !d.inflight[c.ID] && !c.NextTry.After(now) {
			cp := *c
			o = &cp
			break
		}
	}
	if o == nil || ctx.Err() != nil {
		return nil
	}
	if d.inflight == nil {
		d.inflight = map[string]bool{}
	}
	d.inflight[o.ID] = true
	verdict := make(chan bool, 1)
	d.preparing.Add(1)
	go func() {
		defer d.preparing.Done()
		d.log.Debug("sending", "notice", o.ID, "with_commit", true)
		m := bridge.Mail(&o.Notice, d.addrs)
		raw, err := mailout.Compose(m)
		var p *mailout.Prepared
		if err != nil {
			err = fmt.Errorf("compose: %w", err)
		} else {
			p, err = d.sender.Prepare(ctx, d.addrs.Referee, bridge.Recipients(m), raw)
		}
		saved := <-verdict
		if !saved {
			if p != nil {
				p.Abort()
			}
			d.mu.Lock()
			delete(d.inflight, o.ID)
			d.mu.Unlock()
			return
		}
		if err == nil {
			err = p.Finish()
		}
		d.mu.Lock()
		delete(d.inflight, o.ID)
		if ctx.Err() == nil || err == nil {
			d.settle(o.ID, err)
		}
		d.mu.Unlock()
		signal1(d.kick)
	}()
	return verdict
}

func (d *Daemon) send(ctx context.Context, o *contract.Outgoing) error {
	d.log.Debug("sending", "notice", o.ID)
	m := bridge.Mail(&o.Notice, d.addrs)
	raw, err := mailout.Compose(m)
	if err != nil {
		return fmt.Errorf("compose: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return d.sender.Send(sctx, d.addrs.Referee, bridge.Recipients(m), raw)
}

// settle records a send's outcome: an input (InSent, InFailed) performed on
// the state and written to the journal at once, without a sync (Log). A
// journal that cannot be written leaves the outcome in memory only: the
// notice is sent again after a restart, with the same Message-ID. Call with
// mu held.
func (d *Daemon) settle(id string, err error) {
	var o *contract.Outgoing
	for _, c := range d.s.Outbox {
		if c.ID == id {
			o = c
			break
		}
	}
	if o == nil {
		return
	}
	permanent := err != nil && mailout.IsPermanent(err)
	in := &contract.Input{Kind: contract.InSent, At: d.clk.Now(), Notice: id}
	if err != nil {
		in.Kind, in.Error, in.Permanent = contract.InFailed, err.Error(), permanent
		if !permanent {
			delay := d.retryBase << min(o.Attempts, 10)
			delay = min(delay, 10*time.Minute)
			in.NextTry = d.clk.Now().Add(time.Duration(float64(delay) * d.clk.Rate))
		}
	}
	if _, rerr := d.e.Redo(d.s, in); rerr != nil {
		d.log.Error("recording a send failed", "notice", id, "err", rerr)
		return
	}
	switch lerr := d.j.Log(d.s, []store.Step{{Input: in}}, false); {
	case lerr == nil:
		d.sinceSnap++
	case d.halt(lerr):
		// Said once (halt); the notice is sent again after the restart.
		d.log.Warn("a send not journaled: the journal stopped; the notice is sent again after the restart", "notice", id)
	default:
		d.log.Error("journaling a send failed; the notice may be sent again after a restart", "notice", id, "err", lerr)
	}
	switch {
	case err == nil:
		d.log.Info("sent", "notice", id, "kind", o.Kind, "game", o.Game)
	case permanent:
		d.log.Error("notice failed for good; kept in the state", "notice", id, "err", err)
	default:
		d.log.Warn("send failed; will retry", "notice", id, "attempt", o.Attempts+1, "err", err)
	}
	if d.hooks.Sent != nil {
		now := o
		if err != nil {
			now = d.failedCopy(id, o)
		}
		d.hooks.Sent(now, err, permanent)
	}
}

// failedCopy is notice id as the state now holds it after a failed attempt
// (in the outbox, or among the failed), or o.
func (d *Daemon) failedCopy(id string, o *contract.Outgoing) *contract.Outgoing {
	for _, l := range [][]*contract.Outgoing{d.s.Outbox, d.s.Failed} {
		for _, c := range l {
			if c.ID == id {
				return c
			}
		}
	}
	return o
}
