package store

import (
	"bytes"
	"errors"
	"fmt"
	"time"
)

// GamesBefore returns the heads of at most n boards of the kind whose
// numbers are below before, highest first, for pages that show a kind's
// boards newest first a page at a time. It reads only the records it
// returns, and of them their heads.
func (tx *Tx) GamesBefore(kind string, before, n int) ([]*GameHead, error) {
	if n <= 0 || before <= 0 {
		return nil, nil
	}
	prefix := []byte(kind + "\x00")
	c := tx.bucket(bucketGames).Cursor()
	var v []byte
	k, _ := c.Seek(gameKey(kind, before))
	if k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	var out []*GameHead
	for ; k != nil && bytes.HasPrefix(k, prefix) && len(out) < n; k, v = c.Prev() {
		g, err := decodeGameHead(v)
		if errors.Is(err, ErrCorrupt) {
			tx.skip("game", k, err)
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// LastBoard returns the highest board number given out of the kind, or 0
// when it has none.
func (tx *Tx) LastBoard(kind string) int { return tx.lastBoard(kind) }

// A GameHead is what a list shows of a board: who plays it, whose turn it
// is, how it ended and how many moves it has, without the moves, the
// comments or the position.
type GameHead struct {
	Kind      string
	Board     int
	Seats     []string
	ToMove    int
	Over      bool
	Winner    int
	Withdrawn string
	Moves     int       // how many
	Updated   time.Time // the last change: for a board over, when it ended
	EndReason string    // how it ended, for a board over
	Options   []string
	Created   time.Time
	Extra     map[string]string // the board's notes, as the pending seats of a challenge
}

// GameHead reads the head of a board. It decodes the record but not its
// moves, comments and times, at a fraction of the cost of Game: lists of
// fifty boards read fifty records.
func (tx *Tx) GameHead(kind string, board int) (*GameHead, error) {
	v := tx.bucket(bucketGames).Get(gameKey(kind, board))
	if v == nil {
		return nil, fmt.Errorf("%s board %d: %w", kind, board, ErrNotFound)
	}
	return decodeGameHead(v)
}
