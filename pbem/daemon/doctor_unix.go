//go:build unix

package daemon

import (
	"fmt"
	"os"
	"syscall"
)

// errConnRefused is a TCP connection refused: nothing listens.
var errConnRefused error = syscall.ECONNREFUSED

// ownerOf names the owner of a file: "uid 0:0".
func ownerOf(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("uid %d:%d", st.Uid, st.Gid)
	}
	return "an unknown owner"
}

// sameOwner says whether two files have the same owning user.
func sameOwner(a, b os.FileInfo) bool {
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return !ok1 || !ok2 || sa.Uid == sb.Uid
}

// diskSpace is the space free to an unprivileged user and the size of the
// file system holding dir, in bytes.
func diskSpace(dir string) (free, total uint64, err error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, 0, fmt.Errorf("the free space under %s cannot be read: %w", dir, err)
	}
	return st.Bavail * uint64(st.Bsize), st.Blocks * uint64(st.Bsize), nil
}
