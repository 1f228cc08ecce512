//go:build !unix

package store

import "os"

// keepOwner gives the file at path the mode of the file fi describes.
func keepOwner(path string, fi os.FileInfo) error { return os.Chmod(path, fi.Mode().Perm()) }

// giveOwner gives the file at path the permission bits mode; this system
// has no owners to give.
func giveOwner(path string, _ os.FileInfo, mode os.FileMode, _ *RestoreStats) error {
	return os.Chmod(path, mode)
}
