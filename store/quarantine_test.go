package store

import (
	"testing"

	bolt "go.etcd.io/bbolt"
)

// A store written before the quarantine bucket existed opens read-only as
// it is (with an empty quarantine) and gains the bucket at a read-write open.
func TestOpenStoreWithoutQuarantine(t *testing.T) {
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
