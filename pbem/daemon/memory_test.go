package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// Reading much of a large store must not leave the daemon holding it all
// as resident memory: the release loop gives the mapped pages back.
func TestResidentMemoryStaysNearBudget(t *testing.T) {
	if residentFileBytes() == 0 {
		t.Skip("no /proc/self/statm on this system: nothing to measure")
	}
	// The resident memory of a memory-mapped file: bbolt's.
	db := storetest.Open(t, store.PathIn(t.TempDir()), &store.Options{NoSync: true})
	const notes, size = 4096, 8 << 10 // 32 MiB
	err := db.Update(func(tx *store.Tx) error {
		for i := range notes {
			if err := tx.SetNote(fmt.Sprint("note-", i), strings.Repeat("x", size)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.ReleasePages(); err != nil {
		t.Fatal(err)
	}
	base := residentFileBytes()
	readAll := func() {
		err := db.View(func(tx *store.Tx) error {
			for i := range notes {
				if v, ok, err := tx.Note(fmt.Sprint("note-", i)); err != nil || !ok || len(v) != size {
					return fmt.Errorf("note %d: %d bytes, found %v, err %v", i, len(v), ok, err)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	readAll()
	if grown := residentFileBytes() - base; grown < 24<<20 {
		t.Fatalf("reading 32 MiB of notes grew the resident file memory by %d bytes only; the test measures nothing", grown)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		releaseLoop(ctx, db, 10*time.Millisecond, 8<<20, slog.New(slog.DiscardHandler))
		close(done)
	}()
	// At its start the loop gives back what was read before it; then it
	// keeps what reads touch under its budget.
	waitUnder := func(limit int64) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for residentFileBytes() > limit {
			if time.Now().After(deadline) {
				t.Fatalf("resident file memory %d bytes after 10 s; want at most %d", residentFileBytes(), limit)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitUnder(base + 8<<20)
	readAll() // the notes read the same after the release
	waitUnder(base + 16<<20)
	cancel()
	<-done
}
