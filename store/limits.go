package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
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
// openers of such a file keep working. bucketLimitsExpiry indexes the
// counters by the time they expire (as the reply tokens' expiry index:
// the big-endian Unix second, then the counter's key), so that pruning reads only the expired ones.
var (
	bucketLimits       = []byte("limits")
	bucketLimitsExpiry = []byte("limits-expiry")
)

// keyLimitsExpiry in the meta bucket marks a file whose every counter is
// in the expiry index (indexCounters).
var keyLimitsExpiry = []byte("limits-expiry")

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
	b := tx.btx.bucket(bucketLimits)
	if b == nil {
		return c, nil
	}
	v := b.Get(counterKey(key))
	if v == nil {
		return c, nil
	}
	if err := json.Unmarshal(v, &c); err != nil {
		return Counter{}, fmt.Errorf("store: counter %q: %w: %w", key, ErrCorrupt, err)
	}
	return c, nil
}

// PutCounter stores the counter under the key.
func (tx *Tx) PutCounter(key string, c Counter) error {
	if key == "" {
		return fmt.Errorf("store: empty counter key")
	}
	b, err := tx.btx.createBucket(bucketLimits)
	if err != nil {
		return fmt.Errorf("store: counters: %w", err)
	}
	exp, err := tx.btx.createBucket(bucketLimitsExpiry)
	if err != nil {
		return fmt.Errorf("store: counters: %w", err)
	}
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("store: counter %q: %w", key, err)
	}
	k := counterKey(key)
	if v := b.Get(k); v != nil {
		var old Counter
		if json.Unmarshal(v, &old) == nil && old.Expires.Equal(c.Expires) {
			return b.Put(k, data)
		}
		if err := exp.Delete(expiryKey(old.Expires, k)); err != nil {
			return err
		}
	}
	if err := exp.Put(expiryKey(c.Expires, k), nil); err != nil {
		return err
	}
	return b.Put(k, data)
}

// PruneCounters deletes at most most counters expired at now, the oldest
// first, and returns how many it deleted. It reads the expiry index up to
// now and no counter that lives on, so a sweep costs what expired, however
// many senders a flood left counted.
func (tx *Tx) PruneCounters(now time.Time, most int) (int, error) {
	b, exp := tx.btx.bucket(bucketLimits), tx.btx.bucket(bucketLimitsExpiry)
	if b == nil || exp == nil {
		return 0, nil
	}
	// A counter renewed by an older pbemd, which keeps no index, has a
	// stale entry: it lives on.
	live := func(v []byte) bool {
		var c Counter
		return json.Unmarshal(v, &c) == nil && c.Expires.After(now)
	}
	return pruneExpired(b, exp, now, most, live)
}

// indexCounters puts the counters of a file written before the expiry
// index into it, upgradeBatch a transaction; a build cut short is done
// again at the next open.
func (db *DB) indexCounters() error {
	var built, any bool
	db.eng.view(func(btx etx) error {
		built = btx.bucket(bucketMeta).Get(keyLimitsExpiry) != nil
		any = btx.bucket(bucketLimits) != nil
		return nil
	})
	if built {
		return nil
	}
	if any {
		// Begun afresh: an older pbemd may have run since a cut-short
		// build, renewing counters without their entries.
		err := db.Update(func(tx *Tx) error {
			if err := tx.btx.deleteBucket(bucketLimitsExpiry); err != nil {
				return err
			}
			_, err := tx.btx.createBucket(bucketLimitsExpiry)
			return err
		})
		if err != nil {
			return err
		}
		err = db.eachKey(bucketLimits, func(tx *Tx, k, v []byte) error {
			var c Counter
			json.Unmarshal(v, &c) // an unreadable counter expires at once
			return tx.btx.bucket(bucketLimitsExpiry).Put(expiryKey(c.Expires, k), nil)
		})
		if err != nil {
			return err
		}
	}
	return db.eng.update(func(btx etx) error {
		return btx.bucket(bucketMeta).Put(keyLimitsExpiry, []byte("1"))
	})
}

// deleteKeys deletes keys after a walk: deleting while a cursor walks a
// bucket can skip keys.
func deleteKeys(b bucket, keys [][]byte) error {
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
