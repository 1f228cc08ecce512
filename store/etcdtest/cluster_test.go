package etcdtest_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store/etcdtest"
)

func TestMain(m *testing.M) {
	etcdtest.MemberMain()
	os.Exit(m.Run())
}

// Three members in processes of their own keep a write when their leader
// is killed: the other two elect a new one and answer with the value.
func TestClusterSurvivesKilledLeader(t *testing.T) {
	c := etcdtest.StartCluster(t, 3)
	cli := etcdtest.Client(t, c.Endpoints()...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := cli.Put(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	old, err := c.Leader()
	if err != nil {
		t.Fatal(err)
	}
	c.Kill(old)
	var leader int
	for leader, err = c.Leader(); err != nil; leader, err = c.Leader() {
		if ctx.Err() != nil {
			t.Fatalf("no new leader after member %d was killed: %v", old, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if leader == old {
		t.Fatalf("the killed member %d still leads", old)
	}
	resp, err := cli.Get(ctx, "k")
	if err != nil || len(resp.Kvs) != 1 || string(resp.Kvs[0].Value) != "v" {
		t.Fatalf("after the leader was killed: %v, %v; want the value written", resp, err)
	}
}
