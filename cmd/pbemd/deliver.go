package main

import (
	"context"
	"errors"
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

// Exit statuses of pbemd deliver, as sysexits.h names them: a mail system
// keeps the mail and tries again later on EX_TEMPFAIL.
const (
	exitOK       = 0
	exitUsage    = 64 // EX_USAGE: wrong flags
	exitDataErr  = 65 // EX_DATAERR: standard input held no mail at all
	exitTempFail = 75 // EX_TEMPFAIL: not handled now; try again later
)

// deliverTries is how often "pbemd deliver" lets one mail fail for a
// temporary reason while the store works, before it quarantines the mail.
const deliverTries = 5

// runDeliver is "pbemd deliver [-config FILE] [-data DIR] [-print]": one mail
// on stdin, as a .forward, procmail or an MTA pipe would hand it over. The
// replies go to stdout with -print; with a config they are sent by its SMTP
// server (what cannot be sent now stays in the outbox for the next deliver
// or for pbemd serve); without either they wait in the outbox.
//
// It exits 0 when the mail was handled: answered, found already handled,
// ignored as a robot's, larger than limits.largest_mail (answered once from
// its header, so the sender learns why, rather than bounced by the mail
// system to an envelope sender who may never see it), or quarantined (a
// mail that crashed a command, cannot be read, or failed 5 times while the
// data could be written: kept in the store and answered once). It exits 75
// (EX_TEMPFAIL) whenever the mail could not be handled now and should be
// offered again: the data in use by another process after -lock-wait, a
// full disk, a failing store, a configuration or data file that cannot be
// used (a mail must not bounce for the server's fault). It exits 64 on
// wrong flags and 65 (EX_DATAERR) on empty input.
//
// The mail is read and its passwords checked (bcrypt) before the write lock
// is taken: parallel delivers queue for the lock, each holding it only for
// its own commit.
func runDeliver(args []string) int {
	fs := flag.NewFlagSet("deliver", flag.ContinueOnError)
	configFile := fs.String("config", "", "configuration `file` (default: none; replies stay in the outbox for pbemd serve)")
	data := fs.String("data", "", "data `directory` (default: the config's, or ./pbem-data)")
	print := fs.Bool("print", false, "write the replies to stdout as an mbox instead of queueing them")
	lockWait := fs.Duration("lock-wait", 30*time.Second, "how long to wait for another process's lock on the data before exiting 75")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "pbemd deliver: "+format+"\n", args...)
		return exitTempFail
	}
	cfg, dir, err := loadConfig(*configFile, *data)
	if err != nil {
		return fail("%v (the mail was not handled; exit 75 so that it is offered again)", err)
	}
	raw, size, err := readLimited(os.Stdin, cfg.Limits.LargestMail)
	if err != nil {
		return fail("reading the mail: %v", err)
	}
	if size == 0 {
		fmt.Fprintln(os.Stderr, "pbemd deliver: standard input is empty; it should hold one mail")
		return exitDataErr
	}
	path := store.PathIn(dir)
	svc := pbem.New(nil, serviceConfig(cfg))
	if size <= cfg.Limits.LargestMail {
		// bcrypt now, on a read-only handle closed before the write lock.
		if ro, err := store.Open(path, &store.Options{ReadOnly: true, LockTimeout: *lockWait}); err == nil {
			svc.Preverify(ro, raw)
			ro.Close()
		}
	}
	db, err := store.Open(path, &store.Options{LockTimeout: *lockWait})
	if err != nil {
		return fail("%v (the mail was not handled; exit 75 so that it is offered again)", err)
	}
	svc.SetStore(db)
	ids, code := handleOne(svc, raw, size, cfg.Limits.LargestMail)
	if code != exitOK {
		db.Close()
		return code
	}
	if *print {
		err := pbem.PrintMbox(db, ids, os.Stdout)
		db.Close()
		if err != nil {
			return fail("%v", err)
		}
		return exitOK
	}
	db.Close() // let the next deliver in while this one sends
	if *configFile != "" {
		sendQueued(cfg, path)
	}
	return exitOK
}

