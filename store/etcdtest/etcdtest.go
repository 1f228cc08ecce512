// Package etcdtest starts etcd servers for tests: a single member inside
// the test process (go.etcd.io/etcd/server/v3/embed), quick to start, for
// the store's engine tests and for running the service's suite on etcd.
// It knows nothing of the store.
package etcdtest

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// The limits of every test member: those docs/scaling.md asks of a real
// cluster (and the store's defaults), so that a transaction too large for
// one fails in the tests too.
const (
	MaxTxnOps         = 4096
	MaxRequestBytes   = 16 << 20
	QuotaBackendBytes = 8 << 30
)

// Start starts a member of its own for t, in t's temporary directory, and
// stops it when t ends, or before when t calls stop. It returns the
// member's client address, HOST:PORT.
func Start(t testing.TB) (addr string, stop func()) {
	t.Helper()
	e, err := start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop = func() { once.Do(e.Close) }
	t.Cleanup(stop)
	return e.Clients[0].Addr().String(), stop
}

var shared struct {
	sync.Once
	addr string
	err  error
}

// Shared returns the client address of one member that every test of the
// process shares, started on the first call and left to end with the
// process. Tests that share it keep apart by key prefix.
func Shared() (string, error) {
	shared.Do(func() {
		removeStale()
		dir, err := os.MkdirTemp("", fmt.Sprintf("pbemd-etcdtest-%d-", os.Getpid()))
		if err != nil {
			shared.err = err
			return
		}
		e, err := start(dir)
		if err != nil {
			shared.err = err
			return
		}
		shared.addr = e.Clients[0].Addr().String()
	})
	return shared.addr, shared.err
}

// newConfig is the configuration of every test member, its data in dir:
// the limits asked of a real cluster, no fsync (a test's data outlives no
// crash of the machine), no log.
func newConfig(dir string) *embed.Config {
	cfg := embed.NewConfig()
	cfg.Dir = dir
	// Its errors come back to the clients; at Close it logs each listener
	// it shuts.
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	cfg.UnsafeNoFsync = true
	cfg.MaxTxnOps = MaxTxnOps
	cfg.MaxRequestBytes = MaxRequestBytes
	cfg.QuotaBackendBytes = QuotaBackendBytes
	return cfg
}

func start(dir string) (*embed.Etcd, error) {
	cfg := newConfig(dir)
	ports, err := freePorts(2)
	if err != nil {
		return nil, err
	}
	client := url.URL{Scheme: "http", Host: ports[0]}
	peer := url.URL{Scheme: "http", Host: ports[1]}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{client}, []url.URL{client}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{peer}, []url.URL{peer}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, fmt.Errorf("etcdtest: starting a member: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
		return e, nil
	case err := <-e.Err():
		e.Close()
		return nil, fmt.Errorf("etcdtest: the member failed: %w", err)
	case <-time.After(30 * time.Second):
		e.Close()
		return nil, fmt.Errorf("etcdtest: the member was not ready within 30s")
	}
}

// freePorts returns n loopback addresses whose ports were free a moment
// ago.
func freePorts(n int) ([]string, error) {
	var addrs []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		addrs = append(addrs, l.Addr().String())
	}
	return addrs, nil
}

// removeStale removes the directories of shared members whose test
// process has ended: a process cannot remove its own at exit.
func removeStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "pbemd-etcdtest-*-*"))
	for _, d := range dirs {
		var pid int
		if _, err := fmt.Sscanf(filepath.Base(d), "pbemd-etcdtest-%d-", &pid); err != nil || pid <= 0 {
			continue
		}
		if p, err := os.FindProcess(pid); err != nil || errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone) {
			os.RemoveAll(d)
		}
	}
}
