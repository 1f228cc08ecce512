// Package board is the one board model of pbemd: a stored game with its
// rules and position, its seats and turn, its clock (the days before a
// reminder and a forfeit), its replay from the move list, a cache of
// replayed positions, and the move list and rating lines as the board
// mails and the web view show them. The mail service (pbem), the web view
// (pbem/web) and the robots (through pbem) all read boards through it, so
// that no view keeps a copy of a rule of its own.
//
// It imports rules and store, never pbem.
package board

import (
	"fmt"
	"strings"
	"time"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// A Board is a stored game with its rules and current position. Its
// methods change the record and the position in place.
type Board struct {
	Game rules.Game
	Rec  *store.Game
	Opts rules.Options
	Pos  rules.Position
}

// PendingKey is the Extra key of a board's pending seats: the user ids,
// separated by spaces, of the players a challenge invited who have not
// accepted yet.
const PendingKey = "pending"

// Invited returns the players of a board made by an invitation who have
// not accepted it yet; none once the game has begun.
func Invited(rec *store.Game) []string { return InvitedIn(rec.Extra) }

// SeatOf is the seat user id holds, or -1.
func (b *Board) SeatOf(id string) int {
	for i, s := range b.Rec.Seats {
		if s != "" && strings.EqualFold(s, id) {
			return i
		}
	}
	return -1
}

// ToMove is the user id whose turn it is.
func (b *Board) ToMove() string { return b.Rec.Seats[b.Pos.ToMove()] }

// Next is the number the next move will get.
func (b *Board) Next() int { return len(b.Rec.Moves) + 1 }

// Open reports whether the board still waits for a player to take a seat,
// or for an invited player to accept.
func (b *Board) Open() bool { return OpenIn(b.Rec.Seats, b.Rec.Extra) }

// End records the end of the game. Open proposals and queued moves end
// with it.
func (b *Board) End(now time.Time, res rules.Result) {
	b.Rec.Over = true
	b.Rec.Winner = res.Winner
	b.Rec.EndReason = res.Reason
	b.Rec.Updated = now
	b.Rec.Vote = nil
	b.Rec.Queue = nil
}

// KeepPosition writes the position and the seat to move into the record,
// where lists read them without a replay.
func (b *Board) KeepPosition() {
	b.Rec.Position = b.Pos.String()
	b.Rec.ToMove = b.Pos.ToMove()
}

// Play applies a submission of seat and records its moves.
func (b *Board) Play(seat int, text string, now time.Time, auto bool) ([]rules.Step, error) {
	steps, err := b.Pos.Play(text)
	if err != nil {
		return nil, err
	}
	for _, st := range steps {
		b.Rec.Moves = append(b.Rec.Moves, store.Move{Seat: seat, Text: st.Move, Captured: st.Captured, At: now, Auto: auto})
	}
	b.KeepPosition()
	b.Rec.Updated = now
	b.Rec.TurnSince = now
	if res := b.Pos.Result(); res.Over {
		b.End(now, res)
	}
	return steps, nil
}

// Replay plays the first n moves of the board's record from its start:
// the move list is the source of truth (a position text alone would forget
// what a game remembers, such as Tobit's repetitions).
func (b *Board) Replay(n int) (rules.Position, error) {
	g, rec := b.Game, b.Rec
	var pos rules.Position
	var err error
	if rec.StartPos != "" {
		pos, err = g.ParsePosition(rec.StartPos, b.Opts)
	} else {
		pos, err = g.Start(b.Opts)
	}
	if err != nil {
		return nil, fmt.Errorf("%s board %d: start position: %w", g.Name(), rec.Board, err)
	}
	for i, m := range rec.Moves[:n] {
		if _, err := pos.Play(m.Text); err != nil {
			return nil, fmt.Errorf("%s board %d: stored move %d %q does not replay: %w", g.Name(), rec.Board, i+1, m.Text, err)
		}
	}
	return pos, nil
}

// Of is the board of rec without a position: its game and options.
func Of(rec *store.Game) (*Board, error) {
	g, ok := catalog.Lookup(rec.Kind)
	if !ok {
		return nil, fmt.Errorf("board %s %d: no such game in this server", rec.Kind, rec.Board)
	}
	opts, err := rules.ParseOptions(g, rec.Options)
	if err != nil {
		return nil, fmt.Errorf("%s board %d: stored options: %w", g.Name(), rec.Board, err)
	}
	return &Board{Game: g, Rec: rec, Opts: opts}, nil
}

// Replay returns the game of rec and its position after the first n moves,
// played from the board's start with its options, as "show board#n" does.
func Replay(rec *store.Game, n int) (rules.Game, rules.Position, error) {
	b, err := Of(rec)
	if err != nil {
		return nil, nil, err
	}
	if n < 0 || n > len(rec.Moves) {
		return nil, nil, fmt.Errorf("%s board %d has moves 0 to %d, not %d", rec.Kind, rec.Board, len(rec.Moves), n)
	}
	pos, err := b.Replay(n)
	return b.Game, pos, err
}

// Current returns the game of rec and its position after all its moves,
// read from the position the record keeps rather than replayed, which is
// what a view needs: the drawing, the side to move and the position text
// (a replay would add only what the rules remember beyond the position,
// such as Tobit's repetitions, which the record's result already tells).
// A record without a readable position is replayed.
func Current(rec *store.Game) (rules.Game, rules.Position, error) {
	b, err := Of(rec)
	if err != nil || rec.Position == "" {
		return Replay(rec, len(rec.Moves))
	}
	pos, err := b.Game.ParsePosition(rec.Position, b.Opts)
	if err != nil {
		return Replay(rec, len(rec.Moves))
	}
	return b.Game, pos, nil
}

// Name is how a seat's user id is shown: "?" for a seat nobody holds yet.
func Name(id string) string {
	if id == "" {
		return "?"
	}
	return id
}

// SeatName is the user id of the seat of rec, "?" when nobody holds it.
func SeatName(rec *store.Game, seat int) string { return NameAt(rec.Seats, seat) }
