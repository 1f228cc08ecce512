package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// openTest opens a new database in a temporary directory, closed when the
// test ends.
func openTest(t testing.TB) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), FileName), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// reopenAfter changes the file under the store, as an older pbemd would
// have left it, and opens it again: Open's upgrades run.
func reopenAfter(t *testing.T, db *DB, change func(*bolt.Tx) error) *DB {
	t.Helper()
	if err := db.bolt.Update(change); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err := Open(db.Path(), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// update runs fn in a transaction and fails the test on error.
func update(t testing.TB, db *DB, fn func(*Tx) error) {
	t.Helper()
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
}

func TestOpenCreatesDirAndBuckets(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "a", "b", FileName)
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if db.Path() != path {
		t.Errorf("Path() = %q, want %q", db.Path(), path)
	}
	err = db.bolt.View(func(btx *bolt.Tx) error {
		for _, name := range allBuckets {
			if btx.Bucket(name) == nil {
				t.Errorf("bucket %s missing after Open", name)
			}
		}
		if v := btx.Bucket(bucketMeta).Get(keySchema); string(v) != fmt.Sprint(schemaVersion) {
			t.Errorf("schema version stored as %q, want %d", v, schemaVersion)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("database file mode %v is readable by others; it holds password hashes", fi.Mode().Perm())
	}
}

func TestPathIn(t *testing.T) {
	t.Parallel()
	if got, want := PathIn("pbem-data"), filepath.Join("pbem-data", "pbem.db"); got != want {
		t.Errorf("PathIn = %q, want %q", got, want)
	}
}

func TestSchemaVersionRefused(t *testing.T) {
	t.Parallel()
	for _, stored := range []string{"3", "99", "0", "x"} {
		t.Run(stored, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			db, err := Open(path, &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			err = db.bolt.Update(func(btx *bolt.Tx) error {
				return btx.Bucket(bucketMeta).Put(keySchema, []byte(stored))
			})
			if err != nil {
				t.Fatal(err)
			}
			db.Close()

			for _, ro := range []bool{false, true} {
				db, err = Open(path, &Options{NoSync: true, ReadOnly: ro})
				if err == nil {
					db.Close()
					t.Fatalf("Open (read-only %v) of data with schema %q succeeded; want ErrSchema", ro, stored)
				}
				if !errors.Is(err, ErrSchema) {
					t.Errorf("Open error %v is not ErrSchema", err)
				}
				msg := err.Error()
				if !strings.Contains(msg, `"`+stored+`"`) || !strings.Contains(msg, fmt.Sprint(schemaVersion)) || !strings.Contains(msg, path) {
					t.Errorf("error %q should name the file, the stored version %q and ours %d", msg, stored, schemaVersion)
				}
			}
			// The refusal must not have rewritten the version.
			bdb, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer bdb.Close()
			bdb.View(func(btx *bolt.Tx) error {
				if v := btx.Bucket(bucketMeta).Get(keySchema); string(v) != stored {
					t.Errorf("schema version after refused Open is %q, want %q untouched", v, stored)
				}
				return nil
			})
		})
	}
}

func TestOpenForeignBoltFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	bdb.Update(func(btx *bolt.Tx) error {
		_, err := btx.CreateBucket([]byte("other"))
		return err
	})
	bdb.Close()
	if db, err := Open(path, &Options{ReadOnly: true}); err == nil {
		db.Close()
		t.Fatal("read-only Open of a bolt file without schema succeeded")
	}
}

func TestOpenNotADatabase(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, bytes.Repeat([]byte("not bolt "), 1000), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, nil)
	if err == nil {
		db.Close()
		t.Fatal("Open of a text file succeeded")
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name the file", err)
	}
}

func TestReadOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing", FileName)
	if db, err := Open(missing, &Options{ReadOnly: true}); err == nil {
		db.Close()
		t.Fatal("read-only Open of a missing file succeeded")
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Errorf("read-only Open created %s", filepath.Dir(missing))
	}

	path := filepath.Join(dir, FileName)
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	update(t, db, func(tx *Tx) error { return tx.SetNote("k", "v") })
	db.Close()

	r1, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := Open(path, &Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("second reader: %v; readers should share the file", err)
	}
	defer r2.Close()
	r2.View(func(tx *Tx) error {
		if v, ok, _ := tx.Note("k"); !ok || v != "v" {
			t.Errorf("Note = %q, %v; want \"v\", true", v, ok)
		}
		return nil
	})
	if err := r1.Update(func(tx *Tx) error { return tx.SetNote("k", "w") }); err == nil {
		t.Error("Update on a read-only database succeeded")
	}
}

