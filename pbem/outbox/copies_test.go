package outbox

import (
	"bytes"
	"context"
	"fmt"
	"net/mail"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// finalBoard is a board mail that goes alike to many users.
func finalBoard() *mailmsg.Mail {
	return &mailmsg.Mail{From: "pbemd <pbem@localhost>", Subject: "Ultima Board 101 won by alice", Body: "The board.   \nGame over.\n",
		MessageID: "final101@localhost", Date: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), AutoSubmitted: "auto-generated"}
}

// enqueueCopies puts one mail in copies to the addresses into the outbox.
func enqueueCopies(t *testing.T, db *store.DB, to ...string) *store.Outgoing {
	t.Helper()
	data, toAt, err := finalBoard().Shared()
	if err != nil {
		t.Fatal(err)
	}
	m := &store.Outgoing{From: "pbem@localhost", To: to, Data: data, ToAt: toAt, Queued: time.Now()}
	if err := db.Update(func(tx *store.Tx) error { return tx.Enqueue(m) }); err != nil {
		t.Fatal(err)
	}
	return m
}

// checkCopies checks that the mails are copies of finalBoard, each to one
// recipient and naming him alone, byte for byte the mail to him alone,
// and that the addresses got one each.
func checkCopies(t *testing.T, msgs []smtpsink.Message, addrs ...string) {
	t.Helper()
	got := map[string]int{}
	for _, m := range msgs {
		if len(m.To) != 1 {
			t.Errorf("a copy went to %v; want one recipient", m.To)
			continue
		}
		got[m.To[0]]++
		alone := finalBoard()
		alone.To = m.To[0]
		want, _ := alone.Bytes()
		if !bytes.Equal(m.Data, want) {
			t.Errorf("the copy to %s:\n%s\nwant the mail to him alone:\n%s", m.To[0], m.Data, want)
		}
		r, err := mail.ReadMessage(bytes.NewReader(m.Data))
		if err != nil {
			t.Fatal(err)
		}
		if to, err := r.Header.AddressList("To"); err != nil || len(to) != 1 || len(r.Header["Cc"]) > 0 {
			t.Errorf("the copy to %s is addressed to %v (%v), Cc %q; want him alone", m.To[0], to, err, r.Header["Cc"])
		}
	}
	want := map[string]int{}
	for _, a := range addrs {
		want[a]++
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("copies arrived %v; want %v", got, want)
	}
}

// A mail in copies goes to each recipient in a copy of his own, and a mail
// stored as before (the whole message, To and all) goes as it is, in the
// same pass.
func TestCopiesEachHisOwn(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{SMTPUTF8: true})
	old := []byte("From: pbem@localhost\r\nTo: old@localhost\r\nSubject: reply 1\r\n\r\nboard\r\n")
	err := db.Update(func(tx *store.Tx) error {
		return tx.Enqueue(&store.Outgoing{From: "pbem@localhost", To: []string{"old@localhost"}, Data: old, Queued: time.Now()})
	})
	if err != nil {
		t.Fatal(err)
	}
	addrs := []string{"alice@localhost", "bob@localhost", "juergen@b\u00fccher.example", "carol@localhost"}
	enqueueCopies(t, db, addrs...)
	var sent atomic.Int32
	s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet, OnSent: func() { sent.Add(1) }})
	if n := s.Drain(context.Background()); n != 5 || sent.Load() != 5 {
		t.Errorf("Drain sent %d, OnSent %d; want 5 mails", n, sent.Load())
	}
	msgs := sink.Messages()
	if len(msgs) != 5 || !bytes.Equal(msgs[0].Data, old) || !reflect.DeepEqual(msgs[0].To, []string{"old@localhost"}) {
		t.Fatalf("the old mail arrived as %+v; want it first and unchanged", msgs[:min(1, len(msgs))])
	}
	checkCopies(t, msgs[1:], addrs...)
	if n := outboxLen(t, db); n != 0 {
		t.Errorf("%d mails left in the outbox", n)
	}
}

