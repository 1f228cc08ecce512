package clock

import "time"

// maxDays bounds the days a walk over the calendar takes: a clock that has
// not run out in ten years is taken as one that never does.
const maxDays = 3660

// Running is how long the clock runs from from to to: the time outside
// the off-time (in loc) and outside the spans away. The cost is one step
// per local day between them (ten years at most) times the spans.
func (o OffTime) Running(from, to time.Time, loc *time.Location, away []Span) time.Duration {
	var sum time.Duration
	o.walk(from, loc, away, func(a, b time.Time) bool {
		if !b.Before(to) {
			b = to
		}
		if b.After(a) {
			sum += b.Sub(a)
		}
		return b.Before(to)
	})
	return sum
}

// Reach is when the clock, started at from, has run for d; the zero time
// when it does not within ten years.
func (o OffTime) Reach(from time.Time, d time.Duration, loc *time.Location, away []Span) time.Time {
	if d <= 0 {
		return from
	}
	var at time.Time
	o.walk(from, loc, away, func(a, b time.Time) bool {
		if run := b.Sub(a); run < d {
			d -= run
			return true
		}
		at = a.Add(d)
		return false
	})
	return at
}

// Earliest is a time no later than Reach, whatever the zone and with no
// absence: what an index that knows neither may keep. Off-time takes a
// fixed part of every local day and week, so the clock runs at most so much
// of any stretch of days: a stretch in which it runs for d is at least
// that long, less the partial days at its ends (and weekends' partial
// weeks) and an hour for a change of summer time.
func (o OffTime) Earliest(from time.Time, d time.Duration) time.Time {
	if o == (OffTime{}) || d <= 0 {
		return from.Add(max(d, 0))
	}
	perDay := day
	if o.NightFrom != o.NightTo {
		perDay -= time.Duration((o.NightTo-o.NightFrom+24*60)%(24*60)) * time.Minute
	}
	days := float64(d)/float64(perDay) - 2
	if o.Weekends {
		days = (days - 1) * 7 / 5
	}
	if days <= 0 {
		return from
	}
	return from.Add(time.Duration(days*float64(day)) - 2*time.Hour)
}

// walk calls fn with the times the clock runs after from, in order, as
// [a, b) pieces of local days, until fn returns false or ten years pass.
func (o OffTime) walk(from time.Time, loc *time.Location, away []Span, fn func(a, b time.Time) bool) {
	if loc == nil {
		loc = time.UTC
	}
	t := from.In(loc)
	y, m, d := t.Date()
	for range maxDays {
		start := time.Date(y, m, d, 0, 0, 0, 0, loc)
		end := time.Date(y, m, d+1, 0, 0, 0, 0, loc)
		for _, p := range o.onDay(y, m, d, start, end, loc) {
			if p[0].Before(from) {
				p[0] = from
			}
			if !p[1].After(p[0]) {
				continue
			}
			for _, q := range present(p[0], p[1], away) {
				if !fn(q[0], q[1]) {
					return
				}
			}
		}
		y, m, d = end.Date()
	}
}

// onDay is the running pieces of one local day, from start to end.
func (o OffTime) onDay(y int, m time.Month, d int, start, end time.Time, loc *time.Location) [][2]time.Time {
	if wd := start.Weekday(); o.Weekends && (wd == time.Saturday || wd == time.Sunday) {
		return nil
	}
	if o.NightFrom == o.NightTo {
		return [][2]time.Time{{start, end}}
	}
	at := func(min int) time.Time { return time.Date(y, m, d, min/60, min%60, 0, 0, loc) }
	if o.NightFrom < o.NightTo { // a night within the day: 01:00-07:00
		return [][2]time.Time{{start, at(o.NightFrom)}, {at(o.NightTo), end}}
	}
	return [][2]time.Time{{at(o.NightTo), at(o.NightFrom)}} // through midnight: 23:00-07:00
}

// present cuts the spans away out of [a, b).
func present(a, b time.Time, away []Span) [][2]time.Time {
	out := [][2]time.Time{{a, b}}
	for _, s := range away {
		var next [][2]time.Time
		for _, p := range out {
			if !s.From.Before(p[1]) || !s.Until.After(p[0]) {
				next = append(next, p)
				continue
			}
			if s.From.After(p[0]) {
				next = append(next, [2]time.Time{p[0], s.From})
			}
			if s.Until.Before(p[1]) {
				next = append(next, [2]time.Time{s.Until, p[1]})
			}
		}
		out = next
	}
	return out
}
