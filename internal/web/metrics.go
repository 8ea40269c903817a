package web

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"referee/contract"
	"referee/mailout"
)

// Metrics are the daemon's counters, exported at /metrics. A nil *Metrics
// counts nothing, so code paths without a web server need no checks.
type Metrics struct {
	Registry *prometheus.Registry

	read         prometheus.Counter
	actions      *prometheus.CounterVec
	sendFailures *prometheus.CounterVec
	sent         prometheus.Counter
	apply        prometheus.Histogram
	save         prometheus.Histogram
	reconnects   prometheus.Counter
	stopped      prometheus.Gauge
	refused      prometheus.Gauge
}

// NewMetrics registers the referee's metrics, with the Go runtime's and the
// process's, on a new registry. outbox, when not nil, is read at each scrape
// for the outbox depth.
func NewMetrics(outbox func() int) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		read: prometheus.NewCounter(prometheus.CounterOpts{Name: "referee_messages_read_total",
			Help: "Messages read from the mailbox and applied (or skipped as unreadable)."}),
		actions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "referee_actions_total",
			Help: "Journal entries by game and outcome (applied, rejected, event)."}, []string{"game", "outcome"}),
		sendFailures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "referee_send_failures_total",
			Help: "Failed SMTP deliveries: temporary ones are retried, permanent ones kept in the state."}, []string{"kind"}),
		sent: prometheus.NewCounter(prometheus.CounterOpts{Name: "referee_mail_sent_total",
			Help: "Notices delivered over SMTP."}),
		apply: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "referee_apply_seconds",
			Help: "Time to apply one message to the state, before the save.", Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10)}),
		save: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "referee_save_seconds",
			Help: "Time to journal and save the state (fsyncs included).", Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10)}),
		reconnects: prometheus.NewCounter(prometheus.CounterOpts{Name: "referee_imap_reconnects_total",
			Help: "Times the IMAP reader connected again, after its connection was lost or it stopped on a fault."}),
		stopped: prometheus.NewGauge(prometheus.GaugeOpts{Name: "referee_journal_stopped",
			Help: "1 once the journal's sync failed and the referee stopped applying mail (until it is started again), else 0."}),
		refused: prometheus.NewGauge(prometheus.GaugeOpts{Name: "referee_smtp_login_refused",
			Help: "1 while the SMTP server refuses the referee's login (smtp.user and its password), else 0."}),
	}
	reg.MustRegister(m.read, m.actions, m.sendFailures, m.sent, m.apply, m.save, m.reconnects, m.stopped, m.refused,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if outbox != nil {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "referee_outbox_depth",
			Help: "Notices waiting in the outbox."}, func() float64 { return float64(outbox()) }))
	}
	return m
}

// Read counts one message taken from the mailbox.
func (m *Metrics) Read() {
	if m != nil {
		m.read.Inc()
	}
}

// Entries counts journal entries by game and outcome.
func (m *Metrics) Entries(entries []contract.Entry) {
	if m == nil {
		return
	}
	for _, e := range entries {
		g := e.Game
		if g == "" {
			g = "core"
		}
		m.actions.WithLabelValues(g, e.Outcome).Inc()
	}
}

// Applied observes the time one message took to apply.
func (m *Metrics) Applied(took time.Duration) {
	if m != nil {
		m.apply.Observe(took.Seconds())
	}
}

// Saved observes the time one save took.
func (m *Metrics) Saved(took time.Duration) {
	if m != nil {
		m.save.Observe(took.Seconds())
	}
}

// Sent counts a delivery's outcome: err nil, permanent or temporary; a
// refused login (mailout.IsAuthRefused) sets referee_smtp_login_refused
// until a delivery succeeds.
func (m *Metrics) Sent(err error, permanent bool) {
	if m != nil && mailout.IsAuthRefused(err) {
		m.refused.Set(1)
	}
	switch {
	case m == nil:
	case err == nil:
		m.refused.Set(0)
		m.sent.Inc()
	case permanent:
		m.sendFailures.WithLabelValues("permanent").Inc()
	default:
		m.sendFailures.WithLabelValues("temporary").Inc()
	}
}

// Reconnect counts the IMAP reader connecting again, after its connection
// was lost or it stopped on a fault.
func (m *Metrics) Reconnect() {
	if m != nil {
		m.reconnects.Inc()
	}
}

// Halted sets referee_journal_stopped: the journal stopped and the
// referee applies no more mail.
func (m *Metrics) Halted(time.Time) {
	if m != nil {
		m.stopped.Set(1)
	}
}
