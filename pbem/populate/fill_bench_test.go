package populate_test

import (
	"log/slog"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/pbem/populate"
	"github.com/pbemd/pbemd/store/storetest"
)

// BenchmarkFill measures populate's games a second, the figure that
// decides how long a developer waits for a store of 1,000,000 games.
func BenchmarkFill(b *testing.B) {
	const games = 10000
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	for b.Loop() {
		b.StopTimer()
		db := storetest.New(b)
		svc := pbem.New(db, pbem.Config{Address: "pbem@example.org", Now: clock,
			Log: slog.New(slog.DiscardHandler), Auth: pbemtest.Auth()})
		b.StartTimer()
		if _, err := populate.Fill(db, svc, populate.Options{Games: games, Seed: 1, HashCost: bcrypt.MinCost, Now: clock}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(games*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
