package pbem

import (
	"strconv"
	"time"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// vacationDaysPerYear bounds the vacation days a user may take in one
// calendar year (a vacation counts in the year it starts).
const vacationDaysPerYear = 30

const day = 24 * time.Hour

// vacation userid password days: no reminders or forfeits for that many
// days from now, and the clock of the user's boards stops; 0 ends the
// vacation. A second vacation while away extends the first.
func (c *cmd) vacation(args []string) error {
	if len(args) != 3 {
		return c.usage()
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	days, err := strconv.Atoi(args[2])
	if err != nil || days < 0 || days > vacationDaysPerYear {
		return fail("%q is not a number of vacation days; write 1 to %d, or 0 to end a vacation, e.g. \"vacation %s PASSWORD 7\"",
			args[2], vacationDaysPerYear, u.ID)
	}
	now := c.r.now
	cur := -1
	if _, ok := onVacation(u, now); ok {
		cur = len(u.Vacations) - 1
	}
	if days == 0 {
		if cur < 0 {
			return fail("%s is not on vacation, so there is none to end; to go away, send \"vacation %s PASSWORD DAYS\"", u.ID, u.ID)
		}
		u.Vacations[cur].Until = now
		if err := c.r.tx.PutUser(u); err != nil {
			return err
		}
		c.r.replyText(c.r.sender(), "pbemd: welcome back "+u.ID, templates.Sprintf(c.r.language(),
			"Welcome back, %s: your vacation has ended and the clock of your boards runs again.\n%d of %d vacation days used in %d.\n",
			u.ID, usedDays(u, now.Year(), -1), vacationDaysPerYear, now.Year()))
		return nil
	}
	from := now
	if cur >= 0 {
		from = u.Vacations[cur].From
	}
	until := now.Add(time.Duration(days) * day)
	used := usedDays(u, from.Year(), cur)
	if need := daysIn(from, until); used+need > vacationDaysPerYear {
		return fail("%s has %d vacation days left in %d (%d a year, %d used), and this vacation would take %d; ask for fewer days",
			u.ID, vacationDaysPerYear-used, from.Year(), vacationDaysPerYear, used, need)
	}
	if cur >= 0 {
		u.Vacations[cur].Until = until
	} else {
		u.Vacations = append(u.Vacations, store.Vacation{From: from, Until: until})
	}
	if err := c.r.tx.PutUser(u); err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), "pbemd: vacation of "+u.ID, templates.Sprintf(c.r.language(),
		"%s is on vacation until %s.\n\nMeanwhile there are no reminders and no forfeits, the clock of your\nboards stops, and every board mail says you are away.\n\n%d of %d vacation days used in %d. To end it early, send:\n  vacation %s PASSWORD 0\n",
		u.ID, until.UTC().Format(timeFormat), usedDays(u, from.Year(), -1), vacationDaysPerYear, from.Year(), u.ID))
	return nil
}

// onVacation returns the vacation the user is on at t, if any.
func onVacation(u *store.User, t time.Time) (store.Vacation, bool) {
	for _, v := range u.Vacations {
		if !t.Before(v.From) && t.Before(v.Until) {
			return v, true
		}
	}
	return store.Vacation{}, false
}

// usedDays counts the vacation days of the vacations starting in year,
// leaving out the one at index skip.
func usedDays(u *store.User, year, skip int) int {
	n := 0
	for i, v := range u.Vacations {
		if i != skip && v.From.Year() == year {
			n += daysIn(v.From, v.Until)
		}
	}
	return n
}

// daysIn is the length of a vacation in days, a begun day counting whole.
func daysIn(from, until time.Time) int {
	d := until.Sub(from)
	if d <= 0 {
		return 0
	}
	return int((d + day - 1) / day)
}
