package store

import (
	"errors"
	"fmt"
	"time"
)

// EtcdRestoreStats tells what RestoreFrom did.
type EtcdRestoreStats struct {
	Copied
	Kept string // where what the store held before is kept, or "" when it held nothing
}

// ErrNotEmpty reports a store that holds records where a restore wants
// none.
var ErrNotEmpty = errors.New("the store is not empty")

// RestoreFrom is "pbemd restore" of a store in etcd: the copy at src (a
// file "pbemd backup" wrote) is checked as Restore checks it, copied into
// the store's prefix and checked again key by key. Every node of the
// store must be stopped: while one leads the store, nothing is restored.
//
// A prefix that holds records is refused with ErrNotEmpty unless force is
// set; then what it holds is first written to a backup at keep (replaced
// if there is one), and only then removed, so a restore never loses the
// last state. A copy of an older schema is brought up to date, as Open
// does with a file.
func (db *DB) RestoreFrom(src string, force bool, keep string) (EtcdRestoreStats, error) {
	var st EtcdRestoreStats
	if _, err := db.etcd("RestoreFrom"); err != nil {
		return st, err
	}
	if err := Check(src); err != nil {
		return st, err
	}
	leader, err := db.Leader()
	if err != nil {
		return st, err
	}
	if leader != "" {
		return st, fmt.Errorf("store: restore: the node %s serves %s; stop pbemd serve on every node first", leader, db.path)
	}
	if db.empty() != nil {
		if !force {
			return st, fmt.Errorf("store: restore: %s %w: it holds a store; restore with -force to replace it (a backup of it is kept)", db.path, ErrNotEmpty)
		}
		if sameFile(keep, src) {
			return st, fmt.Errorf("store: restore: the backup of what %s holds would overwrite %s, the copy to restore; keep it elsewhere", db.path, src)
		}
		if err := db.BackupFile(keep); err != nil {
			return st, fmt.Errorf("store: restore: keeping what %s holds (nothing was changed): %w", db.path, err)
		}
		st.Kept = keep
		if err := db.clear(); err != nil {
			return st, fmt.Errorf("store: restore: emptying %s (what it held is kept in %s): %w", db.path, keep, err)
		}
	}
	from, err := Open(src, &Options{ReadOnly: true, LockTimeout: time.Second})
	if err != nil {
		return st, err
	}
	defer from.Close()
	if st.Copied, err = from.CopyTo(db); err != nil {
		return st, err
	}
	return st, db.prepare()
}

// clear removes every bucket of the store, with its keys.
func (db *DB) clear() error {
	return db.eng.update(func(t etx) error {
		var names [][]byte
		if err := t.eachBucket(func(name []byte, _ bucket) error { names = append(names, clone(name)); return nil }); err != nil {
			return err
		}
		for _, name := range names {
			if err := t.deleteBucket(name); err != nil {
				return err
			}
		}
		return nil
	})
}
