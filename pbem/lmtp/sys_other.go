//go:build !linux

package lmtp

import (
	"net"
	"os"
)

// fileGroup is not read where it is not needed: the socket is chowned.
func fileGroup(os.FileInfo) (int, bool) { return 0, false }

// unixPeer counts every process on a Unix socket as one peer where the
// system's peer credentials are not read.
func unixPeer(*net.UnixConn) string { return "local" }

// fdatasync is a full sync where the system has no fdatasync.
func fdatasync(f *os.File) error { return f.Sync() }
