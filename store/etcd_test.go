package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store/etcdtest"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

var etcdPrefixes atomic.Int64

// etcdConfig returns the config of a store under a prefix of its own on
// the process's shared test member.
func etcdConfig(t testing.TB) *EtcdConfig {
	t.Helper()
	addr, err := etcdtest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	return &EtcdConfig{Endpoints: []string{addr}, Prefix: fmt.Sprintf("test/%s/%d", t.Name(), etcdPrefixes.Add(1)),
		MaxTxnOps: etcdtest.MaxTxnOps, MaxRequestBytes: etcdtest.MaxRequestBytes}
}

func openEtcdTest(t testing.TB, c *EtcdConfig) *DB {
	t.Helper()
	db, err := OpenEtcd(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Both engines, given the same transactions of random writes, reads and
// walks over a few buckets, answer alike at every read: the etcd engine's
// merge of the cluster's keys with a transaction's own writes is the
// bucket bbolt gives.
func TestEtcdEngineReadsAsBolt(t *testing.T) {
	t.Parallel()
	bdb, edb := openTest(t), openEtcdTest(t, etcdConfig(t))
	edb.eng.(*etcdEngine).page = 4 // walks of several pages, each kept in the cache
	// A small key space, so that writes, deletes and walks meet.
	keys := make([][]byte, 40)
	for i := range keys {
		keys[i] = []byte(fmt.Sprintf("k%02d", i*3))
	}
	names := [][]byte{[]byte("engine-a"), []byte("engine-b")}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 60 {
		var logs [2]strings.Builder
		seed := rng.Uint64()
		for i, db := range []*DB{bdb, edb} {
			r := rand.New(rand.NewPCG(seed, 3))
			log := &logs[i]
			err := db.eng.update(func(t etx) error {
				for range 30 {
					name := names[r.IntN(len(names))]
					b := t.bucket(name)
					if b == nil {
						fmt.Fprintf(log, "no %s;", name)
						if r.IntN(2) == 0 {
							if _, err := t.createBucket(name); err != nil {
								return err
							}
						}
						continue
					}
					k := keys[r.IntN(len(keys))]
					switch op := r.IntN(12); op {
					case 0, 1, 2:
						b.Put(k, []byte(fmt.Sprintf("v%d", r.IntN(100))))
					case 3:
						b.Put(k, nil)
					case 4:
						b.Delete(k)
					case 5:
						fmt.Fprintf(log, "get %s=%q;", k, b.Get(k))
					case 6:
						c := b.Cursor()
						fmt.Fprintf(log, "walk")
						for k, v := c.Seek(k); k != nil; k, v = c.Next() {
							fmt.Fprintf(log, " %s=%q", k, v)
						}
						fmt.Fprintf(log, ";")
					case 7:
						c := b.Cursor()
						fmt.Fprintf(log, "back")
						k, v := c.Seek(k)
						if k == nil {
							k, v = c.Last()
						}
						for n := 0; k != nil && n < 15; k, v = c.Prev() {
							fmt.Fprintf(log, " %s=%q", k, v)
							n++
						}
						fmt.Fprintf(log, ";")
					case 8:
						s, err := b.NextSequence()
						fmt.Fprintf(log, "seq %d %v;", s, err)
					case 9:
						if r.IntN(4) == 0 {
							if err := t.deleteBucket(name); err != nil {
								return err
							}
						}
					case 10:
						c := b.Cursor()
						f, _ := c.First()
						l, _ := c.Last()
						p, _ := c.Prev()
						fmt.Fprintf(log, "ends %s %s %s;", f, l, p)
					case 11:
						n := 0
						b.ForEach(func(k, v []byte) error { n++; return nil })
						fmt.Fprintf(log, "each %d;", n)
					}
				}
				if round%5 == 4 {
					return errors.New("rolled back")
				}
				return nil
			})
			if err != nil && err.Error() != "rolled back" {
				t.Fatal(err)
			}
		}
		for i, db := range []*DB{bdb, edb} {
			// bbolt counts the keys of its pages: committed ones.
			db.eng.view(func(t etx) error {
				return t.eachBucket(func(name []byte, b bucket) error {
					fmt.Fprintf(&logs[i], "\n%s: %d keys, sequence %d:", name, b.KeyN(), b.Sequence())
					return b.ForEach(func(k, v []byte) error { fmt.Fprintf(&logs[i], " %s=%q", k, v); return nil })
				})
			})
		}
		if logs[0].String() != logs[1].String() {
			t.Fatalf("round %d: bbolt read\n%s\netcd read\n%s", round, logs[0].String(), logs[1].String())
		}
	}
}

// Two processes adding to one counter never lose an addition: the etcd
// transaction of the one that read a value the other changed meanwhile
// fails its compare and runs again on the new value.
func TestEtcdNoLostUpdate(t *testing.T) {
	t.Parallel()
	c := etcdConfig(t)
	a, b := openEtcdTest(t, c), openEtcdTest(t, c)
	const each = 25
	var wg sync.WaitGroup
	for _, db := range []*DB{a, b} {
		wg.Go(func() {
			for range each {
				err := db.Update(func(tx *Tx) error {
					m := tx.bucket(bucketMeta)
					n := 0
					fmt.Sscan(string(m.Get([]byte("counter"))), &n)
					return m.Put([]byte("counter"), []byte(fmt.Sprint(n+1)))
				})
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	a.View(func(tx *Tx) error {
		if got := string(tx.bucket(bucketMeta).Get([]byte("counter"))); got != fmt.Sprint(2*each) {
			t.Errorf("the counter is %s after %d additions", got, 2*each)
		}
		return nil
	})
}

// A range read is protected as a point read is: a transaction that
// counted the keys of a bucket while another process added one runs again
// and counts it (no phantom).
func TestEtcdRangeReadConflicts(t *testing.T) {
	t.Parallel()
	c := etcdConfig(t)
	a, b := openEtcdTest(t, c), openEtcdTest(t, c)
	runs := 0
	err := a.Update(func(tx *Tx) error {
		runs++
		n := 0
		tx.bucket(bucketNotes).ForEach(func(k, v []byte) error { n++; return nil })
		if runs == 1 {
			// Another writer, between this transaction's read and commit.
			if err := b.Update(func(tx *Tx) error { return tx.bucket(bucketNotes).Put([]byte("x"), []byte("1")) }); err != nil {
				return err
			}
		}
		return tx.bucket(bucketMeta).Put([]byte("notes"), []byte(fmt.Sprint(n)))
	})
	if err != nil {
		t.Fatal(err)
	}
	var got string
	a.View(func(tx *Tx) error { got = string(tx.bucket(bucketMeta).Get([]byte("notes"))); return nil })
	if runs != 2 || got != "1" {
		t.Errorf("ran %d times and counted %s notes; want 2 runs counting the note added meanwhile", runs, got)
	}
}

// A transaction larger than the cluster takes fails whole, with
// ErrTooLarge, before it is sent: nothing of it is written.
func TestEtcdTooLargeFailsWhole(t *testing.T) {
	t.Parallel()
	c := etcdConfig(t)
	c.MaxTxnOps = 50
	db := openEtcdTest(t, c)
	err := db.Update(func(tx *Tx) error {
		for i := range 60 {
			if err := tx.bucket(bucketNotes).Put([]byte(fmt.Sprint(i)), []byte("x")); err != nil {
				return err
			}
		}
		return nil
	})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "--max-txn-ops") {
		t.Fatalf("a commit of 60 writes with max-txn-ops 50: %v, want ErrTooLarge naming --max-txn-ops", err)
	}
	big := bytes.Repeat([]byte("x"), c.MaxRequestBytes)
	err = db.Update(func(tx *Tx) error { return tx.bucket(bucketNotes).Put([]byte("big"), big) })
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "--max-request-bytes") {
		t.Fatalf("a commit of %d bytes: %v, want ErrTooLarge naming --max-request-bytes", len(big), err)
	}
	db.View(func(tx *Tx) error {
		if n := tx.bucket(bucketNotes).KeyN(); n != 0 {
			t.Errorf("%d notes kept of commits refused", n)
		}
		return nil
	})
}

// A cluster that does not answer fails the open and the transactions with
// ErrUnreachable, within the timeout: no file is opened instead.
func TestEtcdUnreachable(t *testing.T) {
	t.Parallel()
	c := etcdConfig(t)
	addr, stop := etcdtest.Start(t)
	c.Endpoints = []string{addr}
	c.Timeout = time.Second
	db := openEtcdTest(t, c)
	// Stop the member under the open store.
	stop()
	err := db.Update(func(tx *Tx) error { return tx.bucket(bucketNotes).Put([]byte("x"), nil) })
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("an update with the cluster gone: %v, want ErrUnreachable", err)
	}
	if _, err := OpenEtcd(c, nil); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("opening with the cluster gone: %v, want ErrUnreachable", err)
	}
}

// Compacting a store in etcd drops the history before the present
// revision on every member and keeps every record as it is now.
func TestCompactCluster(t *testing.T) {
	t.Parallel()
	c := etcdConfig(t)
	addr, _ := etcdtest.Start(t) // its own: compaction is the member's whole
	c.Endpoints = []string{addr}
	db := openEtcdTest(t, c)
	for i := range 50 {
		if err := db.Update(func(tx *Tx) error {
			return tx.bucket(bucketNotes).Put([]byte("n"), []byte(fmt.Sprint(i)))
		}); err != nil {
			t.Fatal(err)
		}
	}
	st, err := db.CompactCluster()
	if err != nil {
		t.Fatal(err)
	}
	e := db.eng.(*etcdEngine)
	ctx, cancel := e.ctx()
	defer cancel()
	if _, err := e.cli.Get(ctx, e.key(string(bucketNotes), "n"), clientv3.WithRev(st.Revision-1)); !errors.Is(err, rpctypes.ErrCompacted) {
		t.Errorf("reading before the compacted revision %d: %v, want ErrCompacted", st.Revision, err)
	}
	db.View(func(tx *Tx) error {
		if v := tx.bucket(bucketNotes).Get([]byte("n")); string(v) != "49" {
			t.Errorf("after compaction the note is %q, want 49", v)
		}
		return nil
	})
	if _, err := openTest(t).CompactCluster(); err == nil {
		t.Error("CompactCluster of a bbolt store: no error")
	}
}

// A store in etcd opened read-only refuses every write, as a bbolt file
// opened so does.
func TestEtcdReadOnly(t *testing.T) {
	t.Parallel()
	c := etcdConfig(t)
	openEtcdTest(t, c)
	ro, err := OpenEtcd(c, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := ro.Update(func(tx *Tx) error { return tx.SetNote("x", "y") }); !errors.Is(err, errReadOnly) {
		t.Errorf("an update of a read-only store: %v, want it refused", err)
	}
}
