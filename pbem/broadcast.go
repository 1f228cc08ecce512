package pbem

import (
	"errors"
	"fmt"
	"strings"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/store"
)

// maxBroadcast bounds the players one broadcast reaches, and so the users
// it reads and the mails it queues; the mails go in copies of
// copiesPerMail recipients, in batches through the outbox.
const maxBroadcast = 10000

// errBroadcastFull stops the walk over the users at maxBroadcast.
var errBroadcastFull = errors.New("broadcast: the most players reached")

// broadcast userid password: an administrator's message, the mail body,
// to every player. Only an administrator named in the configuration, with
// his password, from an address whose domain vouches for the mail: a
// forged From must not draw a mail to every player.
func (c *cmd) broadcast(args []string) error {
	if len(args) != 2 {
		return c.usage()
	}
	c.r.secret(args[1])
	if !contains(c.r.s.cfg.Admins, args[0]) {
		return fail("Only the server's administrators may broadcast, and %s is none; to write to players, send: message USERID PASSWORD TO-USERID ...", args[0])
	}
	if !c.r.authenticated() {
		return fail("A broadcast reaches every player, so it must come from an address whose domain signs its mail (DKIM or DMARC), and nothing vouched for this one; send it from such an address")
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	text := strings.TrimRight(c.comment, "\n")
	switch {
	case strings.TrimSpace(text) == "":
		return fail("A broadcast is the mail body, and this body is empty; write the message below the subject")
	case len(text) > c.r.s.limits.MessageBytes:
		return fail("A broadcast is at most %d bytes; this one has %d. Shorten it", c.r.s.limits.MessageBytes, len(text))
	}
	// One text for all: the outbox stores it once for each 100 players.
	body := fmt.Sprintf("%s writes to every player:\n\n%s\n", u.ID, model.Reflow(text))
	n, more := 0, false
	err = c.r.tx.Users(func(p *store.User) error {
		if isRobot(p) || len(p.Addresses) == 0 {
			return nil
		}
		if n == maxBroadcast {
			more = true
			return errBroadcastFull
		}
		n++
		c.r.mailAddresses(p.Addresses, "pbemd: news from "+u.ID, body, "")
		return nil
	})
	if err != nil && !errors.Is(err, errBroadcastFull) {
		return err
	}
	receipt := fmt.Sprintf("Your broadcast goes to %d players.\n", n)
	if more {
		receipt += fmt.Sprintf("One broadcast reaches at most %d players: the others, after them by user id, got none.\n", maxBroadcast)
	}
	c.r.replyText(c.r.sender(), "pbemd: broadcast sent", receipt)
	return nil
}
