package outbox

import (
	"context"
	"testing"

	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// Issue 25, item 10: an outbox record that does not decode is passed over
// (the store logs it), and every other reply is sent.
func TestCorruptRecordPassedOver(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	enqueue(t, db, 5)
	if err := db.Update(func(tx *store.Tx) error { return tx.CorruptOutgoing(3) }); err != nil {
		t.Fatal(err)
	}
	s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet})
	if n := s.Drain(context.Background()); n != 4 {
		t.Errorf("Drain sent %d; want the 4 that read", n)
	}
	seen := map[string]bool{}
	for _, m := range sink.Messages() {
		seen[m.To[0]] = true
	}
	for _, to := range []string{"p1@localhost", "p2@localhost", "p4@localhost", "p5@localhost"} {
		if !seen[to] {
			t.Errorf("no reply to %s; got %v", to, seen)
		}
	}
	if n := outboxLen(t, db); n != 1 {
		t.Errorf("%d mails left in the outbox; want the corrupt one", n)
	}
}
