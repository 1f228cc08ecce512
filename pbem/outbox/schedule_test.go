package outbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// enqueueTo puts one reply to the address into the outbox.
func enqueueTo(t *testing.T, db *store.DB, to, body string) {
	t.Helper()
	data := fmt.Sprintf("From: pbem@localhost\r\nTo: player\r\nSubject: reply to a player\r\n\r\n%s\r\n", body)
	err := db.Update(func(tx *store.Tx) error {
		return tx.Enqueue(&store.Outgoing{From: "pbem@localhost", To: []string{to}, Data: []byte(data), Queued: time.Now()})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func outgoing(t *testing.T, db *store.DB, id uint64) *store.Outgoing {
	t.Helper()
	var m *store.Outgoing
	err := db.View(func(tx *store.Tx) error {
		var err error
		m, err = tx.Outgoing(id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The attack of a full mailbox and an internationalized address: the
// oldest replies fail, one for good (452 "mailbox full" to every try), one
// because the server lacks SMTPUTF8. The 20 replies queued after them all
// go out in the first pass.
func TestFailingRepliesDelayNoOther(t *testing.T) {
	t.Parallel()
	for _, utf8 := range []bool{false, true} {
		t.Run(fmt.Sprintf("SMTPUTF8=%v", utf8), func(t *testing.T) {
			db := openStore(t)
			sink := startSink(t, smtpsink.Options{SMTPUTF8: utf8})
			sink.RefuseRcpt("full@x.test", 452, "mailbox full")
			enqueueTo(t, db, "full@x.test", "board")
			enqueueTo(t, db, "jürgen@x.test", "board")
			for i := 1; i <= 20; i++ {
				enqueueTo(t, db, fmt.Sprintf("p%d@x.test", i), "board")
			}
			var gaveUp, failures atomic.Int32
			s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet,
				Tick: 5 * time.Millisecond, OnGiveUp: func() { gaveUp.Add(1) }, OnFailure: func() { failures.Add(1) }})
			stop := run(t, s)
			want := 20
			if utf8 {
				want = 21
			}
			msgs := sink.Wait(want, 10*time.Second)
			time.Sleep(50 * time.Millisecond) // more passes: the 452 is not retried before its wait
			stop()
			if len(msgs) != want {
				t.Fatalf("%d replies sent; want %d", len(msgs), want)
			}
			for _, m := range msgs {
				if m.To[0] == "full@x.test" {
					t.Errorf("the full mailbox got a mail")
				}
			}
			// The 452 reply waits for its own retry; the others' pass did not.
			full := outgoing(t, db, 1)
			if full.Attempts != 1 || !strings.Contains(full.LastError, "452") || full.FirstFailure.IsZero() ||
				full.NextTry.Before(full.FirstFailure.Add(30*time.Second)) {
				t.Errorf("452 reply = attempts %d, first failure %v, next try %v, %q; want 1 attempt, retry in 30s",
					full.Attempts, full.FirstFailure, full.NextTry, full.LastError)
			}
			if sink.Refused() != 1 || failures.Load() != 1 {
				t.Errorf("the 452 was tried %d times, %d failures counted; want once each", sink.Refused(), failures.Load())
			}
			failed, err := db.Failed(0)
			if err != nil {
				t.Fatal(err)
			}
			if utf8 {
				if len(failed) != 0 || gaveUp.Load() != 0 {
					t.Errorf("with SMTPUTF8 %d replies given up; want none", len(failed))
				}
				return
			}
			if len(failed) != 1 || failed[0].To[0] != "jürgen@x.test" || !strings.Contains(failed[0].LastError, "SMTPUTF8") || gaveUp.Load() != 1 {
				t.Fatalf("failed mail = %+v (given up %d); want the reply to jürgen, for lack of SMTPUTF8", failed, gaveUp.Load())
			}
		})
	}
}

// A reply refused temporarily is retried on its own schedule, doubling,
// and given up 5 days after its first failure, with a log line that names
// it but shows none of its body.
func TestGiveUpAfterFiveDays(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	sink.RefuseRcpt("full@x.test", 452, "mailbox full")
	enqueueTo(t, db, "full@x.test", "the-body-never-logged")
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	now := t0
	var logs bytes.Buffer
	var mu sync.Mutex
	var gaveUp atomic.Int32
	s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{
		Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &mu}, nil)),
		Now:    func() time.Time { return now }, OnGiveUp: func() { gaveUp.Add(1) }})
	tries := 0
	for now.Sub(t0) < DefaultGiveUpAfter {
		s.Drain(context.Background())
		tries++
		m := outgoing(t, db, 1)
		if m.Attempts != tries || !m.FirstFailure.Equal(t0) {
			t.Fatalf("after %v: attempts %d, first failure %v; want %d, %v", now.Sub(t0), m.Attempts, m.FirstFailure, tries, t0)
		}
		if want := mailconn.Backoff(30*time.Second, time.Hour, tries-1); !m.NextTry.Equal(now.Add(want)) {
			t.Fatalf("attempt %d: next try in %v; want %v", tries, m.NextTry.Sub(now), want)
		}
		if s.Drain(context.Background()); outgoing(t, db, 1).Attempts != tries {
			t.Fatalf("attempt %d retried before its next try", tries)
		}
		now = m.NextTry
	}
	if gaveUp.Load() != 0 {
		t.Fatalf("given up after %v; want 5 days", now.Sub(t0))
	}
	s.Drain(context.Background())
	if n := outboxLen(t, db); n != 0 || gaveUp.Load() != 1 {
		t.Fatalf("after 5 days: outbox holds %d, given up %d; want 0 and 1", n, gaveUp.Load())
	}
	failed, _ := db.Failed(0)
	if len(failed) != 1 || failed[0].Attempts != tries+1 || !strings.Contains(failed[0].LastError, "mailbox full") {
		t.Errorf("failed mail = %+v", failed)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "reply given up") || !strings.Contains(logs.String(), "full@x.test") {
		t.Errorf("the give-up is not logged with its recipient:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), "the-body-never-logged") {
		t.Errorf("the log shows the reply's body:\n%s", logs.String())
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// A server that greets and hangs up at once, on every connection: no
// reply is to blame, so sending pauses with a growing wait and counts no
// attempt on any reply; once a working server is back on the address,
// every reply goes out once.
func TestConnectionFailurePausesAndResumes(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	var accepts atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepts.Add(1)
			fmt.Fprint(c, "421 going down\r\n")
			c.Close()
		}
	}()
	enqueue(t, db, 3)
	var failures atomic.Int32
	s := New(db, &SMTP{Addr: addr, Security: mailconn.Plain, Timeout: time.Second}, Options{Logger: quiet,
		RetryMin: 20 * time.Millisecond, RetryMax: 80 * time.Millisecond, Tick: 2 * time.Millisecond,
		OnFailure: func() { failures.Add(1) }})
	stop := run(t, s)
	time.Sleep(400 * time.Millisecond)
	// A connection just accepted has its failure counted a moment later:
	// between attempts (paused 20 ms or more) the two counts meet, and
	// they never would if a pass counted a failure a reply.
	a, f := accepts.Load(), failures.Load()
	for deadline := time.Now().Add(5 * time.Second); f != a && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		a, f = accepts.Load(), failures.Load()
	}
	ln.Close()
	<-done
	if f != a {
		t.Errorf("%d failures counted for %d connections; want one each (a pass stops at the failed connection)", f, a)
	}
	// Unpaused, 2ms ticks would try about 200 times; paused 20, 40, 80,
	// 80 ... ms, some 6 times.
	if a < 2 || a > 20 {
		t.Errorf("%d connections in 400ms; want a few, paused between them", a)
	}
	for id := uint64(1); id <= 3; id++ {
		if m := outgoing(t, db, id); m.Attempts != 0 {
			t.Errorf("reply %d blamed for the connection: %d attempts", id, m.Attempts)
		}
	}
	sink := startSink(t, smtpsink.Options{Addr: addr})
	msgs := sink.Wait(3, 10*time.Second)
	stop()
	checkOnce(t, msgs, 3)
}

// A server that drops the connection in the middle of one reply, every
// time: the connection counts as failed (sending pauses), the reply is
// blamed and waits for its own retry, and the replies after it go out
// after the pause instead of waiting behind it.
func TestDroppedInOneReply(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &dropSession{conn: c, got: &got, mu: &mu}, nil
	}))
	srv.Domain = "drop.localhost"
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	enqueueTo(t, db, "poison@x.test", "board")
	for i := 1; i <= 5; i++ {
		enqueueTo(t, db, fmt.Sprintf("p%d@x.test", i), "board")
	}
	var failures atomic.Int32
	s := New(db, &SMTP{Addr: ln.Addr().String(), Security: mailconn.Plain, Timeout: time.Second}, Options{Logger: quiet,
		RetryMin: 20 * time.Millisecond, RetryMax: time.Hour, Tick: 2 * time.Millisecond,
		OnFailure: func() { failures.Add(1) }})
	stop := run(t, s)
	deadline := time.Now().Add(10 * time.Second)
	for outboxLen(t, db) > 1 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 5 {
		t.Fatalf("the server took %d replies: %q; want the 5 after the one it drops", len(got), got)
	}
	if m := outgoing(t, db, 1); m.Attempts < 1 || m.FirstFailure.IsZero() {
		t.Errorf("the dropped reply: %d attempts, first failure %v; want it blamed", m.Attempts, m.FirstFailure)
	}
}

