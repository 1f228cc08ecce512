package pbem

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// board is a stored game with its rules and current position.
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

// loadBoard reads a board and brings its position up to date by replaying the
// move list, the source of truth (a position text alone would forget what a
// game remembers, such as Tobit's repetitions). Replays are cached.
func (r *request) loadBoard(kind string, num int) (*board, error) {
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
	if b.pos = r.uncommitted.get(rec); b.pos != nil {
		return b, nil
	}
	if b.pos = r.s.positions.get(rec); b.pos != nil {
		return b, nil
	}
	if b.pos, err = replay(g, rec, opts, len(rec.Moves)); err != nil {
		return nil, err
	}
	r.s.positions.put(rec, b.pos)
	return b, nil
}

// replay plays the first n moves of rec from its start.
func replay(g rules.Game, rec *store.Game, opts rules.Options, n int) (rules.Position, error) {
	var pos rules.Position
	var err error
	if rec.StartPos != "" {
		pos, err = g.ParsePosition(rec.StartPos, opts)
	} else {
		pos, err = g.Start(opts)
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

// seatOf is the seat user id holds, or -1.
func (b *board) seatOf(id string) int {
	for i, s := range b.rec.Seats {
		if s != "" && strings.EqualFold(s, id) {
			return i
		}
	}
	return -1
}

// toMove is the user id whose turn it is.
func (b *board) toMove() string { return b.rec.Seats[b.pos.ToMove()] }

// next is the number the next move will get.
func (b *board) next() int { return len(b.rec.Moves) + 1 }

// open reports whether the board still waits for a player to take a seat,
// or for an invited player to accept (invitations.go).
func (b *board) open() bool {
	if b.rec.Extra[pendingKey] != "" {
		return true
	}
	for _, s := range b.rec.Seats {
		if s == "" {
			return true
		}
	}
	return false
}

// end records the end of the game. Open proposals and queued moves end
// with it.
func (b *board) end(now time.Time, res rules.Result) {
	b.rec.Over = true
	b.rec.Winner = res.Winner
	b.rec.EndReason = res.Reason
	b.rec.Updated = now
	b.rec.Vote = nil
	b.rec.Queue = nil
}

// keepPosition writes the position and the seat to move into the record,
// where lists read them without a replay.
func (b *board) keepPosition() {
	b.rec.Position = b.pos.String()
	b.rec.ToMove = b.pos.ToMove()
}

// play applies a submission of seat and records its moves.
func (b *board) play(seat int, text string, now time.Time, auto bool) ([]rules.Step, error) {
	steps, err := b.pos.Play(text)
	if err != nil {
		return nil, err
	}
	for _, st := range steps {
		b.rec.Moves = append(b.rec.Moves, store.Move{Seat: seat, Text: st.Move, Captured: st.Captured, At: now, Auto: auto})
	}
	b.keepPosition()
	b.rec.Updated = now
	b.rec.TurnSince = now
	if res := b.pos.Result(); res.Over {
		b.end(now, res)
	}
	return steps, nil
}

// positionCache keeps the replayed positions of recently used boards.
type positionCache struct {
	mu    sync.Mutex
	max   int
	items map[string]cachedPosition
}

type cachedPosition struct {
	moves int
	text  string
	pos   rules.Position
}

func newPositionCache(max int) *positionCache {
	return &positionCache{max: max, items: map[string]cachedPosition{}}
}

func cacheKey(rec *store.Game) string { return fmt.Sprintf("%s/%d", rec.Kind, rec.Board) }

// get returns a copy of the cached position of rec, or nil when the cache
// holds none for its current move count and position, or is nil.
func (c *positionCache) get(rec *store.Game) rules.Position {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[cacheKey(rec)]
	if !ok || it.moves != len(rec.Moves) || it.text != rec.Position {
		return nil
	}
	return it.pos.Clone()
}

func (c *positionCache) put(rec *store.Game, pos rules.Position) { c.keep(rec, pos.Clone()) }

// keep is put of a position no one changes any more: several caches may
// hold it, as get hands out copies.
func (c *positionCache) keep(rec *store.Game, pos rules.Position) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.items) >= c.max {
		clear(c.items) // crude, but a replay is cheap and misses are rare
	}
	c.items[cacheKey(rec)] = cachedPosition{moves: len(rec.Moves), text: pos.String(), pos: pos}
}
