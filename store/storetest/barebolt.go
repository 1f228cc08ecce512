package storetest

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A BareRate is what a bare bbolt loop reached on a disk: the floor a
// store's commit cannot go below, to set a benchmark's figures against.
type BareRate struct {
	Commits float64 // fsync'd commits of one value a second
	Values  float64 // values a second in fsync'd commits of 50
}

// BareBolt measures a bare bbolt loop in a new file in dir (on the disk
// to compare with), with fsync on: n commits of one 300-byte value, then
// n commits of 50, each value under a key of its own. The file is
// removed after.
func BareBolt(dir string, n int) (BareRate, error) {
	f, err := os.MkdirTemp(dir, "barebolt")
	if err != nil {
		return BareRate{}, err
	}
	defer os.RemoveAll(f)
	db, err := bolt.Open(filepath.Join(f, "bare.db"), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return BareRate{}, fmt.Errorf("bare bbolt loop: %w", err)
	}
	defer db.Close()
	value := make([]byte, 300)
	key := uint64(0)
	loop := func(perCommit int) (float64, error) {
		start := time.Now()
		for range n {
			err := db.Update(func(tx *bolt.Tx) error {
				b, err := tx.CreateBucketIfNotExists([]byte("bare"))
				if err != nil {
					return err
				}
				for range perCommit {
					key++
					if err := b.Put(binary.BigEndian.AppendUint64(nil, key), value); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return 0, fmt.Errorf("bare bbolt loop: %w", err)
			}
		}
		return float64(n*perCommit) / time.Since(start).Seconds(), nil
	}
	var r BareRate
	if r.Commits, err = loop(1); err != nil {
		return r, err
	}
	r.Values, err = loop(50)
	return r, err
}
