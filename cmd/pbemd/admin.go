package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/pbemd/pbemd/pbem/admin"
	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
)

const adminHelp = "Works beside a running pbemd serve (through its control socket in the data\n" +
	"directory, as backup does) or on the data alone. Changes are logged. Mails an\n" +
	"action causes go to the outbox: a running daemon sends them at once, else the\n" +
	"next pbemd serve does.\n\n" + admin.Usage

// runAdmin is "pbemd admin [-config FILE] [-data DIR] ACTION [ARG ...]".
func runAdmin(c *invocation) error {
	where := c.dataFlags("the embedded default's data directory")
	if err := c.flags.Parse(c.args); err != nil {
		return c.parseError(err)
	}
	args := c.flags.Args()
	if len(args) == 0 {
		return usageError("name an action")
	}
	cfg, err := where.loadConfig(config.UsesNone)
	if err != nil {
		return err
	}
	if _, err := os.Stat(daemon.ControlPath(cfg.Data)); err == nil {
		err := daemon.RunAdmin(cfg.Data, args, c.stdout)
		if !errors.Is(err, daemon.ErrNoDaemon) {
			return adminError(err)
		}
		// A socket left by a daemon that died: work on the data.
	}
	s, err := c.open(where, config.UsesNone, false)
	if err != nil {
		return err
	}
	defer s.Close()
	return adminError(admin.Run(admin.Env{Service: s.svc, DB: s.db, Log: s.log.With("part", "admin")}, args, c.stdout))
}

// adminError turns an action written wrongly into a usage error.
func adminError(err error) error {
	var u admin.UsageError
	if errors.As(err, &u) {
		return usageError(fmt.Sprintf("%v", err))
	}
	return err
}
