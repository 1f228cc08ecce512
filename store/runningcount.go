package store

import (
	"bytes"
	"encoding/binary"
)

// How many boards of each kind are running is kept beside the running
// index, in the meta bucket, so that a page can tell it without reading
// every key of the index: at a million games that is some 100,000 keys
// a kind, a tenth of a second, and the front page told it for every
// kind. The counts change where the index does (reindex). A store
// written by an older pbemd has none until its first start counts them
// (countRunningBoards); until then, or read-only, they are counted on demand.
var keyRunningCounted = []byte("running-counted")

func runningCountKey(kind string) []byte { return []byte("running\x00" + kind) }

// RunningCount returns how many boards of the kind are running (not over).
func (tx *Tx) RunningCount(kind string) int {
	meta := tx.bucket(bucketMeta)
	if meta.Get(keyRunningCounted) == nil {
		return countPrefix(tx.bucket(bucketRunning), []byte(kind+"\x00"))
	}
	v := meta.Get(runningCountKey(kind))
	if len(v) != 8 {
		return 0
	}
	return int(binary.BigEndian.Uint64(v))
}

// addRunning changes the kept count of the kind of the running index key
// by d, in a store that keeps the counts.
func (tx *Tx) addRunning(key string, d int64) error {
	meta := tx.bucket(bucketMeta)
	if meta.Get(keyRunningCounted) == nil {
		return nil
	}
	kind, _, _ := bytes.Cut([]byte(key), []byte{0})
	k := runningCountKey(string(kind))
	var n int64
	if v := meta.Get(k); len(v) == 8 {
		n = int64(binary.BigEndian.Uint64(v))
	}
	return meta.Put(k, binary.BigEndian.AppendUint64(nil, uint64(max(n+d, 0))))
}

// countRunningBoards counts the running index of a store that keeps no
// counts yet, once, and from then on keeps them: a new store's at its
// making, an older pbemd's at its first start after the upgrade. A store
// that keeps them costs one read.
func (db *DB) countRunningBoards() error {
	var counted bool
	db.eng.view(func(btx etx) error {
		counted = btx.bucket(bucketMeta).Get(keyRunningCounted) != nil
		return nil
	})
	if counted {
		return nil
	}
	return db.Update(func(tx *Tx) error {
		counts := map[string]uint64{}
		c := tx.bucket(bucketRunning).Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if kind, _, ok := bytes.Cut(k, []byte{0}); ok {
				counts[string(kind)]++
			}
		}
		meta := tx.bucket(bucketMeta)
		for kind, n := range counts {
			if err := meta.Put(runningCountKey(kind), binary.BigEndian.AppendUint64(nil, n)); err != nil {
				return err
			}
		}
		return meta.Put(keyRunningCounted, []byte("1"))
	})
}
