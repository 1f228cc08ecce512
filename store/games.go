package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// A Move is one move of a game.
type Move struct {
	Seat     int      // who played it
	Text     string   // canonical notation of this move (one rules.Step)
	Captured []string `json:",omitempty"`
	At       time.Time
	Auto     bool `json:",omitempty"` // played from a queue
}

// A Comment is text a player or subscriber wrote to a board.
type Comment struct {
	User string
	Text string
	At   time.Time
	Move int // number of moves played when written
}

// A Game is one board.
type Game struct {
	Kind        string   // game name, "ultima"
	Board       int      // 101, 102, ... per kind
	Options     []string // canonical -param words
	Seats       []string // user ids in seat order; "" for an open seat
	StartPos    string   `json:",omitempty"` // position text the game started from; "" = standard start
	Moves       []Move   // the source of truth
	Position    string   // current position (derivable by replay; kept for speed)
	ToMove      int      // seat whose turn it is in Position (kept so lists need no replay)
	Over        bool
	Winner      int       // seat, or -1 for a draw; meaningful when Over
	EndReason   string    `json:",omitempty"`
	Comments    []Comment `json:",omitempty"`
	Subscribers []string  `json:",omitempty"` // user ids
	Created     time.Time
	Updated     time.Time
	Thread      string            // Message-ID root shared by every mail of this board
	Extra       map[string]string `json:",omitempty"`

	// The life cycle of a board beyond its moves. All are optional, so
	// records written before they existed read as they did.
	Queue     []Queued       `json:",omitempty"` // moves sent ahead of their turn, oldest first
	Vote      *Vote          `json:",omitempty"` // the open draw or undo proposal
	TurnSince time.Time      `json:",omitempty"` // when the player to move got the turn
	Nagged    time.Time      `json:",omitempty"` // when the last reminder went out
	Notify    []string       `json:",omitempty"` // user ids told when the game ends
	Rated     bool           `json:",omitempty"` // the result has been counted in the ratings
	Ratings   []RatingChange `json:",omitempty"` // what the result did to the players' ratings
	Withdrawn string         `json:",omitempty"` // who withdrew before his first move: the game ended unrated
	Swapped   string         `json:",omitempty"` // who took the first player's side by the swap (pie rule)
}

// A Queued move is a submission a player sent before his turn, played when
// the turn comes. Text "resign" is a queued resignation.
type Queued struct {
	Seat   int
	User   string
	Text   string
	Number int `json:",omitempty"` // the move number it must get; 0 = any
	At     time.Time
}

// A Vote is a proposal one player made and the other must answer.
type Vote struct {
	Kind string // "draw" or "undo"
	Seat int    // the proposer's seat
	User string
	At   time.Time
	Back int `json:",omitempty"` // undo: the moves from this index on are taken back
	// Nagged is when the player who must answer was last reminded.
	Nagged time.Time `json:",omitempty"`
}

// A RatingChange is one player's rating before and after a rated game.
type RatingChange struct {
	User        string
	Old, New    float64
	Provisional bool // the player was provisional when the game ended
}

// A GameRef names a board.
type GameRef struct {
	Kind  string
	Board int
}

// firstBoard is the number of the first board of every kind, as on
// pbmserv.
const firstBoard = 101

// Keys: games by kind, a zero byte and the board as 8 big-endian bytes, so
// a kind's boards sort by number; the board counter by kind; the seat index
// by lower-case user id, zero byte, kind, zero byte, board.

func boardBytes(board int) []byte {
	return binary.BigEndian.AppendUint64(nil, uint64(board))
}

func gameKey(kind string, board int) []byte {
	return append([]byte(kind+"\x00"), boardBytes(board)...)
}

func seatKey(user, kind string, board int) []byte {
	return append([]byte(strings.ToLower(user)+"\x00"+kind+"\x00"), boardBytes(board)...)
}

// NextBoard reserves and returns the next board number of the kind: 101
// for the first, then one more than the highest number used.
func (tx *Tx) NextBoard(kind string) (int, error) {
	if err := checkKey("game kind", kind); err != nil {
		return 0, err
	}
	n := tx.lastBoard(kind) + 1
	if n < firstBoard {
		n = firstBoard
	}
	if err := tx.bucket(bucketBoards).Put([]byte(kind), boardBytes(n)); err != nil {
		return 0, err
	}
	return n, nil
}

// lastBoard returns the highest board number used of the kind, or 0.
func (tx *Tx) lastBoard(kind string) int {
	v := tx.bucket(bucketBoards).Get([]byte(kind))
	if len(v) != 8 {
		return 0
	}
	return int(binary.BigEndian.Uint64(v))
}

// Game returns the board of the kind, or ErrNotFound.
func (tx *Tx) Game(kind string, board int) (*Game, error) {
	key := gameKey(kind, board)
	v := tx.bucket(bucketGames).Get(key)
	if v == nil {
		return nil, fmt.Errorf("%s board %d: %w", kind, board, ErrNotFound)
	}
	g, err := decodeGame(v)
	if err != nil {
		return nil, fmt.Errorf("%s board %d: %w", kind, board, err)
	}
	if tx.btx.writable() {
		// Before the caller changes g: this is the stored record.
		tx.remember(key, tx.stored(g))
	}
	return g, nil
}

