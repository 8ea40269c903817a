package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"referee/contract"
	"referee/contract/store"
	"referee/internal/bridge"
	"referee/mailhub"
	"referee/mailin"
	"referee/mailout"
)

const runUsage = `Usage: referee run [--state F] [--config F] [--clock-start TIME] [--clock-rate N] [--log-format json]

The daemon: reads new mail over IMAP (IDLE, or polling), applies it, runs every
scheduled event on time (late and once after a restart that missed it), and
sends the outbox over SMTP with retries. SIGINT or SIGTERM finishes the message in
hand, saves and exits 0.

With no IMAP server configured it starts an embedded mail hub on 127.0.0.1 (IMAP
and SMTP, any user and password accepted; the lists fan out to every mailbox the
hub knows) and prints its ports, so the games can be played with any mail
client. Without --state it works on data/state.yaml, created from the committed
state.yaml on first use.

The test clock (--clock-start, --clock-rate) starts the referee's time at TIME
and runs it N times faster, so tests reach next Monday in seconds.
`

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs, c := newFlags("run", runUsage, stderr)
	clockStart := fs.String("clock-start", "", "test clock: start the referee's time here, RFC 3339")
	clockRate := fs.Float64("clock-rate", 1, "test clock: how many times faster than real time")
	logFormat := fs.String("log-format", "", "text or json (default: the config's log.format)")
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, err := c.load()
	if err != nil {
		return err
	}
	if *logFormat != "" {
		cfg.Log.Format = *logFormat
	}
	if p := cfg.validate(gameIDs()); len(p) > 0 {
		return usagef("%s", strings.Join(p, "\n"))
	}
	clk := &clock{real0: time.Now(), rate: 1}
	if *clockStart != "" {
		t, err := time.Parse(time.RFC3339, *clockStart)
		if err != nil {
			return usagef("--clock-start: %v", err)
		}
		if *clockRate <= 0 {
			return usagef("--clock-rate must be positive")
		}
		clk.start, clk.rate = t.UTC(), *clockRate
	}
	log := newLogger(cfg, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	d, err := newDaemon(cfg, clk, log)
	if err != nil {
		return err
	}
	defer d.close()
	if cfg.Embedded() {
		// Every player the state knows reads the lists, mailbox or not.
		var players []string
		for _, p := range d.s.Players {
			players = append(players, p.Addresses...)
		}
		hub, err := mailhub.Start(mailhub.Options{
			IMAPAddr: cfg.Hub.IMAPAddr, SMTPAddr: cfg.Hub.SMTPAddr, Lists: hubLists(cfg),
			Users: []string{cfg.Address, cfg.Contestmaster}, Now: clk.now, Logger: log,
			Dir: filepath.Join(filepath.Dir(cfg.State), "hub"), Players: players,
		})
		if err != nil {
			return fmt.Errorf("start the embedded mail hub: %w", err)
		}
		defer hub.Close()
		fmt.Fprintf(stdout, "embedded mail hub: IMAP %s, SMTP %s (any user and password; lists %s)\n",
			hub.IMAPAddr(), hub.SMTPAddr(), strings.Join(append(append([]string{}, cfg.Lists.Public...), cfg.Lists.Official), ", "))
		d.hub = true
		d.hubIMAP = d.s.IMAP // the hub keeps its mail: the saved checkpoint holds
		d.imap = &mailin.IMAPConfig{Addr: hub.IMAPAddr(), TLS: "none", User: cfg.Address, Password: "hub", Mailbox: "INBOX", Logger: log}
		d.sender = mailout.NewSender(mailout.SMTPConfig{Addr: hub.SMTPAddr(), TLS: "none", HELO: "referee"}, log)
	}
	return d.run(ctx)
}

func hubLists(cfg *Config) map[string]string {
	out := map[string]string{}
	id := func(addr string) string {
		local, dom, _ := strings.Cut(addr, "@")
		return fmt.Sprintf("%s <%s.%s>", local, local, dom)
	}
	for _, l := range cfg.Lists.Public {
		out[l] = id(l)
	}
	out[cfg.Lists.Official] = id(cfg.Lists.Official)
	for _, l := range cfg.Lists.Discussion {
		out[l] = id(l)
	}
	return out
}

