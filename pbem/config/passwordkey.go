package config

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// passwordKeySize is the size of the key of the password verifiers.
const passwordKeySize = 32

// PasswordKeyPath is the file of the key of the password verifiers: the
// configured one, or password.key in the data directory; "" when neither
// is set.
func (c *Config) PasswordKeyPath() string {
	if c.PasswordKeyFile != "" || c.Data == "" {
		return c.PasswordKeyFile
	}
	return filepath.Join(c.Data, "password.key")
}

// PasswordKey returns the key of the password verifiers that the user
// records keep (pbem.Config.PasswordKey), making its file, mode 0600, when
// there is none yet. The key is never in the store, so that a stolen
// store or backup is as hard to guess passwords from as its bcrypt hashes
// alone. Processes that start together agree on one key: the file is
// written aside and linked into place, and a loser reads the winner's.
func (c *Config) PasswordKey() ([]byte, error) {
	path := c.PasswordKeyPath()
	if path == "" {
		return nil, nil
	}
	key, err := readPasswordKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	key = make([]byte, passwordKeySize)
	rand.Read(key)
	tmp, err := os.CreateTemp(filepath.Dir(path), ".password.key-*")
	if err != nil {
		return nil, fmt.Errorf("making the password key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(key)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("making the password key: %w", err)
	}
	// CreateTemp made it 0600; it is the data directory owner's.
	if err := giveDirOwner(tmp.Name()); err != nil {
		return nil, fmt.Errorf("making the password key: %w", err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		return readPasswordKey(path)
	} else if err != nil {
		return nil, fmt.Errorf("making the password key: %w", err)
	}
	return key, nil
}

func readPasswordKey(path string) ([]byte, error) {
	key, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(key) != passwordKeySize {
		return nil, fmt.Errorf("%s holds %d bytes; want a key of %d (delete it to have a new one made)", path, len(key), passwordKeySize)
	}
	return key, nil
}
