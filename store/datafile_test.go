package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// A file at the database path that is not a pbemd store must be refused
// with a message naming it, left as it was, and never replaced by a new
// store or crash the process.
func TestOpenRefusesForeignFiles(t *testing.T) {
	t.Parallel()
	whole := func(t *testing.T) []byte {
		path := filepath.Join(t.TempDir(), FileName)
		db, err := Open(path, &Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		update(t, db, func(tx *Tx) error { return tx.SetNote("n", strings.Repeat("x", 100000)) })
		db.Close()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	cases := []struct {
		name  string
		write func(t *testing.T, path string)
		want  string
	}{
		{"empty", func(t *testing.T, path string) { writeBytes(t, path, nil) }, "empty"},
		{"truncated", func(t *testing.T, path string) { data := whole(t); writeBytes(t, path, data[:len(data)/2]) }, "not a whole pbemd store"},
		{"truncated to one page", func(t *testing.T, path string) { writeBytes(t, path, whole(t)[:4096]) }, "not a pbemd store"},
		{"foreign bytes", func(t *testing.T, path string) {
			writeBytes(t, path, []byte(strings.Repeat("this is a text file, not a database\n", 500)))
		}, "not a pbemd store"},
		{"other bbolt file", func(t *testing.T, path string) {
			b, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = b.Update(func(tx *bolt.Tx) error {
				bk, err := tx.CreateBucket([]byte("widgets"))
				if err != nil {
					return err
				}
				return bk.Put([]byte("a"), []byte("b"))
			})
			if err != nil {
				t.Fatal(err)
			}
			b.Close()
		}, "not a pbemd store"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			c.write(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, ro := range []bool{false, true} {
				db, err := Open(path, &Options{NoSync: true, ReadOnly: ro})
				if err == nil {
					db.Close()
					t.Fatalf("Open(ReadOnly=%v) accepted the file", ro)
				}
				if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("Open(ReadOnly=%v): %v; want an error naming %s and saying %q", ro, err, path, c.want)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(after) != string(before) {
				t.Errorf("the refused file was changed: %d bytes before, %d after", len(before), len(after))
			}
		})
	}
}

// A file bbolt created but that holds no bucket at all (a first Open cut
// short before its first commit) holds nothing to lose: it becomes a store.
func TestOpenAdoptsBareBoltFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatalf("a bbolt file without buckets was refused: %v", err)
	}
	db.Close()
}

func writeBytes(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
