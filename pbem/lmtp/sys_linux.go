package lmtp

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// fileGroup is the group id of a file.
func fileGroup(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Gid), true
}

// unixPeer is the user id of the process at the other end of c
// (SO_PEERCRED), or "local" when the system does not tell.
func unixPeer(c *net.UnixConn) string {
	raw, err := c.SyscallConn()
	if err != nil {
		return "local"
	}
	peer := "local"
	raw.Control(func(fd uintptr) {
		if cred, err := syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED); err == nil {
			peer = fmt.Sprintf("uid %d", cred.Uid)
		}
	})
	return peer
}

// fdatasync syncs the file's data, and of its metadata only what reading
// the data needs (its size), as a journal's append needs.
func fdatasync(f *os.File) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := raw.Control(func(fd uintptr) { serr = syscall.Fdatasync(int(fd)) }); err != nil {
		return err
	}
	return serr
}
