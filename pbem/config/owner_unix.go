//go:build unix

package config

import (
	"os"
	"path/filepath"
	"syscall"
)

// giveDirOwner gives the file at path the owner and group of its
// directory: a key made by root on the daemon's data stays the daemon
// user's to read.
func giveDirOwner(path string) error {
	fi, err := os.Stat(filepath.Dir(path))
	if err != nil {
		return err
	}
	s, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(s.Uid) == os.Getuid() && int(s.Gid) == os.Getgid() {
		return nil
	}
	return os.Chown(path, int(s.Uid), int(s.Gid))
}
