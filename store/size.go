package store

import (
	"fmt"
	"os"
)

// Size is the store's size on disk, what an operator watches against the
// room it has: for a bbolt store, its file; for a store in etcd, the
// database of the largest member. Every member holds the whole keyspace
// (every prefix, not this store's alone, and the history not yet
// compacted), and the cluster stops taking writes when one of them
// reaches its --quota-backend-bytes. It asks each member once, within
// the store's timeout.
func (db *DB) Size() (int64, error) {
	if e, ok := db.eng.(*etcdEngine); ok {
		_, largest, err := e.dbSizes()
		return largest, err
	}
	fi, err := os.Stat(db.path)
	if err != nil {
		return 0, fmt.Errorf("store: size: %w", err)
	}
	return fi.Size(), nil
}

// FreePages is how many pages of the bbolt file are free, and whether the
// store is a file (a store in etcd has none). bbolt never gives them back
// to the file system: every commit writes their list, 8 bytes a page, and
// takes its new pages from among them, scattered over the file. Compact
// packs the file and leaves none.
func (db *DB) FreePages() (int, bool) {
	if db.bolt == nil {
		return 0, false
	}
	return db.bolt.Stats().FreePageN, true
}
