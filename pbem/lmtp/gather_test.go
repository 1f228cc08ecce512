package lmtp

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// begin opens a session that gives MAIL and RCPT for the server and stops
// before DATA, as an MTA's connection does between two mails of a backlog.
func begin(t *testing.T, addr net.Addr) *smtp.Client {
	t.Helper()
	conn, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	c := smtp.NewClientLMTP(conn)
	t.Cleanup(func() { c.Close() })
	if err := c.Hello("mta.example.org"); err != nil {
		t.Fatal(err)
	}
	if err := c.Mail("bob@example.org", nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt("pbem@example.org", nil); err != nil {
		t.Fatal(err)
	}
	return c
}

// waitBegun waits until n sessions have begun a mail.
func waitBegun(t *testing.T, s *Server, n int64) {
	t.Helper()
	for s.begun.Load() != n {
		time.Sleep(time.Millisecond)
	}
}

// gathering serves a recorder whose first commit (of a mail "zero") holds
// until the sessions begin() makes have begun and a mail "first" waits
// in the queue; then lets the commit loop take that mail, and returns
// once it has (the loop now gathers), with the answer to come to it.
func gathering(t *testing.T, sessions int) (*Server, *recorder, []*smtp.Client, chan error) {
	t.Helper()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 10)}
	s := start(t, r, Options{Gather: time.Hour})
	done := make(chan error, 2)
	go func() { done <- send(t, s.Addr(), "pbem@example.org", "zero") }()
	if n := <-r.entered; n != 1 {
		t.Fatalf("the commit of zero took %d mails; want 1", n)
	}
	var begun []*smtp.Client
	for range sessions {
		begun = append(begun, begin(t, s.Addr()))
	}
	waitBegun(t, s, int64(sessions))
	go func() { done <- send(t, s.Addr(), "pbem@example.org", "first") }()
	waitQueued(t, s, 1)
	close(r.hold)
	if err := <-done; err != nil {
		t.Fatalf("the mail zero: %v", err)
	}
	for len(s.jobs) > 0 {
		time.Sleep(time.Millisecond)
	}
	return s, r, begun, done
}

// A mail taken for a commit while other sessions have begun theirs waits
// for them and commits with them, however late they hand theirs over
// (within Gather, here an hour: no test waits for it), so that a backlog
// over few connections commits in batches of all of them.
func TestCommitGathersBegunMails(t *testing.T) {
	t.Parallel()
	_, r, begun, done := gathering(t, 1)
	w, err := begun[0].Data()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, "From: bob@example.org\r\nSubject: late\r\n\r\nbody\r\n")
	if _, err := w.CloseWithLMTPResponse(); err != nil {
		t.Fatalf("the late mail: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the first mail: %v", err)
	}
	if n := <-r.entered; n != 2 {
		t.Errorf("the commit took %d mails; want 2: the first did not wait for the late one", n)
	}
}

// A session that gives its mail up, by RSET or by hanging up, releases
// the commit gathering for it at once (Gather is an hour).
func TestCommitGathersNoMailGivenUp(t *testing.T) {
	t.Parallel()
	s, r, begun, done := gathering(t, 2)
	if err := begun[0].Reset(); err != nil {
		t.Fatal(err)
	}
	begun[1].Close()
	if err := <-done; err != nil {
		t.Fatalf("the mail committed after the others gave up: %v", err)
	}
	if n := <-r.entered; n != 1 {
		t.Errorf("the commit took %d mails; want 1", n)
	}
	if n := s.begun.Load(); n != 0 {
		t.Errorf("%d sessions counted as begun after all ended; want 0", n)
	}
}

// A mail that Options.First picks (one a trusted server vouches for)
// does not wait for the sessions that have begun one: under a flood they
// always have (Gather is an hour).
func TestVouchedMailNotGathered(t *testing.T) {
	t.Parallel()
	r := &recorder{}
	s := start(t, r, Options{Gather: time.Hour, First: func(raw []byte) bool { return subject(raw) == "vouched" }})
	begin(t, s.Addr())
	waitBegun(t, s, 1)
	if err := send(t, s.Addr(), "pbem@example.org", "vouched"); err != nil {
		t.Fatalf("the vouched mail: %v", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.stored) != 1 || r.stored[0] != "vouched" {
		t.Errorf("stored %v; want [vouched], committed without waiting", r.stored)
	}
}
