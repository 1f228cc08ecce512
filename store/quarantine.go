package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Quarantine keys: a sequence number as 8 big-endian bytes, oldest first.
var bucketQuarantine = []byte("quarantine")

// laterBuckets are buckets added after schema version 1 was first written:
// a read-write Open creates them, a read-only Open does without them.
var laterBuckets = [][]byte{bucketQuarantine}

// A Quarantined mail is one that could not be handled and will not be
// tried again: "pbemd deliver" keeps it here for the administrator (the
// daemon keeps such mail in an IMAP folder instead).
type Quarantined struct {
	ID   uint64 // set by Quarantine
	Key  string // its processed-mail key
	From string `json:",omitempty"`
	At   time.Time
	Why  string // for the administrator: the error, which may name files
	// Data is the whole mail, the only copy once deliver has exited 0:
	// as it arrived, or as read and decoded, with the passwords its
	// commands name masked (pbem's Quarantine); for a mail TooLarge, its
	// header alone.
	Data []byte
	// Kind is what kept it: "" for a mail not handled (unreadable,
	// crashed, failed too often; every record before Kind), TooLarge for
	// a mail over the largest read.
	Kind string `json:",omitempty"`
	// Size is the size of the whole mail when Data holds its header only.
	Size int64 `json:",omitempty"`
}

// TooLarge is the Kind of a quarantined mail over the largest read: only
// its header is kept, so it cannot be handled again.
const TooLarge = "too large"

// keyQuarantineBytes in the meta bucket holds the bytes the quarantine's
// records take together, as a decimal number, so that bounding them reads
// no record; a file written before it has the sum made once.
var keyQuarantineBytes = []byte("quarantine-bytes")

// Quarantine stores the mail q and sets q.ID.
func (tx *Tx) Quarantine(q *Quarantined) error {
	b := tx.bucket(bucketQuarantine)
	id, err := b.NextSequence()
	if err != nil {
		return err
	}
	q.ID = id
	data, err := json.Marshal(q)
	if err != nil {
		return fmt.Errorf("store: quarantined mail: %w", err)
	}
	if err := tx.addQuarantineBytes(int64(len(data))); err != nil {
		return err
	}
	return b.Put(outKey(id), data)
}

// quarantineBytes returns the bytes the quarantined mails take together.
func (tx *Tx) quarantineBytes() (int64, error) {
	if v := tx.bucket(bucketMeta).Get(keyQuarantineBytes); v != nil {
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err == nil {
			return n, nil
		}
	}
	var n int64
	if b := tx.btx.bucket(bucketQuarantine); b != nil {
		err := b.ForEach(func(_, v []byte) error { n += int64(len(v)); return nil })
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// addQuarantineBytes adds n (less than 0 for a record removed) to the
// quarantine's bytes.
func (tx *Tx) addQuarantineBytes(n int64) error {
	total, err := tx.quarantineBytes()
	if err != nil {
		return err
	}
	return tx.bucket(bucketMeta).Put(keyQuarantineBytes, strconv.AppendInt(nil, max(total+n, 0), 10))
}

// PruneQuarantine deletes quarantined mails, the oldest first, while they
// were set aside before before or the quarantine holds more than maxBytes
// (no bound when 0), at most most of them, and returns how many it
// deleted. It reads only the records it deletes and the first it keeps,
// and of each only the fields before the mail itself. A record that does
// not read is deleted: no one can use it.
func (tx *Tx) PruneQuarantine(before time.Time, maxBytes int64, most int) (int, error) {
	b := tx.btx.bucket(bucketQuarantine)
	if b == nil {
		return 0, nil
	}
	total, err := tx.quarantineBytes()
	if err != nil {
		return 0, err
	}
	var old [][]byte
	var freed int64
	c := b.Cursor()
	for k, v := c.First(); k != nil && len(old) < most; k, v = c.Next() {
		over := maxBytes > 0 && total-freed > maxBytes
		if at, err := quarantinedAt(v); !over && err == nil && !at.Before(before) {
			break
		}
		old = append(old, append([]byte(nil), k...))
		freed += int64(len(v))
	}
	if len(old) == 0 {
		return 0, nil
	}
	if err := deleteKeys(b, old); err != nil {
		return 0, err
	}
	return len(old), tx.addQuarantineBytes(-freed)
}

// quarantinedAt reads the time a quarantined mail was set aside from its
// stored record, stopping there: the mail itself (up to the largest mail
// read) comes after it and is not read.
func quarantinedAt(v []byte) (time.Time, error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return time.Time{}, fmt.Errorf("store: quarantined mail: not a JSON object")
	}
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return time.Time{}, fmt.Errorf("store: quarantined mail: %w", err)
		}
		if name == "At" {
			var at time.Time
			if err := dec.Decode(&at); err != nil {
				return time.Time{}, fmt.Errorf("store: quarantined mail: %w", err)
			}
			return at, nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return time.Time{}, fmt.Errorf("store: quarantined mail: %w", err)
		}
	}
	return time.Time{}, fmt.Errorf("store: quarantined mail: no time")
}

// Quarantined returns the mails in quarantine, oldest first.
func (db *DB) Quarantined() ([]Quarantined, error) {
	var list []Quarantined
	err := db.View(func(tx *Tx) error {
		b := tx.btx.bucket(bucketQuarantine)
		if b == nil {
			return nil // a read-only file written before quarantine existed
		}
		return b.ForEach(func(k, v []byte) error {
			var q Quarantined
			if err := json.Unmarshal(v, &q); err != nil {
				tx.skip("quarantined mail", k, fmt.Errorf("%w: %w", ErrCorrupt, err))
				return nil
			}
			list = append(list, q)
			return nil
		})
	})
	return list, err
}
