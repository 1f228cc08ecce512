package populate_test

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/pbem/populate"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// A populated store is one mail can play on: every board replays from its
// moves to the position it keeps, every game kind and state is there,
// finished boards are rated, and a player moves on a running board with
// the shared password.
func TestFill(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	now, clock := testClock()
	svc := newService(db, clock)
	o := populate.Options{Games: 400, Players: 40, Seed: 7, Batch: 50, HashCost: bcrypt.MinCost, Now: clock}
	st, err := populate.Fill(db, svc, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 400 || st.Players != 40 || st.Running+st.Open+st.Finished != 400 {
		t.Fatalf("stats %+v; want 400 games of 40 players in three states", st)
	}
	if st.Running == 0 || st.Open == 0 || st.Finished == 0 {
		t.Fatalf("stats %+v; want boards in every state", st)
	}
	// Nothing is due for the sweep when the store is made: a live server
	// would have sent those reminders, forfeits and lapses already.
	db.View(func(tx *store.Tx) error {
		if due := tx.DueBoards(now, nil, 10); len(due) > 0 {
			t.Errorf("boards due for the sweep at once: %v", due)
		}
		return nil
	})
	kinds := map[string]int{}
	var running *store.Game
	var runningPos rules.Position
	rated, moves := 0, 0
	err = db.View(func(tx *store.Tx) error {
		return pbemtest.EachBoard(tx, func(g rules.Game, rec *store.Game) error {
			kinds[g.Name()]++
			moves += len(rec.Moves)
			pos, err := replay(g, rec)
			if err != nil {
				return err
			}
			if rec.Over && rec.Rated && len(rec.Ratings) == 2 {
				rated++
			}
			if running == nil && !rec.Over && !slices.Contains(rec.Seats, "") && len(rec.Queue) == 0 && rec.Vote == nil {
				running, runningPos = rec, pos
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(kinds) != len(catalog.All()) {
		t.Fatalf("boards by game %v; want every game of the catalog", kinds)
	}
	if rated != st.Finished || moves != st.Moves {
		t.Fatalf("%d of %d finished boards rated, %d moves stored; want all rated and %d moves", rated, st.Finished, moves, st.Moves)
	}
	if running == nil {
		t.Fatal("no running board without a queue or vote")
	}
	who := running.Seats[running.ToMove]
	subject := fmt.Sprintf("%s move %d %s secret %s", running.Kind, running.Board, who, runningPos.Legal()[0])
	if err := svc.Deliver(pbemtest.Mail(who+"@example.org", subject, "", "m1@client.example")); err != nil {
		t.Fatal(err)
	}
	replies := pbemtest.TakeOutbox(t, db, now.Add(time.Hour))
	if len(replies) == 0 || strings.Contains(replies[0].Subject, "Error") {
		t.Fatalf("a move on populated %s board %d: %+v", running.Kind, running.Board, replies)
	}

	// Populating again would mix two populations: refused.
	o.Games = 1
	if _, err := populate.Fill(db, svc, o); err == nil {
		t.Fatal("a second populate of the same store was accepted")
	}
}

// replay plays a board's moves from its start and checks that they reach
// the position and seat to move the record keeps.
func replay(g rules.Game, rec *store.Game) (rules.Position, error) {
	opts, err := rules.ParseOptions(g, rec.Options)
	if err != nil {
		return nil, err
	}
	pos, err := g.Start(opts)
	if err != nil {
		return nil, err
	}
	for i, m := range rec.Moves {
		if _, err := pos.Play(m.Text); err != nil {
			return nil, fmt.Errorf("%s %d: move %d %q does not replay: %w", rec.Kind, rec.Board, i+1, m.Text, err)
		}
	}
	if pos.String() != rec.Position || pos.ToMove() != rec.ToMove {
		return nil, fmt.Errorf("%s %d: the moves reach another position than the record keeps", rec.Kind, rec.Board)
	}
	return pos, nil
}

// The same seed makes the same store, key for key and byte for byte,
// whatever the batches it is written in; another seed makes another.
// A benchmark's figures compare only on the same store.
func TestFillSameSeed(t *testing.T) {
	t.Parallel()
	hash, err := bcrypt.GenerateFromPassword([]byte("secret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	fill := func(seed uint64, batch int) *store.DB {
		db := storetest.New(t)
		_, clock := testClock()
		_, err := populate.Fill(db, newService(db, clock), populate.Options{Games: 300, Players: 30, Seed: seed,
			Batch: batch, PasswordHash: string(hash), Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	a := fill(5, 64)
	if err := a.Same(fill(5, 7)); err != nil {
		t.Errorf("two stores of seed 5 differ: %v", err)
	}
	if err := a.Same(fill(6, 64)); err == nil {
		t.Error("the stores of seeds 5 and 6 are the same; want another store of another seed")
	}
}

// BenchmarkFill measures populate's games a second, the figure that
// decides how long a developer waits for a store of 1,000,000 games.
func BenchmarkFill(b *testing.B) {
	const games = 10000
	_, clock := testClock()
	for b.Loop() {
		b.StopTimer()
		db := storetest.New(b)
		svc := newService(db, clock)
		b.StartTimer()
		if _, err := populate.Fill(db, svc, populate.Options{Games: games, Seed: 1, HashCost: bcrypt.MinCost, Now: clock}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(games*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// testClock is the fixed time the tests populate at.
func testClock() (time.Time, func() time.Time) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	return now, func() time.Time { return now }
}

// newService is the service that plays the boards out, at the time clock
// tells.
func newService(db *store.DB, clock func() time.Time) *pbem.Service {
	return pbem.New(db, pbem.Config{Address: "pbem@example.org", Now: clock,
		Log: slog.New(slog.DiscardHandler), Auth: pbemtest.Auth()})
}
