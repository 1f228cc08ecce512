package storetest_test

import (
	"testing"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// Each test gets a store of its own, empty, that takes writes; two stores
// of one test share nothing.
func TestNewIsEmptyAndOwn(t *testing.T) {
	t.Parallel()
	a, b := storetest.New(t), storetest.New(t)
	if a.Path() == b.Path() {
		t.Fatalf("two stores at one path %s", a.Path())
	}
	err := a.Update(func(tx *store.Tx) error {
		return tx.PutUser(&store.User{ID: "alice", Addresses: []string{"alice@example.org"}})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		db   *store.DB
		want bool
	}{{a, true}, {b, false}} {
		var found bool
		if err := c.db.View(func(tx *store.Tx) error {
			u, err := tx.User("alice")
			found = u != nil && err == nil
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if found != c.want {
			t.Errorf("store %s has alice: %v, want %v", c.db.Path(), found, c.want)
		}
	}
}

// A store is closed when its test ends, so that its file may be opened
// again (an open store holds the file's lock), even by a test that closed
// it already.
func TestClosedAtCleanup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	paths := []string{store.PathIn(dir), dir + "/closed-early.db"}
	t.Run("inner", func(t *testing.T) {
		storetest.Open(t, paths[0], &store.Options{NoSync: true})
		storetest.Open(t, paths[1], nil).Close()
	})
	for _, path := range paths {
		db, err := store.Open(path, &store.Options{NoSync: true, LockTimeout: 1})
		if err != nil {
			t.Fatalf("the store of a finished test is still open: %v", err)
		}
		db.Close()
	}
}
