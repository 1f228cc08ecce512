package store

import (
	"sync"
	"time"
)

// sentDelay is how long a mail sent may stay in the outbox waiting for a
// transaction to take it out (SentSoon).
var sentDelay = 50 * time.Millisecond // a variable for the tests

// sentSoon are the mails sent that the next transaction takes out of the
// outbox (SentSoon).
type sentSoon struct {
	mu     sync.Mutex
	ids    map[uint64]bool
	armed  bool // a commit of their own is due (flushLater)
	closed bool // the store is closed: no more such commits
}

// SentSoon takes the mails with the ids out of the outbox as Sent does,
// but with the next transaction that commits on this engine's file
// rather than with a commit of its own, or within sentDelay in one of
// their own when none comes: a reply sent costs no disk sync apart from
// the mail that caused it. Until then Pending and OutboxLen pass over them.
// A crash before loses the removal, and such mails are sent a second time
// after the start, as a mail accepted by the server just before a crash
// always could be.
func (db *DB) SentSoon(ids ...uint64) {
	if len(ids) == 0 {
		return
	}
	s := &db.soon
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[uint64]bool{}
	}
	for _, id := range ids {
		s.ids[id] = true
	}
	if !s.armed && !s.closed {
		s.armed = true
		time.AfterFunc(sentDelay, db.flushLater)
	}
}

// flushLater takes the mails of SentSoon out in a commit of their own,
// sentDelay after the first of them, and again sentDelay later while some
// are left: some came meanwhile, or the store could not be written.
func (db *DB) flushLater() {
	db.flushSent()
	s := &db.soon
	s.mu.Lock()
	defer s.mu.Unlock()
	s.armed = len(s.ids) > 0 && !s.closed
	if s.armed {
		time.AfterFunc(sentDelay, db.flushLater)
	}
}

// FlushSent takes the mails of SentSoon out of the outbox now.
func (db *DB) FlushSent() error { return db.flushSent() }

func (db *DB) flushSent() error {
	for {
		ids := db.soon.some(db.MaxWrites() / 2)
		if len(ids) == 0 {
			return nil
		}
		if err := db.Update(func(tx *Tx) error { return tx.dropSent(ids) }); err != nil {
			return err
		}
		db.soon.done(ids)
	}
}

// some returns up to most of the ids waiting.
func (s *sentSoon) some(most int) []uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []uint64
	for id := range s.ids {
		if len(ids) == most {
			break
		}
		ids = append(ids, id)
	}
	return ids
}

// done forgets the ids, taken out of the outbox by a commit.
func (s *sentSoon) done(ids []uint64) {
	if len(ids) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		delete(s.ids, id)
	}
}

// waiting reports whether the mail id waits to be taken out.
func (s *sentSoon) waiting(id uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[id]
}

// dropSent takes the mails out of the outbox; one already gone is no error.
func (tx *Tx) dropSent(ids []uint64) error {
	for _, id := range ids {
		if err := tx.dropOutgoing(id); err != nil {
			return err
		}
	}
	return nil
}
