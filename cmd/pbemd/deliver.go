package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
	"github.com/pbemd/pbemd/pbem/intake"
	"github.com/pbemd/pbemd/pbem/outbox"
	"github.com/pbemd/pbemd/store"
)

// Exit statuses of pbemd deliver, as sysexits.h names them: a mail system
// keeps the mail and offers it again later on EX_TEMPFAIL.
const (
	exitDataErr  = 65 // EX_DATAERR: standard input held no mail at all
	exitTempFail = 75 // EX_TEMPFAIL: not handled now; offer it again later
)

// runDeliver is "pbemd deliver [-config FILE] [-data DIR] [-print] [-n]
// [-lock-wait D]": one mail on stdin, as a .forward, procmail or an MTA pipe
// would hand it over. The replies go to stdout with -print; with a config
// they are sent by its SMTP server (what cannot be sent now stays in the
// outbox for the next deliver or for pbemd serve); without either they wait
// in the outbox.
//
// The mail goes through the intake (pbem/intake), as the daemon's do, and
// deliver maps its verdict to the exit status. It exits 0 when the mail
// was handled (answered, found already handled, ignored as a robot's) or
// set aside (larger than limits.largest_mail and answered once from its
// header, so the sender learns why, rather than bounced by the mail system
// to an envelope sender who may never see it; or a mail that crashed a
// command, cannot be read, or failed 5 times while the data could be
// written: kept in the store and answered once). It exits 75 (EX_TEMPFAIL)
// whenever the mail could not be handled now and should be offered again:
// the data in use by another process after -lock-wait, a full disk, a
// failing store, a configuration or data file that cannot be used (a mail
// must not bounce for the server's fault). It exits 2 on wrong flags and
// 65 (EX_DATAERR) on empty input.
//
// The mail is read and its passwords checked (bcrypt) before the write lock
// is taken: parallel delivers queue for the lock, each holding it only for
// its own commit.
func runDeliver(c *invocation) error {
	where := c.dataFlags("replies stay in the outbox for pbemd serve")
	print := c.flags.Bool("print", false, "write the replies to stdout as an mbox instead of queueing them")
	dry := c.flags.Bool("n", false, "dry run: write the replies to stdout as an mbox and keep nothing (runs on a copy of the data)")
	lockWait := c.flags.Duration("lock-wait", 30*time.Second, "how long to wait for another process's lock on the data before exiting 75 (EX_TEMPFAIL)")
	if _, err := c.parse(0, "only flags"); err != nil {
		return err
	}
	if status := deliverMail(c, where, *print, *dry, *lockWait); status != 0 {
		return exitStatus(status)
	}
	return nil
}

// deliverMail does runDeliver's work and returns its exit status, having
// said on stderr what went wrong.
func deliverMail(c *invocation, where *dataFlags, print, dry bool, lockWait time.Duration) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(c.stderr, "pbemd deliver: "+format+"\n", args...)
		return exitTempFail
	}
	cfg, err := where.loadConfig(sendsBy(print || dry))
	if err != nil {
		return fail("%v (the mail was not handled; exit 75 so that it is offered again)", err)
	}
	if dry {
		// The same work on a copy of the data, thrown away after.
		dir, cleanup, err := c.dryCopy(cfg)
		if err != nil {
			return fail("%v", err)
		}
		defer cleanup()
		cfg.Data, print, where = dir, true, &dataFlags{}
	}
	log := cfg.Log.Logger(c.stderr)
	svc := pbem.New(nil, cfg.Service(log)) // its store is opened below
	in := intake.New(svc, intake.Options{Largest: cfg.Limits.LargestMail, Logger: log})
	raw, size, err := readLimited(c.stdin, in.Largest())
	if err != nil {
		return fail("reading the mail: %v", err)
	}
	if size == 0 {
		fmt.Fprintln(c.stderr, "pbemd deliver: standard input is empty; it should hold one mail")
		return exitDataErr
	}
	path := store.PathIn(cfg.Data)
	if size <= in.Largest() {
		// bcrypt now, on a read-only handle closed before the write lock.
		ro, err := store.Open(path, &store.Options{ReadOnly: true, LockTimeout: lockWait})
		switch {
		case err == nil:
			svc.Preverify(ro, raw)
			ro.Close()
		case errors.Is(err, store.ErrLocked):
			// Waited lockWait already: the write lock would wait as long.
			return fail("%v (the mail was not handled; exit 75 so that it is offered again)", err)
		}
	}
	db, err := store.Open(path, &store.Options{LockTimeout: lockWait})
	if err != nil {
		return fail("%v (the mail was not handled; exit 75 so that it is offered again)", err)
	}
	svc.SetStore(db)
	ids, status := handleOne(c, in, raw, size)
	if status != 0 {
		db.Close()
		return status
	}
	if print {
		err := outbox.Print(db, ids, c.stdout)
		db.Close()
		if err != nil {
			return fail("%v", err)
		}
		return 0
	}
	db.Close() // let the next deliver in while this one sends
	if where.config != "" {
		sendQueued(c, cfg, path)
	}
	return 0
}

// handleOne hands the mail to the intake and returns the outbox ids of its
// replies and deliver's exit status.
func handleOne(c *invocation, in *intake.Intake, raw []byte, size int64) ([]uint64, int) {
	v := in.Take([]intake.Mail{{Raw: raw, Size: size}}, intake.Apart)[0]
	switch v.Kind {
	case intake.SetAside:
		fmt.Fprintf(c.stderr, "pbemd deliver: %v; the mail was set aside (quarantined) and answered\n", v.Err)
	case intake.Retry:
		fmt.Fprintf(c.stderr, "pbemd deliver: %v (exit 75 so that the mail is offered again)\n", v.Err)
		return nil, exitTempFail
	}
	return v.IDs, 0
}

// readLimited reads r to its end, keeping at most limit bytes (more than
// that only to answer from the mail's header), and returns the bytes kept
// and the whole size.
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
func sendQueued(c *invocation, cfg *config.Config, path string) {
	db, err := store.Open(path, &store.Options{LockTimeout: 100 * time.Millisecond})
	if errors.Is(err, store.ErrLocked) {
		return
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "pbemd deliver: the mail was handled; sending the replies: %v\n", err)
		return
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := daemon.SendQueued(ctx, db, cfg); err != nil {
		fmt.Fprintf(c.stderr, "pbemd deliver: the mail was handled; sending the replies: %v\n", err)
	}
}
