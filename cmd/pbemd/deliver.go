package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/store"
)

// runDeliver is "pbemd deliver [-config FILE] [-data DIR] [-print]": one mail
// on stdin, as a .forward, procmail or an MTA pipe would hand it over.
func runDeliver(args []string) int {
	fs := flag.NewFlagSet("deliver", flag.ContinueOnError)
	configFile := fs.String("config", "", "configuration `file` (default: none; replies stay in the outbox for pbemd serve)")
	data := fs.String("data", "", "data `directory` (default: the config's, or ./pbem-data)")
	print := fs.Bool("print", false, "write the replies to stdout as an mbox instead of queueing them")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	svc, db, err := openService(*configFile, *data)
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
	if *print {
		if err := pbem.PrintMbox(db, ids, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "pbemd deliver: %v\n", err)
			return 1
		}
	}
	return 0
}

// openService opens the store and the service as a config file, or the
// defaults, describe them; dataFlag, when set, overrides the data directory.
func openService(configFile, dataFlag string) (*pbem.Service, *store.DB, error) {
	cfg := config.Default()
	if configFile != "" {
		var err error
		if cfg, err = config.Load(configFile); err != nil {
			return nil, nil, err
		}
	}
	dir := cfg.Data
	if dataFlag != "" {
		dir = dataFlag
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, err
	}
	db, err := store.Open(store.PathIn(dir), nil)
	if err != nil {
		return nil, nil, err
	}
	addr := cfg.Address
	if addr == "" {
		addr = "pbem@localhost" // the embedded default's address
	}
	return pbem.New(db, pbem.Config{Address: addr, Name: cfg.Name}), db, nil
}
