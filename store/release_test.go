package store

import (
	"bytes"
	"encoding/binary"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// residentFileKB is the process's resident memory backed by files
// (RssFile in /proc/self/status), or -1 where there is none to read.
func residentFileKB(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "RssFile:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("RssFile line %q: %v", line, err)
			}
			return n
		}
	}
	return -1
}

// fillPages stores n values of 4 KiB, each its own page or so, and
// returns a function that reads them all back and checks them.
func fillPages(t *testing.T, db *DB, n int) func() {
	t.Helper()
	value := func(i int) []byte {
		v := bytes.Repeat([]byte{byte(i)}, 4096)
		binary.BigEndian.PutUint32(v, uint32(i))
		return v
	}
	err := db.bolt.Update(func(btx *bolt.Tx) error {
		b, err := btx.CreateBucketIfNotExists([]byte("release-test"))
		if err != nil {
			return err
		}
		for i := range n {
			if err := b.Put(binary.BigEndian.AppendUint32(nil, uint32(i)), value(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return func() {
		err := db.bolt.View(func(btx *bolt.Tx) error {
			b := btx.Bucket([]byte("release-test"))
			for i := range n {
				if got := b.Get(binary.BigEndian.AppendUint32(nil, uint32(i))); !bytes.Equal(got, value(i)) {
					t.Errorf("value %d reads wrong after a release", i)
					return nil
				}
			}
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	}
}

// The daemon's resident memory must not grow with the store: reading a
// large store maps its pages, and ReleasePages gives them back while
// every value still reads the same.
func TestReleasePagesShrinksResidentMemory(t *testing.T) {
	if residentFileKB(t) < 0 {
		t.Skip("no RssFile in /proc/self/status on this system: nothing to measure")
	}
	db := openTest(t)
	readAll := fillPages(t, db, 16384) // 64 MiB of values
	readAll()
	before := residentFileKB(t)
	if err := db.ReleasePages(); err != nil {
		t.Fatal(err)
	}
	after := residentFileKB(t)
	if before-after < 48<<10 {
		t.Errorf("RssFile %d kB before the release, %d kB after; want at least 48 MiB fewer", before, after)
	}
	readAll()
}

// A release while other goroutines read and write loses and changes
// nothing they see.
func TestReleasePagesDuringReadsAndWrites(t *testing.T) {
	db := openTest(t)
	readAll := fillPages(t, db, 2048)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				readAll()
			}
		}
	})
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			// Growing the file makes bbolt remap it now and then.
			err := db.Update(func(tx *Tx) error { return tx.SetNote("release-test-"+strconv.Itoa(i), strings.Repeat("x", 8192)) })
			if err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 200 {
		if err := db.ReleasePages(); err != nil {
			t.Error(err)
			break
		}
	}
	close(stop)
	wg.Wait()
	readAll()
}
