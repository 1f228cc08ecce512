// Package storetest is what tests share to work on a store: a new one in a
// directory of the test's own, closed when the test ends. It imports store
// and bbolt alone (BareBolt: the floor a benchmark sets its figures
// against), so that every package above store may use it (the store's own
// internal tests cannot: they keep one helper of theirs, openTest).
package storetest

import (
	"testing"

	"github.com/pbemd/pbemd/store"
)

// New opens a new, empty store in a temporary directory of t and closes it
// when t ends. Its writes are not synced: a test's store outlives no crash,
// and a sync costs some 0.3 ms a commit.
func New(t testing.TB) *store.DB {
	t.Helper()
	return Open(t, store.PathIn(t.TempDir()), &store.Options{NoSync: true})
}

// Open opens the store at path with o, as store.Open does, failing t when it
// cannot, and closes it when t ends. A test that closes it earlier (to open
// the file again, say) may: closing twice does no harm.
func Open(t testing.TB, path string, o *store.Options) *store.DB {
	t.Helper()
	db, err := store.Open(path, o)
	if err != nil {
		t.Fatalf("opening a test's store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
