package pbem

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// BenchmarkSweep measures a sweep over 10,000 running Tanbo boards:
// "quiet" when no board is due (the usual tick), "due1pct" when 100 of them
// get a reminder (each replayed, stored and mailed). Setting up the due
// boards again each round is outside the timer.
func BenchmarkSweep(b *testing.B) {
	b.Run("quiet", func(b *testing.B) { benchSweep(b, 0) })
	b.Run("due1pct", func(b *testing.B) { benchSweep(b, 100) })
}

func benchSweep(b *testing.B, due int) {
	const boards = 10000
	s, db := benchService(b, filepath.Join(b.TempDir(), "pbem.db"))
	moves := firstMoves(b, 10)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	err := db.Update(func(tx *store.Tx) error {
		for _, id := range []string{"alice", "bob"} {
			if err := tx.PutUser(&store.User{ID: id, Addresses: []string{id + "@example.org"}}); err != nil {
				return err
			}
		}
		pos := replayMoves(b, moves)
		for i := 0; i < boards; i++ {
			rec := &store.Game{Kind: "tanbo", Board: 101 + i, Seats: []string{"alice", "bob"}, Position: pos,
				Winner: rules.Draw, Created: now, Updated: now, TurnSince: now, Thread: "t@example.org"}
			for k, m := range moves {
				rec.Moves = append(rec.Moves, store.Move{Seat: k % 2, Text: m, At: now})
			}
			if err := tx.PutGame(rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		at := now.Add(time.Duration(i+1) * time.Hour)
		if due > 0 {
			b.StopTimer()
			// Make due boards whose clock started 7 days before this sweep.
			db.Update(func(tx *store.Tx) error {
				for k := 0; k < due; k++ {
					g, err := tx.Game("tanbo", 101+k)
					if err != nil {
						return err
					}
					g.TurnSince, g.Nagged = at.Add(-8*day), time.Time{}
					if err := tx.PutGame(g); err != nil {
						return err
					}
				}
				return nil
			})
			b.StartTimer()
		}
		ids, err := s.SweepIDs(at)
		if err != nil {
			b.Fatal(err)
		}
		if len(ids) != due {
			b.Fatalf("sweep queued %d mails, want %d", len(ids), due)
		}
	}
}

// replayMoves is the Tanbo position after moves.
func replayMoves(b *testing.B, moves []string) string {
	rec := &store.Game{Kind: "tanbo", Board: 1}
	for _, m := range moves {
		rec.Moves = append(rec.Moves, store.Move{Text: m})
	}
	g, _ := catalog.Lookup("tanbo")
	pos, err := replay(g, rec, rules.Options{}, len(moves))
	if err != nil {
		b.Fatal(err)
	}
	return pos.String()
}
