package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// What the administrator's tools (pbemd admin) need beyond the service's
// own use of the store: every note of a kind, the whole outbox, moving a
// mail back to be sent now, dropping one, and counts.

// Notes calls fn for every note whose name starts with prefix, in name
// order, stopping at the first error fn returns.
func (tx *Tx) Notes(prefix string, fn func(key, value string) error) error {
	p := []byte(prefix)
	c := tx.bucket(bucketNotes).Cursor()
	for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
		if err := fn(string(k), string(v)); err != nil {
			return err
		}
	}
	return nil
}

// Queue returns up to max mails of the outbox, due or waiting for a retry,
// oldest first; a max of 0 or less means all.
func (db *DB) Queue(max int) ([]Outgoing, error) { return db.outgoing(bucketOutbox, max) }

// RetryNow makes the mail with the id due now: a mail of the outbox
// waiting for its next try, or a failed mail, which goes back into the
// outbox under its id with its count of attempts kept. It returns
// ErrNotFound when neither holds the id.
func (db *DB) RetryNow(id uint64) error {
	return db.Update(func(tx *Tx) error {
		var m *Outgoing
		if failed := tx.btx.bucket(bucketFailed); failed != nil {
			if v := failed.Get(outKey(id)); v != nil {
				var err error
				if m, err = decodeOutgoing(v); err != nil {
					return err
				}
				if err := failed.Delete(outKey(id)); err != nil {
					return err
				}
				// A fresh schedule: the give-up counts from now.
				m.GaveUp, m.FirstFailure = time.Time{}, time.Time{}
			}
		}
		if m == nil {
			var err error
			if m, err = tx.Outgoing(id); err != nil {
				return err
			}
		}
		m.NextTry = time.Time{}
		if err := tx.forgetRetry(id); err != nil {
			return err
		}
		return putOutgoing(tx.bucket(bucketOutbox), m)
	})
}

// Drop removes the mail with the id from the outbox or the failed mail,
// unsent. It returns ErrNotFound when neither holds it.
func (db *DB) Drop(id uint64) error {
	return db.Update(func(tx *Tx) error {
		if failed := tx.btx.bucket(bucketFailed); failed != nil && failed.Get(outKey(id)) != nil {
			return failed.Delete(outKey(id))
		}
		if tx.bucket(bucketOutbox).Get(outKey(id)) == nil {
			return fmt.Errorf("mail %d is neither in the outbox nor in the failed mail: %w", id, ErrNotFound)
		}
		if err := tx.forgetRetry(id); err != nil {
			return err
		}
		return tx.bucket(bucketOutbox).Delete(outKey(id))
	})
}

// Counts are the sizes of the store, for pbemd admin stats.
type Counts struct {
	Users     int
	Running   map[string]int // games not over, by kind
	Games     int            // all games, over or not
	Processed int            // mail keys kept
	Outbox    int
	Failed    int
}

// Count counts the store's records.
func (db *DB) Count() (Counts, error) {
	c := Counts{Running: map[string]int{}}
	err := db.View(func(tx *Tx) error {
		c.Users = tx.bucket(bucketUsers).KeyN()
		c.Games = tx.bucket(bucketGames).KeyN()
		c.Processed = tx.bucket(bucketProcessed).KeyN()
		c.Outbox = tx.bucket(bucketOutbox).KeyN()
		if b := tx.btx.bucket(bucketFailed); b != nil {
			c.Failed = b.KeyN()
		}
		cur := tx.bucket(bucketRunning).Cursor()
		for k, _ := cur.First(); k != nil; k, _ = cur.Next() {
			if i := bytes.IndexByte(k, 0); i > 0 {
				c.Running[string(k[:i])]++
			}
		}
		return nil
	})
	return c, err
}

// Unquarantine removes the quarantined mail with the id and forgets its
// processed-mail key, so that the mail can be handled again, and returns
// it. It returns ErrNotFound when no such mail is in quarantine.
func (tx *Tx) Unquarantine(id uint64) (*Quarantined, error) {
	b := tx.bucket(bucketQuarantine)
	v := b.Get(outKey(id))
	if v == nil {
		return nil, fmt.Errorf("quarantined mail %d: %w", id, ErrNotFound)
	}
	q := new(Quarantined)
	if err := json.Unmarshal(v, q); err != nil {
		return nil, fmt.Errorf("store: quarantined mail: %w: %w", ErrCorrupt, err)
	}
	size := int64(len(v))
	if err := b.Delete(outKey(id)); err != nil {
		return nil, err
	}
	if err := tx.addQuarantineBytes(-size); err != nil {
		return nil, err
	}
	if q.Key != "" {
		for _, k := range [][]byte{processedKey(q.Key), []byte(q.Key)} { // hashed, or as older stores kept it
			if err := tx.bucket(bucketProcessed).Delete(k); err != nil {
				return nil, err
			}
		}
	}
	return q, nil
}
