package store

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"
)

// A secret is made once and the same ever after, also after a reopen;
// a read transaction does not make one.
func TestSecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.View(func(tx *Tx) error { _, err := tx.Secret("verp"); return err }); !errors.Is(err, ErrNotFound) {
		t.Fatalf("read transaction: err %v, want ErrNotFound", err)
	}
	var first, other []byte
	if err := db.Update(func(tx *Tx) (err error) {
		if first, err = tx.Secret("verp"); err != nil {
			return err
		}
		other, err = tx.Secret("other")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(first) != SecretBytes || bytes.Equal(first, other) {
		t.Fatalf("secrets %x and %x: want %d bytes each, different", first, other, SecretBytes)
	}
	db.Close()
	if db, err = Open(path, nil); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var again []byte
	if err := db.View(func(tx *Tx) (err error) { again, err = tx.Secret("verp"); return err }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, first) {
		t.Fatalf("after reopening: %x, want %x", again, first)
	}
}
