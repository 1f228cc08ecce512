package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var benchKinds = []string{"ultima", "tanbo", "taratibu", "tobit"}

// benchGame returns a game of the size of a long real one: 40 moves, a
// position, a few comments.
func benchGame(kind string, board int) *Game {
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	g := &Game{
		Kind:     kind,
		Board:    board,
		Options:  []string{"-size=9"},
		Seats:    []string{fmt.Sprint("user", board%500), fmt.Sprint("user", (board+7)%500)},
		Position: strings.Repeat("........\n", 9),
		Created:  at,
		Thread:   fmt.Sprintf("<%s-%d@pbem.example>", kind, board),
	}
	for i := 0; i < 40; i++ {
		at = at.Add(5 * time.Hour)
		g.Moves = append(g.Moves, Move{Seat: i % 2, Text: fmt.Sprintf("c%d-e%d", i%9+1, (i+3)%9+1), At: at})
	}
	g.Comments = []Comment{{User: g.Seats[0], Text: "good luck", At: g.Created, Move: 0}}
	g.Updated = at
	return g
}

// BenchmarkGameRead reads one random board from a store of 100,000 games.
func BenchmarkGameRead(b *testing.B) {
	const games, perTx = 100_000, 1000
	path := filepath.Join(b.TempDir(), FileName)
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	perKind := games / len(benchKinds)
	for start := 0; start < games; start += perTx {
		err := db.Update(func(tx *Tx) error {
			for i := start; i < start+perTx; i++ {
				kind := benchKinds[i%len(benchKinds)]
				n, err := tx.NextBoard(kind)
				if err != nil {
					return err
				}
				if err := tx.PutGame(benchGame(kind, n)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}

	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		kind := benchKinds[rng.IntN(len(benchKinds))]
		board := firstBoard + rng.IntN(perKind)
		err := db.View(func(tx *Tx) error {
			g, err := tx.Game(kind, board)
			if err == nil && len(g.Moves) != 40 {
				err = fmt.Errorf("%s %d has %d moves", kind, board, len(g.Moves))
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if fi, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(fi.Size())/(1<<20), "MB-file")
	}
}

// BenchmarkCommitMove is the write of one accepted move as the service does
// it: the game, the processed key of the mail and two reply mails in one
// fsynced transaction.
func BenchmarkCommitMove(b *testing.B) {
	db, err := Open(filepath.Join(b.TempDir(), FileName), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	const boards = 100
	err = db.Update(func(tx *Tx) error {
		for i := 0; i < boards; i++ {
			n, err := tx.NextBoard("ultima")
			if err != nil {
				return err
			}
			if err := tx.PutGame(benchGame("ultima", n)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	reply := []byte(strings.Repeat("board line of some forty characters.....\r\n", 40))
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)

	i := 0
	for b.Loop() {
		i++
		err := db.Update(func(tx *Tx) error {
			g, err := tx.Game("ultima", firstBoard+i%boards)
			if err != nil {
				return err
			}
			g.Moves = append(g.Moves, Move{Seat: len(g.Moves) % 2, Text: "a1-a2", At: now})
			if len(g.Moves) > 50 {
				g.Moves = g.Moves[:40] // keep the game at a steady size
			}
			g.Updated = now
			if err := tx.PutGame(g); err != nil {
				return err
			}
			if err := tx.MarkProcessed(fmt.Sprintf("<move%d@example.org>", i), now); err != nil {
				return err
			}
			for _, to := range g.Seats {
				if err := tx.Enqueue(&Outgoing{From: "pbem@example.org", To: []string{to + "@example.org"}, Data: reply, Queued: now}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
}

// BenchmarkPendingBehindDeferred: one pass of the sender looks for due
// mail while 1,000 replies of 10 KB wait for their retries (a day of
// replies to full mailboxes): every look walks them.
func BenchmarkPendingBehindDeferred(b *testing.B) {
	db, err := Open(filepath.Join(b.TempDir(), FileName), &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	data := []byte(strings.Repeat("a board line of a typical reply, some 60 bytes long ......\r\n", 170))
	err = db.Update(func(tx *Tx) error {
		for range 1000 {
			m := &Outgoing{From: "pbem@x.test", To: []string{"full@x.test"}, Data: data, Queued: now}
			if err := tx.Enqueue(m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for id := uint64(1); id <= 1000; id++ {
		if err := db.Defer(id, now, now.Add(time.Hour), "452 mailbox full"); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		if due, err := db.Pending(now, 0, 64); err != nil || len(due) != 0 {
			b.Fatalf("Pending = %d mails, %v; want none due", len(due), err)
		}
	}
}
