package pbem

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/store"
)

// <game> subscribe all userid password, <game> unsubscribe all userid
// password: the user subscribes to every board of this game, those in
// play (as on pbmserv) and those made from now on; unsubscribing ends
// both.
func (c *cmd) subscribeAll(id, password string, on bool) error {
	u, err := c.r.auth(id, password)
	if err != nil {
		return err
	}
	kind := c.game.Name()
	has := contains(u.SubscribeKinds, kind)
	var text string
	switch {
	case on && has:
		return c.fail("%s subscribes to every %s board already; '%s unsubscribe all %s PASSWORD' stops it", u.ID, c.game.Title(), kind, u.ID)
	case !on && !has:
		return c.fail("%s does not subscribe to every %s board; '%s subscribe all %s PASSWORD' starts it", u.ID, c.game.Title(), kind, u.ID)
	case on && len(c.r.tx.SubscribeAllUsers(kind)) >= c.r.s.limits.Watchers:
		return c.fail("As many users as may be (%d) subscribe to every %s board already; subscribe to boards one by one: '%s subscribe BOARD %s PASSWORD'",
			c.r.s.limits.Watchers, c.game.Title(), kind, u.ID)
	case on:
		u.SubscribeKinds = append(u.SubscribeKinds, kind)
		text = fmt.Sprintf("%s is subscribed to every new %s board from now on: each gets every mail of it.", u.ID, c.game.Title())
	default:
		u.SubscribeKinds = remove(u.SubscribeKinds, kind)
		text = fmt.Sprintf("%s is no longer subscribed to new %s boards.", u.ID, c.game.Title())
	}
	if err := c.r.tx.PutUser(u); err != nil {
		return err
	}
	changed, more, err := c.subscribeInPlay(u, on)
	if err != nil {
		return err
	}
	if on {
		text += fmt.Sprintf(" Of the boards in play, %s.", boardCount(changed, "is subscribed now", "are subscribed now"))
	} else {
		text += fmt.Sprintf(" Of the boards in play, %s.", boardCount(changed, "is unsubscribed now", "are unsubscribed now"))
	}
	if more {
		text += fmt.Sprintf(" One mail changes at most %d boards in play; the others are subscribed one by one ('%s %s BOARD %s PASSWORD').",
			inPlayMost, kind, map[bool]string{true: "subscribe", false: "unsubscribe"}[on], u.ID)
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("%s: subscribe all for %s", c.game.Title(), u.ID), text+"\n")
	return nil
}

// inPlayMost bounds the boards in play that one "subscribe all" reads and
// changes: the first page of them.
const inPlayMost = pageRows

// subscribeInPlay subscribes user u to the boards of the game in play (on),
// or unsubscribes him, up to inPlayMost of them, skipping those he plays on
// or that are full; it returns the numbers of the boards changed and
// whether more boards are in play than it read.
func (c *cmd) subscribeInPlay(u *store.User, on bool) ([]int, bool, error) {
	nums, more := c.r.tx.KindBoards(c.game.Name(), store.RunningBoards, store.Page{Size: inPlayMost})
	var changed []int
	for _, num := range nums {
		b, err := c.r.loadBoard(c.game.Name(), num)
		if err != nil {
			return nil, false, err
		}
		if c.subscribeRefusal(b, u, on) != "" {
			continue
		}
		if err := c.r.setSubscribed(b, u, on); err != nil {
			return nil, false, err
		}
		changed = append(changed, num)
	}
	return changed, more, nil
}

// boardCount says how many boards, and which: "none is", "board 101 is",
// "boards 101 and 102 are".
func boardCount(nums []int, one, many string) string {
	switch len(nums) {
	case 0:
		return "none " + one
	case 1:
		return fmt.Sprintf("board %d %s", nums[0], one)
	}
	words := make([]string, len(nums))
	for i, n := range nums {
		words[i] = strconv.Itoa(n)
	}
	return fmt.Sprintf("boards %s and %s %s", strings.Join(words[:len(words)-1], ", "), words[len(words)-1], many)
}

// <game> subscribe userid password board|userid ..., as pbmserv's players
// write it (and unsubscribe alike): the boards named, and the boards in
// play of the players named, at most maxShown of them in all. A board the
// user plays on, or one he is subscribed to already, is passed over and
// said so.
func (c *cmd) subscribeNamed(args []string, on bool) error {
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	words := args[2:]
	if len(words) == 1 && strings.EqualFold(words[0], "all") {
		return c.subscribeAll(args[0], args[1], on)
	}
	kind := c.game.Name()
	var boards []*board
	seen := map[int]bool{}
	add := func(b *board) error {
		if seen[b.rec.Board] {
			return nil
		}
		if len(boards) == maxShown {
			return c.fail("One mail subscribes to at most %d boards; send the rest in another mail", maxShown)
		}
		seen[b.rec.Board] = true
		boards = append(boards, b)
		return nil
	}
	named := map[string]bool{}
	for _, w := range words {
		if named[strings.ToLower(w)] {
			continue // a word named twice reads its boards once
		}
		named[strings.ToLower(w)] = true
		if isBoardWord(w) {
			b, err := c.boardOf(w)
			if err != nil {
				return err
			}
			if err := add(b); err != nil {
				return err
			}
			continue
		}
		bs, _, err := c.userBoards(w, "active", store.Page{Size: maxShown + 1})
		if err != nil {
			return err
		}
		if len(bs) == 0 {
			return c.fail("%s; name boards instead", noBoards(w, "active", c.game.Title()))
		}
		for _, b := range bs {
			if err := add(b); err != nil {
				return err
			}
		}
	}
	var changed []int
	var passed []string
	for _, b := range boards {
		if why := c.subscribeRefusal(b, u, on); why != "" {
			passed = append(passed, why)
			continue
		}
		if err := c.r.setSubscribed(b, u, on); err != nil {
			return err
		}
		changed = append(changed, b.rec.Board)
	}
	if len(changed) == 0 {
		return c.fail("%s", strings.Join(passed, "; "))
	}
	done := "is subscribed now: it gets every mail of it"
	dones := "are subscribed now: they get every mail of them"
	if !on {
		done, dones = "is unsubscribed now", "are unsubscribed now"
	}
	text := fmt.Sprintf("For %s, %s %s.\n", u.ID, c.game.Title(), boardCount(changed, done, dones))
	for _, why := range passed {
		text += "Passed over: " + why + ".\n"
	}
	text += fmt.Sprintf("\nTo see them:\n  %s show %s\n", kind, strings.Trim(fmt.Sprint(changed), "[]"))
	c.r.replyText(c.r.sender(), fmt.Sprintf("%s: subscribe for %s", c.game.Title(), u.ID), text)
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
