package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// storeWith makes a closed store at path holding the users named.
func storeWith(t *testing.T, path string, users ...string) {
	t.Helper()
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	update(t, db, func(tx *Tx) error {
		for _, u := range users {
			if err := tx.PutUser(&User{ID: u, Addresses: []string{u + "@example.org"}, PasswordHash: "h"}); err != nil {
				return err
			}
		}
		return nil
	})
}

// hasUser says whether the store at path opens and holds the user id.
func hasUser(t *testing.T, path, id string) bool {
	t.Helper()
	db, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("%s does not open: %v", path, err)
	}
	defer db.Close()
	return holdsUser(t, db, id)
}

// A restore run by root gives the file the data directory's owner and
// keeps the replaced file's mode: the daemon's user can write it.
func TestRestore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := PathIn(dir)
	storeWith(t, path, "bob")
	os.Chmod(path, 0o640)
	backup := filepath.Join(t.TempDir(), "backup.db")
	storeWith(t, backup, "alice")
	owner := os.Getuid()
	if owner == 0 {
		owner = 65534 // nobody, as the daemon's DynamicUser would be
		if err := os.Chown(dir, owner, owner); err != nil {
			t.Fatal(err)
		}
	}

	st, err := Restore(backup, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !hasUser(t, path, "alice") || hasUser(t, path, "bob") {
		t.Errorf("after the restore the store is not the copy")
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := fi.Sys().(*syscall.Stat_t); int(s.Uid) != owner || st.UID != owner {
		t.Errorf("restored store owned by uid %d (reported %d); want the data directory's, %d", s.Uid, st.UID, owner)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("restored store mode %v; want the replaced file's 0640", fi.Mode().Perm())
	}
	if st.Kept != path+".before-restore" || !hasUser(t, st.Kept, "bob") {
		t.Errorf("the replaced store was not kept beside it: %q", st.Kept)
	}
	if _, err := os.Stat(path + ".restore"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary copy is left behind: %v", err)
	}
}

// Into an empty data directory: mode 0600.
func TestRestoreIntoEmptyDir(t *testing.T) {
	backup := filepath.Join(t.TempDir(), "backup.db")
	storeWith(t, backup, "alice")
	path := PathIn(t.TempDir())
	st, err := Restore(backup, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 || st.Kept != "" {
		t.Errorf("restored into an empty directory: %v, %v, kept %q; want mode 0600, nothing kept", fi.Mode(), err, st.Kept)
	}
	if !hasUser(t, path, "alice") {
		t.Error("the restored store lacks the copy's user")
	}
}

// A copy that is not a whole pbemd store, and a store in use, are
// refused, and the store is left as it was.
func TestRestoreRefuses(t *testing.T) {
	tmp := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := filepath.Join(tmp, "good.db")
	storeWith(t, good, "alice")
	whole, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	// Another program's bbolt file: no pbemd schema.
	foreignDB := filepath.Join(tmp, "other.db")
	bdb, err := bolt.Open(foreignDB, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	bdb.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("x")); return err })
	bdb.Close()
	damaged := filepath.Join(tmp, "damaged.db")
	storeWith(t, damaged, manyUsers(2000)...)
	breakPage(t, damaged)

	dir := t.TempDir()
	path := PathIn(dir)
	storeWith(t, path, "bob")
	cases := map[string]struct {
		src  string
		want error
	}{
		"empty":         {write("empty", nil), ErrNotStore},
		"foreign bytes": {write("mail.eml", []byte("From: mallory@example.org\r\n\r\nnot a store")), ErrNotStore},
		"other bbolt":   {foreignDB, ErrNotStore},
		"cut short":     {write("short.db", whole[:len(whole)/2]), ErrNotStore},
		"damaged page":  {damaged, ErrNotStore},
		"the store":     {path, nil},
		"missing":       {filepath.Join(tmp, "nothing"), os.ErrNotExist},
	}
	for name, c := range cases {
		_, err := Restore(c.src, path, 100*time.Millisecond)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: %v; want %v", name, err, c.want)
		}
		if !hasUser(t, path, "bob") {
			t.Fatalf("%s: the store was changed", name)
		}
	}

	db, err := Open(path, &Options{NoSync: true}) // the daemon
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := Restore(good, path, 100*time.Millisecond); !errors.Is(err, ErrLocked) {
		t.Errorf("restore into a store in use: %v; want ErrLocked", err)
	}
}

func manyUsers(n int) []string {
	var ids []string
	for i := range n {
		ids = append(ids, fmt.Sprintf("user%05d", i))
	}
	return ids
}

// breakPage overwrites a page in the middle of the file at path with
// bytes that are no page.
func breakPage(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	ps := int64(os.Getpagesize())
	at := (fi.Size() / ps / 2) * ps
	junk := make([]byte, ps)
	for i := range junk {
		junk[i] = 0xA5
	}
	if _, err := f.WriteAt(junk, at); err != nil {
		t.Fatal(err)
	}
}
