package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// LeadOptions tune Lead. Zero values take the defaults noted.
type LeadOptions struct {
	// Node names this process among the nodes of the store; default
	// host name and process id. Only logs and the leader key show it.
	Node string
	// TTL is how long the cluster keeps a leader that stopped answering
	// (killed, cut off) before another node may take over; default 3s,
	// whole seconds, at least 2s. Shorter takes over sooner but loses
	// the lead on a slow moment of the cluster.
	TTL time.Duration
	// Retry is the wait after a failed attempt to reach the cluster;
	// default 1s.
	Retry time.Duration
	Log   *slog.Logger // default slog.Default()
}

// DefaultLeaderTTL is how long a silent leader keeps the lead.
const DefaultLeaderTTL = 3 * time.Second

// Lead runs fn whenever this process holds the store's leadership, and
// returns when ctx ends: the work that must run once among all the
// nodes of a store (reading the IMAP mailbox, the sweep, the robots,
// sending the outbox) runs inside fn, and stops when fn's context ends.
//
// On bbolt the file's lock already makes this process the only one, so
// fn runs at once with ctx: the one node is always the leader. On etcd
// the nodes campaign in an election (go.etcd.io/etcd/client/v3/
// concurrency) held by a lease: fn runs while this node's lease lives and
// its context is cancelled the moment the lease is lost; a node that was
// killed keeps the lead at most TTL, then the next campaigner's fn runs.
// A leader being cut off may still be finishing its work for an instant
// while the next one starts: fn's work must be safe to run twice at once
// (the store's transactions are), and mail sent twice is the price of
// never losing it.
func (db *DB) Lead(ctx context.Context, opts LeadOptions, fn func(ctx context.Context)) {
	e, ok := db.eng.(*etcdEngine)
	if !ok {
		fn(ctx)
		return
	}
	opts = opts.withDefaults()
	for ctx.Err() == nil {
		err := e.lead(ctx, opts, fn)
		if ctx.Err() != nil {
			return
		}
		opts.Log.Warn("store: the lead is lost or cannot be sought; seeking it again", "node", opts.Node, "err", err, "in", opts.Retry)
		select {
		case <-ctx.Done():
		case <-time.After(opts.Retry):
		}
	}
}

func (o LeadOptions) withDefaults() LeadOptions {
	if o.Node == "" {
		host, _ := os.Hostname()
		o.Node = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	if o.TTL <= 0 {
		o.TTL = DefaultLeaderTTL
	}
	o.TTL = max(o.TTL.Round(time.Second), 2*time.Second)
	if o.Retry <= 0 {
		o.Retry = time.Second
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return o
}

// leaderKey is the prefix of the election's keys, apart from the data.
func (e *etcdEngine) leaderKey() string { return e.prefix + "leader/" }

// lead campaigns once: with a session (a lease kept alive), waits to be
// elected, runs fn until the session or ctx ends, and resigns. Its error
// says why it returned before ctx ended.
func (e *etcdEngine) lead(ctx context.Context, opts LeadOptions, fn func(ctx context.Context)) error {
	gctx, cancel := e.ctx()
	lease, err := e.cli.Grant(gctx, int64(opts.TTL/time.Second))
	cancel()
	if err != nil {
		return e.etcdErr("granting the leader's lease", err)
	}
	// The session lives apart from ctx, so that at the end Close can
	// still revoke the lease: the next node need not wait for it to run
	// out.
	sctx, endSession := context.WithCancel(context.WithoutCancel(ctx))
	defer endSession()
	s, err := concurrency.NewSession(e.cli, concurrency.WithLease(lease.ID), concurrency.WithContext(sctx))
	if err != nil {
		return e.etcdErr("starting a session", err)
	}
	defer s.Close()
	// The work's context ends with ctx or with the session, whichever is
	// first; while it waits, a lost session ends the campaign too (its
	// key is gone with the lease, and waiting would never end).
	held, release := context.WithCancel(ctx)
	defer release()
	go func() {
		select {
		case <-s.Done():
		case <-held.Done():
		}
		release()
	}()
	el := concurrency.NewElection(s, e.leaderKey())
	if err := el.Campaign(held, opts.Node); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		select {
		case <-s.Done():
			return errors.New("the lease expired while waiting for the lead")
		default:
		}
		return e.etcdErr("campaigning for the lead", err)
	}
	opts.Log.Info("store: this node leads", "node", opts.Node)
	fn(held)
	if ctx.Err() != nil {
		rctx, cancel := e.ctx()
		defer cancel()
		if err := el.Resign(rctx); err != nil {
			opts.Log.Warn("store: resigning the lead", "node", opts.Node, "err", err)
		}
		opts.Log.Info("store: this node resigned the lead", "node", opts.Node)
		return nil
	}
	select {
	case <-s.Done():
		return errors.New("the lead is lost: the cluster let this node's lease expire")
	default:
		return errors.New("the leader's work ended by itself")
	}
}

// Leader returns the node that leads the store now, "" when none does. On
// bbolt it is the one process that holds the file, named "local".
func (db *DB) Leader() (string, error) {
	e, ok := db.eng.(*etcdEngine)
	if !ok {
		return "local", nil
	}
	ctx, cancel := e.ctx()
	defer cancel()
	// The leader is the campaigner whose key is oldest.
	resp, err := e.cli.Get(ctx, e.leaderKey(), clientv3.WithFirstCreate()...)
	if err != nil {
		return "", e.etcdErr("reading the leader", err)
	}
	if len(resp.Kvs) == 0 {
		return "", nil
	}
	return string(resp.Kvs[0].Value), nil
}
