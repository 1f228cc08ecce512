package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/store"
)

// runCompact is "pbemd compact [-config FILE] [-data DIR]": the database
// rewritten without its free pages, while the daemon is stopped.
func runCompact(c *invocation) error {
	where := c.dataFlags("the embedded default's data directory")
	if _, err := c.parse(0, "only the flags -config and -data"); err != nil {
		return err
	}
	cfg, err := where.loadConfig(config.UsesNone)
	if err != nil {
		return err
	}
	if cfg.Store != "" {
		db, err := cfg.OpenStore(nil)
		if err != nil {
			return err
		}
		defer db.Close()
		st, err := db.CompactCluster()
		if err != nil {
			return err
		}
		for _, m := range st.Members {
			fmt.Fprintf(c.stdout, "pbemd compact: member %s defragmented: %.1f MB to %.1f MB\n", m.Endpoint, float64(m.Before)/1e6, float64(m.After)/1e6)
		}
		fmt.Fprintf(c.stdout, "pbemd compact: %s: history before revision %d dropped; %.1f MB to %.1f MB on the members in %s\n",
			db.Path(), st.Revision, float64(st.Before)/1e6, float64(st.After)/1e6, st.Took.Round(time.Millisecond))
		return nil
	}
	path := store.PathIn(cfg.Data)
	st, err := store.Compact(path, 200*time.Millisecond)
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w; stop the daemon first: compacting needs the database to itself", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "pbemd compact: %s: %.1f MB (%d free pages) to %.1f MB in %s\n",
		path, float64(st.Before)/1e6, st.Free, float64(st.After)/1e6, st.Took.Round(time.Millisecond))
	return nil
}
