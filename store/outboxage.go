package store

import "time"

// OutboxWaiting returns the number of mails in the outbox and when the
// oldest of them was queued (zero when there is none), for the daemon's
// metrics. Like OutboxLen it counts key by key.
func (db *DB) OutboxWaiting() (n int, oldest time.Time, err error) {
	err = db.View(func(tx *Tx) error {
		c := tx.bucket(bucketOutbox).Cursor()
		k, v := c.First()
		if k == nil {
			return nil
		}
		// Keys are in the order queued: the first is the oldest.
		if m, err := decodeOutgoing(v); err == nil {
			oldest = m.Queued
		}
		for ; k != nil; k, _ = c.Next() {
			n++
		}
		return nil
	})
	return n, oldest, err
}
