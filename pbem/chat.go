package pbem

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// <game> chat board userid password: the mail body goes, with the board, to
// every player and subscriber. Players and subscribers may chat; the game
// and its clock are not touched.
func (c *cmd) chat(args []string) error {
	if len(args) != 3 {
		return c.usage(c.game.Name() + " chat board userid password (the message in the body)")
	}
	b, u, err := c.boardUser(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	num := b.rec.Board
	if b.seatOf(u.ID) < 0 && !contains(b.rec.Subscribers, u.ID) {
		return c.failOn(b, "%s neither plays on nor subscribes to %s board %d; subscribe first (%s subscribe %d userid password) to chat there",
			u.ID, b.game.Title(), num, c.game.Name(), num)
	}
	if strings.TrimSpace(c.comment) == "" {
		return c.failOn(b, "A chat carries its message in the mail body, and this body is empty; write the message below the subject")
	}
	return c.r.saveAndAnnounce(b, c.commentBy(u.ID, len(b.rec.Moves)))
}

// message userid password to-userid ...: the mail body goes to each user
// named; the sender gets a receipt.
func (c *cmd) message(args []string) error {
	if len(args) < 3 {
		return c.usage("message userid password to-userid ... (the message in the body)")
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	if strings.TrimSpace(c.comment) == "" {
		return fail("A message is the mail body, and this body is empty; write the message below the subject")
	}
	if err := c.r.checkMessage(args[2:], c.comment); err != nil {
		return err
	}
	var to []*store.User
	for _, id := range args[2:] {
		t, err := c.r.tx.User(id)
		if errNotFound(err) {
			return fail("There is no user %q to send a message to; user ids are what players signed up with", id)
		}
		if err != nil {
			return err
		}
		if !containsUser(to, t.ID) {
			to = append(to, t)
		}
	}
	var names []string
	for _, t := range to {
		body := fmt.Sprintf("%s writes:\n\n%s\n\nTo answer, send a mail with the subject: message %s PASSWORD %s\n",
			u.ID, strings.TrimRight(c.comment, "\n"), t.ID, u.ID)
		if err := c.r.mailUser(t.ID, "pbemd: message from "+u.ID+" **", body, ""); err != nil {
			return err
		}
		names = append(names, t.ID)
	}
	c.r.replyText(c.r.sender(), "pbemd: message sent", fmt.Sprintf("Your message went to %s.\n", strings.Join(names, ", ")))
	return nil
}

// <game> preview board|new [-option ...] move ...: the moves are played on
// a copy of the board, or of a new game, and the result mailed to the
// sender. Nothing is saved. Each word is one submission of the side to move.
func (c *cmd) preview(args []string) error {
	form := c.game.Name() + " preview board|new [-option ...] move ..."
	if len(args) < 2 {
		return c.usage(form)
	}
	var b *board
	var moves []string
	if strings.EqualFold(args[0], "new") {
		var params []string
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "-") && len(moves) == 0 {
				params = append(params, a)
			} else {
				moves = append(moves, a)
			}
		}
		opts, err := rules.ParseOptions(c.game, params)
		if err != nil {
			return c.fail("%s", err.Error())
		}
		pos, err := c.game.Start(opts)
		if err != nil {
			return c.fail("%s", err.Error())
		}
		sides := c.game.Sides()
		rec := &store.Game{Kind: c.game.Name(), Options: opts.Words(), Seats: []string{sides[0], sides[1]},
			Winner: rules.Draw, Created: c.r.now, Updated: c.r.now}
		b = &board{game: c.game, rec: rec, opts: opts, pos: pos}
	} else {
		num, err := c.boardNumber(args[0])
		if err != nil {
			return err
		}
		orig, err := c.r.loadBoard(c.game.Name(), num)
		if err != nil {
			return err
		}
		if orig.rec.Over {
			return c.failOn(orig, "%s board %d is over, so no moves can be tried on it; preview a new game instead: %s preview new MOVE ...", c.game.Title(), num, c.game.Name())
		}
		if orig.open() {
			return c.failOn(orig, "%s board %d waits for an opponent; preview a new game instead: %s preview new MOVE ...", c.game.Title(), num, c.game.Name())
		}
		rec := *orig.rec
		rec.Moves = append([]store.Move(nil), orig.rec.Moves...)
		rec.Vote, rec.Queue, rec.Comments = nil, nil, nil
		b = &board{game: orig.game, rec: &rec, opts: orig.opts, pos: orig.pos.Clone()}
		moves = args[1:]
	}
	if len(moves) == 0 {
		return c.usage(form)
	}
	for i, m := range moves {
		if b.rec.Over {
			return c.fail("The preview game is over after %s, so %s cannot be played", strings.Join(moves[:i], " "), m)
		}
		if _, err := b.play(b.pos.ToMove(), m, c.r.now, false); err != nil {
			return c.fail("%s is not a legal move in the preview after %d of its moves: %s", m, i, moveReason(err, m))
		}
	}
	where := "a new game"
	subject := c.game.Title() + " preview"
	if b.rec.Board != 0 {
		where = fmt.Sprintf("board %d", b.rec.Board)
		subject = fmt.Sprintf("%s Board %d preview", c.game.Title(), b.rec.Board)
	}
	v, err := c.r.boardView(b, nil, fmt.Sprintf("A preview: %s with %s played. Nothing was saved.", where, strings.Join(moves, " ")))
	if err != nil {
		return err
	}
	body, err := renderBoardBody(v)
	if err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), subject, body)
	return nil
}

// all show userid [all|active|inactive|next]: a user's boards in every game.
func (c *cmd) all(args []string) error {
	const form = "all show userid [all|active|inactive|next]"
	if len(args) < 2 || !strings.EqualFold(args[0], "show") {
		return c.usage(form)
	}
	ids, filter := splitFilter(args[1:], "active")
	if len(ids) != 1 {
		return c.usage(form)
	}
	u, err := c.r.tx.User(ids[0])
	if errNotFound(err) {
		return fail("There is no user %q; user ids are what players signed up with", ids[0])
	}
	if err != nil {
		return err
	}
	refs, err := c.r.tx.GamesOf(u.ID)
	if err != nil {
		return err
	}
	var boards []*board
	for _, ref := range refs {
		if _, ok := catalog.Lookup(ref.Kind); !ok {
			continue // a game this server no longer offers
		}
		b, err := c.r.loadBoard(ref.Kind, ref.Board)
		if err != nil {
			return err
		}
		if keep(b.rec, filter, u.ID) {
			boards = append(boards, b)
		}
	}
	const most = 10
	switch {
	case len(boards) == 0:
		return fail("%s has no %s boards in any game; try 'all show %s all'", u.ID, filter, u.ID)
	case len(boards) > most:
		return fail("%s has %d %s boards, more than the %d one mail shows; send 'GAME games %s %s' for a list of each game's",
			u.ID, len(boards), filter, most, u.ID, filter)
	}
	for _, b := range boards {
		if err := c.sendBoard(b); err != nil {
			return err
		}
	}
	return nil
}
