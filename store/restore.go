package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// RestoreStats tells what Restore did.
type RestoreStats struct {
	Bytes    int64       // the size of the copy put in place
	UID, GID int         // the owner it was given: the data directory's (-1 where unknown)
	Mode     os.FileMode // the permission bits it was given
	Kept     string      // where the replaced store is kept, or "" when there was none
}

// Restore puts the copy at src (a file "pbemd backup" wrote) in place of the
// store at path, while no process has the store open.
//
// The copy is checked first and refused, with the store left as it was,
// when it is not a pbemd store (ErrNotStore), is of a schema this code does
// not read (ErrSchema) or is damaged (its pages do not hold together). The
// new file gets the owner of the data directory and the mode of the file it
// replaces (0600 when there is none): a restore run by root leaves a store
// the daemon's own user, such as systemd's DynamicUser, can write. The
// replaced store stays beside it as path+".before-restore" until the next
// restore. A store in use fails with ErrLocked.
func Restore(src, path string, lockTimeout time.Duration) (RestoreStats, error) {
	st := RestoreStats{UID: -1, GID: -1, Mode: 0o600}
	if err := Check(src); err != nil {
		return st, err
	}
	// A data file that is a link is restored where it lies, and the link kept.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	dir, err := os.Stat(filepath.Dir(path))
	if err != nil {
		return st, fmt.Errorf("store: restore: the data directory: %w; make it, owned by the daemon's user, or start pbemd serve once", err)
	}
	old, err := os.Stat(path)
	switch {
	case err == nil:
		if sfi, serr := os.Stat(src); serr == nil && os.SameFile(sfi, old) {
			return st, fmt.Errorf("store: restore: %s is the store itself; name a backup copy", src)
		}
		st.Mode = old.Mode().Perm()
		// Hold the store while it is replaced, as Compact does. One that does
		// not open (damaged: what a restore is for) cannot be in use.
		db, err := Open(path, &Options{ReadOnly: true, LockTimeout: lockTimeout})
		if errors.Is(err, ErrLocked) {
			return st, err
		}
		if err == nil {
			defer db.Close()
		}
	case !errors.Is(err, os.ErrNotExist):
		return st, fmt.Errorf("store: restore: %w", err)
	}
	tmp := path + ".restore"
	os.Remove(tmp) // a restore cut short before
	err = copyTo(tmp, src, &st)
	if err == nil {
		err = giveOwner(tmp, dir, st.Mode, &st)
	}
	if err == nil {
		err = Check(tmp) // what was written is what was checked
	}
	if err == nil && old != nil {
		kept := path + ".before-restore"
		os.Remove(kept)
		if err = os.Link(path, kept); err == nil {
			st.Kept = kept
		}
	}
	if err == nil {
		err = putInPlace(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return st, fmt.Errorf("store: restore %s (left as it was): %w", path, err)
	}
	return st, nil
}

// Check opens the file at path as a store, read-only, and checks that it
// is a pbemd store of a schema this code reads and that its pages hold
// together: every page reachable once, every key in order. It reads every
// page; a store a daemon holds is ErrLocked.
func Check(path string) error {
	db, err := Open(path, &Options{ReadOnly: true, LockTimeout: time.Second})
	if err != nil {
		return err
	}
	defer db.Close()
	return guard(path, func() error {
		return db.bolt.View(func(btx *bolt.Tx) error {
			for err := range btx.Check() {
				return notStore(path, "it is damaged: "+err.Error())
			}
			return nil
		})
	})
}

// copyTo copies the file src to the new file dst and syncs it.
func copyTo(dst, src string, st *RestoreStats) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	st.Bytes, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
