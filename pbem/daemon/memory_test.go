package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// Reading much of a large store must not leave the daemon holding it all
// as resident memory when memory is short: the release loop gives the
// mapped pages back. While memory is plentiful it leaves them to the
// kernel, and reads find them mapped.
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

	var short atomic.Bool
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		releaseLoop(ctx, db, 10*time.Millisecond, 8<<20, short.Load, slog.New(slog.DiscardHandler))
		close(done)
	}()
	// Memory is plentiful: once the loop has measured its start, what
	// reads map stays mapped.
	time.Sleep(50 * time.Millisecond)
	readAll()
	plentiful := residentFileBytes()
	time.Sleep(200 * time.Millisecond) // twenty looks of the loop
	if now := residentFileBytes(); now < plentiful-8<<20 {
		t.Fatalf("resident file memory fell from %d to %d bytes with memory plentiful; want the pages left mapped", plentiful, now)
	}
	short.Store(true)
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

// The system's memory reads as a size: the release loop's test of
// shortage has something to compare.
func TestMeminfoReadsSizes(t *testing.T) {
	total := meminfo("MemTotal")
	if total == 0 {
		t.Skip("no /proc/meminfo on this system")
	}
	if avail := meminfo("MemAvailable"); avail <= 0 || avail > total {
		t.Errorf("MemAvailable %d bytes of MemTotal %d; want between 1 and the total", avail, total)
	}
	if meminfo("NoSuchField") != 0 {
		t.Error("a field /proc/meminfo lacks read as non-zero")
	}
}
