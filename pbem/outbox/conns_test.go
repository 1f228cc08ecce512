package outbox

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// fakeConn is a connection that a test steers: it refuses at its greeting
// (421, the server over its limit of connections), or takes limit mails a
// session and then closes it with 421, as a server that caps the mails of
// a session does.
type fakeConn struct {
	mu      sync.Mutex
	refuse  bool
	limit   int
	session int
	took    int
}

func (c *fakeConn) Send(context.Context, string, []string, []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refuse {
		return &ConnectionError{Err: errors.New("421 4.7.0 too many connections"), Answered: true}
	}
	if c.limit > 0 && c.session == c.limit {
		c.session = 0
		return &ConnectionError{Err: errors.New("421 4.7.0 too many mails this session"), Answered: true}
	}
	c.session++
	c.took++
	return nil
}

func (c *fakeConn) Close() error {
	c.mu.Lock()
	c.session = 0
	c.mu.Unlock()
	return nil
}

func fakeConns(n int) ([]*fakeConn, []Transport) {
	var cs []*fakeConn
	var ts []Transport
	for range n {
		c := &fakeConn{}
		cs, ts = append(cs, c), append(ts, c)
	}
	return cs, ts
}

// A connection refused at its greeting while the server is up: the mail
// goes over the others in the same pass, nothing pauses, and the next
// passes use the three the server did not refuse.
func TestConnsOneRefusedAtGreeting(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	enqueue(t, db, 1)
	cs, ts := fakeConns(4)
	m, err := db.Pending(time.Now(), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	cs[conn(m[0].To[0], 4)].refuse = true
	s := NewConns(db, ts, Options{Logger: quiet})
	if n := s.Drain(context.Background()); n != 1 {
		t.Fatalf("Drain sent %d; want the mail over another connection", n)
	}
	if wait := s.hold(); wait > 0 {
		t.Errorf("the sender pauses %v; want no pause", wait)
	}
	if s.fewer != 3 {
		t.Errorf("the next passes use %d connections; want the 3 not refused", s.fewer)
	}
}

// A server that closes each session after 20 mails took mail over every
// connection: the sender keeps all of them.
func TestConnsSessionCapKeepsConnections(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	enqueue(t, db, 200)
	cs, ts := fakeConns(4)
	for _, c := range cs {
		c.limit = 20
	}
	s := NewConns(db, ts, Options{Logger: quiet})
	if n := s.Drain(context.Background()); n != 80 {
		t.Fatalf("Drain sent %d; want 4 sessions of 20", n)
	}
	if s.fewer != 0 {
		t.Errorf("the sender keeps %d connections of 4 after sessions ended by the server", s.fewer)
	}
	for i, c := range cs {
		if c.took != 20 {
			t.Errorf("connection %d took %d mails; want 20", i, c.took)
		}
	}
}
