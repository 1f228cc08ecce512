package pbem

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// <game> move board userid password move[#n]
func (c *cmd) move(args []string) error {
	if len(args) < 4 {
		return c.usage()
	}
	text := strings.Join(args[3:], " ")
	switch w := strings.ToLower(text); w {
	case "resign":
		return c.resign(args[:3])
	case "propose", "draw", "accept", "reject", "undo":
		return c.vote(args[:3], w)
	case "swap":
		return c.swap(args[:3], 0)
	}
	// "swap#2", as pbmserv's players number it: the swap is that move.
	if w, n, err := splitMoveNumber(text); err == nil && n != 0 && strings.EqualFold(w, "swap") {
		return c.swap(args[:3], n)
	}
	b, u, err := c.player(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	text, want, err := splitMoveNumber(text)
	if err != nil {
		return c.failOn(b, "%s", err)
	}
	if err := c.playable(b); err != nil {
		return err
	}
	seat := b.seatOf(u.ID)
	if b.pos.ToMove() != seat && c.r.replyAs != "" {
		return c.failOn(b, "It is not your turn on %s board %d: it is %s's turn, so your reply %q was not played. To play it when your turn comes, reply to this mail with \"queue %s\" on the first line; or wait for the board mail that says it is your move",
			b.game.Title(), b.rec.Board, b.toMove(), text, text)
	}
	if b.pos.ToMove() != seat {
		return c.failOn(b, "It is not your turn on %s board %d: it is %s's turn; send your move when the board mail says it is yours, or queue it now with \"%s queue %d %s PASSWORD %s\"",
			b.game.Title(), b.rec.Board, b.toMove(), b.game.Name(), b.rec.Board, u.ID, text)
	}
	if want != 0 && want != b.next() {
		return c.failOn(b, "%s#%d was not played: the next move on %s board %d is #%d, not #%d; if you still mean %s, send it again with #%d",
			text, want, b.game.Title(), b.rec.Board, b.next(), want, text, b.next())
	}
	since := model.TurnSince(b.rec)
	steps, err := b.play(seat, text, c.r.now, false)
	c.r.played += len(steps)
	if err != nil {
		return c.failOn(b, "%s is not a legal move on %s board %d: %s", text, b.game.Title(), b.rec.Board, moveReason(err, text))
	}
	if err := c.r.chargeClock(b, seat, since); err != nil {
		return err
	}
	comment := c.commentBy(u.ID, len(b.rec.Moves))
	notices := []string{c.r.say("%s played %s.", u.ID, stepsText(steps))}
	notices = append(notices, c.r.answerByMove(b, seat)...)
	queued, err := c.r.runQueue(b)
	if err != nil {
		return err
	}
	b.planned = slices.DeleteFunc(b.planned, func(id string) bool { return id == u.ID }) // the sender is answered
	return c.r.saveAndAnnounce(b, comment, append(notices, queued...)...)
}

// splitMoveNumber takes "#n" off the end of a move: "e2e5#12" or "e2e5 #12".
func splitMoveNumber(text string) (string, int, error) {
	i := strings.LastIndexByte(text, '#')
	if i < 0 {
		return text, 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(text[i+1:]))
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("%q does not end in a move number; write the move number as #N after the move, e.g. e2-e5#3", text)
	}
	move := strings.TrimSpace(text[:i])
	if move == "" {
		return "", 0, fmt.Errorf("%q has no move before its number; write the move, then #N, e.g. e2-e5#3", text)
	}
	return move, n, nil
}

// moveReason is why a move was refused, without repeating the move when the
// rules quote it whole.
func moveReason(err error, text string) templates.Text {
	var re *rules.Error
	if errors.As(err, &re) && strings.EqualFold(re.Input, text) {
		if re.Format == "" {
			return templates.Text{Format: "%s", Args: []any{re.Msg}}
		}
		return templates.Text{Format: re.Format, Args: re.Args}
	}
	return templates.Text{Format: "%s", Args: []any{err.Error()}}
}

