package board

import (
	"fmt"
	"strconv"
	"time"

	"github.com/pbemd/pbemd/store"
)

// Days are a board's clock: the days without a move before the player to
// move is reminded (Nag) and before he forfeits (Forfeit).
type Days struct {
	Nag, Forfeit int
}

// DefaultDays are the days of a board that names none of its own.
var DefaultDays = Days{Nag: 7, Forfeit: 21}

// The Extra keys of a board's own days, set by a challenge's --nagtime=D
// and --forfeittime=D.
const (
	NagKey     = "nagtime"
	ForfeitKey = "forfeittime"
)

// ParseDays reads the days of a board from its Extra: each that is not
// given, or not a whole number above 0, is the default's.
func ParseDays(extra map[string]string) Days {
	d := DefaultDays
	if n, err := strconv.Atoi(extra[NagKey]); err == nil && n > 0 {
		d.Nag = n
	}
	if n, err := strconv.Atoi(extra[ForfeitKey]); err == nil && n > 0 {
		d.Forfeit = n
	}
	return d
}

// DaysOf is the days of rec.
func DaysOf(rec *store.Game) Days { return ParseDays(rec.Extra) }

// OwnDays reports whether rec names days of its own, which its board
// mails then show.
func OwnDays(rec *store.Game) bool { return rec.Extra[NagKey] != "" || rec.Extra[ForfeitKey] != "" }

// String is the days as the board mails and pages tell them.
func (d Days) String() string { return fmt.Sprintf(DaysFormat, d.Nag, d.Forfeit) }

// DaysFormat is how String says the days, a key of the catalogs of mails
// in other languages: the nag days, then the forfeit days.
const DaysFormat = "Reminder after %d days, forfeit after %d days without a move."

// Waited is how long a player has had the move, in whole days as the
// board's clock counts them: "less than a day", "1 day", "3 days". A
// clock set wrong (a time in the future) has waited less than a day.
func Waited(d time.Duration) string {
	days := int(d.Hours() / 24)
	switch {
	case days < 1:
		return "less than a day"
	case days == 1:
		return "1 day"
	}
	return fmt.Sprintf("%d days", days)
}

// TurnSince is when the player to move got the turn, from which his
// reminder and forfeit days count. Boards stored before the clock was kept
// fall back to their last move or creation.
func TurnSince(rec *store.Game) time.Time {
	if !rec.TurnSince.IsZero() {
		return rec.TurnSince
	}
	if n := len(rec.Moves); n > 0 {
		return rec.Moves[n-1].At
	}
	return rec.Created
}
