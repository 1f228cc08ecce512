package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// fragmented makes a store at path that once held much more than it holds
// now, as one does after a flood of counters was pruned: 200 rounds of
// games and mails, with a big bucket written and dropped among them.
func fragmented(t *testing.T, path string) {
	t.Helper()
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range 200 {
		update(t, db, writeRound)
		if i%50 == 0 {
			err := db.bolt.Update(func(btx *bolt.Tx) error {
				b, err := btx.CreateBucketIfNotExists([]byte("flood"))
				if err != nil {
					return err
				}
				for j := range 2000 {
					if err := b.Put(fmt.Appendf(nil, "%d-%05d", i, j), make([]byte, 200)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	update(t, db, func(tx *Tx) error { return tx.btx.deleteBucket([]byte("flood")) })
	update(t, db, func(tx *Tx) error {
		return tx.PutUser(&User{ID: "alice", Addresses: []string{"alice@example.org"}, PasswordHash: "h"})
	})
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCompact(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	fragmented(t, path)
	before := filepath.Join(dir, "before.db")
	copyFile(t, path, before)
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	free, ok := db.FreePages()
	db.Close()

	st, err := Compact(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if st.Free < 100 || st.After >= st.Before/2 {
		t.Errorf("compacted %d bytes with %d free pages to %d bytes; want a file under half the size", st.Before, st.Free, st.After)
	}
	if !ok || free != st.Free {
		t.Errorf("FreePages before = %d, %v; want the %d Compact found", free, ok, st.Free)
	}
	if _, err := os.Stat(path + ".compact"); !os.IsNotExist(err) {
		t.Errorf("the new file is left beside the store: %v", err)
	}
	old, err := bolt.Open(before, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := sameStore(path, old); err != nil {
		t.Errorf("the compacted store is not the store: %v", err)
	}

	// The store works on: its indexes answer, and the outbox numbers on
	// from where it was.
	db, err = Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, _ := db.FreePages(); n > 10 {
		t.Errorf("%d free pages after compacting", n)
	}
	update(t, db, func(tx *Tx) error {
		refs, err := tx.GamesOf("bob")
		if err != nil || len(refs) != 200 {
			return fmt.Errorf("GamesOf(bob) = %d boards, %v; want 200", len(refs), err)
		}
		if u, err := tx.UserByAddress("Alice@example.org"); err != nil || u.ID != "alice" {
			return fmt.Errorf("UserByAddress = %v, %v", u, err)
		}
		m := &Outgoing{To: []string{"bob@x"}, Data: []byte("after")}
		if err := tx.Enqueue(m); err != nil {
			return err
		}
		if m.ID != 201 {
			return fmt.Errorf("the mail queued after compacting has id %d, want 201", m.ID)
		}
		return nil
	})
}

func TestCompactRefusesAStoreInUse(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	fragmented(t, path)
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fi, _ := os.Stat(path)
	_, err = Compact(path, 100*time.Millisecond)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("Compact of a store in use: %v, want ErrLocked", err)
	}
	if now, _ := os.Stat(path); !os.SameFile(fi, now) || now.Size() != fi.Size() {
		t.Error("Compact changed the file of a store in use")
	}
}

// A process waiting for the store while it is compacted (a "pbemd
// deliver" started meanwhile) must write into the new file, not into the
// old one that is gone.
func TestOpenAfterTheFileWasReplaced(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	holder, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	update(t, holder, func(tx *Tx) error { return tx.SetNote("file", "old") })
	opened := make(chan *DB)
	go func() {
		db, err := Open(path, &Options{NoSync: true, LockTimeout: 10 * time.Second})
		if err != nil {
			t.Error(err)
		}
		opened <- db
	}()
	time.Sleep(300 * time.Millisecond) // let it wait for the lock of the old file
	newPath := filepath.Join(dir, "new.db")
	fresh, err := Open(newPath, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	update(t, fresh, func(tx *Tx) error { return tx.SetNote("file", "new") })
	fresh.Close()
	if err := os.Rename(newPath, path); err != nil {
		t.Fatal(err)
	}
	holder.Close()
	db := <-opened
	if db == nil {
		return
	}
	defer db.Close()
	var which string
	db.View(func(tx *Tx) error { which, _, _ = tx.Note("file"); return nil })
	if which != "new" {
		t.Errorf("the waiting Open has the %q file, want the new one", which)
	}
}

func TestSameStoreFindsEachDifference(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	fragmented(t, path)
	for _, tc := range []struct {
		name   string
		change func(*bolt.Tx) error
		want   string
	}{
		{"a value", func(btx *bolt.Tx) error { return btx.Bucket(bucketMeta).Put([]byte("zz"), []byte("1")) }, "key"},
		{"a sequence", func(btx *bolt.Tx) error { _, err := btx.Bucket(bucketOutbox).NextSequence(); return err }, "sequence"},
		{"a bucket", func(btx *bolt.Tx) error { _, err := btx.CreateBucket([]byte("zz")); return err }, "buckets"},
		{"a nested bucket", func(btx *bolt.Tx) error {
			_, err := btx.Bucket(bucketMeta).CreateBucket([]byte("zz"))
			return err
		}, "key"},
		{"a game", func(btx *bolt.Tx) error {
			b := btx.Bucket(bucketGames)
			k, v := b.Cursor().Last()
			return b.Put(k, append(v[:len(v):len(v)], 0))
		}, "value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other := filepath.Join(dir, "other.db")
			copyFile(t, path, other)
			b, err := bolt.Open(other, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Update(tc.change); err != nil {
				t.Fatal(err)
			}
			b.Close()
			src, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			err = sameStore(other, src)
			if !errors.Is(err, errDiffer) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("sameStore = %v, want a difference naming %q", err, tc.want)
			}
		})
	}
}

// A data file that is a link is compacted where it lies; the link stays,
// and the file keeps its mode.
func TestCompactThroughALink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	real := filepath.Join(dir, "disk", FileName)
	if err := os.MkdirAll(filepath.Dir(real), 0o700); err != nil {
		t.Fatal(err)
	}
	fragmented(t, real)
	if err := os.Chmod(real, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, FileName)
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	st, err := Compact(link, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi.Mode(), err)
	}
	fi, err := os.Stat(real)
	if err != nil || fi.Size() != st.After || fi.Mode().Perm() != 0o640 {
		t.Errorf("the linked file: %v (%d bytes, want %d), %v; want the compacted store, mode 0640", fi.Mode(), fi.Size(), st.After, err)
	}
}

// A store with a nested bucket, which pbemd never makes, is refused and
// left as it was: a copy would lose what the nested bucket holds.
func TestCompactRefusesANestedBucket(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	fragmented(t, path)
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(btx *bolt.Tx) error {
		nested, err := btx.Bucket(bucketNotes).CreateBucket([]byte("nested"))
		if err == nil {
			err = nested.Put([]byte("k"), []byte("kept"))
		}
		return err
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	before := filepath.Join(t.TempDir(), "before.db")
	copyFile(t, path, before)
	if _, err := Compact(path, time.Second); !errors.Is(err, ErrNotStore) || !strings.Contains(err.Error(), "nested") {
		t.Errorf("Compact of a store with a nested bucket: %v; want ErrNotStore naming it", err)
	}
	now, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if was, _ := os.ReadFile(before); !bytes.Equal(now, was) {
		t.Error("the store refused was changed")
	}
}
