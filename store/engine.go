package store

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// An engine keeps the buckets of the store: bbolt in one file (the
// default, bolt.go below) or an etcd cluster (etcd.go). Everything above
// this file speaks of buckets, keys and cursors only, so a bucket added
// later needs nothing of either engine.
//
// An engine may run the function of an update more than once (etcd retries
// it when another writer changed what it read), so such a function must
// have no effect outside its transaction until update returns.
type engine interface {
	update(fn func(etx) error) error
	view(fn func(etx) error) error
	close() error
	// limits returns the most writes and bytes one update may commit.
	limits() (ops, bytes int)
}

// An etx is an engine's transaction.
type etx interface {
	// bucket returns the named bucket, or nil when it does not exist.
	bucket(name []byte) bucket
	// createBucket returns the named bucket, making it when it does not
	// exist.
	createBucket(name []byte) (bucket, error)
	// deleteBucket removes the bucket and all its keys; removing one that
	// does not exist is no error.
	deleteBucket(name []byte) error
	// eachBucket calls fn with every bucket, in the order of their names.
	eachBucket(fn func(name []byte, b bucket) error) error
	// changed reports whether a read-write transaction wrote anything.
	changed() bool
	// writable reports whether the transaction may write.
	writable() bool
}

// A bucket is a set of keys in order, each with a value. Values returned
// are valid only inside the transaction: copy what is kept.
type bucket interface {
	Get(key []byte) []byte
	Put(key, value []byte) error
	Delete(key []byte) error
	Cursor() cursor
	ForEach(fn func(k, v []byte) error) error
	NextSequence() (uint64, error)
	Sequence() uint64
	SetSequence(uint64) error
	// KeyN counts the keys.
	KeyN() int
}

// A cursor walks a bucket in key order. Each move returns the key and
// value it lands on, or a nil key past either end.
type cursor interface {
	First() (k, v []byte)
	Last() (k, v []byte)
	Next() (k, v []byte)
	Prev() (k, v []byte)
	Seek(seek []byte) (k, v []byte)
}

// boltEngine is the store in one bbolt file: today's code path, each call
// handed straight to bbolt.
type boltEngine struct{ db *bolt.DB }

func (e boltEngine) update(fn func(etx) error) error {
	return e.db.Update(func(btx *bolt.Tx) error { return fn(boltTx{btx}) })
}

func (e boltEngine) view(fn func(etx) error) error {
	return e.db.View(func(btx *bolt.Tx) error { return fn(boltTx{btx}) })
}

func (e boltEngine) close() error { return e.db.Close() }

type boltTx struct{ tx *bolt.Tx }

func (t boltTx) bucket(name []byte) bucket {
	if b := t.tx.Bucket(name); b != nil {
		return boltBucket{b}
	}
	return nil // an interface holding a nil *bolt.Bucket would not be nil
}

func (t boltTx) createBucket(name []byte) (bucket, error) {
	b, err := t.tx.CreateBucketIfNotExists(name)
	if err != nil {
		return nil, err
	}
	return boltBucket{b}, nil
}

func (t boltTx) deleteBucket(name []byte) error {
	if err := t.tx.DeleteBucket(name); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
		return err
	}
	return nil
}

func (t boltTx) eachBucket(fn func(name []byte, b bucket) error) error {
	return t.tx.ForEach(func(name []byte, b *bolt.Bucket) error { return fn(name, boltBucket{b}) })
}

func (t boltTx) changed() bool {
	// bbolt makes a node of a page only to change it.
	stats := t.tx.Stats()
	return t.tx.Writable() && stats.GetNodeCount() > 0
}

func (t boltTx) writable() bool { return t.tx.Writable() }

type boltBucket struct{ *bolt.Bucket }

// ForEach calls fn with each key and value. A nested bucket, which no
// pbemd store has (the engines know none), is an error, not a key
// without a value that a copy would lose.
func (b boltBucket) ForEach(fn func(k, v []byte) error) error {
	return b.Bucket.ForEach(func(k, v []byte) error {
		if v == nil && b.Bucket.Bucket(k) != nil { // else a value put as nil
			return fmt.Errorf("store: a bucket holds the nested bucket %q: %w, whose buckets hold keys alone", k, ErrNotStore)
		}
		return fn(k, v)
	})
}

func (b boltBucket) Cursor() cursor { return b.Bucket.Cursor() }
func (b boltBucket) KeyN() int      { return b.Stats().KeyN }

// MaxWrites is the most keys one Update may write: no bound that matters
// on bbolt; on etcd the cluster's --max-txn-ops, less room for the
// markers of the buckets written. A job of many writes ("pbemd populate")
// sizes its transactions by it; the service's transactions are far
// smaller (docs/scaling.md, "etcd engine").
func (db *DB) MaxWrites() int {
	ops, _ := db.eng.limits()
	return ops - 64
}
