package store_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/pbemd/pbemd/store"
)

// A move and the mail it causes are committed together; the outbox is
// drained afterwards.
func Example() {
	dir, err := os.MkdirTemp("", "pbem-data")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(store.PathIn(dir), nil)
	if err != nil {
		log.Fatal(err) // for example "… is in use by another pbemd process (is the daemon running?)"
	}
	defer db.Close()

	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	err = db.Update(func(tx *store.Tx) error {
		board, err := tx.NextBoard("tanbo")
		if err != nil {
			return err
		}
		g := &store.Game{Kind: "tanbo", Board: board, Seats: []string{"alice", "Bob"}, Created: now}
		if err := tx.PutGame(g); err != nil {
			return err
		}
		if err := tx.MarkProcessed("<challenge-1@example.org>", now); err != nil {
			return err
		}
		return tx.Enqueue(&store.Outgoing{
			From: "pbem@example.org",
			To:   []string{"bob@example.org"},
			Data: []byte("Subject: New Tanbo Board 101 alice\r\n\r\n..."),
		})
	})
	if err != nil {
		log.Fatal(err)
	}

	db.View(func(tx *store.Tx) error {
		refs, _ := tx.GamesOf("BOB")
		fmt.Println("bob plays", refs)
		return nil
	})
	due, _ := db.Pending(now, 0, 10)
	for _, m := range due {
		fmt.Println("send", m.ID, "to", m.To)
		db.Sent(m.ID)
	}
	if err := db.BackupFile(filepath.Join(dir, "backup.db")); err != nil {
		log.Fatal(err)
	}
	// Output:
	// bob plays [{tanbo 101}]
	// send 1 to [bob@example.org]
}
