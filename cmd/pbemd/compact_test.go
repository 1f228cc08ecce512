package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/store"
)

func TestCompactCommand(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "data")
	db := openWithAlice(t, data)

	// A daemon holds the store: the operator is told to stop it.
	code, _, stderr := pbemd(t, "", "compact", "-data", data)
	if code != 1 || !strings.Contains(stderr, "stop the daemon first") {
		t.Errorf("compact of a store in use: exit %d, stderr %s", code, stderr)
	}
	db.Close()

	code, stdout, stderr := pbemd(t, "", "compact", "-data", data)
	if code != 0 || !strings.Contains(stdout, "pbemd compact: "+store.PathIn(data)+": ") {
		t.Fatalf("compact: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
	db, err := store.Open(store.PathIn(data), &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *store.Tx) error {
		_, err := tx.UserByAddress("alice@example.org")
		return err
	})
	if err != nil {
		t.Errorf("after compact: %v", err)
	}
}