func TestUpdateRollsBackOnError(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	boom := errors.New("boom")
	err := db.Update(func(tx *Tx) error {
		if err := tx.SetNote("a", "1"); err != nil {
			return err
		}
		if err := tx.Enqueue(&Outgoing{From: "x@y", To: []string{"z@y"}}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update returned %v, want the error of fn", err)
	}
	db.View(func(tx *Tx) error {
		if _, ok, _ := tx.Note("a"); ok {
			t.Error("note written by a failed Update was kept")
		}
		return nil
	})
	if n, _ := db.OutboxLen(); n != 0 {
		t.Errorf("OutboxLen after failed Update = %d, want 0", n)
	}
}

// Changed tells a transaction that only read from one that wrote, so that
// the sweep can roll back the former instead of syncing an empty commit.
func TestChanged(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	update(t, db, func(tx *Tx) error { return tx.SetNote("a", "1") })
	update(t, db, func(tx *Tx) error {
		tx.Note("a")
		tx.Counter("nobody")
		tx.DueBoards(time.Now(), nil, 10)
		if tx.Changed() {
			t.Error("a transaction that only read reports a change")
		}
		if err := tx.SetNote("b", "2"); err != nil {
			return err
		}
		if !tx.Changed() {
			t.Error("a transaction that wrote a note reports no change")
		}
		return nil
	})
	update(t, db, func(tx *Tx) error {
		if err := tx.Enqueue(&Outgoing{From: "x@y", To: []string{"z@y"}}); err != nil {
			return err
		}
		if !tx.Changed() {
			t.Error("a transaction that queued a mail reports no change")
		}
		return nil
	})
	db.View(func(tx *Tx) error {
		if tx.Changed() {
			t.Error("a read-only transaction reports a change")
		}
		return nil
	})
}

// Values read in a transaction must stay valid after it and after Close,
// when bbolt's memory map is gone.
func TestValuesOutliveTransaction(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	data := bytes.Repeat([]byte("board line\r\n"), 50)
	update(t, db, func(tx *Tx) error {
		if err := tx.SetNote("n", "note value"); err != nil {
			return err
		}
		if err := tx.PutUser(&User{ID: "Alice", Addresses: []string{"a@x"}}); err != nil {
			return err
		}
		return tx.Enqueue(&Outgoing{Data: data})
	})
	var (
		note string
		u    *User
		refs []GameRef
	)
	update(t, db, func(tx *Tx) error {
		g := &Game{Kind: "tanbo", Board: 101, Seats: []string{"alice", "bob"}}
		if err := tx.PutGame(g); err != nil {
			return err
		}
		note, _, _ = tx.Note("n")
		u, _ = tx.User("alice")
		refs, _ = tx.GamesOf("alice")
		return nil
	})
	pending, err := db.Pending(time.Now(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Grow the file so bbolt remaps, then unmap it altogether.
	for i := 0; i < 20; i++ {
		update(t, db, func(tx *Tx) error {
			return tx.SetNote(fmt.Sprint("big", i), strings.Repeat("x", 100000))
		})
	}
	db.Close()
	if note != "note value" || u.ID != "alice" || len(refs) != 1 || refs[0].Kind != "tanbo" {
		t.Errorf("values changed after the transaction: %q %+v %+v", note, u, refs)
	}
	if len(pending) != 1 || !bytes.Equal(pending[0].Data, data) {
		t.Errorf("outgoing data changed after the transaction")
	}
}

// Two opens of one file in one process conflict too: flock locks belong to
// the open file description, and bbolt opens the file anew each time.
func TestLockedInProcess(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	db2, err := Open(path, &Options{LockTimeout: 200 * time.Millisecond})
	if err == nil {
		db2.Close()
		t.Fatal("second Open of a file in use succeeded")
	}
	checkLockedError(t, err, path)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("second Open took %v with a 200ms timeout", d)
	}
	// A reader is refused as well while the writer holds the file.
	if r, err := Open(path, &Options{ReadOnly: true, LockTimeout: 100 * time.Millisecond}); err == nil {
		r.Close()
		t.Error("read-only Open of a file in use by a writer succeeded")
	}

	db.Close()
	db2, err = Open(path, &Options{LockTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open after the holder closed: %v", err)
	}
	db2.Close()
}

func checkLockedError(t *testing.T, err error, path string) {
	t.Helper()
	if !errors.Is(err, ErrLocked) {
		t.Errorf("error %v is not ErrLocked", err)
	}
	want := path + " is in use by another pbemd process (is the daemon running?)"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q, want it to say %q", err, want)
	}
}

const childEnv = "PBEMD_STORE_LOCK_CHILD"

// TestLockChild is the other process of TestLockedByOtherProcess; it does
// nothing unless started by it.
func TestLockChild(t *testing.T) {
	t.Parallel()
	path := os.Getenv(childEnv)
	if path == "" {
		t.Skip("runs only as the child of TestLockedByOtherProcess")
	}
	db, err := Open(path, &Options{LockTimeout: 300 * time.Millisecond})
	if err != nil {
		fmt.Printf("open error: %v\n", err)
		if errors.Is(err, ErrLocked) {
			fmt.Println("result: locked")
		}
		return
	}
	db.Close()
	fmt.Println("result: opened")
}

func TestLockedByOtherProcess(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	child := func() string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLockChild$", "-test.v")
		cmd.Env = append(os.Environ(), childEnv+"="+path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return string(out)
	}
	out := child()
	if !strings.Contains(out, "result: locked") {
		t.Fatalf("child process was not refused with ErrLocked:\n%s", out)
	}
	if !strings.Contains(out, path+" is in use by another pbemd process (is the daemon running?)") {
		t.Errorf("child's error does not name the file:\n%s", out)
	}
	db.Close()
	if out := child(); !strings.Contains(out, "result: opened") {
		t.Errorf("child could not open after the parent closed:\n%s", out)
	}
}
