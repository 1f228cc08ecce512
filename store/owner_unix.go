//go:build unix

package store

import (
	"os"
	"syscall"
)

// keepOwner gives the file at path the owner, group and mode of the file
// fi describes: a store compacted by root stays the daemon user's.
func keepOwner(path string, fi os.FileInfo) error {
	return giveOwner(path, fi, fi.Mode().Perm(), nil)
}

// giveOwner gives the file at path the owner and group of the file fi
// describes and the permission bits mode, and notes them in st when not
// nil.
func giveOwner(path string, fi os.FileInfo, mode os.FileMode, st *RestoreStats) error {
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		if int(s.Uid) != os.Getuid() || int(s.Gid) != os.Getgid() {
			if err := os.Chown(path, int(s.Uid), int(s.Gid)); err != nil {
				return err
			}
		}
		if st != nil {
			st.UID, st.GID = int(s.Uid), int(s.Gid)
		}
	}
	return os.Chmod(path, mode)
}
