package store

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// requests returns how many requests the store's etcd engine has sent.
func requests(db *DB) int64 { return db.eng.(*etcdEngine).requests.Load() }

// A transaction that reads what an earlier one read or wrote in this
// process asks the cluster only for the markers of the buckets: the
// values and the pages of a walk come from the cache.
func TestEtcdCacheServesWhatWasRead(t *testing.T) {
	t.Parallel()
	db := openEtcdTest(t, etcdConfig(t))
	db.eng.(*etcdEngine).page = 3 // a walk of several pages
	keys := []string{"a", "b", "c", "d", "e", "f", "g"}
	if err := db.Update(func(tx *Tx) error {
		for _, k := range keys {
			if err := tx.bucket(bucketNotes).Put([]byte(k), []byte("1"+k)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	read := func() string {
		var s bytes.Buffer
		db.View(func(tx *Tx) error {
			b := tx.bucket(bucketNotes)
			for _, k := range []string{"a", "d", "zz"} { // zz: no such key
				fmt.Fprintf(&s, "%s=%s ", k, b.Get([]byte(k)))
			}
			c := b.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				fmt.Fprintf(&s, "%s:%s ", k, v)
			}
			for k, v := c.Last(); k != nil; k, v = c.Prev() {
				fmt.Fprintf(&s, "%s:%s ", k, v)
			}
			return nil
		})
		return s.String()
	}
	first := read()
	before := requests(db)
	if again := read(); again != first {
		t.Fatalf("read again from the cache:\n%s\nwant\n%s", again, first)
	}
	if n := requests(db) - before; n != 1 {
		t.Errorf("reading the same keys again took %d requests, want 1 (the markers)", n)
	}

	// This process's own commit is applied to the cache: its keys are
	// read from there, the pages around them from the cluster again.
	if err := db.Update(func(tx *Tx) error {
		b := tx.bucket(bucketNotes)
		return errors.Join(b.Put([]byte("d"), []byte("2d")), b.Delete([]byte("a")), b.Put([]byte("zz"), []byte("2zz")))
	}); err != nil {
		t.Fatal(err)
	}
	before = requests(db)
	got := ""
	db.View(func(tx *Tx) error {
		b := tx.bucket(bucketNotes)
		got = fmt.Sprintf("%s %s %s", b.Get([]byte("a")), b.Get([]byte("d")), b.Get([]byte("zz")))
		return nil
	})
	if got != " 2d 2zz" {
		t.Errorf("after the update a, d and zz read %q, want \" 2d 2zz\"", got)
	}
	if n := requests(db) - before; n != 1 {
		t.Errorf("reading the keys this process wrote took %d requests, want 1 (the markers)", n)
	}
	want := "a= d=2d zz=2zz b:1b c:1c d:2d e:1e f:1f g:1g zz:2zz zz:2zz g:1g f:1f e:1e d:2d c:1c b:1b "
	if got := read(); got != want {
		t.Errorf("after the update read\n%s\nwant\n%s", got, want)
	}

	// Deleting a key that is not there (as the outbox's sender does)
	// changes no page: the walks still come from the cache.
	if err := db.Update(func(tx *Tx) error { return tx.bucket(bucketNotes).Delete([]byte("c0")) }); err != nil {
		t.Fatal(err)
	}
	before = requests(db)
	if got := read(); got != want {
		t.Errorf("after deleting a key that was not there read\n%s\nwant\n%s", got, want)
	}
	if n := requests(db) - before; n != 1 {
		t.Errorf("reading after deleting a key that was not there took %d requests, want 1 (the markers)", n)
	}
}

// Two nodes on one cluster, each with its cache holding a key, both read
// it and both write it: exactly one commits on its first run; the other's
// commit fails its compare, and its second run reads the winner's value,
// not its cache's. A node whose cache still holds the value of before
// reads the other's.
func TestEtcdStaleCacheCannotCommit(t *testing.T) {
	t.Parallel()
	c := etcdConfig(t)
	nodes := []*DB{openEtcdTest(t, c), openEtcdTest(t, c)}
	key := []byte("counter")
	if err := nodes[0].Update(func(tx *Tx) error { return tx.bucket(bucketMeta).Put(key, []byte("start")) }); err != nil {
		t.Fatal(err)
	}
	for _, db := range nodes { // both caches hold "start"
		db.View(func(tx *Tx) error { tx.bucket(bucketMeta).Get(key); return nil })
	}

	var bothRead sync.WaitGroup
	bothRead.Add(2)
	runs := make([][]string, 2) // the value each run of each node read
	var wg sync.WaitGroup
	for i, db := range nodes {
		wg.Go(func() {
			err := db.Update(func(tx *Tx) error {
				m := tx.bucket(bucketMeta)
				v := string(m.Get(key))
				runs[i] = append(runs[i], v)
				if len(runs[i]) == 1 {
					bothRead.Done()
					bothRead.Wait() // the other has read it too
				}
				return m.Put(key, []byte(fmt.Sprintf("%s+%d", v, i)))
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	winner, loser := 0, 1
	if len(runs[0]) != 1 {
		winner, loser = 1, 0
	}
	won := fmt.Sprintf("start+%d", winner)
	if len(runs[winner]) != 1 || len(runs[loser]) != 2 || runs[loser][0] != "start" || runs[loser][1] != won {
		t.Fatalf("the runs read %q (node 0) and %q (node 1); want one node to run once on \"start\" and the other twice, on \"start\" then %q", runs[0], runs[1], won)
	}
	final := fmt.Sprintf("%s+%d", won, loser)
	for i, db := range nodes {
		db.View(func(tx *Tx) error {
			if got := string(tx.bucket(bucketMeta).Get(key)); got != final {
				t.Errorf("node %d reads %q after both commits, want %q", i, got, final)
			}
			return nil
		})
	}
}

// The cache keeps within its bound however many keys are read, keeps no
// value too large for its share, and still answers every key right.
func TestEtcdCacheBounded(t *testing.T) {
	t.Parallel()
	c := etcdConfig(t)
	c.CacheBytes = 8 << 10
	db := openEtcdTest(t, c)
	value := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 100) }
	if err := db.Update(func(tx *Tx) error {
		for i := range 300 {
			if err := tx.bucket(bucketNotes).Put([]byte(fmt.Sprint(i)), value(i)); err != nil {
				return err
			}
		}
		// Larger than an eighth of the cache: never kept.
		return tx.bucket(bucketNotes).Put([]byte("large"), bytes.Repeat([]byte("x"), 2<<10))
	}); err != nil {
		t.Fatal(err)
	}
	cache := db.eng.(*etcdEngine).cache
	for round := range 2 {
		db.View(func(tx *Tx) error {
			b := tx.bucket(bucketNotes)
			for i := range 300 {
				if got := b.Get([]byte(fmt.Sprint(i))); !bytes.Equal(got, value(i)) {
					t.Fatalf("round %d: key %d reads %q, want %q", round, i, got, value(i))
				}
			}
			if got := b.Get([]byte("large")); len(got) != 2<<10 {
				t.Fatalf("the large value reads %d bytes, want %d", len(got), 2<<10)
			}
			return nil
		})
		cache.mu.Lock()
		size, n := cache.bytes, cache.lru.Len()
		_, large := cache.buckets["notes"].entries[valueKey("large")]
		cache.mu.Unlock()
		if size > c.CacheBytes || size <= 0 || n == 0 {
			t.Errorf("round %d: the cache holds %d bytes in %d entries, want some, at most %d", round, size, n, c.CacheBytes)
		}
		if large {
			t.Errorf("round %d: the cache kept a value of 2 KiB, more than an eighth of its 8 KiB", round)
		}
	}
}
