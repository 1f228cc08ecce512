package lmtp_test

import (
	"bytes"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/intake"
	"github.com/pbemd/pbemd/pbem/lmtp"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// BenchmarkFlood measures what a player meets over LMTP while strangers
// flood the server with forged mail: from the end of his mail's DATA to
// its commit (ack-ms: to its 250, which comes once it is spooled). The
// service runs as the daemon runs it: fsync on, bcrypt at its production
// cost, the default limits, the spool. "idle" has no flood; "signups" has 8 MTA connections sending
// forged multiple mails of two signups each, as fast as they are
// answered; "passwords" has 8 guessing alice's password, half from
// invented addresses and half with her own address forged. The measured
// mail is a chat of bob's with his password (checked from the cache after
// his first, as in a running daemon), which stores a comment and mails
// both players; one every 20 ms. Flood and player share the 2 cores.
func BenchmarkFlood(b *testing.B) {
	floods := map[string]func(i int) []byte{
		"signups": func(i int) []byte {
			body := fmt.Sprintf("signup f%da pass-%da\nsignup f%db pass-%db\n", i, i, i, i)
			return pbemtest.Forged(fmt.Sprintf("s%d@flood.example", i), "multiple", body, fmt.Sprintf("fs%d@flood.example", i))
		},
		"passwords": func(i int) []byte {
			from := fmt.Sprintf("g%d@flood.example", i)
			if i%2 == 0 {
				from = "alice@example.org"
			}
			return pbemtest.Forged(from, fmt.Sprintf("tanbo move 101 alice guess%d a1", i), "", fmt.Sprintf("fp%d@flood.example", i))
		},
	}
	for _, name := range []string{"idle", "signups", "passwords"} {
		b.Run(name, func(b *testing.B) {
			db := storetest.Open(b, store.PathIn(b.TempDir()), nil)
			svc := committed{pbem.New(db, pbem.Config{Address: "pbem@example.org", Log: quiet, Auth: pbemtest.Auth()}),
				[]byte("Still there?"), make(chan struct{}, 1)}
			s, err := lmtp.Listen(lmtp.Options{Addr: "127.0.0.1:0", Recipients: []string{"pbem@example.org"}, Logger: quiet,
				First: pbemtest.Auth().Trusted, Spool: b.TempDir()},
				intake.New(svc, intake.Options{Logger: quiet}))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			player := lmtpClient(b, s)
			for i, subject := range []string{"signup alice pw-alice", "signup bob pw-bob", "tanbo challenge alice bob -size=9", "tanbo chat 101 bob pw-bob"} {
				from := "alice@example.org"
				if i%2 == 1 || i == 3 {
					from = "bob@example.org"
				}
				if err := deliver(player, string(pbemtest.Mail(from, subject, "", fmt.Sprintf("setup%d@client.example", i)))); err != nil {
					b.Fatal(err)
				}
			}
			stop := make(chan struct{})
			var wg sync.WaitGroup
			var flooded atomic.Int64
			if mk := floods[name]; mk != nil {
				for w := range 8 {
					c := lmtpClient(b, s)
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := w; ; i += 8 {
							select {
							case <-stop:
								return
							default:
							}
							if err := deliver(c, string(mk(i))); err != nil {
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
			var ack []time.Duration
			b.ResetTimer()
			for i := range b.N {
				raw := pbemtest.Mail("bob@example.org", "tanbo chat 101 bob pw-bob", "Still there?", fmt.Sprintf("p%d@client.example", i))
				start := time.Now()
				if err := deliver(player, string(raw)); err != nil {
					b.Fatal(err)
				}
				ack = append(ack, time.Since(start))
				<-svc.done
				lat = append(lat, time.Since(start))
				time.Sleep(20 * time.Millisecond) // a player's mails come apart
			}
			b.StopTimer()
			close(stop)
			wg.Wait()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			sort.Slice(ack, func(i, j int) bool { return ack[i] < ack[j] })
			b.ReportMetric(float64(ack[len(ack)/2].Microseconds())/1000, "ack50-ms")
			b.ReportMetric(float64(ack[len(ack)*99/100].Microseconds())/1000, "ack99-ms")
			b.ReportMetric(float64(flooded.Load()), "flood-mails")
		})
	}
}

// committed is the service, telling done of each commit of a mail with
// the marker.
type committed struct {
	*pbem.Service
	marker []byte
	done   chan struct{}
}

func (c committed) HandleAll(raws [][]byte) ([][]uint64, []error) {
	ids, errs := c.Service.HandleAll(raws)
	for i, raw := range raws {
		if errs[i] == nil && bytes.Contains(raw, c.marker) {
			c.done <- struct{}{}
		}
	}
	return ids, errs
}
