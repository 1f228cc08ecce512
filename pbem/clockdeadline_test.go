package pbem

import (
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/clock"
	"github.com/pbemd/pbemd/store"
)

// TestDeadlineIndexesClocks: the sweep's index keeps a Fischer board's
// reminder and the end of the mover's bank, never after the time the
// clock reaches them in any zone; an open proposal of the mover stands
// his clock and leaves only the proposal's own times.
func TestDeadlineIndexesClocks(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 23, 30, 0, 0, time.UTC) // a Friday night
	board := func(spec string) *store.Game {
		rec := &store.Game{Kind: "tanbo", Board: 101, Seats: []string{"alice", "bob"}, ToMove: 1,
			TurnSince: t0, Extra: map[string]string{clockKey: spec}}
		setBank(rec, "bob", 3*day)
		return rec
	}
	rec := board("fischer:2d+1d/3d")
	if got, want := deadline(rec), t0.Add(36*time.Hour); !got.Equal(want) {
		t.Errorf("the reminder: indexed %v, want %v", got, want)
	}
	rec.Nagged = t0.Add(36 * time.Hour)
	if got, want := deadline(rec), t0.Add(3*day); !got.Equal(want) {
		t.Errorf("the end of the bank: indexed %v, want %v", got, want)
	}
	for _, spec := range []string{"fischer:2d+1d/3d,weekends", "fischer:2d+1d/3d,nights=22-08", "fischer:2d+1d/3d,weekends,nights=20-09", "days,weekends,nights=23-07"} {
		rec := board(spec)
		c := boardClock(rec)
		for _, zone := range []string{"UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu"} {
			loc, err := time.LoadLocation(zone)
			if err != nil {
				t.Fatal(err)
			}
			first := c.Off.Reach(t0, fischerNag(3*day), loc, nil)
			if c.Kind == clock.Days {
				first = c.Off.Reach(t0, 7*day, loc, nil)
			}
			if got := deadline(rec); got.After(first) {
				t.Errorf("%s in %s: indexed %v, after the clock's %v", spec, zone, got, first)
			}
		}
	}
	// bob's own draw proposal, open: his clock stands; the index keeps
	// alice's reminder of it, 7 days on.
	rec = board("fischer:2d+1d/3d")
	rec.Vote = &store.Vote{Kind: "draw", Seat: 1, User: "bob", At: t0.Add(time.Hour)}
	if got, want := deadline(rec), t0.Add(time.Hour+7*day); !got.Equal(want) {
		t.Errorf("with bob's proposal open: indexed %v, want %v", got, want)
	}
}
