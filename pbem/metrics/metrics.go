// Package metrics owns the numbers pbemd serve exports for an operator's
// Prometheus: the counters the daemon's parts add to, the gauges read from
// the store and the robots when scraped, and Go's runtime metrics, in one
// registry of the daemon's own (nothing is global), served in Prometheus's
// text format at /metrics.
//
// The names, all with the prefix pbemd_:
//
//	mails_in_total{way,result}    mails taken, by way in (imap, lmtp) and
//	                              verdict (done, retry, set aside)
//	moves_total                   game moves stored
//	errors_total                  failures of any kind (logged)
//	replies_sent_total            replies the SMTP server accepted
//	replies_failed_total          replies given up (kept as failed mail)
//	bounces_total                 bounces read (Bounce)
//	imap_reconnects_total         IMAP connections back after a lost one
//	sweep_seconds                 how long each sweep tick took (histogram)
//	replies_waiting               replies in the outbox, due or not
//	oldest_reply_waiting_seconds  age of the oldest of them; 0 when none
//	failed_replies                replies kept as failed mail
//	robot_turns_waiting           robot boards queued to be played
//	store_bytes                   size of the database: the file, or in
//	                              etcd the largest member's (store.DB.Size)
//	store_free_pages              pages of the database file bbolt keeps
//	                              free, whose list every commit writes
//	                              (store.DB.FreePages; not on etcd)
//	etcd_compactions_total        the leader's scheduled compactions of
//	                              the etcd cluster, each member
//	                              defragmented (its failures count as
//	                              errors)
package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Read are the gauges read at each scrape; a nil function is left out.
type Read struct {
	// Waiting is the replies in the outbox and when the oldest was queued
	// (zero when none).
	Waiting func() (n int, oldest time.Time, err error)
	// Failed is the replies kept as failed mail.
	Failed func() (int, error)
	// StoreBytes is the size of the database (store.DB.Size).
	StoreBytes func() (int64, error)
	// FreePages is the free pages of the database file (store.DB.FreePages).
	FreePages func() int
	// RobotTurns is the robot boards waiting to be played.
	RobotTurns func() int
	// Leading is whether this node runs the work that runs on one node of
	// a store at a time (the sweep, the robots, the outbox, the mailbox).
	Leading func() bool
}

// Metrics are the daemon's counters and its registry. The counters are
// safe for concurrent use; add to them with Inc and Add.
type Metrics struct {
	Moves         prometheus.Counter
	Errors        prometheus.Counter
	RepliesSent   prometheus.Counter
	RepliesFailed prometheus.Counter
	// Bounces counts the delivery reports (RFC 3464) read at a return path.
	Bounces    prometheus.Counter
	Reconnects prometheus.Counter
	// Compactions counts the scheduled compactions of the etcd cluster
	// done on this node (store.DB.CompactOnSchedule).
	Compactions prometheus.Counter

	mailsIn *prometheus.CounterVec
	sweep   prometheus.Histogram
	reg     *prometheus.Registry
}

// New makes the counters, and the gauges that call read, in a registry of
// their own with Go's runtime and the process's metrics; version is the
// daemon's version, exported as pbemd_build_info.
func New(version string, read Read) *Metrics {
	counter := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Namespace: "pbemd", Name: name, Help: help})
	}
	m := &Metrics{
		Moves:         counter("moves_total", "Game moves stored."),
		Errors:        counter("errors_total", "Failures of any kind; each is logged."),
		RepliesSent:   counter("replies_sent_total", "Replies the SMTP server accepted."),
		RepliesFailed: counter("replies_failed_total", "Replies given up and kept as failed mail."),
		Bounces:       counter("bounces_total", "Bounces of the server's replies read."),
		Reconnects:    counter("imap_reconnects_total", "IMAP connections back after a lost one."),
		Compactions:   counter("etcd_compactions_total", "Scheduled compactions of the etcd cluster's history, each member defragmented after."),
		mailsIn: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "pbemd", Name: "mails_in_total",
			Help: "Mails taken, by the way they came in and their verdict: done, retry (offered again later) or set aside (answered, kept in quarantine)."},
			[]string{"way", "result"}),
		sweep: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "pbemd", Name: "sweep_seconds",
			Help:    "How long each tick of the sweep (reminders, forfeits) took.",
			Buckets: []float64{.001, .005, .02, .1, .5, 2, 10, 60}}),
		reg: prometheus.NewRegistry(),
	}
	m.reg.MustRegister(m.Moves, m.Errors, m.RepliesSent, m.RepliesFailed, m.Bounces, m.Reconnects, m.mailsIn, m.sweep, m.Compactions,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "pbemd", Name: "build_info", Help: "The daemon's version, as a label.",
			ConstLabels: prometheus.Labels{"version": version}}, func() float64 { return 1 }))
	m.gauges(read)
	return m
}

