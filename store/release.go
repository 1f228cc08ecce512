package store

import bolt "go.etcd.io/bbolt"

// ReleasePages drops the database file's pages from the process's address
// space. bbolt reads the file through a shared memory map, and every page
// a read touches (with the kernel mapping its neighbours too) stays
// counted in the process's resident memory, so on a large store the
// resident size grows toward the file's size though the pages are only
// the kernel's file cache. Released pages stay in that cache: the next
// read of one maps it again at the cost of a minor fault, and reads the
// same bytes, as the map is of the file itself and read-only.
//
// The release runs inside a read transaction, which keeps bbolt from
// remapping the file meanwhile. Where the system has no such call it does
// nothing, and so on a store that is no file.
func (db *DB) ReleasePages() error {
	if db.bolt == nil {
		return nil // no file mapped: etcd's pages are its own process's
	}
	return db.bolt.View(func(tx *bolt.Tx) error {
		return releaseMapped(db.bolt.Info().Data, uintptr(tx.Size()))
	})
}
