// Package clock is the arithmetic of a board's clock: pbmserv's days (a
// reminder and a forfeit after so many days without a move) or a capped
// Fischer bank (a start, an increment per move, a cap), each with optional
// off-time (weekends, nightly hours) in the local time of the player to
// move, and the player's absences (vacations) when no clock runs.
//
// It is pure: no store, no mail, no clock of its own. Times come in, times
// and durations go out, and every loop is bounded by the days it spans.
package clock

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind is how a clock counts.
type Kind uint8

const (
	// Days is pbmserv's clock, the default: each turn may take a board's
	// forfeit days (21), with a reminder each nag days (7).
	Days Kind = iota
	// Fischer is a bank per player that the player's turns spend, to
	// which each move adds an increment, and which never holds more than
	// a cap.
	Fischer
)

const day = 24 * time.Hour

// Bounds of a Fischer clock's durations: a bank of a year would let a
// board sleep for ever, and one under an hour cannot be kept by mail.
const (
	MaxBank = 365 * day
	MinBank = time.Hour
)

// Clock is the clock a board was challenged with. The zero Clock is
// pbmserv's days with no off-time: what a board stored without a clock
// has.
type Clock struct {
	Kind      Kind
	Start     time.Duration // Fischer: the bank each player starts with
	Increment time.Duration // Fischer: added to the mover's bank after each move
	Cap       time.Duration // Fischer: the most a bank holds
	Off       OffTime
}

// OffTime is when a clock does not run, in the local time of the player
// whose turn it is.
type OffTime struct {
	Weekends bool // all of Saturday and Sunday
	// Nightly hours, in minutes after local midnight, from NightFrom up to
	// NightTo, through midnight when NightTo is the smaller; equal: none.
	NightFrom, NightTo int
}

// Span is a time when a player is away: [From, Until).
type Span struct{ From, Until time.Time }

// Parse reads a clock as the challenge's -clock= writes it:
//
//	days
//	fischer:START+INCREMENT/CAP     e.g. fischer:10d+1d/20d
//
// each optionally followed by off-time, ",weekends" and ",nights=HH-HH"
// (or HH:MM-HH:MM), e.g. "fischer:10d+1d/20d,weekends,nights=23-07".
// Durations are days, hours and minutes: "10d", "1d12h", "90m".
func Parse(s string) (Clock, error) {
	const want = `write days or fischer:START+INCREMENT/CAP (such as fischer:10d+1d/20d), then ,weekends or ,nights=23-07 for off-time`
	if len(s) > 64 {
		return Clock{}, fmt.Errorf("a clock is at most 64 characters; %s", want)
	}
	parts := strings.Split(strings.ToLower(s), ",")
	var c Clock
	switch kind, bank, _ := strings.Cut(parts[0], ":"); kind {
	case "days":
		if bank != "" {
			return Clock{}, fmt.Errorf("a days clock takes no bank (its days are --nagtime and --forfeittime); %s", want)
		}
	case "fischer":
		c.Kind = Fischer
		start, rest, ok1 := strings.Cut(bank, "+")
		inc, limit, ok2 := strings.Cut(rest, "/")
		var err error
		if !ok1 || !ok2 {
			return Clock{}, fmt.Errorf("%q is not a Fischer bank; %s", bank, want)
		}
		if c.Start, err = ParseDuration(start); err != nil {
			return Clock{}, err
		}
		if c.Increment, err = ParseDuration(inc); err != nil {
			return Clock{}, err
		}
		if c.Cap, err = ParseDuration(limit); err != nil {
			return Clock{}, err
		}
		switch {
		case c.Start < MinBank || c.Cap > MaxBank:
			return Clock{}, fmt.Errorf("a Fischer bank is from 1h to 365d; %q is outside", bank)
		case c.Start > c.Cap || c.Increment > c.Cap:
			return Clock{}, fmt.Errorf("in %q the start and the increment must not be more than the cap", bank)
		}
	default:
		return Clock{}, fmt.Errorf("%q is not a kind of clock; %s", kind, want)
	}
	for _, p := range parts[1:] {
		switch name, value, _ := strings.Cut(p, "="); {
		case p == "weekends" && !c.Off.Weekends:
			c.Off.Weekends = true
		case name == "nights" && c.Off.NightFrom == c.Off.NightTo:
			from, to, ok := strings.Cut(value, "-")
			f, err1 := parseClockTime(from)
			t, err2 := parseClockTime(to)
			if !ok || err1 != nil || err2 != nil || f == t {
				return Clock{}, fmt.Errorf("%q is not nightly off-time; write nights=FROM-TO in hours of the day, such as nights=23-07", p)
			}
			if (t-f+24*60)%(24*60) > 16*60 {
				return Clock{}, fmt.Errorf("nights of %q are longer than 16 hours; the clock must run some of each day", value)
			}
			c.Off.NightFrom, c.Off.NightTo = f, t
		default:
			return Clock{}, fmt.Errorf("%q is not off-time (or is said twice); %s", p, want)
		}
	}
	return c, nil
}

