package daemon

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/etcdtest"
)

// doctorOn runs the doctor on a configuration whose store is at url.
func doctorOn(t *testing.T, url string) (found map[string]Finding, failed bool) {
	t.Helper()
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.Store = url
	found = map[string]Finding{}
	failed = Doctor(context.Background(), cfg, DoctorOptions{}, func(f Finding) { found[f.Check] = f })
	return found, failed
}

// On etcd the doctor checks the cluster, its room and the prefix in place
// of the file: an empty prefix is warned of, a pbemd store is found, a
// prefix another program filled fails, and a cluster gone fails saying
// that mail waits with the MTA.
func TestDoctorEtcd(t *testing.T) {
	addr, stop := etcdtest.Start(t)
	url := "etcd://" + addr + "/doctored"
	found, failed := doctorOn(t, url)
	expect(t, found, "etcd", OK, "1 of 1 members answer")
	expect(t, found, "etcd room", OK, "of its")
	expect(t, found, "store", Warn, "nothing under "+url)
	if failed {
		t.Errorf("a healthy cluster with an empty prefix failed: %v", found)
	}

	openEtcd(t, addr, "doctored").Close()
	found, _ = doctorOn(t, url)
	expect(t, found, "store", OK, "a pbemd store this pbemd reads; no node serves it")

	cli := etcdtest.Client(t, addr)
	if _, err := cli.Put(context.Background(), "foreign/m/config", "not a sequence"); err != nil {
		t.Fatal(err)
	}
	found, failed = doctorOn(t, "etcd://"+addr+"/foreign")
	expect(t, found, "store", Fail, "")
	if !failed {
		t.Error("a prefix of another program's keys passed")
	}

	stop()
	found, failed = doctorOn(t, url)
	expect(t, found, "etcd", Fail, "mail would stay with the MTA (451, exit 75)")
	expect(t, found, "store", Skip, "does not answer")
	if !failed {
		t.Error("a cluster gone passed")
	}
}

// The findings of the cluster and its room from what the members say,
// down, leaderless, full or alarmed.
func TestDoctorEtcdFindings(t *testing.T) {
	ok := func(name string) store.MemberStatus {
		return store.MemberStatus{Name: name, Endpoint: "http://" + name + ":2379", Version: "3.7.3", DbSize: 100 << 20, DbSizeInUse: 50 << 20, Quota: 8 << 30}
	}
	leader := ok("m1")
	leader.Leads = true
	down := store.MemberStatus{Name: "m3", Endpoint: "http://m3:2379", Err: errors.New("context deadline exceeded")}
	full := ok("m2")
	full.DbSize = 7 << 30
	for _, c := range []struct {
		name    string
		st      store.ClusterStatus
		err     error
		cluster Level
		room    Level
		says    string
	}{
		{"healthy", store.ClusterStatus{Members: []store.MemberStatus{leader, ok("m2"), ok("m3")}}, nil, OK, OK, "m1 leads"},
		{"one down", store.ClusterStatus{Members: []store.MemberStatus{leader, ok("m2"), down}}, nil, Warn, OK, "1 of 3 members down"},
		{"majority down", store.ClusterStatus{Members: []store.MemberStatus{leader, down, down}}, nil, Fail, OK, "no leader"},
		{"no leader", store.ClusterStatus{Members: []store.MemberStatus{ok("m1"), ok("m2"), ok("m3")}}, nil, Fail, OK, "takes no write"},
		{"unnamed member", store.ClusterStatus{Members: []store.MemberStatus{leader, ok("m2")}, Unnamed: []string{"m2 (http://m2:2379)"}}, nil, Warn, OK, "does not name m2"},
		{"nearly full", store.ClusterStatus{Members: []store.MemberStatus{leader, full}}, nil, OK, Warn, "m2"},
		{"alarm", store.ClusterStatus{Members: []store.MemberStatus{leader}, Alarms: []string{"NOSPACE on m1"}}, nil, OK, Fail, "NOSPACE on m1"},
		{"unreachable", store.ClusterStatus{}, store.ErrUnreachable, Fail, Skip, "451"},
	} {
		fc, fr := etcdCluster(c.st, c.err), etcdRoom(c.st, c.err)
		if fc.Level != c.cluster || fr.Level != c.room {
			t.Errorf("%s: cluster %v, room %v; want %v, %v\n%s\n%s", c.name, fc.Level, fr.Level, c.cluster, c.room, fc, fr)
		}
		if !strings.Contains(fc.Detail+fr.Detail, c.says) {
			t.Errorf("%s: the findings do not say %q:\n%s\n%s", c.name, c.says, fc, fr)
		}
	}
}
