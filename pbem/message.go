package pbem

import (
	"strings"

	"github.com/pbemd/pbemd/store"
)

// checkMessage bounds what one message command relays: to how many users
// and how much text. The relayed copies go through mailUser, so only to
// confirmed addresses.
func (r *request) checkMessage(to []string, text string) error {
	lim := r.s.limits
	n := 0
	var seen []string
	for _, id := range to {
		if !contains(seen, id) {
			seen = append(seen, id)
			n++
		}
	}
	if n > lim.Recipients {
		return fail("A message goes to at most %d users; this one names %d. Send it to fewer users", lim.Recipients, n)
	}
	if size := len(strings.TrimRight(text, "\n")); size > lim.MessageBytes {
		return fail("A message is at most %d bytes; this one has %d. Shorten it, or send it in parts", lim.MessageBytes, size)
	}
	return nil
}

func containsUser(users []*store.User, id string) bool {
	for _, u := range users {
		if u.ID == id {
			return true
		}
	}
	return false
}