// parseClockTime reads "7", "07" or "07:30" as minutes after midnight.
func parseClockTime(s string) (int, error) {
	h, m, hasM := strings.Cut(s, ":")
	hour, err := strconv.Atoi(h)
	if err != nil || len(h) > 2 || hour < 0 || hour > 23 {
		return 0, fmt.Errorf("%q is not an hour", s)
	}
	min := 0
	if hasM {
		if min, err = strconv.Atoi(m); err != nil || len(m) != 2 || min < 0 || min > 59 {
			return 0, fmt.Errorf("%q is not a time of day", s)
		}
	}
	return hour*60 + min, nil
}

// ParseDuration reads days, hours and minutes, as "10d", "1d12h", "90m".
func ParseDuration(s string) (time.Duration, error) {
	bad := fmt.Errorf("%q is not a duration; write days, hours and minutes, such as 10d, 1d12h or 90m", s)
	if s == "" || len(s) > 16 {
		return 0, bad
	}
	var total time.Duration
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i > 4 || i == len(s) {
			return 0, bad
		}
		n, _ := strconv.Atoi(s[:i])
		unit := map[byte]time.Duration{'d': day, 'h': time.Hour, 'm': time.Minute}[s[i]]
		if unit == 0 {
			return 0, bad
		}
		total += time.Duration(n) * unit
		s = s[i+1:]
	}
	return total, nil
}

// FormatDuration writes a duration as ParseDuration reads it, to the
// minute: "10d", "1d12h", "3h20m", "0m".
func FormatDuration(d time.Duration) string {
	d = d.Truncate(time.Minute)
	if d <= 0 {
		return "0m"
	}
	var b strings.Builder
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{day, "d"}, {time.Hour, "h"}, {time.Minute, "m"}} {
		if n := d / u.unit; n > 0 {
			fmt.Fprintf(&b, "%d%s", n, u.name)
			d -= n * u.unit
		}
	}
	return b.String()
}

// String writes the clock as Parse reads it.
func (c Clock) String() string {
	s := "days"
	if c.Kind == Fischer {
		s = fmt.Sprintf("fischer:%s+%s/%s", FormatDuration(c.Start), FormatDuration(c.Increment), FormatDuration(c.Cap))
	}
	if c.Off.Weekends {
		s += ",weekends"
	}
	if c.Off.NightFrom != c.Off.NightTo {
		s += fmt.Sprintf(",nights=%02d:%02d-%02d:%02d", c.Off.NightFrom/60, c.Off.NightFrom%60, c.Off.NightTo/60, c.Off.NightTo%60)
	}
	return s
}

// Describe says the clock in words for a board mail.
func (c Clock) Describe() string {
	s := "days"
	if c.Kind == Fischer {
		s = fmt.Sprintf("Fischer: %s to start, %s more after each move, at most %s",
			FormatDuration(c.Start), FormatDuration(c.Increment), FormatDuration(c.Cap))
	}
	var off []string
	if c.Off.Weekends {
		off = append(off, "weekends")
	}
	if c.Off.NightFrom != c.Off.NightTo {
		off = append(off, fmt.Sprintf("%02d:%02d to %02d:%02d", c.Off.NightFrom/60, c.Off.NightFrom%60, c.Off.NightTo/60, c.Off.NightTo%60))
	}
	if len(off) > 0 {
		s += "; it stops " + strings.Join(off, " and ") + " in the mover's time zone"
	}
	return s
}

// Spend is a Fischer bank after a move that took used of it: the rest
// and the increment, at most the cap. ok is false when used took the
// whole bank: the player ran out of time before he moved.
func (c Clock) Spend(bank, used time.Duration) (after time.Duration, ok bool) {
	if used >= bank {
		return 0, false
	}
	return min(bank-used+c.Increment, c.Cap), true
}
