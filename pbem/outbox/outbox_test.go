package outbox

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
	"github.com/pbemd/pbemd/tests/smtpsink"
	"github.com/pbemd/pbemd/tests/testcert"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func openStore(t *testing.T) *store.DB {
	t.Helper()
	db := storetest.New(t)
	return db
}

// enqueue puts n replies into the outbox, numbered from 1 in the subject.
func enqueue(t *testing.T, db *store.DB, n int) {
	t.Helper()
	err := db.Update(func(tx *store.Tx) error {
		for i := 1; i <= n; i++ {
			data := fmt.Sprintf("From: pbem@localhost\r\nTo: p%d@localhost\r\nSubject: reply %d\r\n\r\nboard\r\n", i, i)
			err := tx.Enqueue(&store.Outgoing{From: "pbem@localhost", To: []string{fmt.Sprintf("p%d@localhost", i)}, Data: []byte(data), Queued: time.Now()})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func startSink(t *testing.T, opts smtpsink.Options) *smtpsink.Sink {
	t.Helper()
	s, err := smtpsink.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// checkOnce checks that the sink got replies 1..n, each exactly once.
func checkOnce(t *testing.T, msgs []smtpsink.Message, n int) {
	t.Helper()
	seen := map[string]int{}
	for _, m := range msgs {
		seen[m.To[0]]++
		if m.From != "pbem@localhost" {
			t.Errorf("envelope sender %q; want pbem@localhost", m.From)
		}
		if !strings.Contains(string(m.Data), "Subject: reply ") {
			t.Errorf("mail data mangled: %q", m.Data)
		}
	}
	for i := 1; i <= n; i++ {
		if c := seen[fmt.Sprintf("p%d@localhost", i)]; c != 1 {
			t.Errorf("reply %d arrived %d times; want once", i, c)
		}
	}
	if len(msgs) != n {
		t.Errorf("%d mails arrived; want %d", len(msgs), n)
	}
}

func outboxLen(t *testing.T, db *store.DB) int {
	t.Helper()
	n, err := db.OutboxLen()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func run(t *testing.T, s *Sender) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx) }()
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

func TestSecurityModes(t *testing.T) {
	t.Parallel()
	pair, err := testcert.New("")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		sink smtpsink.Options
		tr   SMTP
	}{
		{"plain", smtpsink.Options{}, SMTP{Security: mailconn.Plain}},
		{"plain auth loopback", smtpsink.Options{Username: "pbem", Password: "pw"}, SMTP{Security: mailconn.Plain, Username: "pbem", Password: "pw"}},
		{"starttls auth", smtpsink.Options{TLSConfig: pair.Server, Username: "pbem", Password: "pw"},
			SMTP{Security: mailconn.StartTLS, TLSConfig: pair.Client, Username: "pbem", Password: "pw"}},
		{"implicit tls", smtpsink.Options{TLSConfig: pair.Server, ImplicitTLS: true}, SMTP{Security: mailconn.TLS, TLSConfig: pair.Client}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openStore(t)
			sink := startSink(t, tt.sink)
			enqueue(t, db, 5)
			tr := tt.tr
			tr.Addr = sink.Addr
			var sent atomic.Int32
			s := New(db, &tr, Options{Logger: quiet, OnSent: func() { sent.Add(1) }})
			if n := s.Drain(context.Background()); n != 5 {
				t.Errorf("Drain sent %d; want 5", n)
			}
			checkOnce(t, sink.Messages(), 5)
			if n := outboxLen(t, db); n != 0 {
				t.Errorf("%d mails left in the outbox; want 0", n)
			}
			if sent.Load() != 5 {
				t.Errorf("OnSent called %d times; want 5", sent.Load())
			}
			if sink.Connections() != 1 {
				t.Errorf("%d SMTP connections for one pass; want 1 (the connection is reused)", sink.Connections())
			}
		})
	}
}

func TestWrongPasswordKeepsMail(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{Username: "pbem", Password: "right"})
	enqueue(t, db, 2)
	s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain, Username: "pbem", Password: "wrong"}, Options{Logger: quiet})
	if n := s.Drain(context.Background()); n != 0 {
		t.Fatalf("sent %d with a wrong password", n)
	}
	if n := outboxLen(t, db); n != 2 {
		t.Errorf("outbox holds %d; want both mails kept", n)
	}
}

func TestPlainPasswordToRemoteRefused(t *testing.T) {
	t.Parallel()
	tr := &SMTP{Addr: "192.0.2.1:25", Security: mailconn.Plain, Username: "pbem", Password: "secret"}
	err := tr.Send(context.Background(), "a@b", []string{"c@d"}, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "refusing to send a password unencrypted") {
		t.Errorf("err = %v; want a refusal", err)
	}
	if strings.Contains(fmt.Sprint(err), "secret") {
		t.Errorf("error shows the password: %v", err)
	}
}

