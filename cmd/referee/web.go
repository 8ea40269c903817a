package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"referee/contract"
	"referee/contract/store"
	"referee/internal/daemon"
	"referee/internal/web"
)

// statusPage is the status page's share of referee run: the metrics and
// the sent-mail store, fed by the daemon's hooks, and the page itself.
type statusPage struct {
	cfg     *Config
	clk     *daemon.Clock
	log     *slog.Logger
	d       *daemon.Daemon // set by serve, before the daemon runs
	metrics *web.Metrics
	archive *web.Archive
}

func newStatusPage(cfg *Config, clk *daemon.Clock, log *slog.Logger) *statusPage {
	p := &statusPage{cfg: cfg, clk: clk, log: log, archive: web.OpenArchive(web.SentPath(cfg.State))}
	p.metrics = web.NewMetrics(func() (n int) {
		if p.d != nil {
			p.d.View(func(s *contract.State) { n = len(s.Outbox) })
		}
		return n
	})
	return p
}

// hooks are the daemon's counters and the sent-mail store's feed.
func (p *statusPage) hooks() daemon.Hooks {
	return daemon.Hooks{
		Committed: func(entries []contract.Entry, save time.Duration, err error) {
			if err == nil {
				p.metrics.Saved(save)
				p.metrics.Entries(entries)
			}
		},
		Message:   func(*contract.Message, bool) { p.metrics.Read() },
		Applied:   p.metrics.Applied,
		Reconnect: p.metrics.Reconnect,
		Halted:    p.metrics.Halted,
		Sent: func(o *contract.Outgoing, err error, permanent bool) {
			p.metrics.Sent(err, permanent)
			if err == nil {
				p.archiveSent(&o.Notice)
			}
		},
	}
}

// serve serves the status page at the configured address; nil when web.addr
// is "off" or the address cannot be had (the referee goes on without a page,
// and says so: refereeing does not depend on it).
func (p *statusPage) serve(e *contract.Engine, d *daemon.Daemon) *web.Listener {
	p.d = d
	if p.cfg.Web.Addr == "off" {
		return nil
	}
	h := web.New(web.Options{Engine: e, View: d.View, Archive: p.archive, Journal: store.JournalPath(p.cfg.State),
		Now: p.clk.Now, Metrics: p.metrics, Referee: p.cfg.Address, Stopped: d.Stopped})
	l, err := web.Listen(p.cfg.Web.Addr, h, p.log)
	if err != nil {
		p.log.Warn("no status page: web.addr cannot be served", "addr", p.cfg.Web.Addr, "err", err)
		return nil
	}
	return l
}

// archiveSent keeps a delivered public notice in the sent-mail store (the
// daemon's lock is held).
func (p *statusPage) archiveSent(n *contract.Notice) {
	if err := p.archive.Append(n, contract.MessageID(n.ID, contract.Domain(p.cfg.Address)), p.clk.Now()); err != nil {
		p.log.Error("archiving a sent notice", "notice", n.ID, "err", err)
	}
}

// banner tells a new operator what is running and what to do next: hubLine
// (the embedded hub's addresses, empty without it) first.
func banner(w io.Writer, cfg *Config, hubLine string, page *web.Listener, created bool) {
	io.WriteString(w, hubLine)
	if !cfg.Embedded() {
		fmt.Fprintf(w, "mail: IMAP %s as %s, SMTP %s\n", cfg.IMAP.Addr, cfg.IMAP.User, cfg.SMTP.Addr)
	}
	switch {
	case page != nil:
		fmt.Fprintf(w, "web page: %s\n", page.URL())
	case cfg.Web.Addr == "off":
		fmt.Fprintln(w, "web page: off (web.addr)")
	default:
		fmt.Fprintf(w, "web page: not served at %s (see the log; set web.addr)\n", cfg.Web.Addr)
	}
	how := "existing"
	if created {
		how = "created just now from state.yaml"
	}
	fmt.Fprintf(w, "state: %s (%s)\n", cfg.State, how)
	// The discussion lists too: the hub carries them, and a player who
	// writes there should know the referee reads them as talk (G4).
	fmt.Fprintf(w, "lists: public %s, official %s", strings.Join(cfg.Lists.Public, ", "), cfg.Lists.Official)
	if len(cfg.Lists.Discussion) > 0 {
		fmt.Fprintf(w, ", discussion %s", strings.Join(cfg.Lists.Discussion, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "mail \"help\" to %s to start; the log follows.\n", cfg.Address)
}
