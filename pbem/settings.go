package pbem

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/store"
)

// maxLimit is the highest limit of active games a user may set.
const maxLimit = 999

// <game> accept userid password: challenges of this game are welcome again.
func (c *cmd) acceptChallenges(args []string) error { return c.refusal(args, false) }

// <game> reject userid password: every challenge of this game is refused.
func (c *cmd) rejectChallenges(args []string) error { return c.refusal(args, true) }

func (c *cmd) refusal(args []string, refuse bool) error {
	verb := map[bool]string{false: "accept", true: "reject"}[refuse]
	if len(args) != 2 {
		return c.usage(fmt.Sprintf("%s %s userid password (to answer a proposal on a board: %s move board userid password %s)",
			c.game.Name(), verb, c.game.Name(), verb))
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	kind := c.game.Name()
	has := contains(u.Refuses, kind)
	switch {
	case refuse && has:
		return c.fail("%s refuses %s challenges already; send '%s accept %s PASSWORD' to accept them again", u.ID, c.game.Title(), kind, u.ID)
	case !refuse && !has:
		return c.fail("%s accepts %s challenges already; send '%s reject %s PASSWORD' to refuse them", u.ID, c.game.Title(), kind, u.ID)
	}
	var text string
	if refuse {
		u.Refuses = append(u.Refuses, kind)
		text = fmt.Sprintf("%s now refuses every %s challenge by others. Boards in play go on, and %s may still challenge others and join open seats.\nTo accept challenges again, send: %s accept %s PASSWORD\n",
			u.ID, c.game.Title(), u.ID, kind, u.ID)
	} else {
		u.Refuses = remove(u.Refuses, kind)
		text = fmt.Sprintf("%s accepts %s challenges again.\n", u.ID, c.game.Title())
	}
	if err := c.r.tx.PutUser(u); err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("%s: challenges %sed by %s", c.game.Title(), verb, u.ID), text)
	return nil
}

// <game> limit userid password n: at most n active games of this kind; 0
// means no limit.
func (c *cmd) limit(args []string) error {
	if len(args) != 3 {
		return c.usage(c.game.Name() + " limit userid password number")
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(args[2])
	if err != nil || n < 0 || n > maxLimit {
		return c.fail("%q is not a limit; write a number of games from 1 to %d, or 0 for no limit", args[2], maxLimit)
	}
	kind := c.game.Name()
	if u.Limits == nil {
		u.Limits = map[string]int{}
	}
	if n == 0 {
		delete(u.Limits, kind)
	} else {
		u.Limits[kind] = n
	}
	if err := c.r.tx.PutUser(u); err != nil {
		return err
	}
	active, err := c.r.activeGames(u.ID, kind)
	if err != nil {
		return err
	}
	text := fmt.Sprintf("%s has no limit of active %s games. Active now: %d.\n", u.ID, c.game.Title(), active)
	if n > 0 {
		text = fmt.Sprintf("%s plays at most %d active %s games: challenges beyond that are refused. Active now: %d.\n",
			u.ID, n, c.game.Title(), active)
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("%s: limit of %s", c.game.Title(), u.ID), text)
	return nil
}

// <game> notify userid password [off] [board ...]: the final mail of the
// boards named, or without boards of every board of this game, also goes to
// the user. "off" stops it.
func (c *cmd) notify(args []string) error {
	const form = "%s notify userid password [off] [board ...]"
	if len(args) < 2 {
		return c.usage(fmt.Sprintf(form, c.game.Name()))
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	on := true
	words := args[2:]
	if len(words) > 0 && strings.EqualFold(words[0], "off") {
		on, words = false, words[1:]
	}
	kind := c.game.Name()
	var text string
	if len(words) == 0 {
		has := contains(u.NotifyKinds, kind)
		switch {
		case on && has:
			return c.fail("%s is told of the end of every %s game already; '%s notify %s PASSWORD off' stops it", u.ID, c.game.Title(), kind, u.ID)
		case !on && !has:
			return c.fail("%s is not told of the end of every %s game; '%s notify %s PASSWORD' starts it", u.ID, c.game.Title(), kind, u.ID)
		case on:
			u.NotifyKinds = append(u.NotifyKinds, kind)
			text = fmt.Sprintf("%s receives the final mail of every %s game from now on.\n", u.ID, c.game.Title())
		default:
			u.NotifyKinds = remove(u.NotifyKinds, kind)
			text = fmt.Sprintf("%s no longer receives the final mail of every %s game.\n", u.ID, c.game.Title())
		}
		if err := c.r.tx.PutUser(u); err != nil {
			return err
		}
	} else {
		var boards []*board
		for _, w := range words {
			num, err := c.boardNumber(w)
			if err != nil {
				return err
			}
			b, err := c.r.loadBoard(kind, num)
			if err != nil {
				return err
			}
			has := contains(b.rec.Notify, u.ID)
			switch {
			case on && b.seatOf(u.ID) >= 0:
				return c.failOn(b, "%s plays on %s board %d and receives its final mail anyway", u.ID, b.game.Title(), num)
			case on && b.rec.Over:
				return c.failOn(b, "%s board %d is over already; send '%s show %d' for its final board", b.game.Title(), num, kind, num)
			case on && has:
				return c.failOn(b, "%s is told of the end of %s board %d already", u.ID, b.game.Title(), num)
			case !on && !has:
				return c.failOn(b, "%s is not told of the end of %s board %d", u.ID, b.game.Title(), num)
			}
			if on {
				b.rec.Notify = append(b.rec.Notify, u.ID)
			} else {
				b.rec.Notify = remove(b.rec.Notify, u.ID)
			}
			boards = append(boards, b)
		}
		var nums []string
		for _, b := range boards {
			if err := c.r.tx.PutGame(b.rec); err != nil {
				return err
			}
			nums = append(nums, strconv.Itoa(b.rec.Board))
		}
		if on {
			text = fmt.Sprintf("%s receives the final mail of %s board %s when it ends.\n", u.ID, c.game.Title(), strings.Join(nums, ", "))
		} else {
			text = fmt.Sprintf("%s no longer receives the final mail of %s board %s.\n", u.ID, c.game.Title(), strings.Join(nums, ", "))
		}
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("%s: notify for %s", c.game.Title(), u.ID), text)
	return nil
}

// notifiers are the users told of the end of a board beyond its audience:
// those who asked for the board, and those who asked for every board of
// its kind.
func (r *request) notifiers(b *board) ([]string, error) {
	ids := append([]string(nil), b.rec.Notify...)
	err := r.tx.Users(func(u *store.User) error {
		if contains(u.NotifyKinds, b.rec.Kind) {
			ids = append(ids, u.ID)
		}
		return nil
	})
	return ids, err
}

// remove is list without s.
func remove(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if !strings.EqualFold(x, s) {
			out = append(out, x)
		}
	}
	return out
}
