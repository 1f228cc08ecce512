package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/pbemd/pbemd/pbem/daemon"
	"github.com/pbemd/pbemd/pbem/outbox"
)

// runSweep is "pbemd sweep [-config FILE] [-data DIR] [-print] [-now RFC3339]":
// the reminders and forfeits due, as the daemon sends them hourly, run by
// hand or from cron. -now pretends another time, for tests and for catching
// up after a stop.
func runSweep(args []string) int {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	configFile := fs.String("config", "", "configuration `file` (default: none; mails stay in the outbox for pbemd serve; with one, they are sent)")
	data := fs.String("data", "", "data `directory` (default: the config's, or ./pbem-data)")
	print := fs.Bool("print", false, "write the mails to stdout as an mbox instead of queueing them")
	nowFlag := fs.String("now", "", "the `time` to sweep at, RFC 3339 (default: now), e.g. 2026-12-01T12:00:00Z")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "pbemd sweep: unexpected argument %q; the flags are -config, -data, -print and -now\n", fs.Arg(0))
		return 2
	}
	now := time.Now()
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			fmt.Fprintf(os.Stderr, "pbemd sweep: -now %q is not an RFC 3339 time; write it as 2026-12-01T12:00:00Z\n", *nowFlag)
			return 2
		}
		now = t
	}
	svc, db, cfg, err := openService(*configFile, *data)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pbemd sweep: %v\n", err)
		return 1
	}
	defer db.Close()
	ids, err := svc.SweepIDs(now)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pbemd sweep: %v\n", err)
		return 1
	}
	switch {
	case *print:
		if err := outbox.Print(db, ids, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "pbemd sweep: %v\n", err)
			return 1
		}
	case *configFile != "":
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := daemon.SendQueued(ctx, db, cfg); err != nil {
			fmt.Fprintf(os.Stderr, "pbemd sweep: %v\n", err)
			return 1
		}
	}
	return 0
}
