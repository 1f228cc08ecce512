package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/pbemd/pbemd/store/etcdtest"
)

// A bbolt store's size is its file's.
func TestSizeBolt(t *testing.T) {
	db := openTest(t)
	got, err := db.Size()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	if got != fi.Size() || got == 0 {
		t.Errorf("Size = %d, the file has %d bytes", got, fi.Size())
	}
}

// A store in etcd answers the size of the member's database, which grows
// with what is written; a cluster gone is an error, not a size of 0.
func TestSizeEtcd(t *testing.T) {
	t.Parallel()
	c := etcdConfig(t)
	addr, stop := etcdtest.Start(t) // its own: the size is the member's whole
	c.Endpoints = []string{addr}
	db := openEtcdTest(t, c)
	before, err := db.Size()
	if err != nil || before <= 0 {
		t.Fatalf("Size of a new store in etcd: %d, %v", before, err)
	}
	for i := range 8 {
		if err := db.Update(func(tx *Tx) error {
			return tx.SetNote(fmt.Sprint("big", i), string(bytes.Repeat([]byte{'x'}, 1<<20)))
		}); err != nil {
			t.Fatal(err)
		}
	}
	after, err := db.Size()
	// The member writes its database in batches: most of it is there.
	if err != nil || after < before+4<<20 {
		t.Errorf("Size after writing 8 MiB: %d (%v), before %d; want at least 4 MiB more", after, err, before)
	}
	stop()
	if n, err := db.Size(); !errors.Is(err, ErrUnreachable) {
		t.Errorf("Size with the member stopped: %d, %v; want ErrUnreachable", n, err)
	}
}
