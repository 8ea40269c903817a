package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"referee/contract/store"
	"referee/internal/daemon"
	"referee/mailhub"
	"referee/mailin"
	"referee/mailout"
)

const runUsage = `Usage: referee run [--state F] [--config F] [--clock-start TIME] [--clock-rate N] [--log-format FORMAT]

The daemon: reads new mail over IMAP (IDLE, or polling), applies it, runs every
scheduled event on time (late and once after a restart that missed it), and
sends the outbox over SMTP with retries. SIGINT or SIGTERM finishes the message in
hand, saves and exits 0.

With no IMAP server configured it starts an embedded mail hub on 127.0.0.1 (IMAP
and SMTP, any user and password accepted; the lists fan out to every mailbox the
hub knows) and prints its ports, so the games can be played with any mail
client; it keeps their mail in hub/ beside the state. Without --state it works
on data/state.yaml, created from the committed state.yaml on first use; a
starting state found there (no master secret, as init --template writes it)
is started the same way, with a new secret. The
status page is served on web.addr (http://127.0.0.1:8025/ unless configured;
"off" turns it off).

It refuses to start (exit status 1, or 2 for bad usage or configuration)
while another referee run, a replay, init or check --repair works on the same
state (its directory is locked), beside the checkpoint of a replay stopped
before its end (STATE.replay: run that replay again to finish it), on a
journal it cannot take (referee check explains), or when the hub's ports are
taken (another referee run?). Refused, it leaves the state's directory as it
found it.

The test clock (--clock-start, --clock-rate) starts the referee's time at TIME
and runs it N times faster, so tests reach next Monday in seconds. When the
state's clock is already past TIME (a restart with the same options), the
test clock starts at the state's clock instead, and the log says so at INFO.
While it runs, the test clock is kept in STATE.clock (removed at the end), from
which referee status counts the time left as this run sees it.

Without GOGC in the environment, the garbage collector's target is 200 (a
heap three times what is live between collections) rather than Go's 100;
GOGC set by the operator is kept.
`

