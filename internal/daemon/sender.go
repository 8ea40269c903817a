package daemon

import (
	"context"
	"fmt"
	"time"

	"referee/contract"
	"referee/internal/bridge"
	"referee/mailout"
)

// tidyDelay is how long the sender waits, once the outbox is drained, before
// saving the removal of what it sent; a commit in the meantime saves it too.
const tidyDelay = time.Second

// senderLoop drains the outbox: each notice is composed with its deterministic
// Message-ID and sent; temporary failures are retried with capped exponential
// backoff, permanent ones kept in the state and shown by referee check.
//
// Sent mail leaves the outbox in a later save (DESIGN invariant 3: a crash
// before it resends with the same Message-ID): the next commit's, or the
// sender's own after tidyDelay without one, or on the way out. So a save's
// fsyncs never stand between a player's next message and its receipt.
func (d *Daemon) senderLoop(ctx context.Context) error {
	for {
		d.mu.Lock()
		var next *contract.Outgoing
		var soonest time.Time
		now := d.clk.Now()
		for _, o := range d.s.Outbox {
			if d.inflight[o.ID] {
				continue
			}
			if !o.NextTry.After(now) {
				c := *o
				next = &c
				break
			}
			if soonest.IsZero() || o.NextTry.Before(soonest) {
				soonest = o.NextTry
			}
		}
		if next == nil && d.unsaved && !time.Now().Before(d.tidyAt) && !d.saveSent() {
			d.tidyAt = time.Now().Add(time.Minute) // the disk refused: try again later
		}
		unsaved, tidyAt := d.unsaved, d.tidyAt
		d.mu.Unlock()
		if next == nil {
			wait := time.Minute
			if !soonest.IsZero() {
				wait = min(wait, d.clk.RealDelay(soonest))
			}
			if unsaved {
				wait = min(wait, time.Until(tidyAt))
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				d.saveOnExit()
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
			d.saveOnExit()
			return nil
		}
		d.mu.Lock()
		d.settle(next.ID, err)
		d.mu.Unlock()
	}
}

// saveOnExit saves what the sender recorded since the last save.
func (d *Daemon) saveOnExit() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.unsaved {
		d.saveSent()
	}
}

// prepare starts sending the first notice that the change just applied put
// in the outbox (old holds the outbox's IDs before it), while the commit that
// records it is saved: the SMTP transaction is taken up to the end of its
// data (mailout.Prepared), and completed only when the verdict says the state
// is on disk, or dropped if the save failed. So DESIGN invariant 3 holds, the
// mail is delivered only after the save, yet the receipt's round trips
// overlap the fsyncs. It returns nil when there is nothing to send. Call with
// mu held.
func (d *Daemon) prepare(ctx context.Context, old map[string]bool) chan<- bool {
	var o *contract.Outgoing
	now := d.clk.Now()
	for _, c := range d.s.Outbox {
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

// settle records a send's outcome in the state, to be saved by the next
// commit or by the sender at tidyAt. Call with mu held.
func (d *Daemon) settle(id string, err error) {
	if !d.unsaved {
		d.unsaved = true
		d.tidyAt = time.Now().Add(tidyDelay)
	}
	for i, o := range d.s.Outbox {
		if o.ID != id {
			continue
		}
		permanent := err != nil && mailout.IsPermanent(err)
		switch {
		case err == nil:
			d.s.Outbox = append(d.s.Outbox[:i], d.s.Outbox[i+1:]...)
			d.log.Info("sent", "notice", id, "kind", o.Kind, "game", o.Game)
		case permanent:
			o.LastError = err.Error()
			o.Attempts++
			d.s.Outbox = append(d.s.Outbox[:i], d.s.Outbox[i+1:]...)
			d.s.Failed = append(d.s.Failed, o)
			d.log.Error("notice failed for good; kept in the state", "notice", id, "err", err)
		default:
			o.Attempts++
			o.LastError = err.Error()
			delay := d.retryBase << min(o.Attempts-1, 10)
			delay = min(delay, 10*time.Minute)
			o.NextTry = d.clk.Now().Add(time.Duration(float64(delay) * d.clk.Rate))
			d.log.Warn("send failed; will retry", "notice", id, "attempt", o.Attempts, "err", err)
		}
		if d.hooks.Sent != nil {
			d.hooks.Sent(o, err, permanent)
		}
		return
	}
}
