package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/store"
)

// runRestore is "pbemd restore [-config FILE] [-data DIR] FILE": a backup
// copy checked and put in place of the database, while the daemon is
// stopped.
func runRestore(c *invocation) error {
	where := c.dataFlags("the embedded default's data directory")
	args, err := c.parse(1, "exactly one FILE, the backup copy to restore")
	if err != nil {
		return err
	}
	cfg, err := where.loadConfig(config.UsesNone)
	if err != nil {
		return err
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
