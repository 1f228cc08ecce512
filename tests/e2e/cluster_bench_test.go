package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/etcdtest"
	"github.com/pbemd/pbemd/tests/dovecot"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// BenchmarkStores runs one pbemd over LMTP on each store side by side:
// bbolt, a one-member etcd and a three-member etcd (separate processes,
// fsync on, loopback). Each run, after setting up 50 boards, mails 1,000
// moves from 50 clients at once (one per board, its moves in turn: the
// LMTP mails that arrive together commit together) and reports mails/s;
// then 100 single moves, one at a time on an idle server, each timed
// from the mail handed over to its second reply taken by the sink
// (p50-ms, p99-ms). Run it once: -benchtime 1x.
func BenchmarkStores(b *testing.B) {
	for _, c := range []struct {
		name    string
		members int
	}{{"bbolt", 0}, {"etcd-1", 1}, {"etcd-3", 3}} {
		b.Run(c.name, func(b *testing.B) {
			storeURL := ""
			if c.members > 0 {
				cl := etcdtest.StartCluster(b, c.members)
				storeURL = store.EtcdScheme + strings.Join(cl.Endpoints(), ",") + "/bench"
			}
			sink, err := smtpsink.Start(smtpsink.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { sink.Close() })
			nodes := startClusterNodes(b, 1, storeURL, sink)
			for range b.N {
				benchStore(b, nodes, sink)
			}
		})
	}
}

func benchStore(b *testing.B, nodes []*clusterNode, sink *smtpsink.Sink) {
	b.StopTimer()
	const boards, perBoard, single = 50, 25, 100
	mails, _ := clusterBoards(b, nodes, boards, perBoard)
	singles := mails[1000:]
	mails = mails[:1000]
	if len(singles) < single {
		b.Fatalf("only %d moves left for the single mails", len(singles))
	}
	base := len(sink.Messages())
	began := time.Now()
	b.StartTimer()
	_, wait := burst(b, nodes, mails)
	wait()
	b.StopTimer()
	b.ReportMetric(float64(len(mails))/time.Since(began).Seconds(), "mails/s")

	// The replies of the burst out of the way first.
	sink.Wait(base+2*len(mails), time.Minute)
	time.Sleep(time.Second)
	seen := len(sink.Messages())
	name := game(b).Name()
	var times []time.Duration
	for _, m := range singles[:single] {
		time.Sleep(50 * time.Millisecond) // idle again
		data := mailText(player(m.player), fmt.Sprintf("%s move %d %s secret %s", name, m.board, m.player, m.move), m.msgID)
		start := time.Now()
		if err := dovecot.DeliverAt(nodes[0].lmtp, player(m.player), server, data); err != nil {
			b.Fatal(err)
		}
		msgs := sink.Wait(seen+2, 30*time.Second)
		if len(msgs) < seen+2 {
			b.Fatalf("move %s: no replies", m.msgID)
		}
		seen += 2
		times = append(times, msgs[seen-1].At.Sub(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}
