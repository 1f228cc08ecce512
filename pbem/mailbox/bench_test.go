package mailbox

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// counter is a service that only counts the mails it is given: the
// watcher's own cost, and the IMAP server's, without the service's.
type counter struct{ n atomic.Int64 }

func (c *counter) HandleAll(raws [][]byte) ([][]uint64, []error) {
	c.n.Add(int64(len(raws)))
	return make([][]uint64, len(raws)), make([]error, len(raws))
}
func (c *counter) Quarantine([]byte, string, bool) ([]uint64, error) { return nil, nil }
func (c *counter) TooLarge([]byte, int64, int64) ([]uint64, error)   { return nil, nil }
func (c *counter) CountFailure([]byte, int) (int, error)             { return 1, nil }
func (c *counter) Check() error                                      { return nil }

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
