package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/store"
)

// runRestore is "pbemd restore [-config FILE] [-data DIR] [-force] FILE": a
// backup copy checked and put in place of the database, while the daemon
// is stopped; on etcd (the configuration's store:), copied into its
// prefix.
func runRestore(c *invocation) error {
	where := c.dataFlags("the embedded default's data directory")
	force := c.flags.Bool("force", false, "on etcd: replace the store the prefix holds (a backup of it is kept beside FILE)")
	args, err := c.parse(1, "exactly one FILE, the backup copy to restore")
	if err != nil {
		return err
	}
	cfg, err := where.loadConfig(config.UsesNone)
	if err != nil {
		return err
	}
	if cfg.Store != "" {
		return restoreEtcd(c, cfg, args[0], *force)
	}
	path := store.PathIn(cfg.Data)
	st, err := store.Restore(args[0], path, 200*time.Millisecond)
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w; stop the daemon first: restoring needs the database to itself", err)
	}
	if err != nil {
		return fmt.Errorf("nothing restored: %w", err)
	}
	fmt.Fprintf(c.stdout, "pbemd restore: %s (%.1f MB) is now %s, owner %d:%d, mode %04o\n",
		args[0], float64(st.Bytes)/1e6, path, st.UID, st.GID, st.Mode)
	if st.Kept != "" {
		fmt.Fprintf(c.stdout, "pbemd restore: the replaced database is kept as %s until the next restore\n", st.Kept)
	}
	return nil
}

// restoreEtcd restores the copy at src into the store in etcd that cfg
// names; what a store there held is kept beside src, under a name of the
// time, which no later restore overwrites.
func restoreEtcd(c *invocation, cfg *config.Config, src string, force bool) error {
	db, err := cfg.OpenStore(nil)
	if err != nil {
		return fmt.Errorf("nothing restored: %w", err)
	}
	defer db.Close()
	keep := filepath.Join(filepath.Dir(src), "pbemd-before-restore-"+time.Now().UTC().Format("20060102T150405Z")+".db")
	st, err := db.RestoreFrom(src, force, keep)
	if st.Kept != "" {
		fmt.Fprintf(c.stdout, "pbemd restore: what %s held is kept in %s\n", db.Path(), st.Kept)
	}
	if err != nil {
		if st.Kept != "" {
			return fmt.Errorf("the restore failed part way: %w; restore again with -force, or restore %s", err, st.Kept)
		}
		return fmt.Errorf("nothing restored: %w", err)
	}
	fmt.Fprintf(c.stdout, "pbemd restore: %s (%d keys, %d bytes, in %d buckets) is now %s; checked key by key\n",
		src, st.Keys, st.Bytes, st.Buckets, db.Path())
	return nil
}
