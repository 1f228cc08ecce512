package pbem

import (
	"strings"
	"testing"
)

// TestSetTimezone: a player sets the zone his off-time counts in, by its
// IANA name; anything else is refused and stores nothing; a wrong password
// changes nothing.
func TestSetTimezone(t *testing.T) {
	h := twoPlayers(t)
	says(t, one(t, h.send("alice@example.org", "set timezone alice pw-alice", ""), "alice@example.org").Body,
		"The off-time of alice's clocks is counted in UTC.")
	r := one(t, h.send("alice@example.org", "set timezone alice pw-alice Europe/Berlin", ""), "alice@example.org")
	says(t, r.Body, "The off-time of alice's clocks is now counted in Europe/Berlin (it is Sun 13:00 there).")
	for _, zone := range []string{"Mars/Olympus", "Local", "../../etc/passwd", "/etc/localtime", strings.Repeat("A", 200), "Europe/Berlin extra"} {
		r := errorReply(t, h.send("alice@example.org", "set timezone alice pw-alice "+zone, ""), "alice@example.org",
			`"`+shorten(zone, maxQuotedWord)+`" is not a time zone; write one name of the IANA database, such as Europe/Berlin, America/New_York or UTC.`)
		hasNot(t, r.Body, "pw-alice") // the original is quoted, its password masked
	}
	// A forged mail without alice's password sets nothing.
	errorReply(t, h.deliver(h.forged("alice@example.org", "set timezone alice guessed UTC", "")), "alice@example.org",
		"The password for alice is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset alice' and a code comes to the account's addresses.")
	errorReply(t, h.send("alice@example.org", "set colour alice pw-alice red", ""), "alice@example.org",
		`"colour" is not a setting; the settings are: timezone ("set timezone USERID PASSWORD Europe/Berlin"), mail ("set mail USERID PASSWORD digest 08:00,20:00") and language ("set language USERID PASSWORD de").`)
	if got := h.user("alice").Extra[zoneKey]; got != "Europe/Berlin" {
		t.Errorf("zone stored: %q", got)
	}
}
