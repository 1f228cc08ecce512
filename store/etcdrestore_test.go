package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// backupWith writes a backup holding the user id: a closed bbolt store.
func backupWith(t *testing.T, id string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), id+".db")
	storeWith(t, path, id)
	return path
}

// holdsUser says whether db holds the user id.
func holdsUser(t *testing.T, db *DB, id string) bool {
	t.Helper()
	var u *User
	if err := db.View(func(tx *Tx) error { u, _ = tx.User(id); return nil }); err != nil {
		t.Fatal(err)
	}
	return u != nil
}

// A backup restored into an empty etcd prefix is the store there; a
// prefix that holds one is refused unless forced, and then what it held is
// kept in a backup first; a file that is no backup, a restore while a node
// serves the store, and a keep that would overwrite the copy are refused
// with the store as it was.
func TestRestoreFromIntoEtcd(t *testing.T) {
	t.Parallel()
	db := openEtcdTest(t, etcdConfig(t))
	alice, bob := backupWith(t, "alice"), backupWith(t, "bob")
	keep := filepath.Join(t.TempDir(), "kept.db")

	st, err := db.RestoreFrom(alice, false, keep)
	if err != nil {
		t.Fatal(err)
	}
	if st.Kept != "" || st.Keys == 0 || !holdsUser(t, db, "alice") {
		t.Fatalf("restore into an empty prefix: %+v; alice there: %v", st, holdsUser(t, db, "alice"))
	}

	if _, err := db.RestoreFrom(bob, false, keep); !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), "-force") {
		t.Errorf("restore over a store without force: %v; want ErrNotEmpty, naming -force", err)
	}
	if _, err := os.Stat(keep); err == nil {
		t.Error("a refused restore kept a backup")
	}

	forged := filepath.Join(t.TempDir(), "forged.db")
	os.WriteFile(forged, []byte("From: mallory@example.org\n\nnot a database\n"), 0o600)
	if _, err := db.RestoreFrom(forged, true, keep); !errors.Is(err, ErrNotStore) {
		t.Errorf("restore of a mail: %v; want ErrNotStore", err)
	}
	if _, err := db.RestoreFrom(bob, true, bob); err == nil || !holdsUser(t, db, "alice") {
		t.Errorf("restore keeping the old store in the copy itself: %v; want it refused and alice kept", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	leading := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		db.Lead(ctx, LeadOptions{Node: "node-a"}, func(ctx context.Context) { close(leading); <-ctx.Done() })
	}()
	<-leading
	if _, err := db.RestoreFrom(bob, true, keep); err == nil || !strings.Contains(err.Error(), "node-a") {
		t.Errorf("restore while node-a serves the store: %v; want it refused naming node-a", err)
	}
	cancel()
	<-done

	st, err = db.RestoreFrom(bob, true, keep)
	if err != nil {
		t.Fatal(err)
	}
	if st.Kept != keep || !holdsUser(t, db, "bob") || holdsUser(t, db, "alice") {
		t.Errorf("forced restore of bob: %+v; bob %v, alice %v; want bob alone, alice kept", st, holdsUser(t, db, "bob"), holdsUser(t, db, "alice"))
	}
	if !hasUser(t, keep, "alice") {
		t.Error("the store replaced (alice's) is not in the backup kept")
	}
	if _, err := openTest(t).RestoreFrom(bob, true, keep); err == nil {
		t.Error("RestoreFrom into a bbolt store: no error (Restore is the file's)")
	}
}
