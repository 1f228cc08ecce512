package main

import (
	"fmt"
	"io"
)

// runDeliver is "pbemd deliver [-config FILE] [-data DIR] [-print] [-n]": one mail
// on stdin, as a .forward, procmail or an MTA pipe would hand it over. The
// replies go to stdout with -print; with a config they are sent by its SMTP
// server (what cannot be sent now stays in the outbox for the next deliver
// or for pbemd serve); without either they wait in the outbox.
func runDeliver(c *invocation) error {
	where := c.dataFlags("replies stay in the outbox for pbemd serve")
	print := c.flags.Bool("print", false, "write the replies to stdout as an mbox instead of queueing them")
	dry := c.flags.Bool("n", false, "dry run: write the replies to stdout as an mbox and store nothing")
	if _, err := c.parse(0, "only flags"); err != nil {
		return err
	}
	s, err := c.open(where, sendsBy(*print), *dry)
	if err != nil {
		return err
	}
	defer s.Close()
	raw, err := io.ReadAll(c.stdin)
	if err != nil {
		return fmt.Errorf("reading the mail: %w", err)
	}
	ids, err := s.svc.Handle(raw)
	if err != nil {
		return err
	}
	return s.deliver(c, ids, *print)
}
