package pbem

import (
	"fmt"
	"strconv"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// Withdrawal, as on pbmserv: anyone may challenge anyone, so a player who
// has not made a move on a board yet may leave it without a rated loss. A
// resignation, a forfeit for silence, a signoff or "decline" before one's
// own first move withdraws the player: nobody's rating changes and the
// board ends as withdrawn. On a board made with an open seat, the player
// who took that seat gives it back instead, and the board waits for
// another opponent.

// openSeatKey is the Extra key of a board made with an open seat: the seat
// that was open.
const openSeatKey = "openseat"

// hasMoved reports whether the player of seat has played on the board. A
// swap is the second player's first move, and after it both have played.
func (b *board) hasMoved(seat int) bool {
	if b.rec.Swapped != "" {
		return true
	}
	for _, m := range b.rec.Moves {
		if m.Seat == seat {
			return true
		}
	}
	return false
}

// withdraw takes the player of seat off the board before his first move
// and tells everyone why.
func (r *request) withdraw(b *board, seat int, comment *store.Comment, why string) error {
	id := b.rec.Seats[seat]
	if b.rec.Extra[openSeatKey] == strconv.Itoa(seat) && !b.open() {
		// He took an open seat: it is open again.
		setPlan(b.rec, seat, nil, r.now)
		b.rec.Seats[seat] = ""
		b.rec.Vote = nil
		b.rec.Updated = r.now
		notice := fmt.Sprintf("%s %s has decided not to play: the seat is open again, and the game goes on with whoever takes it.", why, id)
		if err := r.saveAndAnnounce(b, comment, notice); err != nil {
			return err
		}
		// He is no player any more, but hears of it too.
		return r.privateBoard(b, id, r.boardSubject(b, false, false), notice)
	}
	b.end(r.now, rules.Drawn(id+" has decided not to play"))
	b.rec.Withdrawn = id
	return r.saveAndAnnounce(b, comment, why)
}

// <game> decline board userid password: leave a board before one's first
// move, unrated.
func (c *cmd) decline(args []string) error {
	if len(args) != 3 {
		return c.usage()
	}
	b, u, err := c.player(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	if b.rec.Over {
		return c.failOn(b, "%s board %d is over already; there is nothing to decline", b.game.Title(), b.rec.Board)
	}
	seat := b.seatOf(u.ID)
	if b.hasMoved(seat) {
		return c.failOn(b, "%s has played on %s board %d already, so it can no longer be declined; to give up, send: %s resign %d %s PASSWORD",
			u.ID, b.game.Title(), b.rec.Board, c.game.Name(), b.rec.Board, u.ID)
	}
	return c.r.withdraw(b, seat, c.commentBy(u.ID, len(b.rec.Moves)), u.ID+" declined the game.")
}
