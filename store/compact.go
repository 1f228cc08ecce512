package store

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// compactFill is how full the compacted file's pages are made: full, as
// bbolt's own compaction makes them, for the fewest pages to read. A page
// splits in two at the first record in it that grows (a game's, at its
// next move), once. On a million games the sweep's ticks measured alike
// at 0.9 and 1.0.
const compactFill = 1.0

// compactTxBytes is how many bytes of keys and values one transaction of
// the copy writes: bbolt keeps a transaction's pages in memory until it
// commits.
const compactTxBytes = 32 << 20

// CompactStats tells what Compact did.
type CompactStats struct {
	Before, After int64 // file sizes in bytes
	Free          int   // free pages in the file before: what each commit rewrote as the free list
	Took          time.Duration
}

// Compact rewrites the store at path into a new file, with its records
// packed in key order and no free pages, checks that the new file holds
// every bucket, key, value and sequence of the old one, and puts it in
// place of the old one.
//
// Why: bbolt never gives back the pages it frees, and every commit writes
// the list of free pages and takes new pages from among them, scattered
// over the file. A store that once held much more (a flood's counters,
// pruned) or that was filled by big transactions ("pbemd populate") pays
// for it at every commit.
//
// The store must not be in use: Compact holds it for itself and fails with
// ErrLocked when a daemon has it open. A process that was waiting for the
// old file finds the new one (see Open). The new file is written beside
// the old one, path+".compact", so the disk needs room for both.
func Compact(path string, lockTimeout time.Duration) (CompactStats, error) {
	var st CompactStats
	began := time.Now()
	// A data file that is a link is compacted where it lies, and the link
	// kept.
	path, err := filepath.EvalSymlinks(path)
	if err != nil {
		return st, fmt.Errorf("store: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return st, fmt.Errorf("store: %w", err)
	}
	st.Before = fi.Size()
	db, err := Open(path, &Options{LockTimeout: lockTimeout})
	if err != nil {
		return st, err
	}
	defer db.Close()
	st.Free = db.bolt.Stats().FreePageN
	tmp := path + ".compact"
	os.Remove(tmp) // a copy cut short before
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{NoSync: true, Timeout: time.Second})
	if err != nil {
		return st, fmt.Errorf("store: compact: %w", err)
	}
	_, err = copyAll(packedBolt{boltEngine{dst}}, db.eng)
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = sameStore(tmp, db.bolt)
	}
	if err == nil {
		err = keepOwner(tmp, fi)
	}
	if err == nil {
		err = putInPlace(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return st, fmt.Errorf("store: compact %s (left as it was): %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil {
		st.After = fi.Size()
	}
	st.Took = time.Since(began)
	return st, nil
}

// packedBolt is a bbolt engine whose buckets are filled compactFill full:
// for a copy written once, in key order.
type packedBolt struct{ boltEngine }

func (e packedBolt) update(fn func(etx) error) error {
	return e.db.Update(func(btx *bolt.Tx) error { return fn(packedTx{boltTx{btx}}) })
}

type packedTx struct{ boltTx }

func (t packedTx) createBucket(name []byte) (bucket, error) {
	b, err := t.tx.CreateBucketIfNotExists(name)
	if err != nil {
		return nil, err
	}
	b.FillPercent = compactFill
	return boltBucket{b}, nil
}

// sameStore checks that the file at path, read from the disk again,
// holds exactly what src holds: the same buckets, keys, values and
// sequences (sameAll).
func sameStore(path string, src *bolt.DB) error {
	cp, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return err
	}
	defer cp.Close()
	return sameAll(boltEngine{src}, boltEngine{cp})
}
