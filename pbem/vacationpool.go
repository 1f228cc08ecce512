package pbem

import (
	"fmt"
	"time"

	"github.com/pbemd/pbemd/store"
)

// The vacation pool: each player has vacationDaysPerYear days a calendar
// year, which the "vacation" command draws on and which the sweep draws
// on by itself, a day at a time, when a clock of his would run out
// (issue 29). Both count in the year the vacation starts (usedDays).

// poolLeft is what is left of u's pool in the year of t.
func poolLeft(u *store.User, t time.Time) int {
	return max(vacationDaysPerYear-usedDays(u, t.Year(), -1), 0)
}

// autoVacation takes a day of u's pool when his clock on b has run out,
// and tells him and his opponent, each in one mail. It returns the end of
// that day, or the zero time when it takes none: his pool is empty, or he
// has not moved on b (his forfeit only withdraws him, unrated, and the
// pool is for keeping games, not for holding seats), or the service does
// not take days by itself (Config.NoAutoVacation).
func (r *request) autoVacation(b *board, u *store.User) (time.Time, error) {
	if u == nil || r.s.cfg.NoAutoVacation || poolLeft(u, r.now) == 0 || !b.hasMoved(b.seatOf(u.ID)) {
		return time.Time{}, nil
	}
	until := r.now.Add(day)
	u.Vacations = append(u.Vacations, store.Vacation{From: r.now, Until: until})
	if err := r.tx.PutUser(u); err != nil {
		return time.Time{}, err
	}
	notice := fmt.Sprintf("%s's clock on %s board %d ran out, so a day of %s's vacation pool is taken instead of a forfeit: "+
		"the clock of every board of %s stops until %s. %s has %d of %d vacation days left in %d.",
		u.ID, b.game.Title(), b.rec.Board, u.ID, u.ID, until.UTC().Format(timeFormat), u.ID, poolLeft(u, r.now), vacationDaysPerYear, r.now.Year())
	subject := fmt.Sprintf("%s Board %d vacation of %s", b.game.Title(), b.rec.Board, u.ID)
	for _, id := range b.rec.Seats {
		if err := r.privateBoard(b, id, subject, notice); err != nil {
			return time.Time{}, err
		}
	}
	return until, nil
}
