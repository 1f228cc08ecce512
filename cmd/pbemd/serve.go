package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
)

// runServe is "pbemd serve [-config FILE] [-data DIR]": the daemon. Without
// -config it runs the embedded default, its own mail server on 127.0.0.1.
// It stops cleanly on SIGINT or SIGTERM.
func runServe(c *invocation) error {
	where := c.dataFlags("run the embedded mail server")
	imapAddr := c.flags.String("imap", "127.0.0.1:1143", "embedded default only: IMAP listen `address`")
	smtpAddr := c.flags.String("smtp", "127.0.0.1:1587", "embedded default only: SMTP listen `address`")
	httpAddr := c.flags.String("http", "", "web view listen `address`, or off (default: the config's http, else "+config.DefaultHTTP+")")
	if _, err := c.parse(0, "only flags"); err != nil {
		return err
	}
	if *httpAddr != "" {
		if err := config.CheckHTTP(*httpAddr); err != nil {
			return usageError("-" + err.Error())
		}
	}
	cfg, err := where.loadConfig(config.UsesAll)
	if err != nil {
		return err
	}
	opts := daemon.Options{Data: where.data, IMAPAddr: *imapAddr, SMTPAddr: *smtpAddr, HTTPAddr: *httpAddr, Logger: cfg.Log.Logger(c.stderr)}
	if where.config != "" {
		opts.Config = cfg
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return daemon.Run(ctx, opts)
}
