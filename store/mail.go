package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Processed keys: the SHA-256 of the key of a mail already handled (its
// Message-ID or a content hash), after the byte 'h', maps to the time it
// was handled, as 8 big-endian bytes of Unix nanoseconds. Hashing bounds the
// key's size: a Message-ID may be longer than bbolt's largest key. Stores
// written before kept the key itself; those entries are still recognised
// and fade out as PruneProcessed forgets them.

// processedKey is the stored form of a processed-mail key.
func processedKey(key string) []byte {
	sum := sha256.Sum256([]byte(key))
	return append([]byte{'h'}, sum[:]...)
}

// Processed reports whether the mail with the key was already handled.
func (tx *Tx) Processed(key string) (bool, error) {
	b := tx.bucket(bucketProcessed)
	if b.Get(processedKey(key)) != nil {
		return true, nil
	}
	// The form of earlier versions: the key itself, which bbolt could
	// store only up to its largest key size.
	legacy := key != "" && len(key) <= bolt.MaxKeySize && b.Get([]byte(key)) != nil
	return legacy, nil
}

// MarkProcessed records that the mail with the key was handled at the
// given time.
func (tx *Tx) MarkProcessed(key string, at time.Time) error {
	if key == "" {
		return fmt.Errorf("store: empty processed-mail key")
	}
	v := binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano()))
	return tx.bucket(bucketProcessed).Put(processedKey(key), v)
}

// PruneProcessed forgets the keys handled before the given time and
// returns how many it forgot.
func (tx *Tx) PruneProcessed(before time.Time) (int, error) {
	b := tx.bucket(bucketProcessed)
	limit := before.UnixNano()
	var old [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if len(v) != 8 || int64(binary.BigEndian.Uint64(v)) < limit {
			old = append(old, append([]byte(nil), k...))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	// Deleting while a cursor walks the bucket can skip keys; delete after.
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(old), nil
}

// An Outgoing is a mail waiting in the outbox to be sent.
type Outgoing struct {
	ID        uint64   // set by Enqueue
	From      string   // envelope sender
	To        []string // envelope recipients
	Data      []byte   // the whole RFC 5322 message
	Queued    time.Time
	Attempts  int       // failed attempts so far
	NextTry   time.Time // zero = now
	LastError string    `json:",omitempty"`
}

// Outbox keys: the ID as 8 big-endian bytes, so the oldest mail comes first.

func outKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// Enqueue adds m to the outbox and sets m.ID to a number higher than that
// of every mail queued before.
func (tx *Tx) Enqueue(m *Outgoing) error {
	b := tx.bucket(bucketOutbox)
	id, err := b.NextSequence()
	if err != nil {
		return err
	}
	m.ID = id
	return putOutgoing(b, m)
}

func putOutgoing(b *bolt.Bucket, m *Outgoing) error {
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("store: outgoing mail %d: %w", m.ID, err)
	}
	return b.Put(outKey(m.ID), data)
}

func decodeOutgoing(v []byte) (*Outgoing, error) {
	m := new(Outgoing)
	if err := json.Unmarshal(v, m); err != nil {
		return nil, fmt.Errorf("store: outgoing mail: %w", err)
	}
	return m, nil
}

// Outgoing returns the mail with the id from the outbox, or ErrNotFound.
func (tx *Tx) Outgoing(id uint64) (*Outgoing, error) {
	v := tx.bucket(bucketOutbox).Get(outKey(id))
	if v == nil {
		return nil, fmt.Errorf("outgoing mail %d: %w", id, ErrNotFound)
	}
	return decodeOutgoing(v)
}

// Pending returns up to max mails that are due at now (NextTry zero or not
// after now), oldest first. A max of 0 or less means no limit.
func (db *DB) Pending(now time.Time, max int) ([]Outgoing, error) {
	var due []Outgoing
	err := db.View(func(tx *Tx) error {
		c := tx.bucket(bucketOutbox).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			m, err := decodeOutgoing(v)
			if err != nil {
				return err
			}
			if m.NextTry.After(now) {
				continue
			}
			due = append(due, *m)
			if max > 0 && len(due) == max {
				break
			}
		}
		return nil
	})
	return due, err
}

// Sent removes the mails with the ids from the outbox, in one transaction:
// a sender that has handed many mails to its server pays for one disk sync.
// A mail already gone is not an error, so a retry after a crash is harmless.
func (db *DB) Sent(ids ...uint64) error {
	if len(ids) == 0 {
		return nil
	}
	return db.Update(func(tx *Tx) error {
		b := tx.bucket(bucketOutbox)
		for _, id := range ids {
			if err := b.Delete(outKey(id)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Defer records a failed attempt to send the mail with the id: it counts
// the attempt, keeps the reason and sets when to try again. It returns
// ErrNotFound when the mail is no longer in the outbox.
func (db *DB) Defer(id uint64, next time.Time, reason string) error {
	return db.Update(func(tx *Tx) error {
		m, err := tx.Outgoing(id)
		if err != nil {
			return err
		}
		m.Attempts++
		m.NextTry = next
		m.LastError = reason
		return putOutgoing(tx.bucket(bucketOutbox), m)
	})
}

// OutboxLen returns the number of mails in the outbox, due or not.
func (db *DB) OutboxLen() (int, error) {
	var n int
	err := db.View(func(tx *Tx) error {
		// Bucket.Stats would walk every page too; counting keys is plainer.
		c := tx.bucket(bucketOutbox).Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			n++
		}
		return nil
	})
	return n, err
}

// Note returns the value of the named note and whether it exists.
func (tx *Tx) Note(key string) (string, bool, error) {
	v := tx.bucket(bucketNotes).Get([]byte(key))
	if v == nil {
		return "", false, nil
	}
	return string(v), true, nil
}

// SetNote sets the named note.
func (tx *Tx) SetNote(key, value string) error {
	if key == "" {
		return fmt.Errorf("store: empty note name")
	}
	// A nil value would read back as a missing note.
	return tx.bucket(bucketNotes).Put([]byte(key), append([]byte{}, value...))
}

// DeleteNote removes the named note; a missing note is not an error.
func (tx *Tx) DeleteNote(key string) error {
	return tx.bucket(bucketNotes).Delete([]byte(key))
}
