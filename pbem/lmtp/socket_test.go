package lmtp

import (
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// statSocket returns the permission bits and group id of the socket.
func statSocket(t *testing.T, path string) (os.FileMode, int) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm(), int(fi.Sys().(*syscall.Stat_t).Gid)
}

// The Unix socket does not take the process's umask: by default the MTA's
// group may connect (0660, group postfix where it exists), and mode and
// group are as configured.
func TestSocketModeAndGroup(t *testing.T) {
	t.Parallel()
	old := syscall.Umask(0o077) // as under the shipped unit
	defer syscall.Umask(old)
	dir := t.TempDir()

	path := filepath.Join(dir, "default")
	start(t, &recorder{}, Options{Addr: path})
	wantGid := os.Getgid()
	if g, err := user.LookupGroup("postfix"); err == nil {
		wantGid, _ = strconv.Atoi(g.Gid)
	}
	if mode, gid := statSocket(t, path); mode != 0o660 || gid != wantGid {
		t.Errorf("default socket: mode %o, group %d; want 660, group %d", mode, gid, wantGid)
	}

	path = filepath.Join(dir, "set")
	gid := strconv.Itoa(os.Getgid())
	start(t, &recorder{}, Options{Addr: path, SocketMode: 0o666, SocketGroup: gid})
	if mode, g := statSocket(t, path); mode != 0o666 || strconv.Itoa(g) != gid {
		t.Errorf("socket_mode 0666, socket_group %s: mode %o, group %d", gid, mode, g)
	}
	// A mail over the socket, whose peer is its process's user id.
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if peer := unixPeer(c.(*net.UnixConn)); peer != "uid "+strconv.Itoa(os.Getuid()) {
		t.Errorf("the peer over a Unix socket is %q; want this process's uid %d", peer, os.Getuid())
	}
	if err := sendOn(t, c, "over the socket"); err != nil {
		t.Errorf("a mail over the Unix socket: %v", err)
	}
}

// An unknown socket group stops the listener from starting, saying what
// was wanted.
func TestSocketGroupUnknown(t *testing.T) {
	t.Parallel()
	_, err := Listen(Options{Addr: filepath.Join(t.TempDir(), "lmtp"), SocketGroup: "no-such-group-pbemd",
		Recipients: []string{"pbem@example.org"}, Logger: quiet, Spool: t.TempDir()}, newIntake(&recorder{}))
	if err == nil || !strings.Contains(err.Error(), "want a group name or number") {
		t.Fatalf("Listen with an unknown group: %v; want an error naming what is wanted", err)
	}
}
