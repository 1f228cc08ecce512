package outbox

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// BenchmarkDrain: replies sent per second from a synced store to a
// loopback SMTP sink, one connection reused.
func BenchmarkDrain(b *testing.B) {
	db, err := store.Open(filepath.Join(b.TempDir(), "pbem.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
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
		for range b.N {
			if err := tx.Enqueue(&store.Outgoing{From: "pbem@localhost", To: []string{"p@localhost"}, Data: data, Queued: time.Now()}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet})
	b.ResetTimer()
	if n := s.Drain(context.Background()); n != b.N {
		b.Fatalf("sent %d of %d", n, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}