// In a mail in copies, a recipient refused for good is given up alone and
// kept in the failed mail; one refused for now gets his copy at the retry,
// and only he; one refused for now until the give-up time is given up
// then; the others get theirs at once, and once.
func TestCopiesRefused(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	sink.RefuseRcpt("gone@localhost", 550, "no such user")
	sink.RefuseRcpt("full@localhost", 452, "mailbox full")
	sink.RefuseRcpt("stuck@localhost", 452, "mailbox full")
	m := enqueueCopies(t, db, "a@localhost", "gone@localhost", "full@localhost", "b@localhost", "stuck@localhost", "c@localhost")
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	now := t0
	var gaveUp, failures atomic.Int32
	s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet, GiveUpAfter: 2 * time.Hour,
		Now: func() time.Time { return now }, OnGiveUp: func() { gaveUp.Add(1) }, OnFailure: func() { failures.Add(1) }})

	if n := s.Drain(context.Background()); n != 3 {
		t.Errorf("first pass sent %d; want the 3 copies not refused", n)
	}
	checkCopies(t, sink.Messages(), "a@localhost", "b@localhost", "c@localhost")
	failed, err := db.Failed(0)
	if err != nil || len(failed) != 1 {
		t.Fatalf("failed mail = %+v, %v; want the copy to gone@", failed, err)
	}
	if f := failed[0]; !reflect.DeepEqual(f.To, []string{"gone@localhost"}) || !strings.Contains(f.LastError, "550") || !f.GaveUp.Equal(t0) {
		t.Errorf("failed mail = %+v; want gone@ alone, the 550, given up now", f)
	}
	left := outgoing(t, db, m.ID)
	if !reflect.DeepEqual(left.To, []string{"full@localhost", "stuck@localhost"}) || left.Attempts != 1 || !left.NextTry.After(now) ||
		!strings.Contains(left.LastError, "452") {
		t.Errorf("the mail after the first pass = to %v, attempts %d, next try %v, %q; want the two refused for now, waiting",
			left.To, left.Attempts, left.NextTry, left.LastError)
	}
	if gaveUp.Load() != 1 || failures.Load() != 2 {
		t.Errorf("given up %d, failures %d; want 1 and 2", gaveUp.Load(), failures.Load())
	}

	// Not due yet: nobody is tried. Then full@ has room again.
	if n := s.Drain(context.Background()); n != 0 {
		t.Errorf("a pass before the retry sent %d", n)
	}
	sink.AcceptRcpt("full@localhost")
	now = left.NextTry
	if n := s.Drain(context.Background()); n != 1 {
		t.Errorf("the retry sent %d; want the copy to full@", n)
	}
	checkCopies(t, sink.Messages(), "a@localhost", "b@localhost", "c@localhost", "full@localhost")
	if left := outgoing(t, db, m.ID); !reflect.DeepEqual(left.To, []string{"stuck@localhost"}) || left.Attempts != 2 {
		t.Errorf("the mail after the retry = to %v, attempts %d; want stuck@ alone, 2 attempts", left.To, left.Attempts)
	}

	// stuck@ is given up once his first failure is GiveUpAfter old.
	for now.Sub(t0) < 3*time.Hour && outboxLen(t, db) > 0 {
		now = now.Add(10 * time.Minute)
		s.Drain(context.Background())
	}
	if n := outboxLen(t, db); n != 0 || gaveUp.Load() != 2 {
		t.Fatalf("after the give-up time: outbox holds %d, given up %d; want 0 and 2", n, gaveUp.Load())
	}
	failed, _ = db.Failed(0)
	if len(failed) != 2 {
		t.Fatalf("failed mail = %+v; want gone@ and stuck@", failed)
	}
	if f := failed[slices.IndexFunc(failed, func(f store.Outgoing) bool { return f.ID == m.ID })]; !reflect.DeepEqual(f.To, []string{"stuck@localhost"}) ||
		f.GaveUp.Sub(t0) < 2*time.Hour {
		t.Errorf("failed mail = %+v; want stuck@ given up after 2h", f)
	}
	checkCopies(t, sink.Messages(), "a@localhost", "b@localhost", "c@localhost", "full@localhost")
}

// transportFunc is a Transport made of a function.
type transportFunc func(ctx context.Context, from string, to []string, data []byte) error

func (f transportFunc) Send(ctx context.Context, from string, to []string, data []byte) error {
	return f(ctx, from, to, data)
}
func (f transportFunc) Close() error { return nil }

// A stop, or a connection that fails, in the middle of a mail in copies
// leaves in the outbox only the recipients not yet served: the next pass
// sends no one a second copy.
func TestCopiesInterrupted(t *testing.T) {
	t.Parallel()
	addrs := []string{"p1@localhost", "p2@localhost", "p3@localhost", "p4@localhost", "p5@localhost"}
	for _, how := range []string{"stop", "connection lost"} {
		t.Run(how, func(t *testing.T) {
			db := openStore(t)
			m := enqueueCopies(t, db, addrs...)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var got []string
			lost := false
			tr := transportFunc(func(_ context.Context, _ string, to []string, _ []byte) error {
				if len(got) == 2 && how == "connection lost" && !lost {
					lost = true
					return &ConnectionError{Err: fmt.Errorf("lost"), InMail: true}
				}
				got = append(got, to...)
				if len(got) == 2 && how == "stop" {
					cancel()
				}
				return nil
			})
			now := time.Now()
			s := New(db, tr, Options{Logger: quiet, Now: func() time.Time { return now }})
			if n := s.Drain(ctx); n != 2 {
				t.Errorf("the interrupted pass sent %d; want 2", n)
			}
			left := outgoing(t, db, m.ID)
			if !reflect.DeepEqual(left.To, addrs[2:]) {
				t.Errorf("left in the outbox for %v; want %v", left.To, addrs[2:])
			}
			now = now.Add(2 * time.Hour) // past the pause and the retry
			if n := s.Drain(context.Background()); n != 3 {
				t.Errorf("the next pass sent %d; want 3", n)
			}
			if !reflect.DeepEqual(got, addrs) || outboxLen(t, db) != 0 {
				t.Errorf("copies went to %v, outbox %d; want %v once each", got, outboxLen(t, db), addrs)
			}
		})
	}
}

// A crash resends at most a batch of copies: a mail in copies to many
// loses the recipients served every batchSize copies, not only at its end.
func TestCopiesRecordedInBatches(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	var addrs []string
	for i := range 150 {
		addrs = append(addrs, fmt.Sprintf("p%d@localhost", i))
	}
	m := enqueueCopies(t, db, addrs...)
	var n int
	tr := transportFunc(func(_ context.Context, _ string, to []string, _ []byte) error {
		n++
		// A crash now would resend the copies the outbox still holds
		// that went out already.
		ms, err := db.Mails(m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if resent := len(ms[0].To) - (len(addrs) - n + 1); resent > batchSize {
			t.Fatalf("at copy %d a crash would resend %d copies; want at most %d", n, resent, batchSize)
		}
		if !slices.Contains(ms[0].To, to[0]) {
			t.Fatalf("copy %d to %s, no longer a recipient", n, to[0])
		}
		return nil
	})
	if sent := New(db, tr, Options{Logger: quiet}).Drain(context.Background()); sent != 150 || outboxLen(t, db) != 0 {
		t.Errorf("sent %d, outbox %d; want 150 and 0", sent, outboxLen(t, db))
	}
}
