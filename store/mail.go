package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
	b := tx.bucket(bucketProcessed)
	byTime := tx.index(bucketProcessedAt)
	if old := b.Get(processedKey(key)); old != nil {
		if err := byTime.Delete(append(append([]byte(nil), old...), processedKey(key)...)); err != nil {
			return err
		}
	}
	v := timeBytes(at)
	if err := b.Put(processedKey(key), v); err != nil {
		return err
	}
	return byTime.Put(append(v, processedKey(key)...), nil)
}

// PruneProcessed forgets up to max keys (0: no limit) handled before the
// given time, the oldest first, and returns how many it forgot. It reads
// the keys it forgets and no other.
func (tx *Tx) PruneProcessed(before time.Time, max int) (int, error) {
	b := tx.bucket(bucketProcessed)
	byTime := tx.index(bucketProcessedAt)
	limit := timeBytes(before)
	var old [][]byte
	c := byTime.Cursor()
	for k, _ := c.First(); len(k) >= 8 && bytes.Compare(k[:8], limit) < 0 && (max <= 0 || len(old) < max); k, _ = c.Next() {
		old = append(old, append([]byte(nil), k...))
	}
	// Deleting while a cursor walks the bucket can skip keys; delete after.
	for _, k := range old {
		if err := b.Delete(k[8:]); err != nil {
			return 0, err
		}
		if err := byTime.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(old), nil
}

// An Outgoing is a mail waiting in the outbox to be sent, with its own
// retry schedule, or one given up and kept in the failed mail.
type Outgoing struct {
	ID   uint64   // set by Enqueue
	From string   // envelope sender
	To   []string // envelope recipients
	Data []byte   // the whole RFC 5322 message, or all of it but To (ToAt)
	// ToAt, when above zero, makes the mail one that goes alike to each
	// of To in a copy of his own, which names him alone: Data is the
	// message without its To field, and each copy has its recipient's
	// To field put in at byte ToAt (mailmsg.Copy). Zero, as in every mail
	// stored before it: Data is the whole message, sent once to all of To.
	ToAt         int `json:",omitempty"`
	Queued       time.Time
	Attempts     int       // failed attempts so far
	NextTry      time.Time // zero = now
	FirstFailure time.Time `json:",omitzero"` // the first failed attempt
	LastError    string    `json:",omitempty"`
	GaveUp       time.Time `json:",omitzero"` // set in the failed mail only
	// List, when set, names the board ("ultima 101") a watcher's mail
	// is of: each copy gets, as it leaves, the List-Unsubscribe fields
	// that stop that board's mail for its recipient.
	List string `json:",omitempty"`
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

func putOutgoing(b bucket, m *Outgoing) error {
	data, err := encodeOutgoing(m)
	if err != nil {
		return fmt.Errorf("store: outgoing mail %d: %w", m.ID, err)
	}
	return b.Put(outKey(m.ID), data)
}

// encodeOutgoing writes a mail in the binary form of records (record.go):
// every reply is written under the write lock and read by the sender,
// and JSON wrote its message in base64. Field numbers are for ever.
func encodeOutgoing(m *Outgoing) ([]byte, error) {
	w := newRecordWriter(len(m.Data) + 128)
	w.uint(1, m.ID)
	w.string(2, m.From)
	w.strings(3, m.To, false)
	w.bytes(4, m.Data)
	w.int(5, m.ToAt)
	w.time(6, m.Queued)
	w.int(7, m.Attempts)
	w.time(8, m.NextTry)
	w.time(9, m.FirstFailure)
	w.string(10, m.LastError)
	w.time(11, m.GaveUp)
	w.string(12, m.List)
	return w.b, w.err
}

// decodeOutgoing reads a stored mail, in JSON as written before the
// binary form or in the binary form.
func decodeOutgoing(v []byte) (*Outgoing, error) {
	m := new(Outgoing)
	var err error
	if isJSON(v) {
		err = json.Unmarshal(v, m)
	} else {
		err = readRecord(v, func(r *recordReader) {
			r.each(func(field, kind int) {
				switch field {
				case 1:
					m.ID = r.uint(kind)
				case 2:
					m.From = r.string(kind)
				case 3:
					m.To = r.strings(kind)
				case 4:
					m.Data = r.bytes(kind)
				case 5:
					m.ToAt = r.int(kind)
				case 6:
					m.Queued = r.time(kind)
				case 7:
					m.Attempts = r.int(kind)
				case 8:
					m.NextTry = r.time(kind)
				case 9:
					m.FirstFailure = r.time(kind)
				case 10:
					m.LastError = r.string(kind)
				case 11:
					m.GaveUp = r.time(kind)
				case 12:
					m.List = r.string(kind)
				default:
					r.skip(kind)
				}
			})
		})
	}
	if err != nil {
		return nil, fmt.Errorf("store: outgoing mail: %w: %w", ErrCorrupt, err)
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

// Pending returns up to max mails with an ID above after that are due at
// now (NextTry zero or not after now), oldest first. A max of 0 or less
// means no limit.
func (db *DB) Pending(now time.Time, after uint64, max int) ([]Outgoing, error) {
	var due []Outgoing
	err := db.View(func(tx *Tx) error {
		// The retry entries are walked beside the mails, not looked up
		// one by one: on etcd a lookup of a key not kept is a round trip.
		var rc cursor
		var rk, rv []byte // the first retry entry at or after the mail's key
		more := false     // retry entries may follow rk
		if retry := tx.btx.bucket(bucketRetry); retry != nil {
			rc, more = retry.Cursor(), true
		}
		c := tx.bucket(bucketOutbox).Cursor()
		for k, v := c.Seek(outKey(after + 1)); k != nil; k, v = c.Next() {
			if more && (rk == nil || bytes.Compare(rk, k) < 0) {
				rk, rv = rc.Seek(k)
				more = rk != nil
			}
			if more && bytes.Equal(rk, k) && nextTry(rv).After(now) {
				continue // waiting for its retry: not worth decoding
			}
			if len(k) == 8 && db.soon.waiting(binary.BigEndian.Uint64(k)) {
				continue // sent; taken out soon
			}
			m, err := decodeOutgoing(v)
			if errors.Is(err, ErrCorrupt) {
				tx.skip("outgoing mail", k, err)
				continue
			}
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
		for _, id := range ids {
			if err := tx.dropOutgoing(id); err != nil {
				return err
			}
		}
		return nil
	})
}

// Retry times: the outbox key of a deferred mail maps to its NextTry, as 8
// big-endian bytes of Unix nanoseconds, so that looking for due mail skips
// the deferred ones without decoding them. The bucket is made by the first
// Defer; a deferred mail without an entry (written before it) is decoded.
var bucketRetry = []byte("outbox-retry")

func nextTry(v []byte) time.Time {
	if len(v) != 8 {
		return time.Time{}
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(v)))
}

func (tx *Tx) forgetRetry(id uint64) error {
	if b := tx.btx.bucket(bucketRetry); b != nil {
		return b.Delete(outKey(id))
	}
	return nil
}

// Mails returns the mails with the ids from the outbox, in the order of
// ids, or ErrNotFound when one is no longer there.
func (db *DB) Mails(ids ...uint64) ([]Outgoing, error) {
	var ms []Outgoing
	err := db.View(func(tx *Tx) error {
		for _, id := range ids {
			m, err := tx.Outgoing(id)
			if err != nil {
				return err
			}
			ms = append(ms, *m)
		}
		return nil
	})
	return ms, err
}

// Defer records an attempt to send the mail with the id that failed at
// the given time: it counts the attempt, keeps the first failure's time
// and the reason, and sets when to try again. It returns ErrNotFound when
// the mail is no longer in the outbox.
func (db *DB) Defer(id uint64, failed, next time.Time, reason string) error {
	return db.Update(func(tx *Tx) error {
		m, err := tx.Outgoing(id)
		if err != nil {
			return err
		}
		m.Attempts++
		m.NextTry = next
		if m.FirstFailure.IsZero() {
			m.FirstFailure = failed
		}
		m.LastError = reason
		retry, err := tx.btx.createBucket(bucketRetry)
		if err != nil {
			return err
		}
		if err := retry.Put(outKey(id), binary.BigEndian.AppendUint64(nil, uint64(next.UnixNano()))); err != nil {
			return err
		}
		return putOutgoing(tx.bucket(bucketOutbox), m)
	})
}

// The failed mail: mails given up, moved out of the outbox and kept under
// the same keys for an operator to read, the last KeepFailed of them. The
// bucket is made by the first give-up, so that files from before it open
// unchanged.
var bucketFailed = []byte("failed")

// KeepFailed is how many mails given up are kept, as many as "pbemd admin
// outbox list" shows: beyond it the oldest go, so that a long outage of
// the mail server or a run of bad addresses cannot fill the disk.
const KeepFailed = 1000

// GiveUp moves the mail with the id from the outbox to the failed mail,
// counting the attempt and keeping the reason and the time, and drops the
// oldest failed mails beyond KeepFailed. It returns ErrNotFound when the
// mail is no longer in the outbox.
func (db *DB) GiveUp(id uint64, at time.Time, reason string) error {
	return db.Update(func(tx *Tx) error {
		m, err := tx.Outgoing(id)
		if err != nil {
			return err
		}
		if err := tx.keepFailed(m, at, reason); err != nil {
			return err
		}
		return tx.dropOutgoing(id)
	})
}

// GiveUpTo gives up the copy for one recipient of the mail with the id, a
// mail in copies (ToAt): the copy goes to the failed mail under an id of
// its own, as GiveUp would move a mail to him alone, and he leaves the
// mail's recipients, while the others still get theirs. The mail leaves
// the outbox once no recipient is left. It returns ErrNotFound when the
// mail is no longer in the outbox or he is no longer among its recipients.
func (db *DB) GiveUpTo(id uint64, to string, at time.Time, reason string) error {
	return db.Update(func(tx *Tx) error {
		m, err := tx.Outgoing(id)
		if err != nil {
			return err
		}
		rest := without(m.To, []string{to})
		if len(rest) == len(m.To) {
			return fmt.Errorf("outgoing mail %d to %s: %w", id, to, ErrNotFound)
		}
		c := *m
		c.To = []string{to}
		if c.ID, err = tx.bucket(bucketOutbox).NextSequence(); err != nil {
			return err
		}
		if err := tx.keepFailed(&c, at, reason); err != nil {
			return err
		}
		return tx.putRecipients(m, rest)
	})
}

// SentTo takes recipients out of the mail with the id, a mail in copies
// (ToAt), once their copies were accepted, so that no retry of the others
// sends them a second one; an address listed twice in the mail is taken
// out once for each time it is given. The mail leaves the outbox once no
// recipient is left. A mail already gone is not an error.
func (db *DB) SentTo(id uint64, to ...string) error {
	if len(to) == 0 {
		return nil
	}
	return db.Update(func(tx *Tx) error {
		m, err := tx.Outgoing(id)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return tx.putRecipients(m, without(m.To, to))
	})
}

// without returns list less one occurrence of each of drop.
func without(list, drop []string) []string {
	out := append([]string(nil), list...)
	for _, d := range drop {
		if i := slices.Index(out, d); i >= 0 {
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}

// putRecipients stores the mail m with only the recipients to, or takes it
// out of the outbox when there are none.
func (tx *Tx) putRecipients(m *Outgoing, to []string) error {
	if len(to) == 0 {
		return tx.dropOutgoing(m.ID)
	}
	m.To = to
	return putOutgoing(tx.bucket(bucketOutbox), m)
}

// dropOutgoing takes the mail with the id out of the outbox.
func (tx *Tx) dropOutgoing(id uint64) error {
	if err := tx.forgetRetry(id); err != nil {
		return err
	}
	return tx.bucket(bucketOutbox).Delete(outKey(id))
}

// keepFailed puts m into the failed mail, counting the attempt and keeping
// the reason and the time, and drops the oldest failed mails beyond
// KeepFailed.
func (tx *Tx) keepFailed(m *Outgoing, at time.Time, reason string) error {
	m.Attempts++
	if m.FirstFailure.IsZero() {
		m.FirstFailure = at
	}
	m.LastError = reason
	m.GaveUp = at
	failed, err := tx.btx.createBucket(bucketFailed)
	if err != nil {
		return err
	}
	if err := putOutgoing(failed, m); err != nil {
		return err
	}
	return trimFailed(failed)
}

// trimFailed drops the oldest failed mails (the smallest ids) beyond
// KeepFailed. It reads keys only, from the newest back: at most
// KeepFailed and those it drops.
func trimFailed(b bucket) error {
	var old [][]byte
	c := b.Cursor()
	n := 0
	for k, _ := c.Last(); k != nil; k, _ = c.Prev() {
		if n++; n > KeepFailed {
			old = append(old, append([]byte(nil), k...))
		}
	}
	return deleteKeys(b, old) // after the walk: deleting under a cursor skips keys
}

// Failed returns up to max mails given up, oldest first; a max of 0 or
// less means all.
func (db *DB) Failed(max int) ([]Outgoing, error) {
	return db.outgoing(bucketFailed, max)
}

// outgoing returns up to max mails of the bucket (the outbox or the failed
// mail), oldest first; a max of 0 or less means all.
func (db *DB) outgoing(bucket []byte, max int) ([]Outgoing, error) {
	var ms []Outgoing
	err := db.View(func(tx *Tx) error {
		b := tx.btx.bucket(bucket)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.First(); k != nil && (max <= 0 || len(ms) < max); k, v = c.Next() {
			m, err := decodeOutgoing(v)
			if errors.Is(err, ErrCorrupt) {
				tx.skip("outgoing mail", k, err)
				continue
			}
			if err != nil {
				return err
			}
			ms = append(ms, *m)
		}
		return nil
	})
	return ms, err
}

// FailedLen returns the number of mails given up.
func (db *DB) FailedLen() (int, error) {
	var n int
	err := db.View(func(tx *Tx) error {
		if b := tx.btx.bucket(bucketFailed); b != nil {
			n = b.KeyN()
		}
		return nil
	})
	return n, err
}

// OutboxLen returns the number of mails in the outbox, due or not.
func (db *DB) OutboxLen() (int, error) {
	var n int
	err := db.View(func(tx *Tx) error {
		// Bucket.Stats would walk every page too; counting keys is plainer.
		c := tx.bucket(bucketOutbox).Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if len(k) != 8 || !db.soon.waiting(binary.BigEndian.Uint64(k)) {
				n++
			}
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

// DeleteNotes removes at most most notes whose name starts with prefix
// and returns how many it removed.
func (tx *Tx) DeleteNotes(prefix string, most int) (int, error) {
	p := []byte(prefix)
	var keys [][]byte
	c := tx.bucket(bucketNotes).Cursor()
	for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p) && len(keys) < most; k, _ = c.Next() {
		keys = append(keys, append([]byte(nil), k...))
	}
	return len(keys), deleteKeys(tx.bucket(bucketNotes), keys)
}
