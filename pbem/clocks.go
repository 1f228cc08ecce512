package pbem

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pbemd/pbemd/pbem/clock"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// The clock of a board (issue 29): pbmserv's days, the default, or a
// capped Fischer bank, chosen with -clock= at challenge time, with optional
// off-time in the mover's zone. The arithmetic is package clock; here is
// where a board keeps its clock and what the sweep and the mails read.
//
// A board keeps its clock in Extra, so that the store's encoding is
// unchanged and a board stored without one is pbmserv's days (7 and 21,
// or its --nagtime and --forfeittime):
//
//	clock       the clock as clock.Parse reads it; absent: plain days
//	bank.USER   a Fischer player's bank in seconds at the start of his
//	            turn; absent: the clock's start
const (
	clockKey   = "clock"
	bankPrefix = "bank."
	zoneKey    = "timezone" // a user's Extra: his IANA zone for off-time
)

// boardClock is the clock rec was challenged with; a clock that no longer
// parses counts as days, the default, so that the board goes on.
func boardClock(rec *store.Game) clock.Clock {
	s := rec.Extra[clockKey]
	if s == "" {
		return clock.Clock{}
	}
	c, err := clock.Parse(s)
	if err != nil {
		return clock.Clock{}
	}
	return c
}

// bankOf is the Fischer bank of user id on rec at the start of his turn.
func bankOf(rec *store.Game, c clock.Clock, id string) time.Duration {
	s, ok := rec.Extra[bankPrefix+strings.ToLower(id)]
	if !ok {
		return c.Start
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return c.Start
	}
	return min(time.Duration(n)*time.Second, c.Cap)
}

func setBank(rec *store.Game, id string, d time.Duration) {
	rec.Extra[bankPrefix+strings.ToLower(id)] = strconv.FormatInt(int64(d/time.Second), 10)
}

// userZone is the zone a user set for his off-time, else UTC.
func userZone(u *store.User) *time.Location {
	if u == nil || u.Extra[zoneKey] == "" {
		return time.UTC
	}
	name := u.Extra[zoneKey]
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	zones.Store(name, loc)
	return loc
}

// zones keeps the zones loaded: time.LoadLocation reads and parses its
// file on every call, and the sweep and todo ask for a player's zone on
// each board. Only names "set timezone" accepted are stored, so the map
// holds at most the zones there are.
var zones sync.Map

// absences are a user's vacations as the clock counts them.
func absences(u *store.User) []clock.Span {
	if u == nil {
		return nil
	}
	out := make([]clock.Span, len(u.Vacations))
	for i, v := range u.Vacations {
		out[i] = clock.Span{From: v.From, Until: v.Until}
	}
	return out
}

// used is how long u's clock ran on rec from since to now: less its
// off-time in his zone and his vacations.
func used(rec *store.Game, u *store.User, since, now time.Time) time.Duration {
	return boardClock(rec).Off.Running(since, now, userZone(u), absences(u))
}

// chargeClock takes from the Fischer bank of the player of seat the time
// his turn took, which began at since, and adds the increment. A move that
// comes after the bank ran out but before the sweep ended the game is
// played (the sweep's forfeit is the clock's word), with the increment
// alone in the bank.
func (r *request) chargeClock(b *board, seat int, since time.Time) error {
	c := boardClock(b.rec)
	if c.Kind != clock.Fischer {
		return nil
	}
	id := b.rec.Seats[seat]
	u, err := r.tx.User(id)
	if err != nil && !errNotFound(err) {
		return err
	}
	after, _ := c.Spend(bankOf(b.rec, c, id), used(b.rec, u, since, r.now))
	if after == 0 {
		after = c.Increment
	}
	setBank(b.rec, id, after)
	return nil
}

// clockLines are the lines of a board mail's time block about a clock
// other than plain days: what it is and, for a Fischer clock, the banks.
func clockLines(lang string, rec *store.Game) []string {
	c := boardClock(rec)
	if c == (clock.Clock{}) {
		return nil
	}
	lines := []string{templates.Sprintf(lang, "Clock: %s.", c.Describe())}
	if c.Kind != clock.Fischer || len(rec.Seats) != 2 {
		return lines
	}
	var banks []string
	for i, id := range rec.Seats {
		if id == "" {
			continue
		}
		what := "%s has %s"
		if !rec.Over && i == rec.ToMove {
			what = "%s had at the start of the turn %s"
		}
		banks = append(banks, templates.Sprintf(lang, what, id, clock.FormatDuration(bankOf(rec, c, id))))
	}
	if len(banks) > 0 {
		lines = append(lines, templates.Sprintf(lang, "Bank: %s.", strings.Join(banks, "; ")))
	}
	return lines
}

// A BoardClock is a board's clock as the web view shows it.
type BoardClock struct {
	Spec    string // as -clock= writes it; "days" for pbmserv's default
	Fischer bool
	Lines   []string                 // what board mails say of it; none for plain days
	Banks   map[string]time.Duration // Fischer: each player's bank at the start of his turn
}

// ClockOf is rec's clock for the web view.
func ClockOf(rec *store.Game) BoardClock {
	c := boardClock(rec)
	bc := BoardClock{Spec: c.String(), Fischer: c.Kind == clock.Fischer, Lines: clockLines(templates.English, rec)}
	if bc.Fischer {
		bc.Banks = map[string]time.Duration{}
		for _, id := range rec.Seats {
			if id != "" {
				bc.Banks[id] = bankOf(rec, c, id)
			}
		}
	}
	return bc
}
