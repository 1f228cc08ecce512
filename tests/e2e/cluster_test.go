package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/etcdtest"
	"github.com/pbemd/pbemd/tests/dovecot"
	"github.com/pbemd/pbemd/tests/smtpsink"
	"github.com/pbemd/pbemd/tests/testenv"
)

// A clusterNode is one pbemd of several on one etcd store, taking mail
// over LMTP.
type clusterNode struct {
	lmtp string
	p    *proc
	dead atomic.Bool
}

// startClusterNodes starts n pbemd nodes on the store at storeURL (or
// on bbolt in its data directory when storeURL is empty), each with an
// LMTP listener and no mailbox, sending through sink.
func startClusterNodes(t testing.TB, n int, storeURL string, sink *smtpsink.Sink) []*clusterNode {
	t.Helper()
	_, smtpPort, _ := strings.Cut(sink.Addr, ":")
	storeLine := ""
	if storeURL != "" {
		storeLine = "store: " + storeURL
	}
	var nodes []*clusterNode
	for i := range n {
		node := &clusterNode{lmtp: testenv.FreeAddr(t)}
		config := filepath.Join(t.TempDir(), fmt.Sprintf("node%d.yaml", i))
		writeTestConfig(t, config, fmt.Sprintf("data: %s\n%s\nhttp: \"off\"\nlmtp: %s\n",
			filepath.Join(t.TempDir(), "data"), storeLine, node.lmtp), smtpPort, "")
		node.p = startPbemd(t, nil, "serve", "-config", config)
		node.p.waitLine(`lmtp listening`)
		nodes = append(nodes, node)
	}
	return nodes
}

