package pbem

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// The pie rule. On a board made with -swap (an option a game offers when
// its rules allow it, rules.Swap), the second player may answer the first
// player's first turn with "swap" instead of a move: the two exchange
// seats, so he plays the side that has moved, and the first player plays
// the other side from there. The position is not touched; the seats are,
// so the move list, the result and the ratings follow who played which
// side from then on.

// firstTurn is the number of moves of the first player's first turn, or 0
// when the second player has moved or nobody has.
func firstTurn(rec *store.Game) int {
	n := 0
	for _, m := range rec.Moves {
		if m.Seat != 0 {
			return 0
		}
		n++
	}
	return n
}

// openingMoves is the number of moves the first seat played before the
// second seat's first move.
func openingMoves(rec *store.Game) int {
	n := 0
	for n < len(rec.Moves) && rec.Moves[n].Seat == 0 {
		n++
	}
	return n
}

// <game> swap board userid password, pbmserv's form of the move "swap".
func (c *cmd) swapCommand(args []string) error {
	if len(args) != 3 {
		return c.usage()
	}
	return c.swap(args, 0)
}

// swap runs the move word "swap"; want, when not 0, is the number the
// swap must get as a move ("swap#2").
func (c *cmd) swap(args []string, want int) error {
	b, u, err := c.player(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	if err := c.playable(b); err != nil {
		return err
	}
	num := b.rec.Board
	if want != 0 && want != b.next() {
		return c.failOn(b, "swap#%d was not played: the next move on %s board %d is #%d; if you still mean to swap, send it again with #%d",
			want, b.game.Title(), num, b.next(), b.next())
	}
	switch seat := b.seatOf(u.ID); {
	case !b.opts.Has("swap"):
		return c.failOn(b, "%s board %d was not made with -swap, so the sides cannot be swapped; challenge with -swap for the pie rule", b.game.Title(), num)
	case b.rec.Swapped != "":
		return c.failOn(b, "The sides of %s board %d have been swapped already, by %s; a board swaps once", b.game.Title(), num, b.rec.Swapped)
	case seat != 1:
		return c.failOn(b, "Only the second player, %s, may swap on %s board %d, in answer to the first move", b.rec.Seats[1], b.game.Title(), num)
	case firstTurn(b.rec) == 0 || b.pos.ToMove() != 1:
		return c.failOn(b, "A swap answers the first player's first turn; on %s board %d it can be played only as the second player's first move", b.game.Title(), num)
	}
	sides := b.game.Sides()
	first := b.rec.Seats[0]
	b.rec.Seats[0], b.rec.Seats[1] = b.rec.Seats[1], b.rec.Seats[0]
	b.rec.Swapped = u.ID
	// An open proposal was made for the sides as they were: it lapses.
	var lapsed string
	if v := b.rec.Vote; v != nil {
		lapsed = fmt.Sprintf("%s's proposal of %s lapses with the swap.", v.User, voteWhat(v))
	}
	b.rec.Vote = nil
	queued := b.rec.Queue
	b.rec.Queue = nil // planned for the other side
	b.rec.Updated = c.r.now
	b.rec.TurnSince = c.r.now
	b.keepPosition()
	notice := fmt.Sprintf("%s swapped: %s now plays %s, with the first move, and %s plays %s.",
		u.ID, u.ID, sides[0], first, sides[1])
	notices := []string{notice}
	if lapsed != "" {
		notices = append(notices, lapsed)
	}
	if err := c.r.saveAndAnnounce(b, c.commentBy(u.ID, len(b.rec.Moves)), notices...); err != nil {
		return err
	}
	return c.r.tellDropped(b, queued, "the swap")
}

// swapNotice is the line every mail of a swapped board shows.
func swapNotice(b *board) []string {
	if b.rec.Swapped == "" {
		return nil
	}
	return []string{swapLine(b.game, b.rec)}
}

// swapLine tells who swapped on a swapped board, for its mails and its
// record.
func swapLine(g rules.Game, rec *store.Game) string {
	return fmt.Sprintf("Pie rule: %s swapped after the first move and plays %s; the first move was %s's.",
		rec.Swapped, g.Sides()[0], rec.Seats[1])
}

// tellDropped tells each owner of queued moves, privately, that what made
// the board change (an undo, a swap) dropped them.
func (r *request) tellDropped(b *board, queued []store.Queued, what string) error {
	for _, id := range b.rec.Seats {
		var texts []string
		for _, q := range queued {
			if strings.EqualFold(q.User, id) {
				texts = append(texts, queuedText(q))
			}
		}
		if len(texts) == 0 {
			continue
		}
		msg := fmt.Sprintf("%s on %s board %d dropped your queued moves (%s): they were planned for a position that no longer comes. Your queue is empty now; queue them again if you still mean them.",
			strings.ToUpper(what[:1])+what[1:], b.game.Title(), b.rec.Board, strings.Join(texts, ", "))
		if err := r.privateBoard(b, id, fmt.Sprintf("%s Board %d queued moves dropped", b.game.Title(), b.rec.Board), msg); err != nil {
			return err
		}
	}
	return nil
}
