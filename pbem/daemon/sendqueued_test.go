package daemon

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// "pbemd deliver" sends one mail's few replies over one SMTP connection
// (one login), and a backlog over smtp.connections.
func TestSendQueuedConnections(t *testing.T) {
	for _, tc := range []struct {
		queued   int
		min, max int
	}{{3, 1, 1}, {200, 2, 4}} {
		t.Run(fmt.Sprint(tc.queued), func(t *testing.T) {
			sink, err := smtpsink.Start(smtpsink.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer sink.Close()
			db := storetest.New(t)
			err = db.Update(func(tx *store.Tx) error {
				for i := range tc.queued {
					to := fmt.Sprintf("p%d@localhost", i)
					data := fmt.Sprintf("From: pbem@localhost\r\nTo: %s\r\nSubject: reply\r\n\r\nboard\r\n", to)
					if err := tx.Enqueue(&store.Outgoing{From: "pbem@localhost", To: []string{to}, Data: []byte(data), Queued: time.Now()}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			host, port, _ := net.SplitHostPort(sink.Addr)
			cfg := &config.Config{SMTP: config.SMTP{Connections: 4}}
			cfg.SMTP.Host, cfg.SMTP.Security = host, mailconn.Plain
			fmt.Sscan(port, &cfg.SMTP.Port)
			if err := SendQueued(context.Background(), db, cfg); err != nil {
				t.Fatal(err)
			}
			if n := len(sink.Messages()); n != tc.queued {
				t.Fatalf("%d of %d replies sent", n, tc.queued)
			}
			if c := sink.Connections(); c < tc.min || c > tc.max {
				t.Errorf("%d replies went over %d connections; want %d to %d", tc.queued, c, tc.min, tc.max)
			}
		})
	}
}
