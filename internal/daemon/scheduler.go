package daemon

import (
	"context"
	"time"

	"referee/contract"
)

// schedulerLoop runs due events at their time (late, and once, after a
// restart that missed them), woken early by every commit.
func (d *Daemon) schedulerLoop(ctx context.Context) error {
	for {
		if !d.Stopped().IsZero() {
			// No event can be journaled (halt).
			<-ctx.Done()
			return nil
		}
		d.mu.Lock()
		d.snapshotIfDue()
		due, ok, err := d.e.NextDue(d.s)
		if err == nil && ok && !due.After(d.clk.Now()) {
			_, err = d.write(ctx, &contract.Input{Kind: contract.InAdvance, At: d.clk.Now()}, false)
		}
		d.mu.Unlock()
		if err != nil {
			d.log.Error("scheduled events failed; retrying in a minute", "err", err)
			due, ok = time.Time{}, false
		} else if ok && !due.After(d.clk.Now()) {
			continue
		}
		wait := time.Minute
		if ok {
			wait = min(wait, d.clk.RealDelay(due))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-d.wake:
		case <-t.C:
		}
		t.Stop()
	}
}
