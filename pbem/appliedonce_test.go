package pbem_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/etcdtest"
)

// twoNodes is a harness whose service is node A of a store in etcd, with
// a second node B, its own client and service, on the same store: two
// pbemd nodes of one cluster; alice has challenged bob to Tanbo board
// 101.
func twoNodes(t *testing.T) (h *pbemtest.Harness, a, b *pbem.Service) {
	t.Helper()
	addr, _ := etcdtest.Start(t)
	open := func() *store.DB {
		db, err := store.OpenEtcd(&store.EtcdConfig{Endpoints: []string{addr}, Prefix: "nodes",
			MaxTxnOps: etcdtest.MaxTxnOps, MaxRequestBytes: etcdtest.MaxRequestBytes}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	h = &pbemtest.Harness{T: t, DB: open(), Now: pbemtest.Start}
	cfg := pbem.Config{Address: pbemtest.Address, Now: h.Clock, Auth: pbemtest.Auth()}
	a, b = pbem.New(h.DB, cfg), pbem.New(open(), cfg)
	h.Service = a
	h.SignUp("alice", "bob")
	h.Mail("alice@example.org", "tanbo challenge alice bob", "")
	return h, a, b
}

// atOnce delivers each raw to its node at the same moment and fails t on
// an error: a node that lost a race must retry, not fail the mail.
func atOnce(t *testing.T, nodes []*pbem.Service, raws [][]byte) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(nodes))
	start := make(chan struct{})
	for i := range nodes {
		wg.Go(func() {
			<-start
			errs[i] = nodes[i].Deliver(raws[i])
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
	}
}

func game101(t *testing.T, db *store.DB) *store.Game {
	t.Helper()
	var g *store.Game
	err := db.View(func(tx *store.Tx) (err error) {
		g, err = tx.Game("tanbo", 101)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// nextMove is a legal move of the player to move on board 101, and his
// user id.
func nextMove(t *testing.T, db *store.DB) (player, move string) {
	t.Helper()
	g := game101(t, db)
	_, pos, err := board.Current(g)
	if err != nil {
		t.Fatal(err)
	}
	return g.Seats[pos.ToMove()], pos.Legal()[0]
}

// The same mail handed to two nodes at once (an MTA that retries on
// another node, a second MX) is applied once: both nodes commit the
// mail's processed key in the transaction of its move, so the node that
// loses the race retries, finds the mail handled and changes nothing.
// One move, one board mail to each player.
func TestSameMailOnTwoNodesAppliedOnce(t *testing.T) {
	h, a, b := twoNodes(t)
	for n := 1; n <= 12; n++ {
		player, move := nextMove(t, h.DB)
		raw := h.Vouched(player+"@example.org", fmt.Sprintf("tanbo move 101 %s %s %s", player, pbemtest.Password(player), move), "")
		atOnce(t, []*pbem.Service{a, b}, [][]byte{raw, raw})
		if got := len(game101(t, h.DB).Moves); got != n {
			t.Fatalf("mail %d, sent to both nodes: the board has %d moves, want %d", n, got, n)
		}
		out := h.Outbox()
		if len(out) != 2 || out[0].To == out[1].To {
			t.Fatalf("mail %d: %d replies %v, want one board mail to each player", n, len(out), recipients(out))
		}
	}
}

// Two different mails that each make the same move, handed to two nodes
// at once (a player who sent his move twice), read the same board: the
// etcd transactions are serializable, so one is played and the other,
// retried on the board as the first left it, is refused as out of turn.
func TestRacingMovesOnTwoNodesOnePlayed(t *testing.T) {
	h, a, b := twoNodes(t)
	for n := 1; n <= 8; n++ {
		player, move := nextMove(t, h.DB)
		subject := fmt.Sprintf("tanbo move 101 %s %s %s", player, pbemtest.Password(player), move)
		from := player + "@example.org"
		atOnce(t, []*pbem.Service{a, b}, [][]byte{h.Vouched(from, subject, ""), h.Vouched(from, subject, "")})
		if got := len(game101(t, h.DB).Moves); got != n {
			t.Fatalf("round %d: the board has %d moves, want %d", n, got, n)
		}
		out := h.Outbox()
		errors := 0
		for _, r := range out {
			if strings.Contains(r.Subject, "Error") {
				errors++
				if r.To != from {
					t.Fatalf("round %d: the refusal went to %s, want the sender %s", n, r.To, from)
				}
			}
		}
		if errors != 1 || len(out) != 3 {
			t.Fatalf("round %d: replies %v, want two board mails and one refusal", n, recipients(out))
		}
	}
}

func recipients(out []pbemtest.Sent) []string {
	var s []string
	for _, r := range out {
		s = append(s, r.To+": "+r.Subject)
	}
	return s
}
