package pbem

// <game> rematch board userid password: after a finished game, a player
// challenges the other again, with the same options and times and the
// sides swapped. The password proves the player who asks; the other is
// invited, not seated, unless the mail is authenticated (docs/trust.md),
// as for any challenge.
func (c *cmd) rematch(args []string) error {
	if len(args) != 3 {
		return c.usage()
	}
	b, u, err := c.player(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	num := b.rec.Board
	switch {
	case !b.rec.Over:
		return c.failOn(b, "%s board %d is still in play; a rematch follows a finished game, so finish this one first, or challenge anew with \"%s challenge %s USERID\"",
			b.game.Title(), num, c.game.Name(), u.ID)
	case len(b.rec.Seats) != 2 || contains(b.rec.Seats, ""):
		return c.failOn(b, "%s board %d had no two players to play again; challenge anew with \"%s challenge %s USERID\"",
			b.game.Title(), num, c.game.Name(), u.ID)
	}
	var server []string
	for _, name := range []string{"nagtime", "forfeittime"} {
		if v := b.rec.Extra[name]; v != "" {
			server = append(server, "--"+name+"="+v)
		}
	}
	return c.newBoard([]string{b.rec.Seats[1], b.rec.Seats[0]}, b.rec.Options, server, u.ID)
}
