package outbox

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// BenchmarkDrain: replies sent per second from a synced store to a
// loopback SMTP sink, one connection reused.
func BenchmarkDrain(b *testing.B) { benchDrain(b, 1) }

// BenchmarkDrainConns: the same over 1 and 4 connections at once, each
// reply to one of 50 players.
func BenchmarkDrainConns(b *testing.B) {
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprintf("conns-%d", n), func(b *testing.B) { benchDrain(b, n) })
	}
}

func benchDrain(b *testing.B, conns int) {
	db := storetest.Open(b, store.PathIn(b.TempDir()), nil)
	sink, err := smtpsink.Start(smtpsink.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer sink.Close()
	data := []byte("From: pbem@localhost\r\nTo: p@localhost\r\nSubject: Ultima Board 101 bob\r\n\r\n")
	for range 30 {
		data = append(data, "|  .  .  .  .  .  .  .  .  |  a board line of a typical reply  |\r\n"...)
	}
	err = db.Update(func(tx *store.Tx) error {
		for i := range b.N {
			to := fmt.Sprintf("p%d@localhost", i%50)
			if err := tx.Enqueue(&store.Outgoing{From: "pbem@localhost", To: []string{to}, Data: data, Queued: time.Now()}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	var ts []Transport
	for range conns {
		ts = append(ts, &SMTP{Addr: sink.Addr, Security: mailconn.Plain})
	}
	s := NewConns(db, ts, Options{Logger: quiet})
	b.ResetTimer()
	if n := s.Drain(context.Background()); n != b.N {
		b.Fatalf("sent %d of %d", n, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}
