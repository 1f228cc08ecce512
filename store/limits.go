package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A Counter counts events of one kind for one key (a sender address, an
// account, the server as a whole) within a window of time, so that every
// process using the file (the daemon, each pbemd deliver) and every restart
// sees the same counts. The policy (how many, how long) is the caller's.
type Counter struct {
	Start  time.Time // when the window began
	Count  int
	Warned bool `json:",omitempty"` // the one warning of this window was sent
	// Expires is when the record means nothing any more; PruneCounters
	// deletes it after that.
	Expires time.Time
}

// Counter keys: the key as given, or, when longer than maxCounterKey, a
// SHA-256 of it, so that a sender address of any length makes a valid key.
const maxCounterKey = 256

// bucketLimits is created on first write instead of by Open, so a data file
// written before the counters existed needs no migration and read-only
// openers of such a file keep working.
var bucketLimits = []byte("limits")

func counterKey(key string) []byte {
	if len(key) <= maxCounterKey {
		return []byte(key)
	}
	sum := sha256.Sum256([]byte(key))
	return []byte("sha256:" + hex.EncodeToString(sum[:]))
}

// Counter returns the counter with the key; a missing one is the zero Counter.
func (tx *Tx) Counter(key string) (Counter, error) {
	var c Counter
	b := tx.btx.Bucket(bucketLimits)
	if b == nil {
		return c, nil
	}
	v := b.Get(counterKey(key))
	if v == nil {
		return c, nil
	}
	if err := json.Unmarshal(v, &c); err != nil {
		return Counter{}, fmt.Errorf("store: counter %q: %w", key, err)
	}
	return c, nil
}

// PutCounter stores the counter under the key.
func (tx *Tx) PutCounter(key string, c Counter) error {
	if key == "" {
		return fmt.Errorf("store: empty counter key")
	}
	b, err := tx.btx.CreateBucketIfNotExists(bucketLimits)
	if err != nil {
		return fmt.Errorf("store: counters: %w", err)
	}
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("store: counter %q: %w", key, err)
	}
	return b.Put(counterKey(key), data)
}

// PruneCounters deletes the counters expired at now among at most most
// counters from the key after on ("" for the first), so that one
// transaction reads a bounded part of a bucket a flood of senders can
// fill. It returns how many it deleted and the key to go on after, or ""
// when it reached the end.
func (tx *Tx) PruneCounters(now time.Time, after string, most int) (next string, n int, err error) {
	b := tx.btx.Bucket(bucketLimits)
	if b == nil {
		return "", 0, nil
	}
	var old [][]byte
	c := b.Cursor()
	k, v := c.First()
	if after != "" {
		if k, v = c.Seek([]byte(after)); k != nil && string(k) == after {
			k, v = c.Next()
		}
	}
	for read := 0; k != nil && read < most; k, v = c.Next() {
		read++
		next = string(k)
		var ctr Counter
		if json.Unmarshal(v, &ctr) != nil || !ctr.Expires.After(now) {
			old = append(old, append([]byte(nil), k...))
		}
	}
	if k == nil {
		next = ""
	}
	return next, len(old), deleteKeys(b, old)
}

// deleteKeys deletes keys after a walk: deleting while a cursor walks a
// bucket can skip keys.
func deleteKeys(b *bolt.Bucket, keys [][]byte) error {
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
