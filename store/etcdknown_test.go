package store

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pbemd/pbemd/store/etcdtest"
)

// ownMember returns the config of a store on a member of the test's own:
// on the shared one, the writes of the other tests running beside it move
// its revision between two of this test's commits.
func ownMember(t *testing.T) *EtcdConfig {
	c := etcdConfig(t)
	c.Endpoints[0], _ = etcdtest.Start(t)
	return c
}

// Updates of one node one after the other, on keys in its cache, each
// take one request, the commit: the markers after a commit of its own are
// known without reading them.
func TestEtcdUpdateOnKnownMarkers(t *testing.T) {
	t.Parallel()
	db := openEtcdTest(t, ownMember(t))
	add := func(tx *Tx) error {
		m := tx.bucket(bucketMeta)
		n := 0
		fmt.Sscan(string(m.Get([]byte("counter"))), &n)
		return m.Put([]byte("counter"), []byte(fmt.Sprint(n+1)))
	}
	if err := db.Update(add); err != nil {
		t.Fatal(err)
	}
	before := requests(db)
	for range 5 {
		if err := db.Update(add); err != nil {
			t.Fatal(err)
		}
	}
	if n := requests(db) - before; n != 5 {
		t.Errorf("5 updates took %d requests, want 5 (their commits)", n)
	}
	db.View(func(tx *Tx) error {
		if got := string(tx.bucket(bucketMeta).Get([]byte("counter"))); got != "6" {
			t.Errorf("the counter is %s after 6 additions", got)
		}
		return nil
	})
}

// A node's known markers go stale when another node commits. An update
// started on them that writes fails its compare and runs again; one that
// writes nothing, or fails, has them checked: either way its outcome is
// that of the other node's value, never of the stale one.
func TestEtcdStaleKnownMarkers(t *testing.T) {
	t.Parallel()
	c := ownMember(t)
	a, b := openEtcdTest(t, c), openEtcdTest(t, c)
	key := []byte("turn")
	set := func(db *DB, v string) {
		t.Helper()
		if err := db.Update(func(tx *Tx) error { return tx.bucket(bucketMeta).Put(key, []byte(v)) }); err != nil {
			t.Fatal(err)
		}
	}
	set(a, "a1") // a knows the markers after it
	set(b, "b1")
	errTurn := errors.New("not my turn")
	var saw []string
	err := a.Update(func(tx *Tx) error {
		v := string(tx.bucket(bucketMeta).Get(key))
		saw = append(saw, v)
		if v != "a1" {
			return fmt.Errorf("%w: %s", errTurn, v)
		}
		return nil // nothing to write
	})
	if !errors.Is(err, errTurn) || len(saw) != 2 || saw[1] != "b1" {
		t.Errorf("an update reading a key another node changed read %q and returned %v; want a second run reading b1, refusing", saw, err)
	}

	set(a, "a2")
	set(b, "b2")
	saw = nil
	err = a.Update(func(tx *Tx) error {
		m := tx.bucket(bucketMeta)
		saw = append(saw, string(m.Get(key)))
		return m.Put(key, append(m.Get(key), "+a"...))
	})
	if err != nil || len(saw) != 2 || saw[1] != "b2" {
		t.Errorf("an update writing a key another node changed read %q, %v; want a second run reading b2", saw, err)
	}
	b.View(func(tx *Tx) error {
		if got := string(tx.bucket(bucketMeta).Get(key)); got != "b2+a" {
			t.Errorf("the key holds %q, want b2+a", got)
		}
		return nil
	})
}
