// Package storetest is what tests share to work on a store: a new one of
// the test's own, closed when the test ends. It imports store and bbolt
// alone (BareBolt: the floor a benchmark sets its figures against), so
// that every package above store may use it (the store's own internal
// tests cannot: they keep one helper of theirs, openTest).
//
// The environment variable PBEMD_TEST_STORE chooses the engine of New, so
// that the whole suite runs on either: unset or "bbolt", a file in a
// temporary directory; "etcd-embedded", an etcd member started inside the
// test process; "etcd://HOST:PORT[,HOST:PORT...]", a running cluster
// (.ci/run starts three members). On etcd each store has a key prefix of
// its own.
package storetest

import (
	"crypto/rand"
	"fmt"
	"os"
	"testing"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/etcdtest"
)

// EnvStore names the environment variable that chooses the engine.
const EnvStore = "PBEMD_TEST_STORE"

// New opens a new, empty store and closes it when t ends: on the engine
// EnvStore chooses, by default a file in a temporary directory of t. Its
// writes are not synced: a test's store outlives no crash, and a sync
// costs some 0.3 ms a commit.
func New(t testing.TB) *store.DB {
	t.Helper()
	o := &store.Options{NoSync: true}
	c, err := Etcd()
	if err != nil {
		t.Fatalf("the test store of %s: %v", EnvStore, err)
	}
	if c == nil {
		return Open(t, store.PathIn(t.TempDir()), o)
	}
	db, err := store.OpenEtcd(c, o)
	if err != nil {
		t.Fatalf("opening a test's store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Etcd returns the config of a new store under a prefix of its own on the
// cluster EnvStore names, or nil when it names none.
func Etcd() (*store.EtcdConfig, error) {
	env := os.Getenv(EnvStore)
	var c *store.EtcdConfig
	switch env {
	case "", "bbolt":
		return nil, nil
	case "etcd-embedded":
		addr, err := etcdtest.Shared()
		if err != nil {
			return nil, err
		}
		c = &store.EtcdConfig{Endpoints: []string{addr}}
	default:
		var err error
		if c, err = store.ParseEtcdURL(env); err != nil {
			return nil, fmt.Errorf("%w; or \"bbolt\", or \"etcd-embedded\"", err)
		}
	}
	// The test cluster's limits are those asked of a real one.
	c.MaxTxnOps, c.MaxRequestBytes = etcdtest.MaxTxnOps, etcdtest.MaxRequestBytes
	c.Prefix = "pbemd-test/" + rand.Text()[:16]
	return c, nil
}

// Open opens the store at path with o, as store.Open does, failing t when it
// cannot, and closes it when t ends. A test that closes it earlier (to open
// the file again, say) may: closing twice does no harm. It is bbolt's: a
// test that works on the file itself uses it.
func Open(t testing.TB, path string, o *store.Options) *store.DB {
	t.Helper()
	db, err := store.Open(path, o)
	if err != nil {
		t.Fatalf("opening a test's store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
