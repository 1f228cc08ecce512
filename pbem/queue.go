package pbem

import (
	"fmt"
	"strings"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

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

// runQueue plays the plans of whoever is to move, turn after turn, until
// the player to move has no plan, or none for the answer he got, or the
// game ends. It returns the notices of what it played; the seats that
// played are marked on the board (b.planned), so that announcing leaves
// them unmailed while their plans hold.
//
// A planned move that cannot be played (illegal now, or queued for
// another move number) is dropped with the plan after it, and the owner
// is told; it is then his turn. An answer the plan does not name ends the
// plan: the owner gets the board, as without one.
func (r *request) runQueue(b *board) ([]string, error) {
	var notices []string
	for !b.rec.Over && !b.open() {
		seat := b.pos.ToMove()
		user := b.rec.Seats[seat]
		pl, err := planOf(b.rec, seat)
		if err != nil {
			// A damaged plan must not stop the board: it is dropped, and
			// its owner plays his turn himself.
			setPlan(b.rec, seat, nil, r.now)
			msg := fmt.Sprintf("Your plan on %s board %d could not be read (%v), so it was dropped. It is your turn: send your move.", b.game.Title(), b.rec.Board, err)
			if err := r.privateBoard(b, user, fmt.Sprintf("%s Board %d queued move dropped", b.game.Title(), b.rec.Board), msg); err != nil {
				return nil, err
			}
			break
		}
		if len(pl) == 0 {
			break
		}
		br, ok := pl.pick(lastTurn(b.rec.Moves, 1-seat))
		if !ok {
			setPlan(b.rec, seat, nil, r.now)
			break
		}
		setPlan(b.rec, seat, br.Next, r.now)
		if br.Play == "resign" {
			b.end(r.now, rules.Win(1-seat, user+" resigned"))
			notices = append(notices, r.say("%s resigned (queued).", user))
			break
		}
		var why string
		since := model.TurnSince(b.rec)
		if br.Number != 0 && br.Number != b.next() {
			why = fmt.Sprintf("it was queued as move #%d, but the move to play was #%d", br.Number, b.next())
		} else if steps, err := b.play(seat, br.Play, r.now, true); err != nil {
			why = moveReason(err, br.Play).String()
		} else {
			if err := r.chargeClock(b, seat, since); err != nil {
				return nil, err
			}
			r.played += len(steps)
			b.planned = append(b.planned, user)
			notices = append(notices, r.say("%s played %s (queued).", user, stepsText(steps)))
			notices = append(notices, r.answerByMove(b, seat)...)
			continue
		}
		if err := r.dropQueue(b, seat, br, why); err != nil {
			return nil, err
		}
		break
	}
	return notices, nil
}

// dropQueue takes the rest of a seat's plan off the board after its move
// br could not be played, and tells the owner.
func (r *request) dropQueue(b *board, seat int, br branch, why string) error {
	user := b.rec.Seats[seat]
	setPlan(b.rec, seat, nil, r.now)
	msg := fmt.Sprintf("Your queued move %s on %s board %d was not played: %s.", moveText(br.Play, br.Number), b.game.Title(), b.rec.Board, why)
	if len(br.Next) > 0 {
		msg += fmt.Sprintf(" The moves you queued after it (%s) were dropped with it.", planShort(br.Next))
	}
	msg += " Your queue is empty now. It is your turn: send your move."
	return r.privateBoard(b, user, fmt.Sprintf("%s Board %d queued move dropped", b.game.Title(), b.rec.Board), msg)
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
	u, err := r.recipient(id)
	if u == nil || err != nil {
		return err // nil: a user who has gone
	}
	return r.mailBoard(b, v, u, subject, body)
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
func queueList(b *board, seat int) (templates.Text, error) {
	pl, err := planOf(b.rec, seat)
	if err != nil {
		return templates.Text{}, err
	}
	if len(pl) == 0 {
		return templates.Text{Format: "Your queue on %s board %d is empty.", Args: []any{b.game.Title(), b.rec.Board}}, nil
	}
	if _, ok := pl.linear(); ok {
		return queuedNotice(b.rec.Seats[seat], strings.Split(planShort(pl), ", ")), nil
	}
	var lines []string
	pl.lines(1, "", false, &lines)
	return templates.Text{Format: "Planned for %s (%d moves); nobody else sees it before it is played:\n%s",
		Args: []any{b.rec.Seats[seat], pl.nodes(), strings.Join(lines, "\n")}}, nil
}

// tellQueue mails the player of seat his queue as it now stands, after
// lead (what just happened, or ""), with the board.
func (r *request) tellQueue(b *board, seat int, what string, lead templates.Text) error {
	list, err := queueList(b, seat)
	if err != nil {
		return err
	}
	notice := r.say("%s", list)
	if lead.Format != "" {
		notice = r.say("%s %s", lead, list)
	}
	return r.privateBoard(b, b.rec.Seats[seat], fmt.Sprintf("%s Board %d %s", b.game.Title(), b.rec.Board, what), notice)
}

// <game> queue board userid password clear: the player's queue is emptied.
func (c *cmd) clearQueue(b *board, seat int) error {
	pl, err := planOf(b.rec, seat)
	if err != nil {
		return err
	}
	n := pl.nodes()
	if n == 0 {
		return c.failOn(b, "Your queue on %s board %d is empty already; there is nothing to clear", b.game.Title(), b.rec.Board)
	}
	setPlan(b.rec, seat, nil, c.r.now)
	if err := c.r.tx.PutGame(b.rec); err != nil {
		return err
	}
	lead := templates.Text{Format: "%d queued moves were taken off.", Args: []any{n}}
	if n == 1 {
		lead = templates.Text{Format: "1 queued move was taken off."}
	}
	return c.r.tellQueue(b, seat, "queue cleared", lead)
}

// withdrawResign answers a second resignation while one waits in the queue,
// as pbmserv did: the second takes the first back.
func (c *cmd) withdrawResign(b *board, seat int) error {
	pl, err := planOf(b.rec, seat)
	if err != nil {
		return err
	}
	setPlan(b.rec, seat, pl.withoutResign(), c.r.now)
	if err := c.r.tx.PutGame(b.rec); err != nil {
		return err
	}
	return c.r.tellQueue(b, seat, "resignation withdrawn",
		templates.Text{Format: "You had a resignation waiting for your turn; a second resign takes it back, so you play on."})
}
