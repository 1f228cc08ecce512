package store

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A store copied to etcd and back to a new file holds every record and
// sequence it held: its users, its games, its outbox with the ids to come.
func TestCopyToEtcdAndBack(t *testing.T) {
	t.Parallel()
	src := openTest(t)
	err := src.Update(func(tx *Tx) error {
		for i := range 30 {
			u := &User{ID: fmt.Sprintf("player%d", i), Addresses: []string{fmt.Sprintf("p%d@example.org", i)}}
			if err := tx.PutUser(u); err != nil {
				return err
			}
			if err := tx.Enqueue(&Outgoing{To: []string{u.Addresses[0]}, Data: []byte("Subject: hello\r\n\r\nhi\r\n")}); err != nil {
				return err
			}
		}
		return tx.MarkProcessed("<a@example.org>", time.Unix(1e9, 0))
	})
	if err != nil {
		t.Fatal(err)
	}
	mid := openEtcdTest(t, etcdConfig(t))
	st, err := src.CopyTo(mid)
	if err != nil {
		t.Fatal(err)
	}
	if st.Keys < 60 || st.Buckets < len(allBuckets) {
		t.Errorf("copied %d keys in %d buckets; want at least 60 in %d", st.Keys, st.Buckets, len(allBuckets))
	}
	back, err := Open(filepath.Join(t.TempDir(), FileName), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if _, err := mid.CopyTo(back); err != nil {
		t.Fatal(err)
	}
	if err := sameAll(src.eng, back.eng); err != nil {
		t.Fatalf("the store back from etcd: %v", err)
	}
	// The next mail queued gets the number it would have had.
	for _, db := range []*DB{src, back} {
		var m Outgoing
		db.Update(func(tx *Tx) error { return tx.Enqueue(&m) })
		if m.ID != 31 {
			t.Errorf("%s: the next mail is number %d, want 31", db.Path(), m.ID)
		}
	}
}

// A copy goes into an empty store only: it never merges into a store in
// use.
func TestCopyRefusesAStoreInUse(t *testing.T) {
	t.Parallel()
	src, dst := openTest(t), openEtcdTest(t, etcdConfig(t))
	dst.Update(func(tx *Tx) error { return tx.PutUser(&User{ID: "someone"}) })
	if _, err := src.CopyTo(dst); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("a copy into a store with a user: %v, want an error that it is not empty", err)
	}
}

// The check after a copy finds a record that differs, one missing, one
// too many, and a sequence that differs.
func TestSameAllFindsADifference(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		change func(tx *Tx) error
	}{
		{"a value", func(tx *Tx) error { return tx.bucket(bucketNotes).Put([]byte("a"), []byte("2")) }},
		{"a key missing", func(tx *Tx) error { return tx.bucket(bucketNotes).Delete([]byte("a")) }},
		{"a key too many", func(tx *Tx) error { return tx.bucket(bucketNotes).Put([]byte("b"), nil) }},
		{"a sequence", func(tx *Tx) error { _, err := tx.bucket(bucketOutbox).NextSequence(); return err }},
	} {
		src, dst := openTest(t), openEtcdTest(t, etcdConfig(t))
		src.Update(func(tx *Tx) error { return tx.bucket(bucketNotes).Put([]byte("a"), []byte("1")) })
		if _, err := src.CopyTo(dst); err != nil {
			t.Fatal(err)
		}
		if err := dst.Update(c.change); err != nil {
			t.Fatal(err)
		}
		if err := sameAll(src.eng, dst.eng); err == nil {
			t.Errorf("%s changed in the copy: the check found no difference", c.name)
		}
	}
}