func newLogger(cfg *Config, w io.Writer) *slog.Logger {
	level := slog.LevelInfo
	switch cfg.Log.Level {
	case "debug":
		level = slog.LevelDebug
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// daemon ties mailin, contract and mailout together.
type daemon struct {
	cfg    *Config
	e      *contract.Engine
	log    *slog.Logger
	clk    *clock
	mcfg   *mailin.Config
	addrs  bridge.Addresses
	imap   *mailin.IMAPConfig
	sender *mailout.Sender
	hub    bool
	// retryBase is the first retry delay of a temporary send failure; it doubles
	// each attempt, capped at ten minutes.
	retryBase time.Duration

	mu sync.Mutex // guards s, j and unsaved
	s  *contract.State
	j  *store.Journal
	// unsaved: sent mail has left the outbox (or a failure was recorded)
	// since the last save. The next commit saves it; failing that, the sender
	// does at tidyAt (tidyDelay after the first such change), and on the way
	// out.
	unsaved bool
	tidyAt  time.Time
	// inflight is the notice being sent while the commit that adds it is
	// saved (see prepare); the sender loop leaves it alone.
	inflight  map[string]bool
	preparing sync.WaitGroup
	// hubIMAP is the checkpoint in the embedded hub's mailbox last saved in
	// this run (the file's may be an earlier run's).
	hubIMAP contract.Checkpoint

	wake chan struct{} // the scheduler: the state changed
	kick chan struct{} // the sender: the outbox changed
}

func newDaemon(cfg *Config, clk *clock, log *slog.Logger) (*daemon, error) {
	e, err := newEngine(cfg)
	if err != nil {
		return nil, err
	}
	// The mail settings first, so that their errors leave no journal open.
	var imapCfg *mailin.IMAPConfig
	var sender *mailout.Sender
	if !cfg.Embedded() {
		if imapCfg, err = imapConfig(cfg, log); err != nil {
			return nil, err
		}
		smtpPass, err := secretValue(cfg.SMTP.Password, cfg.SMTP.PasswordFile)
		if err != nil {
			return nil, err
		}
		// The same CA pool; mailout names the SMTP host as the server.
		sender = mailout.NewSender(mailout.SMTPConfig{Addr: cfg.SMTP.Addr, TLS: cfg.SMTP.TLS, TLSConfig: imapCfg.TLSConfig,
			User: cfg.SMTP.User, Password: smtpPass, HELO: cfg.SMTP.HELO}, log)
	}
	s, ent, err := openState(e, cfg, clk.now(), "")
	if err != nil {
		return nil, err
	}
	j, err := store.OpenJournal(store.JournalPath(cfg.State), s.JournalSeq-int64(len(ent)))
	if err != nil {
		return nil, err
	}
	if err := store.Commit(j, cfg.State, s, ent); err != nil {
		j.Close()
		return nil, err
	}
	log.Info("state loaded", "state", cfg.State, "clock", s.Clock.Format(time.RFC3339), "outbox", len(s.Outbox), "journal_seq", s.JournalSeq)
	return &daemon{cfg: cfg, e: e, log: log, clk: clk, mcfg: mailinConfig(cfg), addrs: addresses(cfg), s: s, j: j,
		imap: imapCfg, sender: sender, wake: make(chan struct{}, 1), kick: make(chan struct{}, 1), retryBase: time.Second}, nil
}

// tlsConfig trusts ca_file's certificates besides the system's; nil when no
// ca_file is named.
func tlsConfig(cfg *Config) (*tls.Config, error) {
	if cfg.CAFile == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(cfg.CAFile)
	if err != nil {
		return nil, usagef("ca_file: %v", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, usagef("ca_file: %s holds no PEM certificate", cfg.CAFile)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// imapConfig is how mailin reaches the configured IMAP server: its TLS
// trusts ca_file, its password is read from the file when one is named.
func imapConfig(cfg *Config, log *slog.Logger) (*mailin.IMAPConfig, error) {
	tlsCfg, err := tlsConfig(cfg)
	if err != nil {
		return nil, err
	}
	pass, err := secretValue(cfg.IMAP.Password, cfg.IMAP.PasswordFile)
	if err != nil {
		return nil, err
	}
	return &mailin.IMAPConfig{Addr: cfg.IMAP.Addr, TLS: cfg.IMAP.TLS, ForceInsecure: cfg.IMAP.ForceInsecure, TLSConfig: tlsCfg,
		User: cfg.IMAP.User, Password: pass, Mailbox: cfg.IMAP.Mailbox, Processed: cfg.IMAP.Processed, Logger: log}, nil
}

func (d *daemon) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.j != nil {
		d.j.Close()
	}
}

// reload replaces the state in memory with the file's and cuts the journal
// back to it. Call with mu held.
func (d *daemon) reload() error {
	s, err := store.Load(d.e, d.cfg.State)
	if err != nil {
		return err
	}
	j, err := store.OpenJournal(store.JournalPath(d.cfg.State), s.JournalSeq)
	if err != nil {
		return err
	}
	d.j.Close()
	if d.hub {
		s.IMAP = d.hubIMAP // the hub's mailboxes are this run's
	}
	d.s, d.j = s, j
	return nil
}

func signal1(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// run starts the three loops and waits for them after ctx is done.
func (d *daemon) run(ctx context.Context) error {
	var wg sync.WaitGroup
	errc := make(chan error, 3)
	for _, f := range []func(context.Context) error{d.imapLoop, d.schedulerLoop, d.senderLoop} {
		wg.Add(1)
		go func(f func(context.Context) error) {
			defer wg.Done()
			if err := f(ctx); err != nil && ctx.Err() == nil {
				errc <- err
			}
		}(f)
	}
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	d.log.Info("stopping")
	wg.Wait()
	d.preparing.Wait()
	d.mu.Lock()
	if d.unsaved {
		d.saveSent()
	}
	d.mu.Unlock()
	if cerr := d.sender.Close(); cerr != nil {
		d.log.Debug("smtp close", "err", cerr)
	}
	return err
}

// commit journals entries and saves the state (DESIGN invariant 3). When the
// save fails, the change is undone, so its outbox is never sent and the
// message that made it is read again later: the state is read again from
// the file, as at a start, or if that fails too, undo puts back the state
// from before the change. Call with mu held.
func (d *daemon) commit(entries []contract.Entry, undo func()) error {
	return d.commitThen(entries, undo, nil)
}

// commitThen is commit, calling then with the outcome as soon as the save is
// done, before the logging and the signals to the other loops.
func (d *daemon) commitThen(entries []contract.Entry, undo func(), then func(saved bool)) error {
	if err := store.Commit(d.j, d.cfg.State, d.s, entries); err != nil {
		if then != nil {
			then(false)
		}
		d.log.Error("saving the state failed; reading it again", "err", err)
		if rerr := d.reload(); rerr != nil {
			undo()
			return fmt.Errorf("%w; and reading it again: %w", err, rerr)
		}
		return err
	}
	if then != nil {
		then(true)
	}
	d.hubIMAP = d.s.IMAP
	d.unsaved = false
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
	signal1(d.kick)
	signal1(d.wake)
	return nil
}

// apply performs one raw message and saves the state with the checkpoint. On a
// fault the state is restored and the message is left unacknowledged.
func (d *daemon) apply(ctx context.Context, raw *mailin.Raw, cp contract.Checkpoint) error {
	d.log.Debug("applying", "uid", raw.UID)
	arrived := raw.Arrived
	if !d.hub {
		arrived = d.clk.fromReal(arrived)
	}
	m, err := mailin.Parse(raw.Data, arrived, d.mcfg)
	if err != nil {
		d.log.Warn("unreadable message skipped", "uid", raw.UID, "err", err)
		d.mu.Lock()
		defer d.mu.Unlock()
		prev := d.s.IMAP
		d.s.IMAP = cp
		return d.commit(nil, func() { d.s.IMAP = prev })
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	before := contract.Snapshot(d.s)
	entries, err := d.e.Apply(d.s, bridge.Message(m))
	if err != nil {
		attrs := []any{"msgid", m.MessageID, "from", m.From, "err", err}
		var pe *contract.PanicError
		if errors.As(err, &pe) {
			attrs = append(attrs, "stack", pe.Stack)
		}
		d.log.Error("message not applied; it stays unacknowledged", attrs...)
		d.s = before
		return err
	}
	d.s.IMAP = cp
	verdict := d.prepare(ctx, before)
	err = d.commitThen(entries, func() { d.s = before }, func(saved bool) {
		if verdict != nil {
			verdict <- saved
		}
	})
	d.log.Info("message", "msgid", m.MessageID, "from", m.From, "class", string(m.Class), "entries", len(entries), "saved", err == nil)
	return err
}

// prepare starts sending the first notice that the action just applied put
// in the outbox, while the commit that records it is saved: the SMTP
// transaction is taken up to the end of its data (mailout.Prepared), and
// completed only when the verdict says the state is on disk, or dropped if
// the save failed. So DESIGN invariant 3 holds, the mail is delivered only
// after the save, yet the receipt's round trips overlap the fsyncs. It
// returns nil when there is nothing to send. Call with mu held.
func (d *daemon) prepare(ctx context.Context, before *contract.State) chan<- bool {
	old := make(map[string]bool, len(before.Outbox))
	for _, o := range before.Outbox {
		old[o.ID] = true
	}
	var o *contract.Outgoing
	now := d.clk.now()
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
			p, err = d.sender.Prepare(ctx, d.cfg.Address, bridge.Recipients(m), raw)
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

func (d *daemon) imapLoop(ctx context.Context) error {
	backoff := time.Second
	for ctx.Err() == nil {
		d.mu.Lock()
		cp := mailin.Checkpoint{UIDValidity: d.s.IMAP.UIDValidity, LastUID: d.s.IMAP.LastUID}
		d.mu.Unlock()
		err := d.imap.Run(ctx, cp, func(ctx context.Context, b mailin.Batch) error {
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
			prev := d.s.IMAP
			d.s.IMAP = cp
			return d.commit(nil, func() { d.s.IMAP = prev })
		})
		if ctx.Err() != nil {
			return nil
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

// schedulerLoop runs due events at their time.
func (d *daemon) schedulerLoop(ctx context.Context) error {
	for {
		d.mu.Lock()
		due, ok, err := d.e.NextDue(d.s)
		if err == nil && ok && !due.After(d.clk.now()) {
			before := contract.Snapshot(d.s)
			var entries []contract.Entry
			entries, err = d.e.Advance(d.s, d.clk.now())
			if err == nil {
				err = d.commit(entries, func() { d.s = before })
			} else {
				d.s = before
			}
		}
		d.mu.Unlock()
		if err != nil {
			d.log.Error("scheduled events failed; retrying in a minute", "err", err)
			due, ok = time.Time{}, false
		} else if ok && !due.After(d.clk.now()) {
			continue
		}
		wait := time.Minute
		if ok {
			wait = min(wait, d.clk.realDelay(due))
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
func (d *daemon) senderLoop(ctx context.Context) error {
	for {
		d.mu.Lock()
		var next *contract.Outgoing
		var soonest time.Time
		now := d.clk.now()
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
				wait = min(wait, d.clk.realDelay(soonest))
			}
			if unsaved {
				wait = min(wait, time.Until(tidyAt))
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				d.mu.Lock()
				if d.unsaved {
					d.saveSent()
				}
				d.mu.Unlock()
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
			d.mu.Lock()
			if d.unsaved {
				d.saveSent()
			}
			d.mu.Unlock()
			return nil
		}
		d.mu.Lock()
		d.settle(next.ID, err)
		d.mu.Unlock()
	}
}

// saveSent saves the state for the outbox's sake. Call with mu held.
func (d *daemon) saveSent() bool {
	if err := store.Save(d.cfg.State, d.s); err != nil {
		d.log.Error("save after sending", "err", err)
		return false
	}
	d.unsaved = false
	return true
}

func (d *daemon) send(ctx context.Context, o *contract.Outgoing) error {
	d.log.Debug("sending", "notice", o.ID)
	m := bridge.Mail(&o.Notice, d.addrs)
	raw, err := mailout.Compose(m)
	if err != nil {
		return fmt.Errorf("compose: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return d.sender.Send(sctx, d.cfg.Address, bridge.Recipients(m), raw)
}

// settle records a send's outcome in the state, to be saved by the next
// commit or by the sender at tidyAt. Call with mu held.
func (d *daemon) settle(id string, err error) {
	if !d.unsaved {
		d.unsaved = true
		d.tidyAt = time.Now().Add(tidyDelay)
	}
	for i, o := range d.s.Outbox {
		if o.ID != id {
			continue
		}
		switch {
		case err == nil:
			d.s.Outbox = append(d.s.Outbox[:i], d.s.Outbox[i+1:]...)
			d.log.Info("sent", "notice", id, "kind", o.Kind, "game", o.Game)
		case mailout.IsPermanent(err):
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
			o.NextTry = d.clk.now().Add(time.Duration(float64(delay) * d.clk.rate))
			d.log.Warn("send failed; will retry", "notice", id, "attempt", o.Attempts, "err", err)
		}
		return
	}
}
