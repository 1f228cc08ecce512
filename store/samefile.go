package store

import (
	"os"
	"path/filepath"
)

// sameFile reports whether the paths a and b name one file: the same
// path, or links to one.
func sameFile(a, b string) bool {
	if aa, err := filepath.Abs(a); err == nil {
		if ab, err := filepath.Abs(b); err == nil && aa == ab {
			return true
		}
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
