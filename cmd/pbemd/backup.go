package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
	"github.com/pbemd/pbemd/store"
)

// runBackup is "pbemd backup [-config FILE] [-data DIR] FILE": it writes a consistent copy
// of the database to FILE, replacing FILE only once the copy is complete.
func runBackup(c *invocation) error {
	where := c.dataFlags("the embedded default's data directory")
	args, err := c.parse(1, "exactly one FILE to write the copy to")
	if err != nil {
		return err
	}
	cfg, err := where.loadConfig(config.UsesNone)
	if err != nil {
		return err
	}
	data := &cfg.Data
	out := args[0]
	var db *store.DB
	if cfg.Store != "" {
		// etcd: read at one revision, written as a bbolt store, which
		// restore and migrate read.
		db, err = cfg.OpenStore(&store.Options{ReadOnly: true})
	} else {
		db, err = store.Open(store.PathIn(*data), &store.Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond})
	}
	if errors.Is(err, store.ErrLocked) {
		// A daemon holds the database: it makes the copy.
		if ferr := daemon.FetchBackup(*data, out); ferr != nil {
			return fmt.Errorf("%v, and %v", err, ferr)
		}
		fmt.Fprintf(c.stdout, "pbemd backup: the running daemon copied %s to %s\n", store.PathIn(*data), out)
		return nil
	}
	if err != nil {
		return err
	}
	err = db.BackupFile(out)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "pbemd backup: copied %s to %s\n", db.Path(), out)
	return nil
}