// A server answering 4xx for a while: every reply arrives exactly once
// after it recovers.
func TestTemporaryRefusal(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	sink.Refuse(451, 4)
	enqueue(t, db, 10)
	var failures atomic.Int32
	s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet,
		RetryMin: 5 * time.Millisecond, RetryMax: 20 * time.Millisecond, Tick: 5 * time.Millisecond,
		OnFailure: func() { failures.Add(1) }})
	stop := run(t, s)
	msgs := sink.Wait(10, 10*time.Second)
	stop()
	checkOnce(t, msgs, 10)
	if sink.Refused() != 4 || failures.Load() != 4 {
		t.Errorf("refused %d, failures counted %d; want 4 and 4", sink.Refused(), failures.Load())
	}
	if n := outboxLen(t, db); n != 0 {
		t.Errorf("%d mails left in the outbox", n)
	}
}

// A server that is down, then back on the same address.
func TestServerDown(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	addr := sink.Addr
	sink.Close()
	enqueue(t, db, 3)
	s := New(db, &SMTP{Addr: addr, Security: mailconn.Plain, Timeout: time.Second}, Options{Logger: quiet,
		RetryMin: 5 * time.Millisecond, RetryMax: 20 * time.Millisecond, Tick: 5 * time.Millisecond})
	stop := run(t, s)
	time.Sleep(100 * time.Millisecond)
	if n := outboxLen(t, db); n != 3 {
		t.Fatalf("outbox holds %d while the server is down; want 3", n)
	}
	sink = startSink(t, smtpsink.Options{Addr: addr})
	msgs := sink.Wait(3, 10*time.Second)
	stop()
	checkOnce(t, msgs, 3)
}

// A permanent refusal gives the mail up at once, keeps it in the failed
// mail with the reason, and lets the other mails through.
func TestPermanentRefusal(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	sink.Refuse(550, 1)
	enqueue(t, db, 3)
	now := time.Now()
	var gaveUp atomic.Int32
	s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet,
		Now: func() time.Time { return now }, OnGiveUp: func() { gaveUp.Add(1) }})
	if n := s.Drain(context.Background()); n != 2 {
		t.Errorf("Drain sent %d; want the 2 mails not refused", n)
	}
	if gaveUp.Load() != 1 {
		t.Errorf("OnGiveUp called %d times; want 1", gaveUp.Load())
	}
	if n := outboxLen(t, db); n != 0 {
		t.Fatalf("outbox holds %d; want the refused mail moved out", n)
	}
	failed, err := db.Failed(0)
	if err != nil || len(failed) != 1 {
		t.Fatalf("failed mail = %v, %v; want the refused one", failed, err)
	}
	if f := failed[0]; f.ID != 1 || f.Attempts != 1 || !strings.Contains(f.LastError, "550") || !f.GaveUp.Equal(now) {
		t.Errorf("failed mail = %+v; want mail 1, attempt 1, the 550 as LastError, given up now", f)
	}
	// Never tried again.
	now = now.Add(24 * time.Hour)
	if n := s.Drain(context.Background()); n != 0 {
		t.Errorf("sent %d after giving up; want 0", n)
	}
	if len(sink.Messages()) != 2 || sink.Refused() != 1 {
		t.Errorf("sink got %d mails and refused %d; want 2 and 1", len(sink.Messages()), sink.Refused())
	}
}

// countingQueue counts the times mails are handed back to the outbox as
// sent.
type countingQueue struct {
	*store.DB
	calls atomic.Int32
}

func (q *countingQueue) SentSoon(ids ...uint64) {
	q.calls.Add(1)
	q.DB.SentSoon(ids...)
}

// A pass over the outbox takes the accepted mails out together, a batch
// of 64 at a time, not one by one; they leave the store with its next
// commit (see store's TestSentSoon), and are not sent again meanwhile.
func TestDrainRemovesSentMailTogether(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	enqueue(t, db, 100)
	q := &countingQueue{DB: db}
	s := New(q, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet})
	if n := s.Drain(context.Background()); n != 100 {
		t.Fatalf("Drain sent %d mails; want 100", n)
	}
	checkOnce(t, sink.Wait(100, 10*time.Second), 100)
	if c := q.calls.Load(); c != 2 {
		t.Errorf("sent mail left the outbox in %d parts; want 2 (batches of 64)", c)
	}
	if n := outboxLen(t, db); n != 0 {
		t.Errorf("%d mails left in the outbox", n)
	}
	if n := s.Drain(context.Background()); n != 0 {
		t.Errorf("a second pass sent %d mails again", n)
	}
}
