package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// openWithAlice makes a store in data holding the user alice, and leaves
// it open, as a running daemon holds it.
func openWithAlice(t *testing.T, data string) *store.DB {
	t.Helper()
	db := storetest.Open(t, store.PathIn(data), &store.Options{NoSync: true})
	err := db.Update(func(tx *store.Tx) error {
		return tx.PutUser(&store.User{ID: "alice", Addresses: []string{"alice@example.org"}})
	})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestBackupCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	db := openWithAlice(t, data)

	out := filepath.Join(dir, "copy.db")
	// While the store is open for writing the backup is refused, not hung.
	if code := run([]string{"backup", "-data", data, out}); code != 1 {
		t.Errorf("backup of a database in use: exit %d, want 1", code)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("refused backup left %s behind", out)
	}
	db.Close()

	if code := run([]string{"backup", "-data", data, out}); code != 0 {
		t.Fatalf("backup: exit %d, want 0", code)
	}
	copyDB, err := store.Open(out, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("opening the copy: %v", err)
	}
	defer copyDB.Close()
	err = copyDB.View(func(tx *store.Tx) error {
		u, err := tx.UserByAddress("alice@example.org")
		if err == nil && u.ID != "alice" {
			t.Errorf("copy has user %q for alice's address", u.ID)
		}
		return err
	})
	if err != nil {
		t.Errorf("the copy lacks the data: %v", err)
	}
}

func TestBackupCommandErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "nodata")
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"no file", []string{"backup"}, 2},
		{"two files", []string{"backup", "a", "b"}, 2},
		{"bad flag", []string{"backup", "-nosuch", "a"}, 2},
		{"no database", []string{"backup", "-data", missing, filepath.Join(dir, "x.db")}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := run(tt.args); got != tt.want {
				t.Errorf("run(%q) = %d, want %d", tt.args, got, tt.want)
			}
		})
	}
	// A wrong -data must not create an empty database there.
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("backup with a missing data directory created %s", missing)
	}
}
