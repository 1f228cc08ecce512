package pbem

import (
	"fmt"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// board is a stored game with its rules and current position, as the mail
// path holds it: the board model of pbem/board, which the web view and the
// robots share, plus what only the mails need. Its methods are the
// model's; it keeps its own fields so that the many handlers that read
// them need not change.
type board struct {
	game rules.Game
	rec  *store.Game
	opts rules.Options
	pos  rules.Position

	fresh bool // a game just created or joined: its mail says "New"

	// planned is the players whose plans played in this request: their
	// board mails wait until an answer leaves the plan (quiet).
	planned []string
}

// model is b as the board model sees it. It shares b's record and
// position, so what its methods change is b's.
func (b *board) model() *model.Board {
	return &model.Board{Game: b.game, Rec: b.rec, Opts: b.opts, Pos: b.pos}
}

// loadBoard reads a board and brings its position up to date by replaying the
// move list, the source of truth (a position text alone would forget what a
// game remembers, such as Tobit's repetitions). Replays are cached.
func (r *request) loadBoard(kind string, num int) (*board, error) {
	return r.readBoard(kind, num, false)
}

// loadShownBoard is loadBoard for a board that is only shown. A position
// not in the caches is read from the text the record keeps of it
// (KeepPosition) rather than replayed: the text draws the same board and
// tells the same side to move, for one parse instead of the rules' check
// of every move, which on a store of many boards, whose positions the
// cache rarely holds, was most of a show's work. What a game remembers
// beyond the text (Tobit's repetitions) matters to the next move only,
// so the position is not cached for one.
func (r *request) loadShownBoard(kind string, num int) (*board, error) {
	return r.readBoard(kind, num, true)
}

func (r *request) readBoard(kind string, num int, shown bool) (*board, error) {
	g, ok := catalog.Lookup(kind)
	if !ok {
		return nil, fmt.Errorf("board %s %d: no such game in this server", kind, num)
	}
	r.outcome.game, r.outcome.board = g.Name(), num
	rec, err := r.tx.Game(g.Name(), num)
	if errNotFound(err) {
		f := fail("There is no %s board %d; send '%s games all' for the boards there are", g.Title(), num, g.Name())
		f.game = g
		return nil, f
	}
	if err != nil {
		return nil, err
	}
	opts, err := rules.ParseOptions(g, rec.Options)
	if err != nil {
		return nil, fmt.Errorf("%s board %d: stored options: %w", g.Name(), num, err)
	}
	b := &board{game: g, rec: rec, opts: opts}
	if b.pos = r.uncommitted.Get(rec); b.pos != nil {
		return b, nil
	}
	if b.pos = r.s.positions.Get(rec); b.pos != nil {
		return b, nil
	}
	if shown && rec.Position != "" {
		if b.pos, err = g.ParsePosition(rec.Position, opts); err == nil {
			return b, nil
		}
		// A text the rules no longer read: the moves still replay.
	}
	if b.pos, err = b.model().Replay(len(rec.Moves)); err != nil {
		return nil, err
	}
	r.s.positions.Put(rec, b.pos)
	return b, nil
}

func (b *board) seatOf(id string) int { return b.model().SeatOf(id) }

func (b *board) toMove() string { return b.model().ToMove() }

func (b *board) next() int { return b.model().Next() }

func (b *board) open() bool { return b.model().Open() }

func (b *board) end(now time.Time, res rules.Result) { b.model().End(now, res) }

func (b *board) keepPosition() { b.model().KeepPosition() }

func (b *board) play(seat int, text string, now time.Time, auto bool) ([]rules.Step, error) {
	return b.model().Play(seat, text, now, auto)
}
