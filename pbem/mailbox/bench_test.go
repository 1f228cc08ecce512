package mailbox

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// counter is a Handler that only counts the mails it is given: the
// watcher's own cost, and the IMAP server's, without the service's.
type counter struct{ n atomic.Int64 }

func (c *counter) Deliver(raw []byte) error { c.n.Add(1); return nil }
func (c *counter) DeliverAll(raws [][]byte) []error {
	c.n.Add(int64(len(raws)))
	return make([]error, len(raws))
}
func (c *counter) Quarantine(raw []byte, why string) error         { return nil }
func (c *counter) TooLarge(header []byte, size, limit int64) error { return nil }
func (c *counter) Check() error                                    { return nil }

// BenchmarkBacklog measures draining a backlog of b.N mails from go-imap's
// server (the embedded default's, in this process) with a Handler that
// does nothing: searching, fetching and moving the mails, per mail, on
// both ends of the connection.
func BenchmarkBacklog(b *testing.B) {
	s := startServer(b)
	for i := range b.N {
		if err := mail(s, fmt.Sprintf("m %d", i)); err != nil {
			b.Fatal(err)
		}
	}
	c := &counter{}
	var moved atomic.Int64
	b.ResetTimer()
	stop := watch(b, Config{Addr: s.IMAPAddr, OnMoved: func(n int) { moved.Add(int64(n)) }}, c)
	defer stop()
	for moved.Load() < int64(b.N) {
		time.Sleep(time.Millisecond)
	}
	b.StopTimer()
	if n := c.n.Load(); n != int64(b.N) {
		b.Fatalf("%d mails handed over; want %d", n, b.N)
	}
}
