package pbem

import (
	"strings"
)

// <game> seek userid password [-option ...] [--nagtime=D --forfeittime=D]:
// a player asks for a game against anyone: an open seat board (as
// "challenge userid ?"), proved by his password, which anyone takes with
// "<game> accept board userid password" (or join). One open seek a player
// and game at a time, so that one player cannot fill the list of boards
// waiting for a player.
func (c *cmd) seek(args []string) error {
	if len(args) < 2 {
		return c.usage()
	}
	words, params, server := splitOptions(args[2:])
	if len(words) > 0 {
		c.r.secret(args[1])
		return c.fail("%q is no option of a seek; options start with \"-\" (see \"%s help\")", words[0], c.game.Name())
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	kind := c.game.Name()
	if refs := c.r.tx.SeekingBoards(u.ID, kind, 1); len(refs) > 0 {
		b, err := c.r.loadBoard(kind, refs[0].Board)
		if err != nil {
			return err
		}
		return c.failOn(b, "%s seeks a %s game already: board %d waits for a player; one seek a game at a time. \"%s decline %d %s PASSWORD\" withdraws it",
			u.ID, c.game.Title(), refs[0].Board, kind, refs[0].Board, u.ID)
	}
	return c.newBoard([]string{u.ID, "?"}, params, server, u.ID)
}

// <game> seeks [page N]: the boards waiting for a player, as "games open".
func (c *cmd) seeks(args []string) error {
	if len(args) != 0 && (len(args) != 2 || !strings.EqualFold(args[0], "page")) {
		return c.usage()
	}
	return c.games(append([]string{"open"}, args...))
}
