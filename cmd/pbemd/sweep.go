package main

import (
	"fmt"
	"time"
)

// runSweep is "pbemd sweep [-config FILE] [-data DIR] [-print] [-n] [-now RFC3339]":
// the reminders and forfeits due, as the daemon sends them every 20 seconds, run by
// hand or from cron. -now pretends another time, for tests and for catching
// up after a stop.
func runSweep(c *invocation) error {
	where := c.dataFlags("mails stay in the outbox for pbemd serve; with one, they are sent")
	print := c.flags.Bool("print", false, "write the mails to stdout as an mbox instead of queueing them")
	dry := c.flags.Bool("n", false, "dry run: write the mails to stdout as an mbox and store nothing")
	nowFlag := c.flags.String("now", "", "the `time` to sweep at, RFC 3339 (default: now), e.g. 2026-12-01T12:00:00Z")
	if _, err := c.parse(0, "only the flags -config, -data, -print, -n and -now"); err != nil {
		return err
	}
	now := time.Now()
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			return usageError(fmt.Sprintf("-now %q is not an RFC 3339 time; write it as 2026-12-01T12:00:00Z", *nowFlag))
		}
		now = t
	}
	s, err := c.open(where, sendsBy(*print), *dry)
	if err != nil {
		return err
	}
	defer s.Close()
	ids, err := s.svc.SweepIDs(now)
	if err != nil {
		return err
	}
	return s.deliver(c, ids, *print)
}
