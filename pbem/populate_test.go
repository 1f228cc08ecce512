package pbem

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/store"
)

// A populated store is one mail can play on: every board replays from its
// moves, every game kind and state is there, finished boards are rated, and
// a player moves on a running board with the shared password.
func TestPopulate(t *testing.T) {
	h := newHarness(t)
	st, err := h.svc.Populate(PopulateOptions{Games: 400, Players: 40, Seed: 7, Batch: 50})
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 400 || st.Players != 40 || st.Running+st.Open+st.Finished != 400 {
		t.Fatalf("stats %+v; want 400 games of 40 players in three states", st)
	}
	if st.Running == 0 || st.Open == 0 || st.Finished == 0 {
		t.Fatalf("stats %+v; want boards in every state", st)
	}
	kinds := map[string]int{}
	var running *store.Game
	rated := 0
	err = h.db.View(func(tx *store.Tx) error {
		r := &request{s: h.svc, tx: tx, now: h.now}
		for _, kind := range []string{"ultima", "tanbo", "taratibu", "tobit"} {
			err := tx.Games(kind, func(rec *store.Game) error {
				kinds[kind]++
				if _, err := r.loadBoard(rec.Kind, rec.Board); err != nil {
					return fmt.Errorf("%s %d does not load: %w", rec.Kind, rec.Board, err)
				}
				if rec.Over && rec.Rated && len(rec.Ratings) == 2 {
					rated++
				}
				if running == nil && !rec.Over && !contains(rec.Seats, "") && len(rec.Queue) == 0 && rec.Vote == nil {
					running = rec
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(kinds) != 4 {
		t.Fatalf("boards by game %v; want all four games", kinds)
	}
	if rated != st.Finished {
		t.Fatalf("%d of %d finished boards rated", rated, st.Finished)
	}
	if running == nil {
		t.Fatal("no running board without a queue or vote")
	}
	var legal string
	h.db.View(func(tx *store.Tx) error {
		b, err := (&request{s: h.svc, tx: tx, now: h.now}).loadBoard(running.Kind, running.Board)
		if err != nil {
			t.Fatal(err)
		}
		legal = b.pos.Legal()[0]
		return nil
	})
	who := running.Seats[running.ToMove]
	replies := h.send(who+"@example.org", fmt.Sprintf("%s move %d %s secret %s", running.Kind, running.Board, who, legal), "")
	if len(replies) == 0 || strings.Contains(replies[0].Subject, "Error") {
		t.Fatalf("a move on populated %s board %d: %+v", running.Kind, running.Board, replies)
	}

	// Populating again would mix two populations: refused.
	if _, err := h.svc.Populate(PopulateOptions{Games: 1}); err == nil {
		t.Fatal("a second populate of the same store was accepted")
	}
}