// dropSession takes every mail but the one to poison@x.test, on which it
// closes the connection.
type dropSession struct {
	conn *smtp.Conn
	mu   *sync.Mutex
	got  *[]string
	to   string
}

func (d *dropSession) Mail(string, *smtp.MailOptions) error { return nil }
func (d *dropSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	d.to = to
	return nil
}
func (d *dropSession) Data(r io.Reader) error {
	io.Copy(io.Discard, r)
	if d.to == "poison@x.test" {
		d.conn.Close()
		return errors.New("dropped")
	}
	d.mu.Lock()
	*d.got = append(*d.got, d.to)
	d.mu.Unlock()
	return nil
}
func (d *dropSession) Reset()        {}
func (d *dropSession) Logout() error { return nil }

// An address the client refuses to write (a line break would smuggle in
// another command) is given up at once, and nothing of it reaches the
// server; the next reply goes out.
func TestClientRefusalIsPermanent(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	enqueueTo(t, db, "x@x.test>\r\nRCPT TO:<victim@y.test", "board")
	enqueueTo(t, db, "p1@x.test", "board")
	var gaveUp atomic.Int32
	s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet, OnGiveUp: func() { gaveUp.Add(1) }})
	if n := s.Drain(context.Background()); n != 1 {
		t.Errorf("Drain sent %d; want 1", n)
	}
	msgs := sink.Messages()
	if len(msgs) != 1 || len(msgs[0].To) != 1 || msgs[0].To[0] != "p1@x.test" {
		t.Errorf("the server got %+v; want only the reply to p1", msgs)
	}
	if failed, _ := db.Failed(0); len(failed) != 1 || gaveUp.Load() != 1 || outboxLen(t, db) != 0 {
		t.Errorf("failed mail %+v, given up %d, outbox %d; want the refused reply given up", failed, gaveUp.Load(), outboxLen(t, db))
	}
}
