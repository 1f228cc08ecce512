package pbem

import (
	"fmt"
	"strings"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// maxQueued is the most moves one player may have queued on a board.
const maxQueued = 20

// playable refuses moves on a board that is over or still waits for a player.
func (c *cmd) playable(b *board) error {
	if b.rec.Over {
		return c.failOn(b, "%s board %d is over; no more moves can be played on it", b.game.Title(), b.rec.Board)
	}
	if p := b.pending(); len(p) > 0 {
		return c.failOn(b, "%s board %d waits for %s to accept the challenge; no move can be played until then (%s join %d USERID PASSWORD)",
			b.game.Title(), b.rec.Board, strings.Join(p, " and "), b.game.Name(), b.rec.Board)
	}
	if b.open() {
		return c.failOn(b, "%s board %d waits for an opponent; no move can be played until someone takes the open seat (%s join %d userid password)",
			b.game.Title(), b.rec.Board, b.game.Name(), b.rec.Board)
	}
	return nil
}

// queuedOf is the queue of one seat, in order.
func queuedOf(rec *store.Game, seat int) []store.Queued {
	var out []store.Queued
	for _, q := range rec.Queue {
		if q.Seat == seat {
			out = append(out, q)
		}
	}
	return out
}

func queuedText(q store.Queued) string {
	if q.Number != 0 {
		return fmt.Sprintf("%s#%d", q.Text, q.Number)
	}
	return q.Text
}

// runQueue plays the queued moves of whoever is to move, turn after turn,
// until the player to move has none queued or the game ends. It returns the
// notices of what it played.
//
// A queued move that cannot be played (illegal now, or queued for another
// move number) is dropped with the moves its owner queued after it, which
// were planned to follow it, and the owner is told; it is then his turn.
func (r *request) runQueue(b *board) ([]string, error) {
	var notices []string
	for !b.rec.Over && !b.open() {
		seat := b.pos.ToMove()
		k := -1
		for i, q := range b.rec.Queue {
			if q.Seat == seat {
				k = i
				break
			}
		}
		if k < 0 {
			break
		}
		q := b.rec.Queue[k]
		b.rec.Queue = append(b.rec.Queue[:k:k], b.rec.Queue[k+1:]...)
		if q.Text == "resign" {
			b.end(r.now, rules.Win(1-seat, q.User+" resigned"))
			notices = append(notices, fmt.Sprintf("%s resigned (queued).", q.User))
			break
		}
		var why string
		since := model.TurnSince(b.rec)
		if q.Number != 0 && q.Number != b.next() {
			why = fmt.Sprintf("it was queued as move #%d, but the move to play was #%d", q.Number, b.next())
		} else if steps, err := b.play(seat, q.Text, r.now, true); err != nil {
			why = moveReason(err, q.Text)
		} else {
			if err := r.chargeClock(b, seat, since); err != nil {
				return nil, err
			}
			r.played += len(steps)
			notices = append(notices, fmt.Sprintf("%s played %s (queued).", q.User, stepsText(steps)))
			notices = append(notices, r.answerByMove(b, seat)...)
			continue
		}
		if err := r.dropQueue(b, q, why); err != nil {
			return nil, err
		}
		break
	}
	return notices, nil
}

// dropQueue takes the rest of a seat's queue off the board after its move q
// could not be played, and tells the owner.
func (r *request) dropQueue(b *board, q store.Queued, why string) error {
	var rest []string
	var keep []store.Queued
	for _, o := range b.rec.Queue {
		if o.Seat == q.Seat {
			rest = append(rest, queuedText(o))
		} else {
			keep = append(keep, o)
		}
	}
	b.rec.Queue = keep
	msg := fmt.Sprintf("Your queued move %s on %s board %d was not played: %s.", queuedText(q), b.game.Title(), b.rec.Board, why)
	if len(rest) > 0 {
		msg += fmt.Sprintf(" The moves you queued after it (%s) were dropped with it.", strings.Join(rest, ", "))
	}
	msg += " Your queue is empty now. It is your turn: send your move."
	return r.privateBoard(b, q.User, fmt.Sprintf("%s Board %d queued move dropped", b.game.Title(), b.rec.Board), msg)
}

// privateBoard mails the board with a notice to one user only.
func (r *request) privateBoard(b *board, id, subject, notice string) error {
	v, err := r.boardView(b, nil, notice)
	if err != nil {
		return err
	}
	body, err := renderBoardBody(v)
	if err != nil {
		return err
	}
	return r.mailBoard(b, v, id, subject, body)
}

// stepsText is the moves of one submission as notices print them.
func stepsText(steps []rules.Step) string {
	played := make([]string, len(steps))
	for i, s := range steps {
		played[i] = s.String()
	}
	return strings.Join(played, ", ")
}

// queueList says what seat has queued on a board, as every reply about the
// queue tells it.
func queueList(b *board, seat int) string {
	var list []string
	for _, q := range queuedOf(b.rec, seat) {
		list = append(list, queuedText(q))
	}
	if len(list) == 0 {
		return fmt.Sprintf("Your queue on %s board %d is empty.", b.game.Title(), b.rec.Board)
	}
	return queuedNotice(b.rec.Seats[seat], list)
}

// tellQueue mails the player of seat his queue as it now stands, after
// lead (what just happened, or ""), with the board.
func (r *request) tellQueue(b *board, seat int, what, lead string) error {
	notice := queueList(b, seat)
	if lead != "" {
		notice = lead + " " + notice
	}
	return r.privateBoard(b, b.rec.Seats[seat], fmt.Sprintf("%s Board %d %s", b.game.Title(), b.rec.Board, what), notice)
}

// <game> queue board userid password clear: the player's queue is emptied.
func (c *cmd) clearQueue(b *board, seat int) error {
	n := len(queuedOf(b.rec, seat))
	if n == 0 {
		return c.failOn(b, "Your queue on %s board %d is empty already; there is nothing to clear", b.game.Title(), b.rec.Board)
	}
	c.r.dropSeatQueue(b, seat)
	if err := c.r.tx.PutGame(b.rec); err != nil {
		return err
	}
	return c.r.tellQueue(b, seat, "queue cleared", map[bool]string{true: "1 queued move was taken off.", false: fmt.Sprintf("%d queued moves were taken off.", n)}[n == 1])
}

// dropSeatQueue takes every queued move of seat off the board.
func (r *request) dropSeatQueue(b *board, seat int) {
	keep := b.rec.Queue[:0:0]
	for _, q := range b.rec.Queue {
		if q.Seat != seat {
			keep = append(keep, q)
		}
	}
	b.rec.Queue = keep
}

// pendingResign reports whether a queue holds a resignation.
func pendingResign(queue []store.Queued) bool {
	for _, q := range queue {
		if q.Text == "resign" {
			return true
		}
	}
	return false
}

// withdrawResign answers a second resignation while one waits in the queue,
// as pbmserv did: the second takes the first back.
func (c *cmd) withdrawResign(b *board, seat int) error {
	keep := b.rec.Queue[:0:0]
	for _, q := range b.rec.Queue {
		if q.Seat != seat || q.Text != "resign" {
			keep = append(keep, q)
		}
	}
	b.rec.Queue = keep
	if err := c.r.tx.PutGame(b.rec); err != nil {
		return err
	}
	return c.r.tellQueue(b, seat, "resignation withdrawn",
		"You had a resignation waiting for your turn; a second resign takes it back, so you play on.")
}