// gauges registers those of read that are set.
func (m *Metrics) gauges(read Read) {
	gauge := func(name, help string, f func() float64) {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "pbemd", Name: name, Help: help}, f))
	}
	if read.Waiting != nil {
		m.reg.MustRegister(outboxCollector{read.Waiting})
	}
	if read.Failed != nil {
		gauge("failed_replies", "Replies given up and kept as failed mail (pbemd admin outbox).", func() float64 {
			n, _ := read.Failed()
			return float64(n)
		})
	}
	if read.StoreBytes != nil {
		gauge("store_bytes", "Size of the database: its file, or in etcd the largest member's database.", func() float64 {
			n, _ := read.StoreBytes()
			return float64(n)
		})
	}
	if read.FreePages != nil {
		gauge("store_free_pages", "Pages of the database file bbolt keeps free: every commit writes their list (8 bytes a page) and writes among them; pbemd compact gives them back.", func() float64 {
			return float64(read.FreePages())
		})
	}
	if read.RobotTurns != nil {
		gauge("robot_turns_waiting", "Robot boards queued to be played.", func() float64 { return float64(read.RobotTurns()) })
	}
	if read.Leading != nil {
		gauge("leader", "1 while this node leads the store's nodes: it sends the outbox, sweeps, plays the robots and reads the mailbox.", func() float64 {
			if read.Leading() {
				return 1
			}
			return 0
		})
	}
}

// outboxCollector reports the outbox's two gauges from one look at it per
// scrape; a store that cannot be read shows as an error of the scrape,
// not as an empty outbox that would keep an alert quiet.
type outboxCollector struct {
	waiting func() (int, time.Time, error)
}

var (
	repliesWaitingDesc = prometheus.NewDesc("pbemd_replies_waiting",
		"Replies in the outbox, due or waiting for a retry.", nil, nil)
	oldestReplyDesc = prometheus.NewDesc("pbemd_oldest_reply_waiting_seconds",
		"Age of the oldest reply in the outbox; 0 when it is empty.", nil, nil)
)

func (c outboxCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- repliesWaitingDesc
	ch <- oldestReplyDesc
}

func (c outboxCollector) Collect(ch chan<- prometheus.Metric) {
	n, oldest, err := c.waiting()
	if err != nil {
		ch <- prometheus.NewInvalidMetric(repliesWaitingDesc, err)
		ch <- prometheus.NewInvalidMetric(oldestReplyDesc, err)
		return
	}
	age := 0.0
	if n > 0 && !oldest.IsZero() {
		age = time.Since(oldest).Seconds()
	}
	ch <- prometheus.MustNewConstMetric(repliesWaitingDesc, prometheus.GaugeValue, float64(n))
	ch <- prometheus.MustNewConstMetric(oldestReplyDesc, prometheus.GaugeValue, age)
}

// MailIn counts a mail taken by the way named, with its verdict.
func (m *Metrics) MailIn(way, result string) { m.mailsIn.WithLabelValues(way, result).Inc() }

// Swept records how long one sweep tick took.
func (m *Metrics) Swept(took time.Duration) { m.sweep.Observe(took.Seconds()) }

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}
