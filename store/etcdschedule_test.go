package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/pbemd/pbemd/store/etcdtest"
)

type compaction struct {
	st  ClusterCompactStats
	err error
}

// The leader's scheduled compaction, on three members in processes of
// their own, while mail keeps writing: it drops the history older than
// the revision noted one Keep before, keeps the records and the history
// since, and defragments each member in turn, so that each member's
// database shrinks and no two are blocked at once.
func TestCompactOnSchedule(t *testing.T) {
	t.Parallel()
	c := etcdtest.StartCluster(t, 3)
	db := openEtcdTest(t, &EtcdConfig{Endpoints: c.Endpoints(), Prefix: "scheduled",
		MaxTxnOps: etcdtest.MaxTxnOps, MaxRequestBytes: etcdtest.MaxRequestBytes})
	// Some megabytes of history: one record rewritten, as a busy board is.
	big := bytes.Repeat([]byte("x"), 64<<10)
	for i := range 100 {
		if err := db.Update(func(tx *Tx) error { return tx.SetNote("board", fmt.Sprint(i)+string(big)) }); err != nil {
			t.Fatal(err)
		}
	}
	written, err := db.Revision()
	if err != nil {
		t.Fatal(err)
	}
	sizeBefore, err := db.Size()
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Go(func() { // mail goes on meanwhile
		for i := 0; ctx.Err() == nil; i++ {
			db.Update(func(tx *Tx) error { return tx.SetNote("mail", fmt.Sprint(i)) })
			time.Sleep(10 * time.Millisecond)
		}
	})
	done := make(chan compaction, 100)
	wg.Go(func() {
		db.CompactOnSchedule(ctx, CompactSchedule{Every: 200 * time.Millisecond, Keep: 100 * time.Millisecond,
			Done: func(st ClusterCompactStats, err error) { done <- compaction{st, err} }})
	})
	var got compaction
	select {
	case got = <-done:
	case <-time.After(waitFor):
		t.Fatal("no compaction on schedule")
	}
	if got.err != nil {
		t.Fatal(got.err)
	}
	st := got.st
	if st.Revision < written {
		t.Errorf("compacted to revision %d, before the one noted at the start (%d or later)", st.Revision, written)
	}
	if len(st.Members) != 3 {
		t.Fatalf("defragmented %d members, want each of the 3: %+v", len(st.Members), st.Members)
	}
	seen := map[string]bool{}
	for i, m := range st.Members {
		seen[m.Endpoint] = true
		if m.After >= m.Before {
			t.Errorf("member %s: %d bytes before its defragmentation, %d after; want fewer", m.Endpoint, m.Before, m.After)
		}
		if i > 0 && m.Began.Before(st.Members[i-1].Ended) {
			t.Errorf("member %s began its defragmentation before %s ended it: two members blocked at once", m.Endpoint, st.Members[i-1].Endpoint)
		}
	}
	if len(seen) != 3 {
		t.Errorf("the members defragmented are %v, want the 3 of the cluster", seen)
	}
	if sizeAfter, err := db.Size(); err != nil || sizeAfter >= sizeBefore {
		t.Errorf("the store's size: %d bytes before, %d after (%v); want fewer", sizeBefore, sizeAfter, err)
	}

	e := db.eng.(*etcdEngine)
	rctx, rcancel := e.ctx()
	defer rcancel()
	board := e.key(string(bucketNotes), "board")
	if _, err := e.cli.Get(rctx, board, clientv3.WithRev(st.Revision-1)); !errors.Is(err, rpctypes.ErrCompacted) {
		t.Errorf("reading before the compacted revision %d: %v, want ErrCompacted", st.Revision, err)
	}
	if _, err := e.cli.Get(rctx, board, clientv3.WithRev(st.Revision)); err != nil {
		t.Errorf("reading at the revision kept, %d: %v", st.Revision, err)
	}
	db.View(func(tx *Tx) error {
		if v, _, _ := tx.Note("board"); !bytes.HasPrefix([]byte(v), []byte("99x")) {
			t.Errorf("after compaction the board begins %.10q, want 99x...", v)
		}
		if _, ok, _ := tx.Note(compactedNote); !ok {
			t.Error("the compaction's time is not noted for the next leader")
		}
		return nil
	})
}

// A leader that takes over compacts when its predecessor would have: not
// before Every has passed since the compaction the store notes.
func TestCompactDueFollowsTheNote(t *testing.T) {
	t.Parallel()
	db := openEtcdTest(t, etcdConfig(t))
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	if !db.compactDue(now, time.Hour) {
		t.Error("no compaction noted: not due")
	}
	db.Update(func(tx *Tx) error {
		return tx.SetNote(compactedNote, now.Add(-30*time.Minute).Format(time.RFC3339Nano))
	})
	if db.compactDue(now, time.Hour) {
		t.Error("compacted 30 minutes ago, every hour: due")
	}
	if !db.compactDue(now.Add(31*time.Minute), time.Hour) {
		t.Error("compacted 61 minutes ago, every hour: not due")
	}
	db.Update(func(tx *Tx) error { return tx.SetNote(compactedNote, "garbage") })
	if !db.compactDue(now, time.Hour) {
		t.Error("a note that is no time: not due")
	}
}

// On bbolt the schedule does nothing and returns at once: a file is
// compacted with the daemon stopped.
func TestCompactOnScheduleBolt(t *testing.T) {
	db := openTest(t)
	called := false
	db.CompactOnSchedule(context.Background(), CompactSchedule{Every: time.Millisecond, Keep: time.Millisecond,
		Done: func(ClusterCompactStats, error) { called = true }})
	if called {
		t.Error("a compaction of a bbolt store was scheduled")
	}
}
