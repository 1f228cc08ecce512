package main

import (
	"errors"
	"fmt"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
)

// runVersion is "pbemd version [-config FILE] [-data DIR]": the module
// version and the VCS revision the binary was built from, and then that of
// the daemon running on the data, which after an upgrade without a restart
// is not the binary's.
func runVersion(c *invocation) error {
	where := c.dataFlags("the embedded default's data directory")
	if _, err := c.parse(0, "only the flags -config and -data"); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, daemon.Version())
	cfg, err := where.loadConfig(config.UsesNone)
	if err != nil {
		return err
	}
	running, err := daemon.RunningVersion(cfg.Data)
	switch {
	case errors.Is(err, daemon.ErrNoDaemon):
		fmt.Fprintf(c.stdout, "running: none (no daemon answers on %s)\n", daemon.ControlPath(cfg.Data))
	case err != nil:
		fmt.Fprintf(c.stdout, "running: unknown (%v)\n", err)
	default:
		fmt.Fprintf(c.stdout, "running: %s\n", running)
	}
	return nil
}
