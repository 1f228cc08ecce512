package pbem

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/store"
)

// <game> join board userid password: take the open seat of a board made by
// "<game> challenge alice ?". The game starts at once.
func (c *cmd) join(args []string) error {
	if len(args) != 3 {
		return c.usage(c.game.Name() + " join board userid password")
	}
	if asked, err := c.robotJoin(args); asked {
		return err
	}
	b, u, err := c.boardUser(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	num := b.rec.Board
	if b.rec.Over {
		return c.failOn(b, "%s board %d is over, so its seat cannot be taken; send '%s games open' for the boards waiting for a player",
			b.game.Title(), num, c.game.Name())
	}
	if !b.open() {
		return c.failOn(b, "%s board %d has no open seat, its players are %s; send '%s games open' for the boards waiting for a player",
			b.game.Title(), num, strings.Join(b.rec.Seats, " and "), c.game.Name())
	}
	if b.seatOf(u.ID) >= 0 {
		return c.failOn(b, "%s already holds a seat on %s board %d; the open seat is for another player", u.ID, b.game.Title(), num)
	}
	if err := c.underLimit(u, "challenge another player"); err != nil {
		return err
	}
	for i, s := range b.rec.Seats {
		if s == "" {
			b.rec.Seats[i] = u.ID
			break
		}
	}
	b.rec.TurnSince = c.r.now
	b.rec.Updated = c.r.now
	b.fresh = true
	sides := b.game.Sides()
	notice := fmt.Sprintf("%s joined: %s (%s) against %s (%s). The game begins.",
		u.ID, b.rec.Seats[0], sides[0], b.rec.Seats[1], sides[1])
	return c.r.saveAndAnnounce(b, c.commentBy(u.ID, len(b.rec.Moves)), notice)
}

// underLimit refuses a new game to a user who already plays as many active
// games of this kind as his limit allows; instead is what the refusal
// suggests doing.
func (c *cmd) underLimit(u *store.User, instead string) error {
	limit := u.Limits[c.game.Name()]
	if limit <= 0 {
		return nil
	}
	n, err := c.r.activeGames(u.ID, c.game.Name())
	if err != nil {
		return err
	}
	if n >= limit {
		return c.fail("%s already plays %d active %s games, the limit %s set; wait until one ends, or %s",
			u.ID, n, c.game.Title(), u.ID, instead)
	}
	return nil
}

// activeGames counts the boards of kind where id holds a seat and the game
// is not over, open seat boards included.
func (r *request) activeGames(id, kind string) (int, error) {
	refs, err := r.tx.GamesOf(id)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, ref := range refs {
		if ref.Kind != kind {
			continue
		}
		g, err := r.tx.Game(ref.Kind, ref.Board)
		if err != nil {
			return 0, err
		}
		if !g.Over {
			n++
		}
	}
	return n, nil
}
