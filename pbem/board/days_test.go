package board

import (
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
)

// A board's days are its own where it names them, the defaults where it
// names none or a stored value is no whole number of days above 0 (a hand
// edit, a damaged record): a reminder is never due at once.
func TestDaysOf(t *testing.T) {
	for _, c := range []struct {
		extra map[string]string
		want  Days
		own   bool
	}{
		{nil, Days{7, 21}, false},
		{map[string]string{NagKey: "3"}, Days{3, 21}, true},
		{map[string]string{NagKey: "3", ForfeitKey: "10"}, Days{3, 10}, true},
		{map[string]string{ForfeitKey: "30"}, Days{7, 30}, true},
		{map[string]string{NagKey: "0", ForfeitKey: "-5"}, DefaultDays, true},
		{map[string]string{NagKey: "seven", ForfeitKey: "1e9"}, DefaultDays, true},
		{map[string]string{NagKey: "99999999999999999999"}, DefaultDays, true},
		{map[string]string{PendingKey: "alice"}, DefaultDays, false},
	} {
		rec := &store.Game{Extra: c.extra}
		if got := DaysOf(rec); got != c.want {
			t.Errorf("DaysOf(%v) = %+v, want %+v", c.extra, got, c.want)
		}
		if got := OwnDays(rec); got != c.own {
			t.Errorf("OwnDays(%v) = %v, want %v", c.extra, got, c.own)
		}
	}
	if got, want := (Days{3, 10}).String(), "Reminder after 3 days, forfeit after 10 days without a move."; got != want {
		t.Errorf("Days.String() = %q, want %q", got, want)
	}
}

// The web page tells how long the player to move has had the turn in
// whole days; a clock in the future is not a negative wait.
func TestWaited(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                        "less than a day",
		23 * time.Hour:           "less than a day",
		24 * time.Hour:           "1 day",
		47 * time.Hour:           "1 day",
		72 * time.Hour:           "3 days",
		-72 * time.Hour:          "less than a day",
		time.Duration(1<<63 - 1): "106751 days",
	} {
		if got := Waited(d); got != want {
			t.Errorf("Waited(%v) = %q, want %q", d, got, want)
		}
	}
}

// The clock of a turn runs from when the player got it; a board stored
// before that was kept runs from its last move, or from its creation.
func TestTurnSince(t *testing.T) {
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	moved, turn := created.Add(time.Hour), created.Add(2*time.Hour)
	for _, c := range []struct {
		rec  store.Game
		want time.Time
	}{
		{store.Game{Created: created}, created},
		{store.Game{Created: created, Moves: []store.Move{{Text: "a1", At: moved}}}, moved},
		{store.Game{Created: created, Moves: []store.Move{{Text: "a1", At: moved}}, TurnSince: turn}, turn},
	} {
		if got := TurnSince(&c.rec); !got.Equal(c.want) {
			t.Errorf("TurnSince of %+v = %v, want %v", c.rec, got, c.want)
		}
	}
}
