package store

import (
	"encoding/binary"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A Message-ID longer than bbolt's largest key (32 KB) is stored and
// recognised like any other: the stored key is its hash.
func TestProcessedHugeKey(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	huge := "id:" + strings.Repeat("x", 100000) + "@example.org"
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	update(t, db, func(tx *Tx) error { return tx.MarkProcessed(huge, at) })
	var done, other bool
	err := db.View(func(tx *Tx) (err error) {
		if done, err = tx.Processed(huge); err != nil {
			return err
		}
		other, err = tx.Processed(huge[:len(huge)-1])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !done || other {
		t.Errorf("Processed(huge) = %v, Processed(huge minus one byte) = %v; want true, false", done, other)
	}
}

// A store written before keys were hashed holds the keys themselves: they
// still count as handled, and PruneProcessed forgets them by their age.
func TestProcessedLegacyKeys(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	old, recent := "id:old@example.org", "id:recent@example.org"
	err := db.bolt.Update(func(btx *bolt.Tx) error {
		b := btx.Bucket(bucketProcessed)
		if err := b.Put([]byte(old), binary.BigEndian.AppendUint64(nil, uint64(t0.UnixNano()))); err != nil {
			return err
		}
		if err := b.Put([]byte(recent), binary.BigEndian.AppendUint64(nil, uint64(t0.Add(20*24*time.Hour).UnixNano()))); err != nil {
			return err
		}
		// A file from before the indexes, too: Open builds them.
		for _, name := range indexBuckets {
			if err := btx.DeleteBucket(name); err != nil {
				return err
			}
		}
		return btx.Bucket(bucketMeta).Delete(keyIndexes)
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err = Open(db.Path(), &Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	processed := func(key string) bool {
		t.Helper()
		var ok bool
		if err := db.View(func(tx *Tx) (err error) { ok, err = tx.Processed(key); return err }); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !processed(old) || !processed(recent) || processed("id:never@example.org") {
		t.Fatalf("legacy keys: Processed = %v, %v, never-seen %v; want true, true, false",
			processed(old), processed(recent), processed("id:never@example.org"))
	}
	var n int
	update(t, db, func(tx *Tx) (err error) { n, err = tx.PruneProcessed(t0.Add(10*24*time.Hour), 0); return err })
	if n != 1 || processed(old) || !processed(recent) {
		t.Errorf("prune forgot %d keys; old handled %v, recent handled %v; want 1, false, true", n, processed(old), processed(recent))
	}
}
