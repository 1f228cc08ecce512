package clock

import (
	"fmt"
	"math/rand"
	"testing"
	"time"
	_ "time/tzdata" // the zones of the timelines, whatever the machine has
)

// The reference model: the clock minute by minute, as a player would count
// it on a calendar. The code under test walks whole days and spans; the
// two must agree to the minute on random timelines.

type model struct {
	off  OffTime
	loc  *time.Location
	away []Span
}

// runs reports whether the clock runs in the minute that begins at t.
func (m model) runs(t time.Time) bool {
	l := t.In(m.loc)
	if m.off.Weekends && (l.Weekday() == time.Saturday || l.Weekday() == time.Sunday) {
		return false
	}
	if f, to := m.off.NightFrom, m.off.NightTo; f != to {
		min := l.Hour()*60 + l.Minute()
		if f < to && min >= f && min < to || f > to && (min >= f || min < to) {
			return false
		}
	}
	for _, s := range m.away {
		if !t.Before(s.From) && t.Before(s.Until) {
			return false
		}
	}
	return true
}

// running counts the minutes the clock runs from from to to.
func (m model) running(from, to time.Time) time.Duration {
	n := 0
	for t := from; t.Before(to); t = t.Add(time.Minute) {
		if m.runs(t) {
			n++
		}
	}
	return time.Duration(n) * time.Minute
}

// reach is the end of the minute in which the clock, started at from, has
// run for d; zero when not before limit.
func (m model) reach(from time.Time, d time.Duration, limit time.Time) time.Time {
	left := int(d / time.Minute)
	if left == 0 {
		return from
	}
	for t := from; t.Before(limit); t = t.Add(time.Minute) {
		if m.runs(t) {
			if left--; left == 0 {
				return t.Add(time.Minute)
			}
		}
	}
	return time.Time{}
}

var zones = []string{"UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham", "America/Sao_Paulo"}

// randomModel is a player: a zone, off-time and absences around start.
// Nights begin and end at hours summer time never skips or repeats
// (05 to 09, 20 to 23), where a calendar is unambiguous.
func randomModel(rng *rand.Rand, start time.Time) model {
	loc, err := time.LoadLocation(zones[rng.Intn(len(zones))])
	if err != nil {
		panic(err)
	}
	m := model{loc: loc}
	m.off.Weekends = rng.Intn(2) == 0
	if rng.Intn(2) == 0 {
		m.off.NightFrom = (20+rng.Intn(4))*60 + 15*rng.Intn(4)
		m.off.NightTo = (5+rng.Intn(5))*60 + 15*rng.Intn(4)
		if rng.Intn(4) == 0 { // a night that does not wrap: 05:00-09:00
			m.off.NightFrom, m.off.NightTo = 5*60, (6+rng.Intn(4))*60
		}
	}
	at := start
	for range rng.Intn(4) {
		at = at.Add(time.Duration(rng.Intn(10*24*60)) * time.Minute)
		until := at.Add(time.Duration(1+rng.Intn(5*24*60)) * time.Minute)
		m.away = append(m.away, Span{From: at, Until: until})
		at = until
	}
	return m
}

// randomStart is a minute of 2026, often near a change of summer time.
func randomStart(rng *rand.Rand) time.Time {
	near := []time.Time{
		time.Date(2026, 3, 27, 0, 0, 0, 0, time.UTC),  // Europe, spring
		time.Date(2026, 10, 23, 0, 0, 0, 0, time.UTC), // Europe, autumn
		time.Date(2026, 3, 6, 0, 0, 0, 0, time.UTC),   // America, spring
		time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC),   // the south, autumn
		time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC),
	}
	return near[rng.Intn(len(near))].Add(time.Duration(rng.Intn(7*24*60)) * time.Minute)
}

// TestRunningAgainstModel: the time a clock runs between two minutes.
func TestRunningAgainstModel(t *testing.T) {
	for seed := int64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewSource(seed))
		from := randomStart(rng)
		m := randomModel(rng, from.Add(-2*day))
		to := from.Add(time.Duration(rng.Intn(12*24*60)) * time.Minute)
		got := m.off.Running(from, to, m.loc, m.away)
		if want := m.running(from, to); got != want {
			t.Errorf("seed %d: %s from %v to %v, away %v: runs %v, the model %v", seed, describe(m), from, to, m.away, got, want)
		}
	}
}

// TestReachAgainstModel: when a clock has run for a bank, and the index's
// estimate is never later than that.
func TestReachAgainstModel(t *testing.T) {
	for seed := int64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewSource(seed))
		from := randomStart(rng)
		m := randomModel(rng, from)
		d := time.Duration(1+rng.Intn(6*24*60)) * time.Minute
		got := m.off.Reach(from, d, m.loc, m.away)
		if want := m.reach(from, d, from.Add(60*day)); !got.Equal(want) {
			t.Errorf("seed %d: %s, away %v: %v from %v reached at %v, the model %v", seed, describe(m), m.away, d, from, got, want)
		}
		if e := m.off.Earliest(from, d); e.After(got) {
			t.Errorf("seed %d: %s: the index's %v is after the clock's %v", seed, describe(m), e, got)
		}
	}
}

// TestFischerTimelines: two players in their zones move at random times
// on a Fischer clock, with absences; the model spends and fills each bank
// a minute at a time. After every move the banks agree, and when a player
// lets his bank run out, Reach names the minute the model does.
func TestFischerTimelines(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewSource(seed))
		start := randomStart(rng)
		c := Clock{Kind: Fischer, Start: time.Duration(1+rng.Intn(4)) * day, Increment: time.Duration(rng.Intn(13)) * time.Hour}
		c.Cap = c.Start + time.Duration(rng.Intn(3))*day
		players := [2]model{randomModel(rng, start), randomModel(rng, start)}
		players[1].off = players[0].off // the board's off-time, in each player's zone
		banks := [2]time.Duration{c.Start, c.Start}
		modelBanks := banks
		turn := start
		for move := 0; move < 12; move++ {
			seat := move % 2
			p := players[seat]
			c.Off = p.off
			due := c.Off.Reach(turn, banks[seat], p.loc, p.away)
			// The model's clock: the minute its bank empties, or the move.
			at := turn.Add(time.Duration(rng.Intn(int(banks[seat]/time.Minute)*2+60)) * time.Minute)
			out := time.Time{}
			for t0 := turn; t0.Before(at); t0 = t0.Add(time.Minute) {
				if p.runs(t0) {
					modelBanks[seat] -= time.Minute
					if modelBanks[seat] == 0 {
						out = t0.Add(time.Minute)
						break
					}
				}
			}
			used := c.Off.Running(turn, at, p.loc, p.away)
			after, ok := c.Spend(banks[seat], used)
			if !out.IsZero() {
				if ok || !due.Equal(out) {
					t.Errorf("seed %d move %d: the model ran out at %v; the clock says due %v, spend ok %v", seed, move, out, due, ok)
				}
				break
			}
			if !ok || !due.After(at) && used != banks[seat] {
				t.Errorf("seed %d move %d: the model did not run out by %v; the clock says due %v, ok %v", seed, move, at, due, ok)
				break
			}
			modelBanks[seat] = min(modelBanks[seat]+c.Increment, c.Cap)
			if after != modelBanks[seat] {
				t.Errorf("seed %d move %d: bank %v, the model's %v", seed, move, after, modelBanks[seat])
				break
			}
			banks[seat] = after
			turn = at
		}
	}
}

func describe(m model) string {
	return fmt.Sprintf("%s in %s", Clock{Off: m.off}, m.loc)
}