// <game> resign board userid password
func (c *cmd) resign(args []string) error {
	if len(args) != 3 {
		return c.usage()
	}
	b, u, err := c.player(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	if b.rec.Over {
		return c.failOn(b, "%s board %d is already over; there is nothing to resign", b.game.Title(), b.rec.Board)
	}
	seat := b.seatOf(u.ID)
	if b.open() {
		// Nobody has joined: the board is withdrawn, and nobody wins.
		return c.r.withdraw(b, seat, c.commentBy(u.ID, 0), fmt.Sprintf("%s withdrew the open seat board.", u.ID))
	}
	if !b.hasMoved(seat) {
		// Before his first move a player withdraws, unrated, at once.
		return c.r.withdraw(b, seat, c.commentBy(u.ID, len(b.rec.Moves)), fmt.Sprintf("%s resigned before making a move.", u.ID))
	}
	if b.pos.ToMove() != seat {
		// As a move, a resignation waits for its player's turn.
		// It goes after the moves he queued, replacing none.
		return c.queue([]string{args[0], args[1], args[2], "add", "resign"})
	}
	b.end(c.r.now, rules.Win(1-seat, u.ID+" resigned"))
	return c.r.saveAndAnnounce(b, c.commentBy(u.ID, len(b.rec.Moves)), c.r.say("%s resigned.", u.ID))
}

// <game> queue board userid password [add] move[#n]
//
// A queued move is kept until its owner's turn comes and is then played as
// if he had sent it, marked "(Auto)" in the move list. Only its owner sees
// it before that. Queued when it is already his turn (and nothing else is
// queued, and no later #n asks to wait), the move is simply played.
//
// As in pbmserv, a queued move replaces what its owner had queued, so that
// a player who sends a corrected move gets the correction alone; "add"
// puts it after the moves queued already.
func (c *cmd) queue(args []string) error {
	if len(args) < 3 {
		return c.usage()
	}
	b, u, err := c.player(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	if len(args) == 3 && planKeyword(firstWord(c.comment)) != "if" {
		return c.r.tellQueue(b, b.seatOf(u.ID), "queue", templates.Text{})
	}
	if len(args) == 4 && strings.EqualFold(args[3], "clear") {
		return c.clearQueue(b, b.seatOf(u.ID))
	}
	seat := b.seatOf(u.ID)
	words := args[3:]
	add := len(words) > 0 && strings.EqualFold(words[0], "add")
	if add {
		words = words[1:]
	}
	if len(words) == 0 {
		// The plan may be written in the body, one line or many.
		body := strings.TrimSpace(c.comment)
		if len(body) > c.r.s.limits.MessageBytes {
			return c.failOn(b, "A plan is at most %d bytes; this one has %d. Plan fewer answers", c.r.s.limits.MessageBytes, len(body))
		}
		words = append(words, strings.Fields(body)...)
	}
	if len(words) == 0 {
		return c.usage()
	}
	if w := strings.ToLower(strings.Join(words, " ")); notPlannable(w) {
		return c.failOn(b, "%q cannot be queued, only moves and resign can; send it now with \"%s move %d %s PASSWORD %s\"",
			w, c.game.Name(), b.rec.Board, u.ID, w)
	}
	if len(words) == 1 && strings.EqualFold(words[0], "resign") {
		if err := c.playable(b); err != nil {
			return err
		}
		if !b.hasMoved(seat) {
			return c.resign(args[:3]) // a withdrawal, at once
		}
	}
	pl, err := parsePlan(words)
	if err != nil {
		return c.failOn(b, "%s", err)
	}
	if err := c.playable(b); err != nil {
		return err
	}
	mine, err := planOf(b.rec, seat)
	if err != nil {
		return err
	}
	if len(pl) == 1 && pl[0].Play == "resign" && mine.hasResign() {
		return c.withdrawResign(b, seat)
	}
	if first := pl[0]; b.pos.ToMove() == seat && len(mine) == 0 && len(pl) == 1 && first.If == "" && len(first.Next) == 0 &&
		(first.Number == 0 || first.Number == b.next()) {
		return c.move(append(args[:3:3], moveText(first.Play, first.Number)))
	}
	if first := pl[0]; first.Number != 0 && first.Number < b.next() {
		return c.failOn(b, "Move %s#%d cannot be queued: board %d is at move #%d already; queue it with a later number, or without one",
			first.Play, first.Number, b.rec.Board, b.next())
	}
	var lead templates.Text
	if add {
		pl = mine.then(pl)
		if n, d := pl.nodes(), pl.depth(); n > maxPlanNodes || d > maxPlanDepth {
			return c.failOn(b, "Your plan on %s board %d would have %d moves, %d deep; at most %d moves, %d deep, may be queued. Wait until some are played",
				b.game.Title(), b.rec.Board, n, d, maxPlanNodes, maxPlanDepth)
		}
	} else if len(mine) > 0 {
		lead = templates.Text{Format: "This replaces what you had queued (%s); to queue a move after others, send \"%s queue %d %s PASSWORD add MOVE\".",
			Args: []any{planShort(mine), c.game.Name(), b.rec.Board, u.ID}}
	}
	if _, linear := pl.linear(); !linear {
		if err := b.checkPlan(pl, seat); err != nil {
			return c.failOn(b, "Your plan was not queued: %s", err)
		}
	}
	setPlan(b.rec, seat, pl, c.r.now)
	if err := c.r.tx.PutGame(b.rec); err != nil {
		return err
	}
	return c.r.tellQueue(b, seat, "queued", lead)
}

// <game> preview board|new [-option ...] move ...: the moves are played on
// a copy of the board, or of a new game, and the result mailed to the
// sender. Nothing is saved. Each word is one submission of the side to move.
func (c *cmd) preview(args []string) error {
	if len(args) < 2 {
		return c.usage()
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
		return c.usage()
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

// queuedNotice tells a player what he has queued, in the number it is.
func queuedNotice(id string, list []string) templates.Text {
	if len(list) == 1 {
		return templates.Text{Format: "Queued for %s: %s. It is played when your turn comes; nobody else sees it before.", Args: []any{id, list[0]}}
	}
	return templates.Text{Format: "Queued for %s, in this order: %s. They are played one a turn when your turns come; nobody else sees them before.",
		Args: []any{id, strings.Join(list, ", ")}}
}
