package store

import (
	"crypto/rand"
	"fmt"
)

// SecretBytes is the size of a server secret.
const SecretBytes = 32

// Secret returns the server secret of the name, kept in the meta bucket,
// and makes it on first use in a write transaction. It never leaves the
// store but as the tokens the service makes with it (an HMAC key), so
// that a token cannot be made without the data file. A read transaction
// of a file that has none yet gets ErrNotFound.
func (tx *Tx) Secret(name string) ([]byte, error) {
	key := []byte("secret:" + name)
	meta := tx.bucket(bucketMeta)
	if v := meta.Get(key); v != nil {
		if len(v) != SecretBytes {
			return nil, fmt.Errorf("store: secret %q has %d bytes, not %d: %w", name, len(v), SecretBytes, ErrCorrupt)
		}
		return append([]byte(nil), v...), nil
	}
	if !tx.btx.writable() {
		return nil, fmt.Errorf("store: secret %q: %w", name, ErrNotFound)
	}
	v := make([]byte, SecretBytes)
	if _, err := rand.Read(v); err != nil {
		return nil, err
	}
	if err := meta.Put(key, v); err != nil {
		return nil, err
	}
	return append([]byte(nil), v...), nil
}
