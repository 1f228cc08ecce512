package pbem

import (
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// saveAndAnnounce stores the board and mails it to every player and
// subscriber, with the notices on top and the comment, if any, below.
//
// A game that has just ended is rated first, and its final mail also goes
// to the users who asked to be told of its end.
func (r *request) saveAndAnnounce(b *board, comment *store.Comment, notices ...string) error {
	if comment != nil {
		comment.Text = r.mask(comment.Text) // kept and shown to others: no password in it
		b.rec.Comments = append(b.rec.Comments, *comment)
	}
	if r.mail != nil {
		r.outcome.game, r.outcome.board = b.rec.Kind, b.rec.Board // a new board has its number now
	}
	ended := b.rec.Over && !b.rec.Rated
	if ended {
		if err := r.rate(b); err != nil {
			return err
		}
	}
	if err := r.tx.PutGame(b.rec); err != nil {
		return err
	}
	r.cacheAfterCommit(b)
	r.robotAfterCommit(b)
	v, err := r.boardView(b, comment, notices...)
	if err != nil {
		return err
	}
	body, err := renderBoardBody(v)
	if err != nil {
		return err
	}
	subject := r.boardSubject(b, b.fresh && !b.rec.Over, comment != nil)
	audience := b.audience()
	// A board withdrawn before a move was no game: those who asked for
	// the end of games are not told of it.
	if ended && b.rec.Withdrawn == "" {
		more, err := r.notifiers(b)
		if err != nil {
			return err
		}
		audience = union(audience, more)
	}
	// Only a plain move ("bob played b7.", its one notice) waits for a
	// digest: a comment, another notice or an open proposal is news the
	// digest's list of boards would not carry.
	plain := comment == nil && len(notices) <= 1 && b.rec.Vote == nil
	for _, id := range audience {
		if b.quiet(id) {
			continue
		}
		u, err := r.recipient(id)
		if err != nil {
			return err
		}
		if u == nil || plain && r.heldForDigest(b, u) {
			continue // nil: a user who has gone
		}
		if err := r.mailBoard(b, v, u, subject, body); err != nil {
			return err
		}
	}
	if ended {
		// A tournament's game: its result counts there, in this
		// transaction, after the board's own mail.
		return r.tournamentGameEnded(b)
	}
	return nil
}

// cacheAfterCommit remembers the board's position once the transaction has
// committed; a rolled-back change must not be remembered. Until then the
// later mails of the same batch (the same transaction) find it among the
// positions not yet committed, instead of replaying the whole game.
func (r *request) cacheAfterCommit(b *board) {
	rec, pos := b.rec, b.pos.Clone()
	r.uncommitted.Keep(rec, pos)
	r.after = append(r.after, func() { r.s.positions.Keep(rec, pos) })
}

// audience is every user who gets a board's mails: players, then subscribers.
func (b *board) audience() []string {
	var ids []string
	for _, s := range b.rec.Seats {
		if s != "" && !contains(ids, s) {
			ids = append(ids, s)
		}
	}
	for _, s := range b.rec.Subscribers {
		if !contains(ids, s) {
			ids = append(ids, s)
		}
	}
	return ids
}

// mailUser sends one copy of a mail to each address of a user. A user who has
// gone (signed off) gets nothing.
func (r *request) mailUser(id, subject, body, thread string) error {
	addrs, err := r.tx.UserAddresses(id)
	if errNotFound(err) {
		return nil
	}
	r.mailAddresses(addrs, subject, body, thread)
	return err
}

// recipient is the user id to mail, or nil when he has gone (signed off).
func (r *request) recipient(id string) (*store.User, error) {
	u, err := r.tx.User(id)
	if errNotFound(err) {
		return nil, nil
	}
	return u, err
}

// mailAddresses sends one copy of a mail to each of a user's addresses,
// but those paused after their bounces (bounces.go).
func (r *request) mailAddresses(addrs []string, subject, body, thread string) {
	for _, a := range addrs {
		if r.paused(a) {
			continue
		}
		r.parts = append(r.parts, &part{to: a, subject: subject, body: body, auto: r.autoKind(), ref: thread, board: true})
	}
}

// autoKind is the Auto-Submitted value of the request's mails: replies to a
// player's mail are auto-replied, the sweep's reminders and forfeits (which
// answer no mail) auto-generated.
func (r *request) autoKind() string {
	if r.mail == nil {
		return "auto-generated"
	}
	return "auto-replied"
}

// nextCommand ends the mail to the player to move with the exact command
// to send, so that he need not look it up: his password as PASSWORD, the
// move as MOVE, and the move number that guards against a double send.
// Others get nothing.
func (b *board) nextCommand(lang, id string) string {
	if b.rec.Over || b.open() || b.toMove() != id {
		return ""
	}
	return templates.Sprintf(lang, "\nYour move. Send a mail with this subject, your password for PASSWORD\nand your move for MOVE:\n  %s move %d %s PASSWORD MOVE#%d\n",
		b.game.Name(), b.rec.Board, id, b.next())
}
