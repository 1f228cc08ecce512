package daemon

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/metrics"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/etcdtest"
	"github.com/pbemd/pbemd/store/storetest"
)

// openEtcd opens a store under prefix on the member at addr, closed when
// t ends.
func openEtcd(t *testing.T, addr, prefix string) *store.DB {
	t.Helper()
	db, err := store.OpenEtcd(&store.EtcdConfig{Endpoints: []string{addr}, Prefix: prefix}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func scrapeMetrics(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}

// The leader's scheduled compaction of a store in etcd, as the daemon
// runs it: each compaction is counted in pbemd_etcd_compactions_total and
// logged with each member's defragmentation, and the store's size metric
// reads the cluster's database, not a file.
func TestCompactOnScheduleLogsAndCounts(t *testing.T) {
	addr, _ := etcdtest.Start(t)
	db := openEtcd(t, addr, "compaction")
	m := metrics.New("test", metrics.Read{StoreBytes: db.Size})
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		compactOnSchedule(ctx, db, config.Etcd{CompactEvery: 200 * time.Millisecond, KeepHistory: 100 * time.Millisecond}, m, log)
	}()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(scrapeMetrics(t, m), "\npbemd_etcd_compactions_total 1\n") {
		if time.Now().After(deadline) {
			t.Fatalf("no compaction counted; the log:\n%s", logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	<-done
	for _, want := range []string{"etcd member defragmented", "member=" + addr, "etcd cluster compacted", "history_before_revision="} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("no %q in the log:\n%s", want, logs.String())
		}
	}
	if text := scrapeMetrics(t, m); !strings.Contains(text, "\npbemd_store_bytes ") || strings.Contains(text, "\npbemd_store_bytes 0\n") {
		t.Errorf("the store's size of an etcd store not read:\n%s", text)
	}
}

// On bbolt, and on etcd with compact_every negative, the schedule does
// nothing: it returns at once.
func TestCompactOnScheduleOff(t *testing.T) {
	addr, _ := etcdtest.Start(t)
	etcdDB := openEtcd(t, addr, "off")
	for _, c := range []struct {
		name string
		db   *store.DB
		cfg  config.Etcd
	}{
		{"bbolt", storetest.Open(t, store.PathIn(t.TempDir()), nil), config.Etcd{CompactEvery: time.Millisecond, KeepHistory: time.Millisecond}},
		{"etcd, compact_every negative", etcdDB, config.Etcd{CompactEvery: -1}},
	} {
		m := metrics.New("test", metrics.Read{})
		returned := make(chan struct{})
		go func() {
			compactOnSchedule(context.Background(), c.db, c.cfg, m, slog.New(slog.NewTextHandler(io.Discard, nil)))
			close(returned)
		}()
		select {
		case <-returned:
		case <-time.After(time.Minute):
			t.Fatalf("%s: the compaction's schedule runs", c.name)
		}
	}
}

// A daemon started on a file that keeps many free pages says so, with the
// command that gives them back; on a packed file it says nothing.
func TestAdviseCompact(t *testing.T) {
	t.Parallel()
	path := store.PathIn(t.TempDir())
	db := storetest.Open(t, path, &store.Options{NoSync: true})
	advice := func() string {
		var logs bytes.Buffer
		adviseCompact(db, slog.New(slog.NewTextHandler(&logs, nil)))
		return logs.String()
	}
	if got := advice(); got != "" {
		t.Errorf("a new store: %q, want nothing", got)
	}
	big := strings.Repeat("x", 4000)
	err := db.Update(func(tx *store.Tx) error {
		for i := range 3 * manyFreePages {
			if err := tx.SetNote(fmt.Sprintf("big:%05d", i), big); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *store.Tx) error {
		_, err := tx.DeleteNotes("big:", 3*manyFreePages)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close() // as the daemon meets it when it starts
	db = storetest.Open(t, path, &store.Options{NoSync: true})
	got := advice()
	if !strings.Contains(got, "pbemd compact") || !strings.Contains(got, "free_pages=") {
		t.Errorf("a store that freed %d pages or more: %q, want the advice to compact", manyFreePages, got)
	}
}