// deliverAny hands a mail to the nodes over LMTP, starting with node
// first, as an MTA with several next hops does: a node that does not
// answer 250 (killed, or 451 while the cluster elects a leader) is left
// for the next, until one takes it or the minute is over.
func deliverAny(t testing.TB, nodes []*clusterNode, first int, from string, data []byte) {
	deadline := time.Now().Add(time.Minute)
	var errs []string
	for i := first; time.Now().Before(deadline); i++ {
		node := nodes[i%len(nodes)]
		if node.dead.Load() {
			continue
		}
		err := dovecot.DeliverAt(node.lmtp, from, server, data)
		if err == nil {
			return
		}
		errs = append(errs, err.Error())
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("no node took a mail within a minute: %q", errs)
}

// clusterBoards signs up alice and bob through the nodes and has alice
// challenge bob to boards games; it returns perBoard moves of each, as
// planMoves.
func clusterBoards(t testing.TB, nodes []*clusterNode, boards, perBoard int) ([]moveMail, map[int][]string) {
	t.Helper()
	g := game(t)
	deliverAny(t, nodes, 0, player("alice"), mailText(player("alice"), "signup alice secret", "signup-alice@e2e.test"))
	deliverAny(t, nodes, 1, player("bob"), mailText(player("bob"), "signup bob secret", "signup-bob@e2e.test"))
	for b := range boards {
		deliverAny(t, nodes, b, player("alice"), mailText(player("alice"), g.Name()+" challenge alice bob", fmt.Sprintf("challenge%d@e2e.test", b)))
	}
	return planMoves(t, g, boards, perBoard)
}

// burst mails the moves over LMTP from one client per board, each move
// after the last of its board was taken, each to the next node; done
// counts the mails taken, and wait waits for the last.
func burst(t testing.TB, nodes []*clusterNode, mails []moveMail) (done *atomic.Int64, wait func()) {
	name := game(t).Name()
	perBoard := map[int][]moveMail{}
	for _, m := range mails {
		perBoard[m.board] = append(perBoard[m.board], m)
	}
	done = new(atomic.Int64)
	var wg sync.WaitGroup
	for b, ms := range perBoard {
		wg.Go(func() {
			for k, m := range ms {
				subject := fmt.Sprintf("%s move %d %s secret %s", name, m.board, m.player, m.move)
				deliverAny(t, nodes, b+k, player(m.player), mailText(player(m.player), subject, m.msgID))
				done.Add(1)
			}
		})
	}
	return done, wg.Wait
}

// TestClusterFault is the fault test of several nodes on one etcd store:
// three members and three pbemd nodes; some 1,000 move mails over LMTP
// spread over the nodes from one client per board; during the burst the
// node that leads (sends the outbox) and the Raft leader of etcd are
// killed with SIGKILL. Every mail answered 250 is applied exactly once,
// in order; every move gets its replies at least once; and the outbox
// is sent again, by the node that took over, within 10 s of the kill.
func TestClusterFault(t *testing.T) {
	if testing.Short() {
		t.Skip("the cluster fault test runs three etcd members and three pbemd")
	}
	c := etcdtest.StartCluster(t, 3)
	sink, err := smtpsink.Start(smtpsink.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sink.Close() })
	storeURL := store.EtcdScheme + strings.Join(c.Endpoints(), ",") + "/fault"
	nodes := startClusterNodes(t, 3, storeURL, sink)

	const boards, perBoard = 50, 21
	mails, want := clusterBoards(t, nodes, boards, perBoard)
	t.Logf("%d move mails on %d boards", len(mails), boards)
	db, err := store.OpenEtcd(&store.EtcdConfig{Endpoints: c.Endpoints(), Prefix: "fault"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	began := time.Now()
	done, wait := burst(t, nodes, mails)

	// Mid-burst: kill the node that leads, then etcd's Raft leader.
	waitUntil(t, "a third of the mails taken", 2*time.Minute, func() bool { return done.Load() >= int64(len(mails)/3) })
	leader, err := db.Leader()
	if err != nil {
		t.Fatal(err)
	}
	killed := -1
	for i, n := range nodes {
		if strings.HasSuffix(leader, ":"+strconv.Itoa(n.p.cmd.Process.Pid)) {
			killed = i
		}
	}
	if killed < 0 {
		t.Fatalf("the leader %q is none of the nodes", leader)
	}
	nodes[killed].dead.Store(true)
	nodes[killed].p.kill()
	killedAt := time.Now()
	atKill := done.Load()
	raft, err := c.Leader()
	if err != nil {
		t.Fatal(err)
	}
	c.Kill(raft)
	t.Logf("killed pbemd node %d (the leader) and etcd member %d (the Raft leader) with %d of %d mails taken", killed, raft, atKill, len(mails))

	wait()
	took := time.Since(began)
	if done.Load() < int64(len(mails)) || t.Failed() {
		t.Fatalf("%d of %d mails were taken", done.Load(), len(mails))
	}
	if atKill >= int64(len(mails)) {
		t.Errorf("the kills came after the burst (%d of %d mails taken): the test shows little", atKill, len(mails))
	}

	// Every reply at least once: each move's board mail to both players.
	answered := func() map[string][]string {
		a := map[string][]string{}
		for _, m := range sink.Messages() {
			r := parseReply(t, m.Data)
			a[r.InReplyTo] = append(a[r.InReplyTo], r.To)
		}
		return a
	}
	waitUntil(t, "every move's replies sent", 2*time.Minute, func() bool {
		a := answered()
		for _, m := range mails {
			if to := a[m.msgID]; !slices.Contains(to, player("alice")) || !slices.Contains(to, player("bob")) {
				return false
			}
		}
		return true
	})
	t.Logf("%d mails taken in %s, %.0f a second, over the kills", len(mails), took.Round(time.Millisecond), float64(len(mails))/took.Seconds())
	checkMovesIn(t, db, want)

	// The new leader sent the outbox within 10 s of the kill: the first
	// mail the sink took after it came from another node.
	var first time.Time
	for _, m := range sink.Messages() {
		if m.At.After(killedAt) && (first.IsZero() || m.At.Before(first)) {
			first = m.At
		}
	}
	if first.IsZero() {
		t.Fatal("no mail was sent after the leader was killed")
	}
	takeover := first.Sub(killedAt)
	for i, n := range nodes {
		for l := range strings.Lines(n.p.Output()) {
			if strings.Contains(l, "lead") {
				t.Logf("node %d: %s", i, strings.TrimSpace(l))
			}
		}
	}
	t.Logf("killed at %s", killedAt.Format(time.RFC3339Nano))
	t.Logf("first mail sent %s after the leader was killed", takeover.Round(time.Millisecond))
	if takeover > 10*time.Second {
		t.Errorf("the outbox was sent again %s after the leader was killed; want within 10s", takeover.Round(time.Millisecond))
	}
}
