package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A Copied tells how much a copy between stores moved.
type Copied struct {
	Buckets, Keys int
	Bytes         int64 // of keys and values
}

// copyAll copies every bucket of src, with its keys, values and sequence,
// into dst, which holds none of them yet: the reads in one read
// transaction of src, the writes in transactions of what dst takes at
// once. A copy that fails part way leaves dst with a part: the caller
// starts from an empty dst again.
func copyAll(dst, src engine) (Copied, error) {
	var st Copied
	most, size := dst.limits()
	most, size = most/2, size/2 // room for the markers and the framing
	type put struct {
		bucket, k, v []byte
		seq          uint64 // the bucket's, with its last key
		last         bool
	}
	var batch []put
	bytes := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := dst.update(func(t etx) error {
			for _, p := range batch {
				b, err := t.createBucket(p.bucket)
				if err != nil {
					return err
				}
				if p.k != nil {
					if err := b.Put(p.k, p.v); err != nil {
						return err
					}
				}
				if p.last {
					if err := b.SetSequence(p.seq); err != nil {
						return err
					}
				}
			}
			return nil
		})
		batch, bytes = batch[:0], 0
		return err
	}
	add := func(p put) error {
		if len(batch)+1 > most || bytes+len(p.k)+len(p.v) > size {
			if err := flush(); err != nil {
				return err
			}
		}
		batch = append(batch, p)
		bytes += len(p.k) + len(p.v)
		return nil
	}
	err := src.view(func(t etx) error {
		return t.eachBucket(func(name []byte, b bucket) error {
			st.Buckets++
			name = clone(name)
			err := b.ForEach(func(k, v []byte) error {
				st.Keys++
				st.Bytes += int64(len(k) + len(v))
				return add(put{bucket: name, k: clone(k), v: clone(v)})
			})
			if err != nil {
				return err
			}
			return add(put{bucket: name, seq: b.Sequence(), last: true})
		})
	})
	if err != nil {
		return st, err
	}
	return st, flush()
}

func clone(b []byte) []byte { return append([]byte{}, b...) }

// errDiffer is what sameAll finds when the copy is not the store.
var errDiffer = errors.New("the copy differs from the store")

// sameAll checks that a and b hold the same buckets, keys, values and
// sequences, reading each in one read transaction, and says where they
// first differ (an error wrapping errDiffer).
func sameAll(a, b engine) error {
	differ := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{errDiffer}, args...)...)
	}
	return a.view(func(ta etx) error {
		return b.view(func(tb etx) error {
			var names [][]byte
			ta.eachBucket(func(name []byte, _ bucket) error { names = append(names, clone(name)); return nil })
			n := 0
			tb.eachBucket(func([]byte, bucket) error { n++; return nil })
			if n != len(names) {
				return differ("%d buckets, the copy %d", len(names), n)
			}
			for _, name := range names {
				ba, bb := ta.bucket(name), tb.bucket(name)
				if bb == nil {
					return differ("the copy lacks the bucket %q", name)
				}
				if ba.Sequence() != bb.Sequence() {
					return differ("bucket %q: sequence %d, the copy %d", name, ba.Sequence(), bb.Sequence())
				}
				ca, cb := ba.Cursor(), bb.Cursor()
				ka, va := ca.First()
				kb, vb := cb.First()
				for ka != nil || kb != nil {
					if !bytes.Equal(ka, kb) || !bytes.Equal(va, vb) {
						return differ("bucket %q: key %q (value of %d bytes), the copy key %q (value of %d bytes)", name, ka, len(va), kb, len(vb))
					}
					ka, va = ca.Next()
					kb, vb = cb.Next()
				}
			}
			return nil
		})
	})
}

func (e boltEngine) limits() (ops, bytes int) { return math.MaxInt, compactTxBytes }

func (e *etcdEngine) limits() (ops, bytes int) { return e.maxOps, e.maxSize }

// backupCopy is the backup of a store that is not a bbolt file: its
// buckets copied, as read at one moment, into a new bbolt file in the
// temporary directory, which is then written to w. So every backup is a
// file that Open, Restore and "pbemd migrate" read alike.
func (db *DB) backupCopy(w io.Writer, size func(int64) error) (int64, error) {
	dir, err := os.MkdirTemp("", "pbemd-backup-")
	if err != nil {
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	defer os.RemoveAll(dir)
	path := PathIn(dir)
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true, Timeout: time.Second})
	if err != nil {
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	_, err = copyAll(boltEngine{bdb}, db.eng)
	if cerr := bdb.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("store: backup of %s: %w", db.path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	if size != nil {
		if err := size(fi.Size()); err != nil {
			return 0, err
		}
	}
	return io.Copy(w, f)
}

// CopyTo copies the whole store into dst, which must hold no record yet
// (a new file, or an etcd prefix with nothing under it), and then checks
// key by key, reading both again, that dst holds what db holds. Nothing
// may write to either meanwhile: "pbemd migrate" runs with the daemon
// stopped. A copy cut short leaves a part in dst, to be emptied before
// trying again.
func (db *DB) CopyTo(dst *DB) (Copied, error) {
	var st Copied
	if err := dst.empty(); err != nil {
		return st, err
	}
	st, err := copyAll(dst.eng, db.eng)
	if err != nil {
		return st, fmt.Errorf("store: copying %s to %s: %w (the copy holds a part: empty it before trying again)", db.path, dst.path, err)
	}
	if err := sameAll(db.eng, dst.eng); err != nil {
		return st, fmt.Errorf("store: checking the copy in %s against %s: %w", dst.path, db.path, err)
	}
	return st, nil
}

// empty reports an error unless the store holds no record: nothing but
// what Open writes in a new store.
func (db *DB) empty() error {
	return db.eng.view(func(t etx) error {
		return t.eachBucket(func(name []byte, b bucket) error {
			if n := b.KeyN(); n > 0 && !bytes.Equal(name, bucketMeta) {
				return fmt.Errorf("store: %s is not empty (bucket %q has %d keys); copy into a new store only", db.path, name, n)
			}
			return nil
		})
	})
}
