package store

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A store written before the quarantine bucket existed opens read-only as
// it is (with an empty quarantine) and gains the bucket at a read-write open.
func TestOpenStoreWithoutQuarantine(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	path := db.Path()
	if err := db.bolt.Update(func(btx *bolt.Tx) error { return btx.DeleteBucket(bucketQuarantine) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of a store without quarantine: %v", err)
	}
	if list, err := ro.Quarantined(); err != nil || len(list) != 0 {
		t.Errorf("Quarantined = %v, %v; want none", list, err)
	}
	ro.Close()
	rw, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	update(t, rw, func(tx *Tx) error { return tx.Quarantine(&Quarantined{Key: "k", Why: "test", Data: []byte("x")}) })
	if list, err := rw.Quarantined(); err != nil || len(list) != 1 || list[0].ID != 1 {
		t.Errorf("after a read-write open: %+v, %v; want the one mail quarantined", list, err)
	}
}

// PruneQuarantine deletes the mails set aside before a time and, oldest
// first, those beyond a total of bytes; a record that does not read goes
// too; the total is kept as records come and go, and made once for a file
// written before it was kept.
func TestPruneQuarantine(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	put := func(at time.Time, size int) uint64 {
		q := &Quarantined{Key: fmt.Sprint("k", at.Unix()), At: at, Why: "test", Data: bytes.Repeat([]byte("x"), size)}
		update(t, db, func(tx *Tx) error { return tx.Quarantine(q) })
		return q.ID
	}
	ids := func() []uint64 {
		list, err := db.Quarantined()
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint64
		for _, q := range list {
			ids = append(ids, q.ID)
		}
		return ids
	}
	prune := func(before time.Time, maxBytes int64, most int) int {
		var n int
		update(t, db, func(tx *Tx) (err error) { n, err = tx.PruneQuarantine(before, maxBytes, most); return err })
		return n
	}
	total := func() int64 {
		var n int64
		db.View(func(tx *Tx) (err error) { n, err = tx.quarantineBytes(); return err })
		return n
	}
	for i := range 5 {
		put(day.Add(time.Duration(i)*24*time.Hour), 1000)
	}
	one := total() / 5
	if one < 1000 || one > 2000 {
		t.Fatalf("a record of 1000 bytes counts %d", one)
	}

	// By age, at most so many at a time.
	if n := prune(day.Add(2*24*time.Hour), 0, 1); n != 1 || !slices.Equal(ids(), []uint64{2, 3, 4, 5}) {
		t.Errorf("pruned %d, left %v; want 1 pruned, 2 to 5 left", n, ids())
	}
	if n := prune(day.Add(2*24*time.Hour), 0, 100); n != 1 || !slices.Equal(ids(), []uint64{3, 4, 5}) {
		t.Errorf("pruned %d, left %v; want 1 pruned, 3 to 5 left", n, ids())
	}
	// By bytes: the oldest go until the rest fit.
	if n := prune(day, 2*one, 100); n != 1 || !slices.Equal(ids(), []uint64{4, 5}) || total() != 2*one {
		t.Errorf("pruned %d, left %v of %d bytes; want 4 and 5 left, %d bytes", n, ids(), total(), 2*one)
	}
	// A record that does not read is pruned whatever its age.
	update(t, db, func(tx *Tx) error { return tx.btx.bucket(bucketQuarantine).Put(outKey(3), []byte("{not json")) })
	update(t, db, func(tx *Tx) error { return tx.addQuarantineBytes(9) })
	if n := prune(day, 0, 100); n != 1 || total() != 2*one {
		t.Errorf("pruned %d, %d bytes left; want the unreadable record pruned, %d bytes left", n, total(), 2*one)
	}
	// Released by the administrator: its bytes go with it.
	update(t, db, func(tx *Tx) error { _, err := tx.Unquarantine(4); return err })
	if total() != one {
		t.Errorf("after a release %d bytes; want %d", total(), one)
	}
	// A file without the total: it is summed.
	update(t, db, func(tx *Tx) error { return tx.btx.bucket(bucketMeta).Delete(keyQuarantineBytes) })
	if total() != one {
		t.Errorf("summed %d bytes; want %d", total(), one)
	}
	if n := prune(day.Add(365*24*time.Hour), 0, 100); n != 1 || len(ids()) != 0 || total() != 0 {
		t.Errorf("pruned %d, left %v of %d bytes; want all gone", n, ids(), total())
	}
}
