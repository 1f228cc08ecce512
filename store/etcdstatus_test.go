package store

import (
	"context"
	"slices"
	"strings"
	"testing"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"

	"github.com/pbemd/pbemd/store/etcdtest"
)

// EtcdStatus of three member processes: each answers and one leads, the
// members the address leaves out are named, the prefix's store and its
// serving node are seen; a member killed is told apart from the others
// and an alarm raised is listed.
func TestEtcdStatus(t *testing.T) {
	t.Parallel()
	c := etcdtest.StartCluster(t, 3)
	cfg := &EtcdConfig{Endpoints: c.Endpoints(), Prefix: "status"}
	st, err := EtcdStatus(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Members) != 3 || len(st.Unnamed) != 0 || len(st.Alarms) != 0 || st.Buckets != 0 || st.Leader != "" {
		t.Fatalf("a new cluster with every member named, no store: %+v", st)
	}
	leads := 0
	for _, m := range st.Members {
		if m.Err != nil || m.NoLeader || m.DbSize == 0 || m.Quota == 0 || m.Version == "" {
			t.Errorf("member %s: %+v; want it answering, with a leader, a database and a quota", m.Name, m)
		}
		if m.Leads {
			leads++
		}
	}
	if leads != 1 {
		t.Errorf("%d members lead; want 1", leads)
	}

	db := openEtcdTest(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	leading := make(chan struct{})
	go db.Lead(ctx, LeadOptions{Node: "node-a"}, func(ctx context.Context) { close(leading); <-ctx.Done() })
	<-leading
	two := *cfg
	two.Endpoints = c.Endpoints()[:2]
	if st, err = EtcdStatus(&two); err != nil {
		t.Fatal(err)
	}
	if st.Buckets == 0 || st.Leader != "node-a" || len(st.Unnamed) != 1 || !strings.Contains(st.Unnamed[0], c.Endpoints()[2]) {
		t.Errorf("a store served by node-a, the address naming 2 members: buckets %d, leader %q, unnamed %v", st.Buckets, st.Leader, st.Unnamed)
	}

	cli := etcdtest.Client(t, c.Endpoints()[:2]...)
	actx, acancel := context.WithTimeout(context.Background(), waitFor)
	defer acancel()
	list, err := cli.MemberList(actx)
	if err != nil {
		t.Fatal(err)
	}
	var victim string
	for _, m := range list.Members {
		if slices.ContainsFunc(m.ClientURLs, func(u string) bool { return strings.HasSuffix(u, c.Endpoints()[2]) }) {
			victim = m.Name
		}
	}
	if _, err := pb.NewMaintenanceClient(cli.ActiveConnection()).Alarm(actx, &pb.AlarmRequest{
		Action: pb.AlarmRequest_ACTIVATE, MemberID: list.Members[0].ID, Alarm: pb.AlarmType_NOSPACE}); err != nil {
		t.Fatal(err)
	}
	c.Kill(2)
	if st, err = EtcdStatus(&two); err != nil {
		t.Fatal(err)
	}
	for _, m := range st.Members {
		if (m.Err != nil) != (m.Name == victim) {
			t.Errorf("member %s, %v, after %s was killed", m.Name, m.Err, victim)
		}
	}
	if want := "NOSPACE on " + list.Members[0].Name; !slices.Contains(st.Alarms, want) {
		t.Errorf("alarms %v; want %q", st.Alarms, want)
	}
}
