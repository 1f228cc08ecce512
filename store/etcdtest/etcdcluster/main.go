// Command etcdcluster starts the etcd cluster of the store's and the
// service's second pass in CI (.ci/run): three members on loopback, each
// a process of its own, with the settings of etcdtest's members, which
// are those docs/scaling.md asks of a real cluster. It is what
// etcdtest.StartCluster starts for a test, outliving this command.
//
//	etcdcluster DIR
//
// It prints the store's address, etcd://HOST:PORT,.../pbemd-ci, once the
// members have a leader, and leaves them running: their data and logs
// (NAME.log) are in DIR, their process ids in DIR/pids, one a line, for
// the caller to end them.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pbemd/pbemd/store/etcdtest"
)

func main() {
	etcdtest.MemberMain() // the members are this binary again
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: etcdcluster DIR (the members' data, logs and pids)")
		os.Exit(2)
	}
	dir := os.Args[1]
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fail(err)
	}
	c, err := etcdtest.Launch(dir, 3)
	if c != nil {
		var pids strings.Builder
		for _, pid := range c.Pids() {
			fmt.Fprintln(&pids, pid)
		}
		if werr := os.WriteFile(filepath.Join(dir, "pids"), []byte(pids.String()), 0o600); err == nil {
			err = werr
		}
	}
	if err != nil {
		fail(fmt.Errorf("%w (the members' logs are in %s)", err, dir))
	}
	fmt.Printf("etcd://%s/pbemd-ci\n", strings.Join(c.Endpoints(), ","))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "etcdcluster:", err)
	os.Exit(1)
}
