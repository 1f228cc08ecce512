package store

import (
	"encoding/json"
	"fmt"
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
	// commands name masked (pbem's Quarantine).
	Data []byte
}

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
	return b.Put(outKey(id), data)
}

// Quarantined returns the mails in quarantine, oldest first.
func (db *DB) Quarantined() ([]Quarantined, error) {
	var list []Quarantined
	err := db.View(func(tx *Tx) error {
		b := tx.btx.Bucket(bucketQuarantine)
		if b == nil {
			return nil // a read-only file written before quarantine existed
		}
		return b.ForEach(func(_, v []byte) error {
			var q Quarantined
			if err := json.Unmarshal(v, &q); err != nil {
				return fmt.Errorf("store: quarantined mail: %w", err)
			}
			list = append(list, q)
			return nil
		})
	})
	return list, err
}
