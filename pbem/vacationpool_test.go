package pbem

import (
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
)

// TestVacationPoolTakenWhenTheClockRunsOut: when alice's clock runs out
// and her pool has a day left, the sweep takes it instead of the forfeit
// and tells both players, each in one mail; "vacation" then refuses, saying
// what is left; with the pool empty, the next run-out forfeits.
func TestVacationPoolTakenWhenTheClockRunsOut(t *testing.T) {
	h := twoPlayers(t)
	h.svc.cfg.NoAutoVacation = false
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	// alice was away 29 days in January: one day of her pool is left.
	err := h.db.Update(func(tx *store.Tx) error {
		u, err := tx.User("alice")
		if err != nil {
			return err
		}
		u.Vacations = []store.Vacation{{From: time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 2, 3, 0, 0, 0, 0, time.UTC)}}
		return tx.PutUser(u)
	})
	if err != nil {
		t.Fatal(err)
	}
	start := h.now
	h.now = start.Add(14 * day)
	h.sweep() // the reminders of days 7 and 14
	h.now = start.Add(21 * day)
	out := h.sweep()
	if len(out) != 2 || out[0].To != "alice@example.org" || out[1].To != "bob@example.org" {
		t.Fatalf("the run-out: %v", subjects(out))
	}
	for _, r := range out {
		if r.Subject != "Tanbo Board 101 vacation of alice" {
			t.Errorf("subject %q", r.Subject)
		}
		says(t, r.Body, "alice's clock on Tanbo board 101 ran out, so a day of alice's vacation pool is taken instead of a forfeit: the clock of every board of alice stops until 2026-12-14 12:00 UTC. alice has 0 of 30 vacation days left in 2026.")
	}
	if g := h.game("tanbo", 101); g.Over {
		t.Fatal("the board ended although a day of the pool was taken")
	}
	// A vacation while away extends the day taken, counted anew.
	errorReply(t, h.send("alice@example.org", "vacation alice pw-alice 2", ""), "alice@example.org",
		"alice has 1 vacation days left in 2026 (30 a year, 29 used), and this vacation would take 2; ask for fewer days.")
	h.now = start.Add(22*day - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("during the day taken: %v", subjects(out))
	}
	h.now = start.Add(22 * day)
	r := boardMails(t, h.sweep(), "Tanbo Board 101 won by bob", "alice@example.org", "bob@example.org")
	says(t, r.Body, "alice forfeits: no move for 21 days.")
}
