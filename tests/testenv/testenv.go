// Package testenv finds what the black-box tests need of the machine: a
// server program from the distribution's packages, a free loopback port.
package testenv

import (
	"net"
	"os"
	"os/exec"
	"testing"
)

// Program returns the path of the first of names installed (looked up in
// PATH; a name may be an absolute path). When none is, it skips the test,
// or fails it when the environment variable CI is set, so that CI cannot
// pass by skipping; install says how to get it.
func Program(t testing.TB, install string, names ...string) string {
	t.Helper()
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed; CI needs it (%s)", names[0], install)
	}
	t.Skipf("%s is not installed (%s); skipping", names[0], install)
	return ""
}

// FreeAddr returns a loopback host:port that was free a moment ago.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// OpenDir returns a new temporary directory that is removed when the test
// ends and that a server's unprivileged processes may walk into (mode
// 0755, its parent /tmp), with a short path for the server's sockets.
// t.TempDir is neither.
func OpenDir(t testing.TB, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
