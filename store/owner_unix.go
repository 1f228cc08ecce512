//go:build unix

package store

import (
	"os"
	"syscall"
)

// keepOwner gives the file at path the owner, group and mode of the file
// fi describes: a store compacted by root stays the daemon user's.
func keepOwner(path string, fi os.FileInfo) error {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && (int(st.Uid) != os.Getuid() || int(st.Gid) != os.Getgid()) {
		if err := os.Chown(path, int(st.Uid), int(st.Gid)); err != nil {
			return err
		}
	}
	return os.Chmod(path, fi.Mode().Perm())
}
