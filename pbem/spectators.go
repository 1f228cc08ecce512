package pbem

import (
	"fmt"

	"github.com/pbemd/pbemd/store"
)

// <game> subscribe all userid password, <game> unsubscribe all userid
// password: the user subscribes to every board of this game made from now
// on (boards already made are subscribed one by one).
func (c *cmd) subscribeAll(args []string, on bool) error {
	u, err := c.r.auth(args[1], args[2])
	if err != nil {
		return err
	}
	kind := c.game.Name()
	has := contains(u.SubscribeKinds, kind)
	var text string
	switch {
	case on && has:
		return c.fail("%s subscribes to every new %s board already; '%s unsubscribe all %s PASSWORD' stops it", u.ID, c.game.Title(), kind, u.ID)
	case !on && !has:
		return c.fail("%s does not subscribe to every new %s board; '%s subscribe all %s PASSWORD' starts it", u.ID, c.game.Title(), kind, u.ID)
	case on && len(c.r.tx.SubscribeAllUsers(kind)) >= c.r.s.limits.Watchers:
		return c.fail("As many users as may be (%d) subscribe to every new %s board already; subscribe to boards one by one: '%s subscribe BOARD %s PASSWORD'",
			c.r.s.limits.Watchers, c.game.Title(), kind, u.ID)
	case on:
		u.SubscribeKinds = append(u.SubscribeKinds, kind)
		text = fmt.Sprintf("%s is subscribed to every new %s board from now on: each gets every mail of it. Boards already in play are subscribed one by one (%s subscribe BOARD %s PASSWORD).\n",
			u.ID, c.game.Title(), kind, u.ID)
	default:
		u.SubscribeKinds = remove(u.SubscribeKinds, kind)
		text = fmt.Sprintf("%s is no longer subscribed to new %s boards. Boards subscribed so far stay so; '%s unsubscribe BOARD %s PASSWORD' ends one.\n",
			u.ID, c.game.Title(), kind, u.ID)
	}
	if err := c.r.tx.PutUser(u); err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("%s: subscribe all for %s", c.game.Title(), u.ID), text)
	return nil
}

// subscribeWatchers subscribes to a new board every user who asked for
// every board of its game, but its players, up to the board's most
// subscribers; it reads the store's index of them, not every user.
func (r *request) subscribeWatchers(rec *store.Game) error {
	for _, id := range r.tx.SubscribeAllUsers(rec.Kind) {
		if len(rec.Subscribers) >= r.s.limits.Watchers {
			break
		}
		if !contains(rec.Seats, id) && !contains(rec.Subscribers, id) {
			rec.Subscribers = append(rec.Subscribers, id)
		}
	}
	return nil
}
