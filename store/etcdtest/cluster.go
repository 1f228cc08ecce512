package etcdtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
// (the test binary, or the etcdcluster command, run again as MemberMain
// says), so that one can be killed as a machine dies: with SIGKILL,
// nothing flushed or said.
type Cluster struct {
	members []*process
}

type process struct {
	spec memberSpec
	cmd  *exec.Cmd
	done chan struct{}
}

// MemberMain runs this process as an etcd member when StartCluster or
// Launch started it so, and never returns then; otherwise it returns at
// once. A binary that starts a Cluster calls it first: a test binary in
// its TestMain.
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
	runMember(s)
}

// runMember runs the member s until it stops, then exits.
func runMember(s memberSpec) {
	cfg := newConfig(s.Dir)
	cfg.Name = s.Name
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
	c, err := launch(t.TempDir(), n, []string{"-test.run=^$"}, func(string) (io.Writer, error) { return os.Stderr, nil })
	if c != nil {
		t.Cleanup(func() {
			for i := range c.members {
				c.Kill(i)
			}
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Launch starts n members in processes of this binary, which calls
// MemberMain first, their data under dir and each one's log in
// dir/NAME.log, and waits until they have a leader. The members outlive
// this process: Pids names them, to be ended.
func Launch(dir string, n int) (*Cluster, error) {
	return launch(dir, n, nil, func(name string) (io.Writer, error) {
		return os.Create(filepath.Join(dir, name+".log"))
	})
}

// launch starts n members, each this binary run with args, its standard
// error to logTo(its name), and waits until they have a leader and each
// has published its client address: a member list read before that shows
// a member that has not started. On an error the members started are
// returned, for the caller to kill.
func launch(dir string, n int, args []string, logTo func(name string) (io.Writer, error)) (*Cluster, error) {
	ports, err := freePorts(2 * n)
	if err != nil {
		return nil, err
	}
	c := &Cluster{}
	var initial []string
	for i := range n {
		s := memberSpec{Name: fmt.Sprintf("m%d", i), Client: ports[2*i], Peer: ports[2*i+1],
			Token: fmt.Sprintf("etcdtest-%d", os.Getpid())}
		s.Dir = filepath.Join(dir, s.Name)
		initial = append(initial, s.Name+"=http://"+s.Peer)
		c.members = append(c.members, &process{spec: s})
	}
	for i, m := range c.members {
		m.spec.Cluster = strings.Join(initial, ",")
		spec, _ := json.Marshal(m.spec)
		m.cmd = exec.Command(os.Args[0], args...)
		m.cmd.Env = append(os.Environ(), memberEnv+"="+string(spec))
		if m.cmd.Stderr, err = logTo(m.spec.Name); err == nil {
			err = m.cmd.Start()
		}
		if err != nil {
			c.members = c.members[:i]
			return c, err
		}
		m.done = make(chan struct{})
		go func() { m.cmd.Wait(); close(m.done) }()
	}
	deadline := time.Now().Add(time.Minute)
	for {
		err := c.ready()
		if err == nil {
			return c, nil
		} else if time.Now().After(deadline) {
			return c, fmt.Errorf("etcdtest: the cluster of %d members is not ready after a minute: %v", n, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ready says why the cluster is not ready yet: no leader, or a member
// that has not published its client address.
func (c *Cluster) ready() error {
	if _, err := c.Leader(); err != nil {
		return fmt.Errorf("no leader: %w", err)
	}
	cli, err := quietClient(c.Endpoints(), 2*time.Second)
	if err != nil {
		return err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	list, err := cli.MemberList(ctx)
	if err != nil {
		return err
	}
	for _, m := range list.Members {
		if len(m.ClientURLs) == 0 {
			return fmt.Errorf("member %s has not published its client address", m.Name)
		}
	}
	return nil
}

// Pids are the members' process ids.
func (c *Cluster) Pids() []int {
	var pids []int
	for _, m := range c.members {
		pids = append(pids, m.cmd.Process.Pid)
	}
	return pids
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
	cli, err := quietClient(live, 2*time.Second)
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

// Client is a client of the members at the endpoints (HOST:PORT), closed
// when t ends.
func Client(t testing.TB, endpoints ...string) *clientv3.Client {
	t.Helper()
	cli, err := quietClient(endpoints, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}

// quietClient is a client of the endpoints that logs nothing, dialing
// for at most dial.
func quietClient(endpoints []string, dial time.Duration) (*clientv3.Client, error) {
	return clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: dial, Logger: zap.NewNop()})
}