// storedGame is what PutGame needs to know of the record it replaces.
type storedGame struct {
	exists  bool
	over    bool
	seats   []string
	entries []entry // in the indexes (index.go)
}

// stored returns what PutGame needs to know of g once stored; g may be nil.
func (tx *Tx) stored(g *Game) storedGame {
	if g == nil {
		return storedGame{}
	}
	return storedGame{exists: true, over: g.Over, seats: slices.Clone(g.Seats), entries: tx.gameEntries(g)}
}

// remember notes what PutGame needs to know of the game stored under key.
func (tx *Tx) remember(key []byte, g storedGame) {
	if tx.indexed == nil {
		tx.indexed = map[string]storedGame{}
	}
	tx.indexed[string(key)] = g
}

// PutGame stores g under its kind and board, and updates the indexes
// (index.go) where they changed. Storing a board number NextBoard has not
// given out moves the counter past it.
func (tx *Tx) PutGame(g *Game) error {
	if err := checkKey("game kind", g.Kind); err != nil {
		return err
	}
	if g.Board <= 0 {
		return fmt.Errorf("store: %s board number %d; want a number from NextBoard", g.Kind, g.Board)
	}
	for _, s := range g.Seats {
		if strings.IndexByte(s, 0) >= 0 {
			return fmt.Errorf("store: %s board %d: seat %q contains a zero byte", g.Kind, g.Board, s)
		}
	}
	key := gameKey(g.Kind, g.Board)
	old, ok := tx.indexed[string(key)]
	if !ok {
		rec, err := tx.Game(g.Kind, g.Board)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		old = tx.stored(rec)
	}
	data, err := encodeGame(g)
	if err != nil {
		return fmt.Errorf("store: %s board %d: %w", g.Kind, g.Board, err)
	}
	if err := tx.bucket(bucketGames).Put(key, data); err != nil {
		return err
	}
	if g.Board > tx.lastBoard(g.Kind) {
		if err := tx.bucket(bucketBoards).Put([]byte(g.Kind), boardBytes(g.Board)); err != nil {
			return err
		}
	}
	// Who plays the kind may change with the seats or the end of g.
	was := map[string]bool{}
	if !old.exists || old.over != g.Over || !maps.Equal(seatSet(old.seats), seatSet(g.Seats)) {
		for id := range seatSet(slices.Concat(old.seats, g.Seats)) {
			was[id] = tx.playing(id, g.Kind)
		}
	}
	now := tx.stored(g)
	tx.remember(key, now)
	if err := tx.reindex(old.entries, now.entries); err != nil {
		return err
	}
	return tx.reindexNewcomers(g.Kind, was)
}

// PutGameBytes stores data as the record of a board as it is, unchecked,
// and leaves the indexes as they are. It is for tests that plant a damaged
// record, to show that what reads the boards survives one; the service
// never calls it.
func (tx *Tx) PutGameBytes(kind string, board int, data []byte) error {
	key := gameKey(kind, board)
	delete(tx.indexed, string(key))
	return tx.bucket(bucketGames).Put(key, data)
}

// seatSet returns the lower-case ids of the taken seats.
func seatSet(seats []string) map[string]bool {
	set := make(map[string]bool, len(seats))
	for _, s := range seats {
		if s != "" {
			set[strings.ToLower(s)] = true
		}
	}
	return set
}

// Games calls fn for every board of the kind in board order, stopping at
// the first error fn returns, which Games then returns.
func (tx *Tx) Games(kind string, fn func(*Game) error) error {
	prefix := []byte(kind + "\x00")
	c := tx.bucket(bucketGames).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		g, err := decodeGame(v)
		if errors.Is(err, ErrCorrupt) {
			tx.skip("game", k, err)
			continue
		}
		if err != nil {
			return err
		}
		if err := fn(g); err != nil {
			return err
		}
	}
	return nil
}

// RunningBoards returns the numbers of the boards of the kind that are not
// over, in order. It reads an index, not the games, so it stays cheap in a
// store of many finished games.
func (tx *Tx) RunningBoards(kind string) ([]int, error) {
	prefix := []byte(kind + "\x00")
	var boards []int
	c := tx.bucket(bucketRunning).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		boards = append(boards, int(binary.BigEndian.Uint64(k[len(prefix):])))
	}
	return boards, nil
}

// GamesOf returns the boards where the user, in any case, holds a seat,
// ordered by kind and then board. Finished games are included.
func (tx *Tx) GamesOf(userID string) ([]GameRef, error) {
	if userID == "" {
		return nil, nil
	}
	prefix := []byte(strings.ToLower(userID) + "\x00")
	var refs []GameRef
	c := tx.bucket(bucketSeats).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		rest := k[len(prefix):]
		i := bytes.IndexByte(rest, 0)
		if i < 0 || len(rest)-i-1 != 8 {
			return nil, fmt.Errorf("store: malformed seat index key %q", k)
		}
		refs = append(refs, GameRef{
			Kind:  string(rest[:i]),
			Board: int(binary.BigEndian.Uint64(rest[i+1:])),
		})
	}
	return refs, nil
}
