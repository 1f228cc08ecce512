package outbox

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// The daemon's sender keeps its connection from one pass to the next: a
// backlog, whose every commit starts a pass, sets up one connection, not
// one a pass.
func TestRunKeepsTheConnectionBetweenPasses(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet})
	stop := run(t, s)
	defer stop()
	for pass := 1; pass <= 3; pass++ {
		// Apart, so that each is a pass of its own: one that finds
		// the next mail already queued sends it too.
		time.Sleep(100 * time.Millisecond)
		enqueueTo(t, db, "p@localhost", fmt.Sprintf("pass %d", pass))
		s.Kick()
		if got := sink.Wait(pass, 10*time.Second); len(got) != pass {
			t.Fatalf("pass %d: %d mails at the sink", pass, len(got))
		}
	}
	if n := sink.Connections(); n != 1 {
		t.Errorf("3 passes opened %d connections; want 1", n)
	}
}

// A kept connection that the server closed while it was unused costs no
// mail and no pause: Send asks before the mail and connects again.
func TestSendNoticesAConnectionClosedMeanwhile(t *testing.T) {
	old := checkAfter
	checkAfter = 0
	t.Cleanup(func() { checkAfter = old })
	first := startSink(t, smtpsink.Options{})
	tr := &SMTP{Addr: first.Addr, Security: mailconn.Plain}
	defer tr.Close()
	mail := func(n int) error {
		return tr.Send(context.Background(), "pbem@localhost", []string{"p@localhost"},
			fmt.Appendf(nil, "From: pbem@localhost\r\nTo: p@localhost\r\nSubject: mail %d\r\n\r\nx\r\n", n))
	}
	if err := mail(1); err != nil {
		t.Fatal(err)
	}
	first.Close() // the server ends its connections
	second := startSink(t, smtpsink.Options{Addr: first.Addr})
	if err := mail(2); err != nil {
		t.Fatalf("the mail after the server closed the connection: %v; want it sent over a new one", err)
	}
	if got := second.Wait(1, 10*time.Second); len(got) != 1 {
		t.Errorf("%d mails at the new server; want 1", len(got))
	}
}
