package pbem

import (
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/pbemtest"
)

// BenchmarkFlood measures what a player meets while strangers flood the
// server with forged mail: the time from handing his mail to the service
// to its commit, as an LMTP delivery waits for it, with the production
// bcrypt cost and fsync on. "idle" has no flood; "signups" has 8 senders
// that each send, as fast as they are answered, forged multiple mails of
// two signups; "passwords" has 8 that guess the players' passwords from
// invented addresses and from alice's own. Each measured mail is a chat of
// bob's with his password (checked from the cache after his first, as in
// a running daemon), which stores the comment and mails both players.
// The flood runs on the same two cores.
func BenchmarkFlood(b *testing.B) {
	floods := map[string]func(i int) []byte{
		"idle": nil,
		"signups": func(i int) []byte {
			body := fmt.Sprintf("signup f%da pass-%da\nsignup f%db pass-%db\n", i, i, i, i)
			return pbemtest.Forged(fmt.Sprintf("s%d@flood.example", i), "multiple", body, fmt.Sprintf("fs%d@flood.example", i))
		},
		"passwords": func(i int) []byte {
			from := fmt.Sprintf("g%d@flood.example", i)
			if i%2 == 0 {
				from = "alice@example.org" // forged: nothing vouches for it
			}
			return pbemtest.Forged(from, fmt.Sprintf("tanbo move 101 alice guess%d a1", i), "", fmt.Sprintf("fp%d@flood.example", i))
		},
	}
	for _, name := range []string{"idle", "signups", "passwords"} {
		b.Run(name, func(b *testing.B) {
			s, db := benchService(b, filepath.Join(b.TempDir(), "pbem.db"))
			s.limits.Mails = DefaultLimits().Mails // the flood meets the limits a server has
			for i, subject := range []string{"signup alice pw-alice", "signup bob pw-bob", "tanbo challenge alice bob -size=9", "tanbo chat 101 bob pw-bob"} {
				from := "alice@example.org"
				if i%2 == 1 || i == 3 {
					from = "bob@example.org"
				}
				if err := s.Deliver(benchMail(i, from, subject)); err != nil {
					b.Fatal(err)
				}
			}
			stop := make(chan struct{})
			var wg sync.WaitGroup
			var flooded atomic.Int64
			if mk := floods[name]; mk != nil {
				for w := range 8 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := w; ; i += 8 {
							select {
							case <-stop:
								return
							default:
							}
							if err := s.Deliver(mk(i)); err != nil {
								b.Error(err)
								return
							}
							flooded.Add(1)
						}
					}()
				}
				time.Sleep(time.Second) // the flood under way
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				if err := s.Deliver(benchMail(1000+i, "bob@example.org", "tanbo chat 101 bob pw-bob")); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
				time.Sleep(20 * time.Millisecond) // a player's mails come apart
			}
			b.StopTimer()
			close(stop)
			wg.Wait()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(flooded.Load()), "flood-mails")
			db.Close()
		})
	}
}
