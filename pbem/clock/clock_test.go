package clock

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	good := []struct {
		in, out string
		c       Clock
	}{
		{"days", "days", Clock{}},
		{"fischer:10d+1d/20d", "fischer:10d+1d/20d", Clock{Kind: Fischer, Start: 10 * day, Increment: day, Cap: 20 * day}},
		{"Fischer:1d12h+90m/3d,weekends,nights=23-07", "fischer:1d12h+1h30m/3d,weekends,nights=23:00-07:00",
			Clock{Kind: Fischer, Start: 36 * time.Hour, Increment: 90 * time.Minute, Cap: 3 * day, Off: OffTime{Weekends: true, NightFrom: 23 * 60, NightTo: 7 * 60}}},
		{"days,nights=01:30-06", "days,nights=01:30-06:00", Clock{Off: OffTime{NightFrom: 90, NightTo: 360}}},
	}
	for _, g := range good {
		c, err := Parse(g.in)
		if err != nil || c != g.c || c.String() != g.out {
			t.Errorf("Parse(%q) = %+v %q, %v; want %+v %q", g.in, c, c.String(), err, g.c, g.out)
		}
		if again, err := Parse(c.String()); err != nil || again != c {
			t.Errorf("Parse(%q) again = %+v, %v", c.String(), again, err)
		}
	}
	bad := map[string]string{
		"":                                `"" is not a kind of clock`,
		"blitz":                           `"blitz" is not a kind of clock`,
		"days:5d":                         "a days clock takes no bank",
		"fischer:10d":                     `"10d" is not a Fischer bank`,
		"fischer:10d+1d/5d":               "the start and the increment must not be more than the cap",
		"fischer:30m+1d/2d":               "a Fischer bank is from 1h to 365d",
		"fischer:10d+1d/99999d":           `"99999d" is not a duration`,
		"fischer:10d+1d/400d":             "a Fischer bank is from 1h to 365d",
		"fischer:10x+1d/20d":              `"10x" is not a duration`,
		"fischer:-1d+1d/20d":              `"-1d" is not a duration`,
		"days,nights=22-22":               `"nights=22-22" is not nightly off-time`,
		"days,nights=25-07":               `"nights=25-07" is not nightly off-time`,
		"days,nights=08-07":               "longer than 16 hours",
		"days,weekends,weekends":          `"weekends" is not off-time (or is said twice)`,
		"days," + strings.Repeat("x", 80): "a clock is at most 64 characters",
	}
	for in, want := range bad {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %v, want %q", in, err, want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0m", -time.Hour: "0m", 59 * time.Second: "0m",
		10 * day: "10d", 36*time.Hour + 5*time.Minute: "1d12h5m", 200 * time.Minute: "3h20m"} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestSpend: a move that used the whole bank came too late.
func TestSpend(t *testing.T) {
	c := Clock{Kind: Fischer, Start: 10 * day, Increment: day, Cap: 12 * day}
	for _, s := range []struct {
		bank, used, after time.Duration
		ok                bool
	}{
		{10 * day, 2 * day, 9 * day, true},
		{12 * day, time.Hour, 12 * day, true}, // capped
		{10 * day, 10 * day, 0, false},
		{10 * day, 11 * day, 0, false},
	} {
		if after, ok := c.Spend(s.bank, s.used); after != s.after || ok != s.ok {
			t.Errorf("Spend(%v, %v) = %v, %v; want %v, %v", s.bank, s.used, after, ok, s.after, s.ok)
		}
	}
}
