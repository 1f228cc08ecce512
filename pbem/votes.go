package pbem

import (
	"fmt"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// Votes: a player proposes a draw ("propose", or "draw") or asks to take
// moves back ("undo"); the other player answers with "accept" or "reject",
// all as the move word of "<game> move board userid password WORD". One
// proposal may be open on a board at a time, and every board mail shows it
// until it is answered.
//
// An undo takes back the proposer's last turn and every move played after
// it, so that it is the proposer's turn again: in Ultima, Tanbo and Tobit
// his last move and the opponent's reply, if any; in Taratibu the single
// moves of his last turn and those after. Which moves go is fixed when the
// undo is proposed and named in the board mail, so the answer is to a known
// question. Queued moves are dropped by an accepted undo, being planned for
// a position that no longer comes.
//
// A move played by the player who should answer declines the proposal (he
// played on instead); a move by the proposer leaves it open.

// vote runs the move words propose, draw, undo, accept and reject.
func (c *cmd) vote(args []string, word string) error {
	b, u, err := c.player(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	if b.rec.Over {
		return c.failOn(b, "%s board %d is over; there is nothing to %s", b.game.Title(), b.rec.Board, word)
	}
	if b.open() {
		return c.failOn(b, "%s board %d waits for an opponent; there is nobody to %s with yet", b.game.Title(), b.rec.Board, word)
	}
	seat := b.seatOf(u.ID)
	other := b.rec.Seats[1-seat]
	open := b.rec.Vote
	comment := c.commentBy(u.ID, len(b.rec.Moves))
	switch word {
	case "propose", "draw", "undo":
		if open != nil && open.Seat == seat {
			return c.failOn(b, "You have already proposed %s on %s board %d and %s has not answered yet; wait for the answer",
				voteWhat(open), b.game.Title(), b.rec.Board, other)
		}
		if open != nil {
			return c.failOn(b, "%s has proposed %s on %s board %d; answer that first with accept or reject",
				open.User, voteWhat(open), b.game.Title(), b.rec.Board)
		}
		// His clock stands while his proposal is open and gets the time
		// back when it is rejected: one proposal a turn, or proposing
		// again and again would stop it for good.
		turn := fmt.Sprintf("%d:%d", seat, len(b.rec.Moves))
		if b.pos.ToMove() == seat && b.rec.Extra[proposedKey] == turn {
			return c.failOn(b, "You have proposed once this turn on %s board %d and %s rejected it; make your move, and propose again next turn",
				b.game.Title(), b.rec.Board, other)
		}
		if b.rec.Extra == nil {
			b.rec.Extra = map[string]string{}
		}
		b.rec.Extra[proposedKey] = turn
		// The open proposal shows among the board notices of every mail.
		v := &store.Vote{Kind: "draw", Seat: seat, User: u.ID, At: c.r.now}
		if word == "undo" {
			back := lastTurnStart(b.rec, seat)
			if back < 0 {
				return c.failOn(b, "You have played no move on %s board %d, so there is nothing to take back", b.game.Title(), b.rec.Board)
			}
			if b.rec.Swapped != "" && back < openingMoves(b.rec) {
				return c.failOn(b, "The first move of %s board %d was answered by a swap, so it cannot be taken back", b.game.Title(), b.rec.Board)
			}
			v.Kind, v.Back = "undo", back
		}
		b.rec.Vote = v
		return c.r.saveAndAnnounce(b, comment)
	}
	// accept or reject
	if open == nil {
		return c.failOn(b, "There is no open proposal on %s board %d to %s: no draw or undo has been proposed there",
			b.game.Title(), b.rec.Board, word)
	}
	if open.Seat == seat {
		return c.failOn(b, "The proposal of %s on %s board %d is your own; %s must accept or reject it",
			voteWhat(open), b.game.Title(), b.rec.Board, other)
	}
	if word == "reject" {
		c.r.closeVote(b)
		return c.r.saveAndAnnounce(b, comment, c.r.say("%s rejected %s's proposal of %s.", u.ID, open.User, voteWhat(open)))
	}
	if open.Kind == "draw" {
		return c.r.acceptVote(b, comment, fmt.Sprintf("%s accepted %s's draw proposal.", u.ID, open.User))
	}
	return c.r.acceptVote(b, comment, fmt.Sprintf("%s accepted %s's undo: %s taken back.", u.ID, open.User, movesFrom(b.rec, open.Back)))
}

// proposedKey is the Extra key of the turn (seat:moves) of the last
// proposal made while its player was to move.
const proposedKey = "proposed"

// closeVote takes the open proposal off the board. As on pbmserv, the
// proposer's clock does not run while his proposal waits for an answer:
// when it is his turn, his turn counts from the proposal's answer less the
// time he had used before it, and so does his last reminder.
func (r *request) closeVote(b *board) {
	v := b.rec.Vote
	b.rec.Vote = nil
	if v == nil || b.rec.Over || b.pos.ToMove() != v.Seat {
		return
	}
	open := r.now.Sub(v.At)
	if open <= 0 {
		return
	}
	if since := model.TurnSince(b.rec); since.Before(v.At) || since.Equal(v.At) {
		b.rec.TurnSince = since.Add(open)
	}
	if !b.rec.Nagged.IsZero() && !b.rec.Nagged.After(v.At) {
		b.rec.Nagged = b.rec.Nagged.Add(open)
	}
}

// acceptVote carries out the open proposal, answered yes by its other
// player or by his silence (remindVote), and announces it with notice.
func (r *request) acceptVote(b *board, comment *store.Comment, notice string) error {
	open := b.rec.Vote
	b.rec.Vote = nil
	if open.Kind == "draw" {
		b.end(r.now, rules.Drawn("draw by agreement"))
		return r.saveAndAnnounce(b, comment, notice)
	}
	queued := b.rec.Queue
	if err := r.takeBack(b, open.Back); err != nil {
		return err
	}
	if err := r.saveAndAnnounce(b, comment, notice); err != nil {
		return err
	}
	// Queued moves are private, so each owner alone hears they are gone.
	return r.tellDropped(b, queued, "the undo")
}

// voteWhat names a proposal: "a draw", "an undo".
func voteWhat(v *store.Vote) string {
	if v.Kind == "undo" {
		return "an undo"
	}
	return "a draw"
}

// lastTurnStart is the index of the first move of seat's last turn, or -1
// when seat has not moved.
func lastTurnStart(rec *store.Game, seat int) int {
	i := len(rec.Moves) - 1
	for i >= 0 && rec.Moves[i].Seat != seat {
		i--
	}
	if i < 0 {
		return -1
	}
	for i > 0 && rec.Moves[i-1].Seat == seat {
		i--
	}
	return i
}

// movesFrom names the moves from index back on: "move 3 (h7)", "moves 3 to 4 (h7, b7)".
func movesFrom(rec *store.Game, back int) string {
	var texts []string
	for _, m := range rec.Moves[back:] {
		texts = append(texts, m.Text)
	}
	if len(texts) == 1 {
		return fmt.Sprintf("move %d (%s)", back+1, texts[0])
	}
	return fmt.Sprintf("moves %d to %d (%s)", back+1, len(rec.Moves), strings.Join(texts, ", "))
}

// takeBack removes the moves from index back on and replays the rest.
func (r *request) takeBack(b *board, back int) error {
	pos, err := b.model().Replay(back)
	if err != nil {
		return err
	}
	b.pos = pos
	b.rec.Moves = b.rec.Moves[:back]
	b.keepPosition()
	b.rec.Queue = nil
	b.rec.Updated = r.now
	b.rec.TurnSince = r.now
	b.rec.Nagged = time.Time{}
	return nil
}

// answerByMove closes a proposal the player of seat has just played over:
// his move declines the other's proposal, and ends his own undo, which
// asked to take back a turn he has now played on from (it would take
// back his new move too).
func (r *request) answerByMove(b *board, seat int) []string {
	v := b.rec.Vote
	switch {
	case v == nil, v.Seat == seat && v.Kind != "undo":
		return nil
	case v.Seat == seat:
		b.rec.Vote = nil
		return []string{fmt.Sprintf("%s played on, so his own proposal of an undo lapses.", b.rec.Seats[seat])}
	}
	b.rec.Vote = nil
	return []string{fmt.Sprintf("%s played on, declining %s's proposal of %s.", b.rec.Seats[seat], v.User, voteWhat(v))}
}

// boardNotices are what every mail of a board tells besides its news: the
// open proposal, and players away on vacation.
func (r *request) boardNotices(b *board) []string {
	out := append(tournamentNotice(b.rec), swapNotice(b)...)
	if v := b.rec.Vote; v != nil && !b.rec.Over {
		other := b.rec.Seats[1-v.Seat]
		what := templates.Text{Format: "a draw"}
		if v.Kind == "undo" && v.Back <= len(b.rec.Moves) {
			what = templates.Text{Format: "to take back %s", Args: []any{movesFrom(b.rec, v.Back)}}
		}
		out = append(out, r.say("Open proposal: %s proposes %s; %s answers with \"%s move %d %s PASSWORD accept\" (or reject).",
			v.User, what, other, b.game.Name(), b.rec.Board, other))
	}
	if !b.rec.Over && b.rec.Board != 0 { // board 0 is a preview of a new game
		for _, id := range b.rec.Seats {
			if id == "" {
				continue
			}
			u, err := r.tx.User(id)
			if err != nil {
				continue // a user who has gone is on no vacation
			}
			if v, ok := onVacation(u, r.now); ok {
				out = append(out, r.say("%s is on vacation until %s; the clock does not run for %s meanwhile.",
					id, v.Until.UTC().Format(timeFormat), id))
			}
		}
	}
	return out
}

// remindVote treats a proposal left unanswered as a move left unplayed:
// after the board's nag time the player who must answer is reminded (once
// per nag time), and at its forfeit time his silence counts as accepting
// it, as on pbmserv, and both players are told. His vacation stops this
// clock too. It reports whether the proposal was carried out; when nothing
// was due, it returns when something may be.
func (r *request) remindVote(b *board) (time.Time, bool, error) {
	v := b.rec.Vote
	if v == nil || b.rec.Over {
		return time.Time{}, false, nil
	}
	id := b.rec.Seats[1-v.Seat]
	w, err := r.silence(b, id, v.At)
	if w == nil || err != nil {
		return time.Time{}, false, err
	}
	if !w.back.IsZero() {
		return w.back, false, nil
	}
	waited, nag, forfeit, forfeitDays := w.waited, w.nag, w.forfeit, w.forfeitDays
	switch {
	case waited >= forfeit:
		return time.Time{}, true, r.acceptSilently(b, id, forfeitDays)
	case waited >= nag && (v.Nagged.IsZero() || r.now.Sub(v.Nagged) >= nag):
		v.Nagged = r.now
		if err := r.tx.PutGame(b.rec); err != nil {
			return time.Time{}, false, err
		}
		deadline := r.now.Add(forfeit - waited)
		notice := r.say("Reminder: %s proposed %s on %s board %d %d days ago, and %s has not answered. Without an answer by %s it counts as accepted. Answer with: %s move %d %s PASSWORD accept (or reject).",
			v.User, voteWhat(v), b.game.Title(), b.rec.Board, int(waited/day), id, deadline.UTC().Format(timeFormat), b.game.Name(), b.rec.Board, id)
		return time.Time{}, false, r.nag(b, id, notice)
	}
	return w.wake(r.now, v.Nagged), false, nil
}

// acceptSilently carries out the open proposal that user id let reach the
// forfeit age unanswered: as on pbmserv, silence accepts.
func (r *request) acceptSilently(b *board, id string, forfeitDays int) error {
	v := b.rec.Vote
	then := "the game is drawn"
	if v.Kind == "undo" {
		then = movesFrom(b.rec, v.Back) + " taken back"
	}
	return r.acceptVote(b, nil, fmt.Sprintf("%s did not answer %s's proposal of %s in %d days, and silence accepts it: %s.",
		id, v.User, voteWhat(v), forfeitDays, then))
}
