//go:build !unix

package daemon

import (
	"errors"
	"os"
	"syscall"
)

var errConnRefused error = syscall.Errno(10061) // WSAECONNREFUSED

func ownerOf(os.FileInfo) string      { return "an owner this system does not tell" }
func sameOwner(_, _ os.FileInfo) bool { return true }

func diskSpace(string) (free, total uint64, err error) {
	return 0, 0, errors.New("the free space is not checked on this system")
}
