package pbem

import (
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/pbem/populate"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// A board to show, read from the position text its record keeps, draws
// what the replay of its moves draws and has the same side to move, on
// boards of every game in every state; and it is not cached, so that the
// next move replays what the text forgets (Tobit's repetitions).
func TestShownBoardIsTheReplayed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	clock := func() time.Time { return h.now }
	_, err := populate.Fill(h.db, h.svc, populate.Options{Games: 200, Players: 20, Seed: 3, HashCost: bcrypt.MinCost, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	boards := 0
	err = h.db.View(func(tx *store.Tx) error {
		r := &request{s: h.svc, tx: tx}
		return pbemtest.EachBoard(tx, func(g rules.Game, rec *store.Game) error {
			shown, err := r.loadShownBoard(rec.Kind, rec.Board)
			if err != nil {
				return err
			}
			if h.svc.positions.Get(rec) != nil {
				t.Errorf("%s board %d: the position read to show it was cached", rec.Kind, rec.Board)
			}
			replayed, err := r.loadBoard(rec.Kind, rec.Board)
			if err != nil {
				return err
			}
			if got, want := shown.pos.Board(), replayed.pos.Board(); got != want {
				t.Errorf("%s board %d shown as\n%s\nwant the replay's\n%s", rec.Kind, rec.Board, got, want)
			}
			if got, want := shown.pos.ToMove(), replayed.pos.ToMove(); got != want {
				t.Errorf("%s board %d: seat %d to move; the replay has %d", rec.Kind, rec.Board, got, want)
			}
			boards++
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if boards != 200 {
		t.Fatalf("%d boards compared; want the 200 populated", boards)
	}
}
