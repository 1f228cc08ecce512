//go:build !unix

package store

import "os"

// keepOwner gives the file at path the mode of the file fi describes.
func keepOwner(path string, fi os.FileInfo) error { return os.Chmod(path, fi.Mode().Perm()) }
