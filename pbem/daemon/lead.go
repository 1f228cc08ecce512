package daemon

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/mailbox"
	"github.com/pbemd/pbemd/pbem/metrics"
	"github.com/pbemd/pbemd/pbem/outbox"
	"github.com/pbemd/pbemd/pbem/robot"
	"github.com/pbemd/pbemd/store"
)

// onceWork is the work that runs on one node of a store at a time: the
// IMAP watcher of the one mailbox (nil when mail comes over LMTP alone),
// the outbox sender, the robots and the sweep (nil when the core has
// none), and on etcd the scheduled compaction of the cluster. Every node
// takes mail over LMTP and deliver, and serves the web view and control
// socket, leader or not.
type onceWork struct {
	sender  *outbox.Sender
	watcher *mailbox.Watcher
	robots  *robot.Worker
	sweep   sweeper
	cfg     *config.Config
	m       *metrics.Metrics
	log     *slog.Logger
	leading *atomic.Bool // true while run runs, for the leader gauge
	db      *store.DB    // set by lead, for the scheduled compaction
}

// lead runs w whenever this node leads the store (on bbolt, at once, as
// the one node there is) until ctx ends. A node that loses the lead stops
// w at once and campaigns again; the node that takes over resumes from
// the store: the outbox where it stood, the mailbox's unseen mail, the
// robots' and the sweep's boards.
func (w onceWork) lead(ctx context.Context, db *store.DB) {
	w.db = db
	db.Lead(ctx, store.LeadOptions{Log: w.log}, w.run)
}

// run runs w until ctx ends.
func (w onceWork) run(ctx context.Context) {
	w.leading.Store(true)
	defer w.leading.Store(false)
	var wg sync.WaitGroup
	wg.Go(func() { w.sender.Run(ctx) })
	if w.watcher != nil {
		wg.Go(func() { w.watcher.Run(ctx) })
	}
	wg.Go(func() { w.robots.Run(ctx) })
	if w.sweep != nil {
		wg.Go(func() { sweepLoop(ctx, w.sweep, w.cfg.SweepInterval, w.sender, w.m, w.log) })
	}
	wg.Go(func() { compactOnSchedule(ctx, w.db, w.cfg.Etcd, w.m, w.log) })
	w.sender.Kick() // replies left over by the last leader, or the last run
	wg.Wait()
}
