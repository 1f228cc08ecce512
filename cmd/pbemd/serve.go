package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
)

// runServe is "pbemd serve [-config FILE] [-data DIR]": the daemon. Without
// -config it runs the embedded default, its own mail server on 127.0.0.1.
// It stops cleanly on SIGINT or SIGTERM.
func runServe(args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	configFile := fs.String("config", "", "configuration `file` (default: none; run the embedded mail server)")
	data := fs.String("data", "", "data `directory` (default: the config's, or ./pbem-data)")
	imapAddr := fs.String("imap", "127.0.0.1:1143", "embedded default only: IMAP listen `address`")
	smtpAddr := fs.String("smtp", "127.0.0.1:1587", "embedded default only: SMTP listen `address`")
	httpAddr := fs.String("http", "", "web view listen `address`, or off (default: the config's http, else "+config.DefaultHTTP+")")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "pbemd serve: unexpected argument %q; want only flags\n", fs.Arg(0))
		return 2
	}
	if *httpAddr != "" {
		if err := config.CheckHTTP(*httpAddr); err != nil {
			fmt.Fprintf(os.Stderr, "pbemd serve: -%v\n", err)
			return 2
		}
	}
	opts := daemon.Options{Data: *data, IMAPAddr: *imapAddr, SMTPAddr: *smtpAddr, HTTPAddr: *httpAddr}
	if *configFile != "" {
		cfg, err := config.Load(*configFile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "pbemd serve: %v\n", err)
			return 1
		}
		opts.Config = cfg
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := daemon.Run(ctx, opts); err != nil {
		fmt.Fprintf(os.Stderr, "pbemd serve: %v\n", err)
		return 1
	}
	return 0
}
