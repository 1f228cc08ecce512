package store

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
)

// skipped remembers the records the listings of the store passed over
// because they do not decode (ErrCorrupt), so that each is logged once a
// process and not at every pass of the outbox or every page of the web.
type skipped struct {
	mu   sync.Mutex
	log  *slog.Logger
	keys map[string]bool
}

// maxSkipped bounds the records remembered; beyond, they are forgotten
// and logged again.
const maxSkipped = 1000

// skip logs, once, that the record (its kind and key, or the error
// that names it) was passed over.
func (s *skipped) skip(record string, err error) {
	if s == nil {
		slog.Default().Error("store: a record that does not decode was passed over", "record", record, "err", err)
		return
	}
	s.mu.Lock()
	seen := s.keys[record]
	if !seen {
		if s.keys == nil || len(s.keys) >= maxSkipped {
			s.keys = map[string]bool{}
		}
		s.keys[record] = true
	}
	s.mu.Unlock()
	if !seen {
		s.log.Error("store: a record that does not decode was passed over", "record", record, "err", err)
	}
}

// skip passes over a record of a listing that does not decode.
func (tx *Tx) skip(what string, key []byte, err error) {
	tx.skipped.skip(fmt.Sprintf("%s %q", what, key), err)
}

// PassOver reports whether err says that a record does not decode
// (ErrCorrupt), and then logs it once a process, as the store's own
// listings do: a caller that reads many records (a page of boards, the
// robots' boards) passes over that one and goes on with the others.
//
//	rec, err := tx.Game(kind, n)
//	if tx.PassOver(err) {
//		continue
//	}
func (tx *Tx) PassOver(err error) bool {
	if !errors.Is(err, ErrCorrupt) {
		return false
	}
	tx.skipped.skip(err.Error(), err)
	return true
}

// garbage is a record that decodes neither as JSON nor as the binary form.
var garbage = []byte("{\xff a record cut short")

// CorruptGame overwrites the stored board of the kind with bytes that do
// not decode, as a bad page would leave it: for the tests of the workers
// that must pass over such a record. The indexes stay as they were.
func (tx *Tx) CorruptGame(kind string, board int) error {
	return tx.corrupt(bucketGames, gameKey(kind, board))
}

// CorruptOutgoing overwrites the outbox mail with the id as CorruptGame
// does a board.
func (tx *Tx) CorruptOutgoing(id uint64) error {
	return tx.corrupt(bucketOutbox, outKey(id))
}

// CorruptUser overwrites the user's record as CorruptGame does a board.
func (tx *Tx) CorruptUser(id string) error {
	return tx.corrupt(bucketUsers, []byte(strings.ToLower(id)))
}

// CorruptTournament overwrites the tournament's record as CorruptGame
// does a board.
func (tx *Tx) CorruptTournament(name string) error {
	return tx.corrupt(bucketTournaments, []byte(TournamentKey(name)))
}

func (tx *Tx) corrupt(bucket, key []byte) error {
	b := tx.btx.bucket(bucket)
	if b == nil {
		return fmt.Errorf("store: no bucket %q to corrupt: %w", bucket, ErrNotFound)
	}
	if b.Get(key) == nil {
		return fmt.Errorf("store: no record %q to corrupt: %w", key, ErrNotFound)
	}
	return b.Put(key, garbage)
}
