//go:build unix

package config

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A key made by root in the daemon's data directory is the directory
// owner's, so that the daemon, another user, reads it.
func TestPasswordKeyKeepsDirOwner(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	dir := t.TempDir()
	if err := os.Chown(dir, 4321, 4321); err != nil {
		t.Fatal(err)
	}
	if _, err := (&Config{Data: dir}).PasswordKey(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "password.key"))
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := fi.Sys().(*syscall.Stat_t); !ok || s.Uid != 4321 || s.Gid != 4321 {
		t.Errorf("the key's owner is %+v; want the directory's, 4321:4321", fi.Sys())
	}
}
