package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store/etcdtest"
)

// CI's use of the command: it prints the address of three members that
// keep what is written, returns while they run on, and lists them in
// DIR/pids for the caller to end; without DIR it says what it wants.
func TestEtcdcluster(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "etcdcluster")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building etcdcluster: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin).CombinedOutput(); err == nil || !strings.Contains(string(out), "usage: etcdcluster DIR") {
		t.Errorf("without DIR: %v, %s; want a usage error", err, out)
	}

	members := filepath.Join(dir, "members")
	out, err := exec.Command(bin, members).Output()
	pidText, _ := os.ReadFile(filepath.Join(members, "pids"))
	pids := strings.Fields(string(pidText))
	t.Cleanup(func() {
		for _, p := range pids {
			if pid, err := strconv.Atoi(p); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	if err != nil {
		t.Fatalf("etcdcluster: %v", err)
	}
	url := strings.TrimSpace(string(out))
	hosts, ok := strings.CutPrefix(url, "etcd://")
	hosts, prefix, _ := strings.Cut(hosts, "/")
	if !ok || prefix != "pbemd-ci" || len(strings.Split(hosts, ",")) != 3 || len(pids) != 3 {
		t.Fatalf("printed %q with pids %v; want etcd://HOST:PORT,HOST:PORT,HOST:PORT/pbemd-ci and 3 pids", url, pids)
	}
	cli := etcdtest.Client(t, strings.Split(hosts, ",")...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := cli.Put(ctx, "k", "v"); err != nil {
		t.Fatalf("writing to the cluster after etcdcluster returned: %v", err)
	}
	for _, ep := range strings.Split(hosts, ",") {
		if _, err := cli.Status(ctx, ep); err != nil {
			t.Errorf("member %s: %v", ep, err)
		}
	}
}
