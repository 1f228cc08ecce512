package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/pbemd/pbemd/store/etcdtest"
)

// waitFor is how long a test waits for an event the cluster owes it
// within seconds: a failure, never a measure.
const waitFor = time.Minute

// A node's turn at the lead, as a test sees it.
type term struct {
	node  string
	begun chan context.Context // the context of fn, when fn runs
}

func campaign(t *testing.T, db *DB, node string) (tm *term, stop func()) {
	t.Helper()
	tm = &term{node: node, begun: make(chan context.Context, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		db.Lead(ctx, LeadOptions{Node: node, TTL: 2 * time.Second, Retry: 100 * time.Millisecond}, func(lctx context.Context) {
			tm.begun <- lctx
			<-lctx.Done()
		})
	})
	stop = func() { cancel(); wg.Wait() }
	t.Cleanup(stop)
	return tm, stop
}

func (tm *term) lead(t *testing.T) context.Context {
	t.Helper()
	select {
	case ctx := <-tm.begun:
		return ctx
	case <-time.After(waitFor):
		t.Fatalf("%s never took the lead", tm.node)
		return nil
	}
}

func (tm *term) follows(t *testing.T) {
	t.Helper()
	select {
	case <-tm.begun:
		t.Fatalf("%s leads while another node does", tm.node)
	default:
	}
}

func leader(t *testing.T, db *DB) string {
	t.Helper()
	l, err := db.Leader()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// aLeadsB starts node-a on a store in etcd of its own and, once it
// leads, node-b beside it, which must follow.
func aLeadsB(t *testing.T) (a *DB, ta *term, ctxA context.Context, stopA func(), tb *term) {
	t.Helper()
	c := etcdConfig(t)
	a, b := openEtcdTest(t, c), openEtcdTest(t, c)
	ta, stopA = campaign(t, a, "node-a")
	ctxA = ta.lead(t)
	tb, _ = campaign(t, b, "node-b")
	if l := leader(t, b); l != "node-a" {
		t.Fatalf("leader %q, want node-a", l)
	}
	tb.follows(t)
	return a, ta, ctxA, stopA, tb
}

// On bbolt the one process is always the leader: its work runs at once,
// with the daemon's own context.
func TestLeadOnBoltAtOnce(t *testing.T) {
	db := openTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := false
	db.Lead(ctx, LeadOptions{}, func(lctx context.Context) {
		ran = lctx == ctx
	})
	if !ran {
		t.Fatal("on bbolt, Lead did not run the work at once with the caller's context")
	}
	if l := leader(t, db); l != "local" {
		t.Fatalf("bbolt's leader is %q, want local", l)
	}
}

// Two nodes on one cluster: one leads, the other waits; when the leader
// stops, its work ends before the other's begins, and the other leads.
func TestLeadOneNodeAtATime(t *testing.T) {
	t.Parallel()
	a, _, ctxA, stopA, tb := aLeadsB(t)

	stopA()
	if ctxA.Err() == nil {
		t.Fatal("node-a stopped, and its work's context did not end")
	}
	tb.lead(t)
	if l := leader(t, a); l != "node-b" {
		t.Fatalf("after node-a stopped, leader %q, want node-b", l)
	}
}

// A leader whose lease the cluster drops (a node cut off, or killed and
// its lease run out) stops its work, and another node takes over; the
// one cut off campaigns again and follows.
func TestLeadLostLeaseHandsOver(t *testing.T) {
	t.Parallel()
	a, ta, ctxA, _, tb := aLeadsB(t)

	// Drop node-a's lease, as the cluster does when it stops answering.
	cli := a.eng.(*etcdEngine).cli
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	resp, err := cli.Get(ctx, a.eng.(*etcdEngine).leaderKey(), clientv3.WithFirstCreate()...)
	if err != nil || len(resp.Kvs) != 1 {
		t.Fatalf("reading the leader's key: %v, %d keys", err, len(resp.Kvs))
	}
	if _, err := cli.Revoke(ctx, clientv3.LeaseID(resp.Kvs[0].Lease)); err != nil {
		t.Fatal(err)
	}

	select {
	case <-ctxA.Done():
	case <-time.After(waitFor):
		t.Fatal("node-a lost its lease, and its work went on")
	}
	tb.lead(t)
	ta.follows(t)
	if l := leader(t, a); l != "node-b" {
		t.Fatalf("leader %q, want node-b", l)
	}
}

// With no cluster to answer, Lead never runs the work: a node that
// cannot reach the cluster is no leader, and does not pretend to be one.
func TestLeadUnreachableNeverLeads(t *testing.T) {
	t.Parallel()
	addr, stopMember := etcdtest.Start(t)
	db := openEtcdTest(t, &EtcdConfig{Endpoints: []string{addr}, Timeout: 300 * time.Millisecond})
	stopMember()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	db.Lead(ctx, LeadOptions{Retry: 100 * time.Millisecond}, func(context.Context) {
		t.Error("the work ran without a cluster")
	})
	if _, err := db.Leader(); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("Leader without a cluster: %v, want ErrUnreachable", err)
	}
}
