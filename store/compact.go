package store

import (
	"bytes"
	"errors"
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
	err = copyStore(dst, db.bolt)
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

// copyStore copies every bucket of src into the empty dst, in
// transactions of compactTxBytes.
func copyStore(dst, src *bolt.DB) error {
	c := &copier{db: dst}
	err := src.View(func(stx *bolt.Tx) error {
		return stx.ForEach(func(name []byte, b *bolt.Bucket) error {
			return c.bucket([][]byte{name}, b)
		})
	})
	if c.tx == nil {
		return err
	}
	if err != nil {
		c.tx.Rollback()
		return err
	}
	return c.tx.Commit()
}

// A copier writes into dst a transaction at a time.
type copier struct {
	db   *bolt.DB
	tx   *bolt.Tx
	size int
}

// bucket copies src, found at path, with its nested buckets.
func (c *copier) bucket(path [][]byte, src *bolt.Bucket) error {
	b, err := c.open(path, true)
	if err != nil {
		return err
	}
	if err := b.SetSequence(src.Sequence()); err != nil {
		return err
	}
	cur := src.Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		if v == nil {
			if nested := src.Bucket(k); nested != nil {
				if err := c.bucket(append(path[:len(path):len(path)], k), nested); err != nil {
					return err
				}
				// The nested copy may have committed: b is of an old transaction.
				if b, err = c.open(path, false); err != nil {
					return err
				}
				continue
			}
		}
		if c.size >= compactTxBytes {
			if err := c.tx.Commit(); err != nil {
				return err
			}
			c.tx, c.size = nil, 0
			if b, err = c.open(path, false); err != nil {
				return err
			}
		}
		if err := b.Put(k, v); err != nil {
			return err
		}
		c.size += len(k) + len(v)
	}
	return nil
}

// open returns the bucket at path in the current transaction, beginning
// one when none is open, and creates it when create is set.
func (c *copier) open(path [][]byte, create bool) (*bolt.Bucket, error) {
	if c.tx == nil {
		tx, err := c.db.Begin(true)
		if err != nil {
			return nil, err
		}
		c.tx = tx
	}
	var b *bolt.Bucket
	for i, name := range path {
		var err error
		switch {
		case i == 0 && create && len(path) == 1:
			b, err = c.tx.CreateBucket(name)
		case i == 0:
			b = c.tx.Bucket(name)
		case create && i == len(path)-1:
			b, err = b.CreateBucket(name)
		default:
			b = b.Bucket(name)
		}
		if err != nil {
			return nil, err
		}
		if b == nil {
			return nil, fmt.Errorf("bucket %q missing from the copy", path[:i+1])
		}
	}
	b.FillPercent = compactFill
	return b, nil
}

// errDiffer is what sameStore finds when the copy is not the store.
var errDiffer = errors.New("the copy differs from the store")

// sameStore checks that the file at path holds exactly what src holds: the
// same buckets, keys, values and sequences.
func sameStore(path string, src *bolt.DB) error {
	cp, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return err
	}
	defer cp.Close()
	return src.View(func(stx *bolt.Tx) error {
		return cp.View(func(ctx *bolt.Tx) error {
			n := 0
			err := stx.ForEach(func(name []byte, b *bolt.Bucket) error {
				n++
				return sameBucket(string(name), b, ctx.Bucket(name))
			})
			if err != nil {
				return err
			}
			m := 0
			ctx.ForEach(func([]byte, *bolt.Bucket) error { m++; return nil })
			if m != n {
				return fmt.Errorf("%w: %d buckets, not %d", errDiffer, m, n)
			}
			return nil
		})
	})
}

func sameBucket(name string, a, b *bolt.Bucket) error {
	if b == nil {
		return fmt.Errorf("%w: bucket %q missing", errDiffer, name)
	}
	if a.Sequence() != b.Sequence() {
		return fmt.Errorf("%w: bucket %q has sequence %d, not %d", errDiffer, name, b.Sequence(), a.Sequence())
	}
	ca, cb := a.Cursor(), b.Cursor()
	ka, va := ca.First()
	kb, vb := cb.First()
	for ; ka != nil || kb != nil; ka, va, kb, vb = nextPair(ca, cb) {
		if !bytes.Equal(ka, kb) {
			return fmt.Errorf("%w: bucket %q: key %q where %q was", errDiffer, name, kb, ka)
		}
		na, nb := a.Bucket(ka), b.Bucket(kb)
		switch {
		case va == nil && na != nil:
			if err := sameBucket(name+"/"+string(ka), na, nb); err != nil {
				return err
			}
		case vb == nil && nb != nil || !bytes.Equal(va, vb):
			return fmt.Errorf("%w: bucket %q: the value of %q", errDiffer, name, ka)
		}
	}
	return nil
}

func nextPair(ca, cb *bolt.Cursor) (ka, va, kb, vb []byte) {
	ka, va = ca.Next()
	kb, vb = cb.Next()
	return ka, va, kb, vb
}
