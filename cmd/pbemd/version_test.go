package main

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/daemon"
)

// pbemd version tells the daemon's version beside the binary's: a daemon
// started before an upgrade runs the old one.
func TestVersionOfTheRunningDaemon(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	code, stdout, stderr := pbemd(t, "", "version", "-data", data)
	if code != 0 || !strings.Contains(stdout, "\nrunning: none (no daemon answers on "+daemon.ControlPath(data)+")\n") {
		t.Errorf("no daemon: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	// A daemon of an older build, as its control socket answers.
	ln := listenUnix(t, daemon.ControlPath(data))
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			line, _ := bufio.NewReader(conn).ReadString('\n')
			if line == "version\n" {
				conn.Write([]byte("OK pbemd v0.9.0 (0123abc 2026-01-01T00:00:00Z) go1.25.0\n"))
			}
			conn.Close()
		}
	}()
	code, stdout, stderr = pbemd(t, "", "version", "-data", data)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], "pbemd ") ||
		lines[1] != "running: pbemd v0.9.0 (0123abc 2026-01-01T00:00:00Z) go1.25.0" {
		t.Errorf("beside a daemon: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// listenUnix listens on a Unix socket at path until the test ends.
func listenUnix(t *testing.T, path string) net.Listener {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}
