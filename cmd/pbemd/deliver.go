package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
	"github.com/pbemd/pbemd/store"
)

// runDeliver is "pbemd deliver [-config FILE] [-data DIR] [-print]": one mail
// on stdin, as a .forward, procmail or an MTA pipe would hand it over. The
// replies go to stdout with -print; with a config they are sent by its SMTP
// server (what cannot be sent now stays in the outbox for the next deliver
// or for pbemd serve); without either they wait in the outbox.
func runDeliver(args []string) int {
	fs := flag.NewFlagSet("deliver", flag.ContinueOnError)
	configFile := fs.String("config", "", "configuration `file` (default: none; replies stay in the outbox for pbemd serve)")
	data := fs.String("data", "", "data `directory` (default: the config's, or ./pbem-data)")
	print := fs.Bool("print", false, "write the replies to stdout as an mbox instead of queueing them")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	svc, db, cfg, err := openService(*configFile, *data)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pbemd deliver: %v\n", err)
		return 1
	}
	defer db.Close()
	raw, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pbemd deliver: reading the mail: %v\n", err)
		return 1
	}
	ids, err := svc.Handle(raw)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pbemd deliver: %v\n", err)
		return 1
	}
	switch {
	case *print:
		if err := pbem.PrintMbox(db, ids, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "pbemd deliver: %v\n", err)
			return 1
		}
	case *configFile != "":
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := daemon.SendQueued(ctx, db, cfg); err != nil {
			fmt.Fprintf(os.Stderr, "pbemd deliver: %v\n", err)
			return 1
		}
	}
	return 0
}

// openService opens the store and the service as a config file, or the
// defaults, describe them; dataFlag, when set, overrides the data directory.
func openService(configFile, dataFlag string) (*pbem.Service, *store.DB, *config.Config, error) {
	cfg := config.Default()
	if configFile != "" {
		var err error
		if cfg, err = config.Load(configFile); err != nil {
			return nil, nil, nil, err
		}
	}
	dir := cfg.Data
	if dataFlag != "" {
		dir = dataFlag
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, nil, err
	}
	db, err := store.Open(store.PathIn(dir), nil)
	if err != nil {
		return nil, nil, nil, err
	}
	addr := cfg.Address
	if addr == "" {
		addr = "pbem@localhost" // the embedded default's address
	}
	return pbem.New(db, pbem.Config{Address: addr, Name: cfg.Name, Limits: cfg.Limits.Service()}), db, cfg, nil
}
