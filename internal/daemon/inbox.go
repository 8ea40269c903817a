package daemon

import (
	"context"
	"errors"
	"time"

	"referee/contract"
	"referee/internal/bridge"
	"referee/mailin"
)

// inboxLoop reads new mail over IMAP (IDLE, or polling) and applies each
// message in order, reconnecting with capped exponential backoff. Once the
// journal has stopped (halt) it reads no more: the mail it could not apply
// stays on the server, unacknowledged, for the next start.
func (d *Daemon) inboxLoop(ctx context.Context) error {
	backoff := time.Second
	for ctx.Err() == nil {
		if !d.Stopped().IsZero() {
			d.log.Info("mail reading stopped with the journal; the mail left is read at the next start")
			<-ctx.Done()
			return nil
		}
		d.mu.Lock()
		cp := mailin.Checkpoint{UIDValidity: d.s.IMAP.UIDValidity, LastUID: d.s.IMAP.LastUID}
		d.mu.Unlock()
		rctx, cancel := d.untilHalted(ctx)
		err := d.imap.Run(rctx, cp, d.batch)
		cancel()
		if ctx.Err() != nil {
			return nil
		}
		if !d.Stopped().IsZero() {
			continue
		}
		d.log.Error("mail reading stopped; retrying", "err", err, "in", backoff.String())
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Minute)
	}
	return nil
}

// connected counts each IMAP connection after the first as a reconnection
// (the hook Reconnect): after a connection lost, which the reader mends by
// itself, as after the reader stopped on a fault and started again.
func (d *Daemon) connected() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.connects++; d.connects > 1 && d.hooks.Reconnect != nil {
		d.hooks.Reconnect()
	}
}

// batch applies the messages of one IMAP batch, then saves its checkpoint.
func (d *Daemon) batch(ctx context.Context, b mailin.Batch) error {
	for _, raw := range b.Messages {
		if err := d.apply(ctx, raw, contract.Checkpoint{UIDValidity: b.Checkpoint.UIDValidity, LastUID: raw.UID}); err != nil {
			return err
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	cp := contract.Checkpoint{UIDValidity: b.Checkpoint.UIDValidity, LastUID: b.Checkpoint.LastUID}
	if d.s.IMAP == cp {
		return nil // each message's save already holds it
	}
	_, err := d.write(ctx, d.position(cp), false)
	return err
}

// position is the input that records how far the mailbox is read.
func (d *Daemon) position(cp contract.Checkpoint) *contract.Input {
	return &contract.Input{Kind: contract.InPosition, At: d.clk.Now(), IMAP: &cp}
}

// apply performs one raw message through the pipeline and saves the state
// with the checkpoint cp. On a fault the state is restored and the message is
// left unacknowledged; unreadable mail is skipped (its checkpoint saved).
func (d *Daemon) apply(ctx context.Context, raw *mailin.Raw, cp contract.Checkpoint) error {
	d.log.Debug("applying", "uid", raw.UID)
	arrived := raw.Arrived
	if !d.hub {
		arrived = d.clk.FromReal(arrived)
	}
	m, err := d.pipe.Read(raw.Data, arrived)
	if err != nil {
		var ue *bridge.UnreadableError
		if !errors.As(err, &ue) {
			return err
		}
		d.log.Warn("unreadable message skipped", "uid", raw.UID, "err", ue.Err)
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.hooks.Message != nil {
			d.hooks.Message(nil, true)
		}
		_, err := d.write(ctx, d.position(cp), false)
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	entries, err := d.write(ctx, &contract.Input{Kind: contract.InMessage, At: d.clk.Now(), Msg: m, IMAP: &cp}, true)
	if errors.As(err, new(*notPerformed)) {
		attrs := []any{"msgid", m.ID, "from", m.From, "err", err}
		var pe *contract.PanicError
		if errors.As(err, &pe) {
			attrs = append(attrs, "stack", pe.Stack)
		}
		d.log.Error("message not applied; it stays unacknowledged", attrs...)
		return err
	}
	if d.hooks.Message != nil {
		d.hooks.Message(m, false)
	}
	d.log.Info("message", "msgid", m.ID, "from", m.From, "channel", string(m.Channel), "entries", len(entries), "saved", err == nil)
	if err == nil {
		err = d.correctPending(ctx)
	}
	return err
}
