package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The key is made once, readable by its owner alone, and the same for
// every process that starts on the data, however many start at once.
func TestPasswordKeyMadeOnce(t *testing.T) {
	t.Parallel()
	c := &Config{Data: t.TempDir()}
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := c.PasswordKey()
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for i, k := range keys {
		if len(k) != passwordKeySize || !bytes.Equal(k, keys[0]) {
			t.Fatalf("process %d got key %x, process 0 %x: want one key of %d bytes", i, k, keys[0], passwordKeySize)
		}
	}
	fi, err := os.Stat(filepath.Join(c.Data, "password.key"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", fi.Mode().Perm())
	}
	again, err := c.PasswordKey()
	if err != nil || !bytes.Equal(again, keys[0]) {
		t.Errorf("read again: %x, %v; want the key made first", again, err)
	}
	left, _ := filepath.Glob(filepath.Join(c.Data, ".password.key-*"))
	if len(left) != 0 {
		t.Errorf("files left aside: %v", left)
	}
}

// A key file of the wrong size is an error that says what to do, not a
// short key; no data directory and no file configured means no key.
func TestPasswordKeyRefusesBadFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(path, []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &Config{PasswordKeyFile: path}
	if k, err := c.PasswordKey(); err == nil || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("short key file: %x, %v; want an error saying to delete it", k, err)
	}
	if k, err := (&Config{}).PasswordKey(); k != nil || err != nil {
		t.Errorf("no data directory: %x, %v; want no key and no error", k, err)
	}
}
