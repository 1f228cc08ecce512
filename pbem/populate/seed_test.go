package populate_test

import (
	"log/slog"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/pbem/populate"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

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
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		clock := func() time.Time { return now }
		svc := pbem.New(db, pbem.Config{Address: "pbem@example.org", Now: clock,
			Log: slog.New(slog.DiscardHandler), Auth: pbemtest.Auth()})
		_, err := populate.Fill(db, svc, populate.Options{Games: 300, Players: 30, Seed: seed,
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
