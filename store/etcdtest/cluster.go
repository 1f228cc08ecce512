package etcdtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// memberEnv holds, in a process StartCluster started, the member it is to
// be (a memberSpec in JSON).
const memberEnv = "PBEMD_ETCDTEST_MEMBER"

// memberSpec is one member of a cluster, as its process gets it.
type memberSpec struct {
	Name, Dir, Client, Peer string
	Cluster                 string // the initial cluster, name=peer URL,...
	Token                   string
}

// A Cluster is etcd members on loopback, each in a process of its own
// (the test binary run again as MemberMain says), so that one can be
// killed as a machine dies: with SIGKILL, nothing flushed or said.
type Cluster struct {
	t       testing.TB
	members []*process
}

type process struct {
	spec memberSpec
	cmd  *exec.Cmd
	done chan struct{}
}

// MemberMain runs this process as an etcd member when StartCluster
// started it so, and never returns then; otherwise it returns at once. A
// test binary that starts a Cluster calls it first in its TestMain.
func MemberMain() {
	env := os.Getenv(memberEnv)
	if env == "" {
		return
	}
	var s memberSpec
	if err := json.Unmarshal([]byte(env), &s); err != nil {
		fmt.Fprintf(os.Stderr, "etcdtest: member: %s: %v\n", memberEnv, err)
		os.Exit(2)
	}
	cfg := embed.NewConfig()
	cfg.Name, cfg.Dir = s.Name, s.Dir
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	cfg.MaxTxnOps = MaxTxnOps
	cfg.MaxRequestBytes = MaxRequestBytes
	client, peer := url.URL{Scheme: "http", Host: s.Client}, url.URL{Scheme: "http", Host: s.Peer}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{client}, []url.URL{client}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{peer}, []url.URL{peer}
	cfg.InitialCluster, cfg.InitialClusterToken = s.Cluster, s.Token
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "etcdtest: member %s: %v\n", s.Name, err)
		os.Exit(1)
	}
	err = <-e.Err()
	fmt.Fprintf(os.Stderr, "etcdtest: member %s stopped: %v\n", s.Name, err)
	os.Exit(1)
}

// StartCluster starts n members in processes of their own, in t's
// temporary directory, waits until they have a leader, and kills them
// when t ends.
func StartCluster(t testing.TB, n int) *Cluster {
	t.Helper()
	ports, err := freePorts(2 * n)
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{t: t}
	var initial []string
	for i := range n {
		s := memberSpec{Name: fmt.Sprintf("m%d", i), Client: ports[2*i], Peer: ports[2*i+1],
			Token: fmt.Sprintf("etcdtest-%d", os.Getpid())}
		s.Dir = filepath.Join(t.TempDir(), s.Name)
		initial = append(initial, s.Name+"=http://"+s.Peer)
		c.members = append(c.members, &process{spec: s})
	}
	for _, m := range c.members {
		m.spec.Cluster = strings.Join(initial, ",")
		spec, _ := json.Marshal(m.spec)
		m.cmd = exec.Command(os.Args[0], "-test.run=^$")
		m.cmd.Env = append(os.Environ(), memberEnv+"="+string(spec))
		m.cmd.Stderr = os.Stderr
		if err := m.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		m.done = make(chan struct{})
		go func() { m.cmd.Wait(); close(m.done) }()
	}
	t.Cleanup(func() {
		for i := range c.members {
			c.Kill(i)
		}
	})
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := c.Leader(); err == nil {
			return c
		} else if time.Now().After(deadline) {
			t.Fatalf("etcdtest: the cluster of %d members has no leader after a minute: %v", n, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Endpoints are the members' client addresses, HOST:PORT.
func (c *Cluster) Endpoints() []string {
	var eps []string
	for _, m := range c.members {
		eps = append(eps, m.spec.Client)
	}
	return eps
}

// Kill kills member i with SIGKILL and waits until it is gone.
func (c *Cluster) Kill(i int) {
	m := c.members[i]
	m.cmd.Process.Kill()
	<-m.done
}

// Leader returns the index of the member that leads the cluster's Raft,
// as the members still running say.
func (c *Cluster) Leader() (int, error) {
	var live []string
	for _, m := range c.members {
		select {
		case <-m.done:
		default:
			live = append(live, m.spec.Client)
		}
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: live, DialTimeout: 2 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return -1, err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var lastErr error
	for _, ep := range live {
		st, err := cli.Status(ctx, ep)
		if err != nil {
			lastErr = err
			continue
		}
		if st.Leader == 0 {
			lastErr = fmt.Errorf("member %s knows no leader", ep)
			continue
		}
		if st.Leader == st.Header.MemberId {
			for i, m := range c.members {
				if m.spec.Client == ep {
					return i, nil
				}
			}
		}
	}
	if lastErr == nil {
		lastErr = fmt.Errorf("no member of %v says it leads", live)
	}
	return -1, lastErr
}
