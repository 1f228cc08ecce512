package main

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
	"github.com/pbemd/pbemd/store"
)

// dryCopy makes a copy of the data's store in a temporary directory for
// -n: the command runs on the copy exactly as it would on the store, its
// mails are written to stdout as an mbox, and cleanup removes the copy.
// The store itself is only read (or, while the daemon holds it, copied by
// the daemon), so a dry run changes nothing.
func (c *invocation) dryCopy(cfg *config.Config) (dir string, cleanup func(), err error) {
	dir, err = os.MkdirTemp("", "pbemd-dry-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	if err := copyStore(cfg.Data, store.PathIn(dir)); err != nil {
		cleanup()
		return "", nil, err
	}
	fmt.Fprintf(c.stderr, "pbemd %s: dry run on a copy of %s; nothing is stored or sent\n", c.cmd.name, store.PathIn(cfg.Data))
	return dir, cleanup, nil
}

// openDry opens a dry run's copy of the store (see dryCopy).
func (c *invocation) openDry(cfg *config.Config, log *slog.Logger) (*setup, error) {
	dir, cleanup, err := c.dryCopy(cfg)
	if err != nil {
		return nil, err
	}
	db, err := store.Open(store.PathIn(dir), &store.Options{NoSync: true})
	if err != nil {
		cleanup()
		return nil, err
	}
	svc := pbem.New(db, cfg.Service(log))
	return &setup{cfg: cfg, log: log, db: db, svc: svc, dry: true, cleanup: cleanup}, nil
}

// copyStore writes a consistent copy of the store of the data directory to
// path: read-only when no daemon holds it, else through the daemon's
// control socket. A data directory without a store gives no copy: the dry
// run starts from an empty store, as the real run would.
func copyStore(data, path string) error {
	db, err := store.Open(store.PathIn(data), &store.Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond})
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return os.MkdirAll(filepath.Dir(path), 0o700)
	case errors.Is(err, store.ErrLocked):
		return daemon.FetchBackup(data, path)
	case err != nil:
		return err
	}
	defer db.Close()
	return db.BackupFile(path)
}
