package outbox

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// conns is n SMTP connections to the server at addr.
func conns(addr string, n int) []Transport {
	var ts []Transport
	for range n {
		ts = append(ts, &SMTP{Addr: addr, Security: mailconn.Plain, Timeout: 5 * time.Second})
	}
	return ts
}

// Over four connections each player still gets his mails in the order
// they were queued, a mail in copies among them; and more than one
// connection carries the mail.
func TestConnsKeepEachPlayersOrder(t *testing.T) {
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	var players []string
	for i := range 12 {
		players = append(players, fmt.Sprintf("p%d@localhost", i))
	}
	queue := func(from, to int) {
		err := db.Update(func(tx *store.Tx) error {
			for n := from; n <= to; n++ {
				for _, p := range players {
					data := fmt.Sprintf("From: pbem@localhost\r\nTo: %s\r\nSubject: reply %d\r\n\r\nboard\r\n", p, n)
					if err := tx.Enqueue(&store.Outgoing{From: "pbem@localhost", To: []string{p}, Data: []byte(data), Queued: time.Now()}); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	queue(1, 5)
	enqueueCopies(t, db, players...) // "Ultima Board 101 won by alice"
	queue(6, 10)

	s := NewConns(db, conns(sink.Addr, 4), Options{Logger: quiet})
	if n := s.Drain(context.Background()); n != 11*len(players) {
		t.Fatalf("Drain sent %d; want %d", n, 11*len(players))
	}
	got := map[string][]string{}
	for _, m := range sink.Messages() {
		subject := strings.SplitN(string(m.Data[strings.Index(string(m.Data), "Subject: ")+9:]), "\r\n", 2)[0]
		got[m.To[0]] = append(got[m.To[0]], subject)
	}
	want := []string{"reply 1", "reply 2", "reply 3", "reply 4", "reply 5", "Ultima Board 101 won by alice",
		"reply 6", "reply 7", "reply 8", "reply 9", "reply 10"}
	for _, p := range players {
		if !reflect.DeepEqual(got[p], want) {
			t.Errorf("%s got %q; want %q", p, got[p], want)
		}
	}
	if c := sink.Connections(); c < 2 || c > 4 {
		t.Errorf("the mail went over %d connections; want 2 to 4", c)
	}
	if n := outboxLen(t, db); n != 0 {
		t.Errorf("%d mails left in the outbox", n)
	}
}

// A server that takes two connections where four are configured (it
// answers 421 to the others) gets all the mail over those two, in the
// same pass, once each; and the next pass, too.
func TestConnsServerTakesFewer(t *testing.T) {
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{MaxConns: 2})
	enqueue(t, db, 100)
	s := NewConns(db, conns(sink.Addr, 4), Options{Logger: quiet})
	if n := s.Drain(context.Background()); n != 100 {
		t.Fatalf("Drain sent %d; want 100", n)
	}
	checkOnce(t, sink.Messages(), 100)
	if n := outboxLen(t, db); n != 0 {
		t.Errorf("%d mails left in the outbox", n)
	}
	// No pause after a pass that got everything through.
	if wait := s.hold(); wait > 0 {
		t.Errorf("the sender pauses %v after the pass; want no pause", wait)
	}
	// The next passes use the two it took, and dial no others until an
	// hour has passed.
	dialed := sink.Connections()
	enqueue(t, db, 10)
	if n := s.Drain(context.Background()); n != 10 {
		t.Errorf("the next Drain sent %d; want 10", n)
	}
	if c := sink.Connections() - dialed; c > 2 {
		t.Errorf("the next pass dialed %d connections; want the 2 the server took", c)
	}
}

// A server that cannot be reached costs one connection's failure a pass,
// not one after another of each: the sender pauses at once.
func TestConnsServerDown(t *testing.T) {
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	addr := sink.Addr
	sink.Close() // nothing listens there now
	enqueue(t, db, 1)
	failures := 0
	s := NewConns(db, conns(addr, 4), Options{Logger: quiet, OnFailure: func() { failures++ }})
	if n := s.Drain(context.Background()); n != 0 {
		t.Fatalf("Drain sent %d to a server that is down", n)
	}
	if failures != 1 {
		t.Errorf("%d connection failures counted in the pass; want 1", failures)
	}
	if wait := s.hold(); wait <= 0 {
		t.Errorf("the sender does not pause when the server is down")
	}
	if n := outboxLen(t, db); n != 1 {
		t.Errorf("%d mails in the outbox; want the one still queued", n)
	}
}

// A connection dropped in the middle of a batch loses no mail and sends
// none twice: the others take the mail it had not tried, in the same
// pass; the mail it was sending (the server did not take it) waits for its
// retry, like one dropped on a single connection.
func TestConnsOneDroppedMidBatch(t *testing.T) {
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	enqueue(t, db, 100)
	sink.Drop(20)
	now := time.Now()
	s := NewConns(db, conns(sink.Addr, 4), Options{Logger: quiet, Now: func() time.Time { return now }})
	if n := s.Drain(context.Background()); n != 99 {
		t.Fatalf("Drain sent %d; want 99, all but the dropped one", n)
	}
	if n := outboxLen(t, db); n != 1 {
		t.Fatalf("%d mails left in the outbox; want the dropped one", n)
	}
	if wait := s.hold(); wait > 0 {
		t.Errorf("the sender pauses %v; want no pause while other connections work", wait)
	}
	now = now.Add(time.Hour) // past its retry
	if n := s.Drain(context.Background()); n != 1 {
		t.Errorf("the retry sent %d; want 1", n)
	}
	checkOnce(t, sink.Messages(), 100)
}
