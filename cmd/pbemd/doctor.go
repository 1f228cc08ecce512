package main

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
)

// runDoctor is "pbemd doctor [-config FILE] [-data DIR] [-resolver ADDR]
// [-timeout D]": one line per check of what the daemon needs, and exit
// status 1 when a check failed.
func runDoctor(c *invocation) error {
	where := c.dataFlags("the embedded default's data directory alone")
	resolver := c.flags.String("resolver", "", "DNS server `host:port` to ask (default: the config's dkim_resolver, else the system's)")
	timeout := c.flags.Duration("timeout", 10*time.Second, "bound on each check that connects")
	if _, err := c.parse(0, "only flags"); err != nil {
		return err
	}
	if *resolver != "" {
		if _, _, err := net.SplitHostPort(*resolver); err != nil {
			return usageError(fmt.Sprintf("-resolver %q is not host:port of a DNS server, e.g. 127.0.0.1:53", *resolver))
		}
	}
	cfg, err := where.loadConfig(config.UsesAll)
	if err != nil {
		fmt.Fprintln(c.stdout, daemon.Finding{Level: daemon.Fail, Check: "config", Detail: err.Error()})
		return exitStatus(1)
	}
	if where.config == "" {
		fmt.Fprintln(c.stdout, daemon.Finding{Level: daemon.Skip, Check: "config", Detail: "none given (-config FILE): the embedded default's data only"})
	} else {
		fmt.Fprintln(c.stdout, daemon.Finding{Level: daemon.OK, Check: "config", Detail: where.config + " reads and checks"})
	}
	if *resolver != "" {
		cfg.DKIMResolver = *resolver
	}
	opts := daemon.DoctorOptions{Configured: where.config != "", Timeout: *timeout}
	failed := daemon.Doctor(context.Background(), cfg, opts, func(f daemon.Finding) { fmt.Fprintln(c.stdout, f) })
	if failed {
		return exitStatus(1)
	}
	return nil
}
