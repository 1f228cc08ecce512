package lmtp

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// BenchmarkGather: 8 connections hand over b.N mails each, a mail at a
// time, to a store that commits at once; mails/commit is how many the
// group commit took together, with the default gathering and with none
// (1 ns).
func BenchmarkGather(b *testing.B) {
	for _, c := range []struct {
		name   string
		gather time.Duration
	}{{"none", time.Nanosecond}, {"default", 0}} {
		b.Run(c.name, func(b *testing.B) {
			r := &recorder{}
			s, err := Listen(Options{Addr: "127.0.0.1:0", Recipients: []string{"pbem@example.org"},
				Logger: quiet, Gather: c.gather}, newIntake(r))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			var wg sync.WaitGroup
			for conn := range 8 {
				wg.Go(func() {
					nc, err := net.Dial("tcp", s.Addr().String())
					if err != nil {
						b.Error(err)
						return
					}
					cl := smtp.NewClientLMTP(nc)
					defer cl.Close()
					for i := range b.N {
						msg := fmt.Sprintf("From: a@example.org\r\nSubject: m%d.%d\r\n\r\nb\r\n", conn, i)
						if err := cl.SendMail("a@example.org", []string{"pbem@example.org"}, strings.NewReader(msg)); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			r.mu.Lock()
			defer r.mu.Unlock()
			b.ReportMetric(float64(len(r.stored))/float64(len(r.batches)), "mails/commit")
		})
	}
}
