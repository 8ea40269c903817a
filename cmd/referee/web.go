package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"referee/contract"
	"referee/contract/store"
	"referee/internal/web"
)

// View calls f with the state under the daemon's lock (the web page's only
// way in: it reads, never writes).
func (d *daemon) View(f func(*contract.State)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f(d.s)
}

// startWeb serves the status page at the configured address, with the
// metrics and the sent-mail store it shows; nil when web.addr is "off" or
// the address cannot be had (the referee goes on without a page, and says
// so: refereeing does not depend on it).
func (d *daemon) startWeb(cfg *Config, clk *clock, log *slog.Logger) *web.Listener {
	d.archive = web.OpenArchive(web.SentPath(cfg.State))
	d.metrics = web.NewMetrics(func() (n int) {
		d.View(func(s *contract.State) { n = len(s.Outbox) })
		return n
	})
	if cfg.Web.Addr == "off" {
		return nil
	}
	h := web.New(web.Options{Engine: d.e, View: d.View, Archive: d.archive, Journal: store.JournalPath(cfg.State),
		Now: clk.now, Metrics: d.metrics, Referee: cfg.Address})
	l, err := web.Listen(cfg.Web.Addr, h, log)
	if err != nil {
		log.Warn("no status page: web.addr cannot be served", "addr", cfg.Web.Addr, "err", err)
		return nil
	}
	return l
}

// archiveSent keeps a delivered public notice in the sent-mail store. Call
// with mu held.
func (d *daemon) archiveSent(n *contract.Notice) {
	if err := d.archive.Append(n, contract.MessageID(n.ID, contract.Domain(d.cfg.Address)), d.clk.now()); err != nil {
		d.log.Error("archiving a sent notice", "notice", n.ID, "err", err)
	}
}

// banner tells a new operator what is running and what to do next.
func banner(w io.Writer, cfg *Config, page *web.Listener, created bool) {
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
	fmt.Fprintf(w, "lists: public %s, official %s\n", strings.Join(cfg.Lists.Public, ", "), cfg.Lists.Official)
	fmt.Fprintf(w, "mail \"help\" to %s to start; the log follows.\n", cfg.Address)
}
