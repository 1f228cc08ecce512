package pbem

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/store"
)

// <game> limit userid password [n|0|reject|accept|all|inf], as pbmserv:
// n is the most active games of this kind others may challenge the user
// into; 0 or reject refuses every challenge (as "<game> reject"); accept,
// all or inf lift the limit and the refusal. Without a value the reply
// tells the setting.
func (c *cmd) limit(args []string) error {
	if len(args) != 2 && len(args) != 3 {
		return c.usage()
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	kind := c.game.Name()
	if len(args) == 3 {
		switch w := strings.ToLower(args[2]); w {
		case "0", "reject":
			u.Refuses = union(u.Refuses, []string{kind})
			delete(u.Limits, kind)
		case "accept", "all", "inf":
			u.Refuses = remove(u.Refuses, kind)
			delete(u.Limits, kind)
		default:
			n, err := strconv.Atoi(w)
			if err != nil || n < 0 || n > maxLimit {
				return c.fail("%q is not a limit; write a number of games from 1 to %d, 0 or reject to refuse every challenge, or accept, all or inf for no limit", args[2], maxLimit)
			}
			u.Refuses = remove(u.Refuses, kind)
			if u.Limits == nil {
				u.Limits = map[string]int{}
			}
			u.Limits[kind] = n
		}
		if err := c.r.tx.PutUser(u); err != nil {
			return err
		}
	}
	active, err := c.r.activeGames(u.ID, kind)
	if err != nil {
		return err
	}
	var text string
	switch {
	case contains(u.Refuses, kind):
		text = fmt.Sprintf("%s refuses every %s challenge by others (limit 0). %s may still challenge others and join open seats.", u.ID, c.game.Title(), u.ID)
	case u.Limits[kind] > 0:
		text = fmt.Sprintf("%s plays at most %s: challenges beyond that are refused.", u.ID, activeGamesText(u.Limits[kind], c.game.Title()))
	default:
		text = fmt.Sprintf("%s has no limit of active %s games.", u.ID, c.game.Title())
	}
	text += fmt.Sprintf(" Active now: %d.\nTo change it, send:\n  %s limit %s PASSWORD n\n(n = 0 or reject: refuse all; accept, all or inf: no limit)\n",
		active, kind, u.ID)
	c.r.replyText(c.r.sender(), fmt.Sprintf("%s: limit of %s", c.game.Title(), u.ID), text)
	return nil
}

// limitText is a user's limit as standings show it: "-" for none, "0" when
// he refuses every challenge.
func limitText(u *store.User, kind string) string {
	switch {
	case contains(u.Refuses, kind):
		return "0"
	case u.Limits[kind] > 0:
		return strconv.Itoa(u.Limits[kind])
	}
	return "-"
}