// handleOne handles the mail and says how deliver exits.
func handleOne(svc *pbem.Service, raw []byte, size, limit int64) ([]uint64, int) {
	if size > limit {
		ids, err := svc.TooLarge(raw, size, limit)
		if err != nil {
			fmt.Fprintf(os.Stderr, "pbemd deliver: a mail of %d bytes, over the %d of limits.largest_mail, could not be answered: %v\n", size, limit, err)
			return nil, exitTempFail
		}
		fmt.Fprintf(os.Stderr, "pbemd deliver: the mail has %d bytes, more than the %d of limits.largest_mail; answered without reading it\n", size, limit)
		return ids, exitOK
	}
	ids, err := svc.Handle(raw)
	switch {
	case err == nil:
		return ids, exitOK
	case !pbem.IsTemporary(err):
		ids, qerr := svc.Quarantine(raw, err.Error(), true)
		if qerr != nil {
			fmt.Fprintf(os.Stderr, "pbemd deliver: %v; quarantining it failed: %v\n", err, qerr)
			return nil, exitTempFail
		}
		fmt.Fprintf(os.Stderr, "pbemd deliver: %v; the mail was quarantined and answered\n", err)
		return ids, exitOK
	case svc.Check() != nil:
		fmt.Fprintf(os.Stderr, "pbemd deliver: %v (the data cannot be written now; exit 75 so that the mail is offered again)\n", err)
		return nil, exitTempFail
	}
	quarantined, ids, qerr := svc.Failed(raw, err, deliverTries)
	switch {
	case qerr != nil:
		fmt.Fprintf(os.Stderr, "pbemd deliver: %v; counting the failure failed too: %v\n", err, qerr)
		return nil, exitTempFail
	case quarantined:
		fmt.Fprintf(os.Stderr, "pbemd deliver: %v; it failed %d times, so the mail was quarantined and answered\n", err, deliverTries)
		return ids, exitOK
	}
	fmt.Fprintf(os.Stderr, "pbemd deliver: %v (exit 75 so that the mail is offered again)\n", err)
	return nil, exitTempFail
}

// readLimited reads r to its end, keeping at most limit bytes (more than
// that only to hold a mail's header), and returns the bytes kept and the
// whole size.
func readLimited(r io.Reader, limit int64) ([]byte, int64, error) {
	raw, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil || int64(len(raw)) <= limit {
		return raw, int64(len(raw)), err
	}
	rest, err := io.Copy(io.Discard, r)
	return raw, int64(len(raw)) + rest, err
}

// sendQueued sends the outbox through the configuration's SMTP server if
// the data is free at once; when it is not, another deliver or pbemd serve
// holds it and sends.
func sendQueued(cfg *config.Config, path string) {
	db, err := store.Open(path, &store.Options{LockTimeout: 100 * time.Millisecond})
	if errors.Is(err, store.ErrLocked) {
		return
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "pbemd deliver: the mail was handled; sending the replies: %v\n", err)
		return
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := daemon.SendQueued(ctx, db, cfg); err != nil {
		fmt.Fprintf(os.Stderr, "pbemd deliver: the mail was handled; sending the replies: %v\n", err)
	}
}

// loadConfig reads the config file, or takes the defaults, and returns it
// with the data directory, which dataFlag overrides when set.
func loadConfig(configFile, dataFlag string) (*config.Config, string, error) {
	cfg := config.Default()
	if configFile != "" {
		var err error
		if cfg, err = config.Load(configFile); err != nil {
			return nil, "", err
		}
	}
	dir := cfg.Data
	if dataFlag != "" {
		dir = dataFlag
	}
	return cfg, dir, nil
}

// serviceConfig is the service's part of a configuration.
func serviceConfig(cfg *config.Config) pbem.Config {
	addr := cfg.Address
	if addr == "" {
		addr = "pbem@localhost" // the embedded default's address
	}
	return pbem.Config{Address: addr, Name: cfg.Name}
}

// openService opens the store and the service as a config file, or the
// defaults, describe them; dataFlag, when set, overrides the data directory.
func openService(configFile, dataFlag string) (*pbem.Service, *store.DB, *config.Config, error) {
	cfg, dir, err := loadConfig(configFile, dataFlag)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, nil, err
	}
	db, err := store.Open(store.PathIn(dir), nil)
	if err != nil {
		return nil, nil, nil, err
	}
	return pbem.New(db, serviceConfig(cfg)), db, cfg, nil
}