// hubProcessed is the folder of the embedded hub's referee mailbox that
// handled mail is moved to.
const hubProcessed = "Processed"

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs, c := newFlags("run", runUsage, stderr)
	clockStart := fs.String("clock-start", "", "test clock: start the referee's time here, RFC 3339")
	clockRate := fs.Float64("clock-rate", 1, "test clock: how many times faster than real time")
	logFormat := fs.String("log-format", "", "text or json (default: the config's log.format)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := noArguments(fs); err != nil {
		return err
	}
	rateSet := false
	fs.Visit(func(f *flag.Flag) { rateSet = rateSet || f.Name == "clock-rate" })
	if rateSet && *clockStart == "" {
		return usagef("--clock-rate sets the test clock's rate: give --clock-start TIME with it (again at a restart; the clock carries on from the state's)")
	}
	defer daemon.SetGC(daemon.GCPercent)()
	cfg, err := c.load(func(cfg *Config) {
		if *logFormat != "" {
			cfg.Log.Format = *logFormat
		}
	})
	if err != nil {
		return err
	}
	// What needs no file is checked before the state is touched: a
	// refused run leaves the state's directory as it found it.
	clk := daemon.WallClock()
	if *clockStart != "" {
		t, err := flagTime("clock-start", *clockStart)
		if err != nil {
			return err
		}
		if *clockRate <= 0 {
			return usagef("--clock-rate must be positive")
		}
		clk = daemon.TestClock(t, *clockRate)
	}
	log := newLogger(cfg, stderr)
	e, err := newEngine(cfg)
	if err != nil {
		return err
	}
	page := newStatusPage(cfg, clk, log)
	opts := daemon.Options{Engine: e, StatePath: cfg.State, Clock: clk, Log: log, Mail: mailinConfig(cfg), Addresses: addresses(cfg),
		OpenJournal:   func(keep store.Position) (*store.Journal, error) { return openJournal(cfg, keep, log.Warn) },
		SnapshotEvery: cfg.Snapshots.Every, SnapshotInterval: cfg.Snapshots.Interval, SnapshotKeep: cfg.Snapshots.Keep,
		Hooks: page.hooks()}
	if !cfg.Embedded() {
		if opts.IMAP, err = imapConfig(cfg, log); err != nil {
			return err
		}
		sc, err := smtpConfig(cfg)
		if err != nil {
			return err
		}
		opts.Sender = mailout.NewSender(sc, log)
	}
	release, err := lockState(cfg.State)
	if err != nil {
		return err
	}
	defer release()
	// A replay stopped before its end wrote its notices as files, not
	// mail, and the journal after its last snapshot still holds them as
	// waiting: run would mail them to the players.
	if msg := leftoverReplay(cfg.State); msg != "" {
		return fmt.Errorf("%s. referee run does not start beside it", msg)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// A journal stopped by a failed sync is refused before anything is
	// cut, opened or started (the daemon's own opening would refuse it
	// only after the hub had started).
	if err := store.SyncFailedRefusal(store.JournalPath(cfg.State)); err != nil {
		return err
	}
	_, statErr := os.Stat(cfg.State)
	if err := cutUnfinishedFirstSave(cfg, log.Warn); err != nil {
		return err
	}
	if opts.State, opts.Started, err = openState(e, cfg, clk.Now(), nil); err != nil {
		return err
	}
	// The test clock given again at a restart, as the command that began
	// the state gave it, would run behind the state's clock: mail would be
	// stamped as arriving before what the referee has done already, and no
	// event would fall due until the test clock caught up. It starts at the
	// state's clock instead, at the same rate. That is the documented path
	// of a restart (the README's test clock), said at INFO: nothing in it
	// needs the operator.
	if *clockStart != "" && opts.State.Clock.After(clk.Now()) {
		log.Info("the test clock starts at the state's clock: --clock-start is before it",
			"clock_start", clk.Start.Format(time.RFC3339), "state_clock", opts.State.Clock.UTC().Format(time.RFC3339))
		clk.Start, clk.Real0 = opts.State.Clock.UTC(), time.Now()
	}
	// referee status, another process, reads the test clock beside the
	// state while this run holds it: the state's clock is that of its
	// last change, which the test clock leaves behind.
	unpublish, err := publishClock(cfg.State, clk)
	if err != nil {
		return err
	}
	defer unpublish()
	// A journal the daemon would refuse is refused before the hub makes
	// its mailboxes beside the state.
	if err := checkJournal(cfg, daemon.Keep(opts.State, opts.Started)); err != nil {
		return err
	}
	hubLine := ""
	if cfg.Embedded() {
		// Every player the state knows reads the lists, mailbox or not.
		var players []string
		for _, p := range opts.State.Players {
			players = append(players, p.Addresses...)
		}
		// The hub keeps its mail beside the state, so the saved IMAP
		// checkpoint holds across restarts.
		hub, err := mailhub.Start(mailhub.Options{
			IMAPAddr: cfg.Hub.IMAPAddr, SMTPAddr: cfg.Hub.SMTPAddr, Lists: hubLists(cfg),
			Users: []string{cfg.Address, cfg.Contestmaster}, Now: clk.Now, Logger: log,
			Dir: filepath.Join(filepath.Dir(cfg.State), "hub"), Players: players,
		})
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("start the embedded mail hub: %w; another program holds the port (another referee run?): stop it, or choose other ports with hub.imap_addr and hub.smtp_addr in the configuration", err)
		}
		if err != nil {
			return fmt.Errorf("start the embedded mail hub: %w", err)
		}
		defer hub.Close()
		// Printed with the rest of the banner, after the log's lines of
		// the start-up (daemon.New's among them), so that the banner's
		// lines come together on a terminal.
		hubLine = fmt.Sprintf("embedded mail hub: IMAP %s, SMTP %s (any user and password; lists %s)\n",
			hub.IMAPAddr(), hub.SMTPAddr(), strings.Join(slices.Concat(cfg.Lists.Public, []string{cfg.Lists.Official}, cfg.Lists.Discussion), ", "))
		opts.Hub = true
		// Handled mail is moved to the referee's Processed folder in the
		// hub, as a configured server's is with imap.processed: its own
		// store of received mail, the INBOX left to what is not handled.
		opts.IMAP = &mailin.IMAPConfig{Addr: hub.IMAPAddr(), TLS: "none", User: cfg.Address, Password: "hub", Mailbox: "INBOX", Processed: hubProcessed, Logger: log}
		opts.Sender = mailout.NewSender(mailout.SMTPConfig{Addr: hub.SMTPAddr(), TLS: "none", HELO: "referee"}, log)
	}
	if len(opts.Started) > 0 {
		if err := markFirstSave(cfg.State); err != nil {
			return err
		}
	}
	d, err := daemon.New(opts)
	if err != nil {
		return err
	}
	os.Remove(firstSaveMark(cfg.State)) // the state is saved
	defer d.Close()
	served := page.serve(e, d)
	defer served.Close()
	banner(stdout, cfg, hubLine, served, errors.Is(statErr, os.ErrNotExist))
	return d.Run(ctx)
}
