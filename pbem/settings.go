package pbem

import (
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // every zone a player may name, whatever the host has
)

// set SETTING userid password [value]: an account's settings, one entry
// of settings each, so that a new setting is a row here and a form in the
// command table.
var settings = map[string]func(c *cmd, u userSetting) error{
	"timezone": (*cmd).setTimezone,
	"mail":     (*cmd).setMail,
	"language": (*cmd).setLanguage,
}

// A userSetting is what set hands a setting: the account, proved, and the
// words after its password.
type userSetting struct {
	id     string
	values []string
}

func (c *cmd) set(args []string) error {
	if len(args) < 3 {
		return c.usage()
	}
	fn, ok := settings[strings.ToLower(args[0])]
	if !ok {
		return fail("%q is not a setting; the settings are: timezone (\"set timezone USERID PASSWORD Europe/Berlin\"), mail (\"set mail USERID PASSWORD digest 08:00,20:00\") and language (\"set language USERID PASSWORD de\")", args[0])
	}
	u, err := c.r.auth(args[1], args[2])
	if err != nil {
		return err
	}
	return fn(c, userSetting{id: u.ID, values: args[3:]})
}

// maxZoneName bounds a zone's name: the longest of the IANA database is 32
// characters (America/Argentina/ComodRivadavia).
const maxZoneName = 40

// setTimezone sets the zone of the account's off-time, or tells it.
func (c *cmd) setTimezone(s userSetting) error {
	u, err := c.r.tx.User(s.id)
	if err != nil {
		return err
	}
	if len(s.values) == 0 {
		c.r.replyText(c.r.sender(), "pbemd: time zone of "+u.ID, fmt.Sprintf(
			"The off-time of %s's clocks is counted in %s.\nTo change it, send: set timezone %s PASSWORD ZONE (such as Europe/Berlin)\n",
			u.ID, userZone(u), u.ID))
		return nil
	}
	name := s.values[0]
	loc, err := loadZone(name)
	if len(s.values) > 1 || err != nil {
		return fail("%q is not a time zone; write one name of the IANA database, such as Europe/Berlin, America/New_York or UTC", strings.Join(s.values, " "))
	}
	if u.Extra == nil {
		u.Extra = map[string]string{}
	}
	u.Extra[zoneKey] = loc.String()
	// Digest times are of his zone: the next one moves with it.
	if err := scheduleDigest(c.r.tx, u, c.r.now); err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), "pbemd: time zone of "+u.ID, fmt.Sprintf(
		"The off-time of %s's clocks is now counted in %s (it is %s there).\n",
		u.ID, loc, c.r.now.In(loc).Format("Mon 15:04")))
	return nil
}

// loadZone is an IANA zone by name; not "Local" (the server's own zone,
// which players cannot know) and not a path.
func loadZone(name string) (*time.Location, error) {
	if name == "" || len(name) > maxZoneName || strings.EqualFold(name, "local") ||
		strings.Contains(name, "..") || strings.HasPrefix(name, "/") {
		return nil, fmt.Errorf("not a zone")
	}
	return time.LoadLocation(name)
}
