package pbem

import (
	"path/filepath"
	"testing"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// BenchmarkSweep measures a sweep over 10,000 running Tanbo boards:
// "quiet" when no board is due (the usual tick), "due1pct" when 100 of them
// get a reminder (each replayed, stored and mailed), "away" when every
// board is due but its players are away: the first sweep (untimed) reads
// them all, the ticks a minute apart pass them at the cost of an index key
// each. Setting up the due boards again each round is outside the timer.
func BenchmarkSweep(b *testing.B) {
	b.Run("quiet", func(b *testing.B) { benchSweep(b, 0, false) })
	b.Run("due1pct", func(b *testing.B) { benchSweep(b, 100, false) })
	b.Run("away", func(b *testing.B) { benchSweep(b, 0, true) })
}

func benchSweep(b *testing.B, due int, away bool) {
	const boards = 10000
	s, db := benchService(b, filepath.Join(b.TempDir(), "pbem.db"))
	moves := firstMoves(b, 10)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	err := db.Update(func(tx *store.Tx) error {
		for _, id := range []string{"alice", "bob"} {
			u := &store.User{ID: id, Addresses: []string{id + "@example.org"}}
			if away {
				u.Vacations = []store.Vacation{{From: now.Add(-day), Until: now.Add(10 * day)}}
			}
			if err := tx.PutUser(u); err != nil {
				return err
			}
		}
		pos := replayMoves(b, moves)
		for i := 0; i < boards; i++ {
			rec := &store.Game{Kind: "tanbo", Board: 101 + i, Seats: []string{"alice", "bob"}, Position: pos,
				Winner: rules.Draw, Created: now, Updated: now, TurnSince: now, Thread: "t@example.org"}
			if away {
				rec.TurnSince = now.Add(-8 * day)
			}
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
	if away {
		if ids, err := s.SweepIDs(now); err != nil || len(ids) != 0 {
			b.Fatalf("the first sweep of boards whose players are away: %d mails, %v", len(ids), err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		at := now.Add(time.Duration(i+1) * time.Minute)
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
	_, pos, err := model.Replay(rec, len(moves))
	if err != nil {
		b.Fatal(err)
	}
	return pos.String()
}
