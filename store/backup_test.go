package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeRound is one transaction of the writer in the backup tests: a new
// game, a mail for it and the count of rounds, all or nothing.
func writeRound(tx *Tx) error {
	n, err := tx.NextBoard("tanbo")
	if err != nil {
		return err
	}
	g := &Game{Kind: "tanbo", Board: n, Seats: []string{"alice", "bob"}, Position: string(bytes.Repeat([]byte("."), 400))}
	if err := tx.PutGame(g); err != nil {
		return err
	}
	if err := tx.Enqueue(&Outgoing{To: []string{"alice@x"}, Data: []byte(fmt.Sprint("board ", n))}); err != nil {
		return err
	}
	return tx.SetNote("rounds", strconv.Itoa(n-firstBoard+1))
}

// checkConsistent opens a copy and checks that it holds whole rounds only.
func checkConsistent(t *testing.T, path string) int {
	t.Helper()
	db, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("opening the backup: %v", err)
	}
	defer db.Close()
	var rounds, games, seats int
	err = db.View(func(tx *Tx) error {
		v, ok, err := tx.Note("rounds")
		if err != nil {
			return err
		}
		if ok {
			rounds, _ = strconv.Atoi(v)
		}
		if err := tx.Games("tanbo", func(*Game) error { games++; return nil }); err != nil {
			return err
		}
		refs, err := tx.GamesOf("bob")
		seats = len(refs)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	mails, err := db.OutboxLen()
	if err != nil {
		t.Fatal(err)
	}
	if games != rounds || mails != rounds || seats != rounds {
		t.Errorf("backup is not consistent: note says %d rounds, but %d games, %d mails, %d seat entries", rounds, games, mails, seats)
	}
	return rounds
}

func TestBackupWhileWriting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, err := Open(filepath.Join(dir, FileName), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := 0; i < 50; i++ {
		update(t, db, writeRound)
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var werr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := db.Update(writeRound); err != nil {
				werr = err
				return
			}
		}
	}()

	var counts []int
	for i := 0; i < 5; i++ {
		var path string
		if i%2 == 0 {
			path = filepath.Join(dir, fmt.Sprintf("copy%d.db", i))
			if err := db.BackupFile(path); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
				t.Errorf("BackupFile left %s.tmp behind", path)
			}
		} else {
			var buf bytes.Buffer
			n, err := db.Backup(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(buf.Len()) {
				t.Errorf("Backup reported %d bytes, wrote %d", n, buf.Len())
			}
			path = filepath.Join(dir, fmt.Sprintf("copy%d.db", i))
			if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		counts = append(counts, checkConsistent(t, path))
		time.Sleep(10 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if werr != nil {
		t.Fatal(werr)
	}
	for i, n := range counts {
		if n < 50 {
			t.Errorf("backup %d holds %d rounds, fewer than the 50 written before it", i, n)
		}
	}
	if counts[len(counts)-1] == counts[0] {
		t.Logf("the writer did not get a commit in between backups (rounds %v)", counts)
	}
}

func TestBackupFileReplacesAndRefusesSelf(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	update(t, db, writeRound)
	path := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(path, []byte("an older backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := db.BackupFile(path); err != nil {
		t.Fatal(err)
	}
	if n := checkConsistent(t, path); n != 1 {
		t.Errorf("backup holds %d rounds, want 1", n)
	}
	if err := db.BackupFile(db.Path()); err == nil {
		t.Error("BackupFile onto the database itself succeeded")
	}
	if err := db.BackupFile(filepath.Join(t.TempDir(), "no", "such", "dir", "x.db")); err == nil {
		t.Error("BackupFile into a missing directory succeeded")
	}
	// The database is still fine after the refusals.
	update(t, db, writeRound)
}

// A copy cut short is not kept.
func TestSaveCopyRefusesShortCopy(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "copy.db")
	err := SaveCopy(out, strings.NewReader("not a whole database"), 1<<20)
	if err == nil || !strings.Contains(err.Error(), "cut short") {
		t.Errorf("SaveCopy of a short stream: %v", err)
	}
	if _, err := Open(out, &Options{ReadOnly: true}); err == nil {
		t.Errorf("a short copy was left at %s", out)
	}
}

// A whole copy read from a stream, as the daemon sends it, is kept and opens.
func TestSaveCopy(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	db.Update(func(tx *Tx) error { return tx.SetNote("k", "v") })
	var buf bytes.Buffer
	var size int64
	if _, err := db.BackupSized(&buf, func(n int64) error { size = n; return nil }); err != nil {
		t.Fatal(err)
	}
	if size != int64(buf.Len()) {
		t.Fatalf("announced %d bytes, wrote %d", size, buf.Len())
	}
	out := filepath.Join(t.TempDir(), "copy.db")
	if err := SaveCopy(out, &buf, size); err != nil {
		t.Fatal(err)
	}
	cp, err := Open(out, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	cp.View(func(tx *Tx) error {
		if v, ok, _ := tx.Note("k"); !ok || v != "v" {
			t.Errorf("the copy lacks the note")
		}
		return nil
	})
}
