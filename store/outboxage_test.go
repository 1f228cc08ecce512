package store

import (
	"testing"
	"time"
)

// The metrics' look at the outbox: how many replies wait, and since when
// the oldest.
func TestOutboxWaiting(t *testing.T) {
	db := openTest(t)
	if n, oldest, err := db.OutboxWaiting(); n != 0 || !oldest.IsZero() || err != nil {
		t.Errorf("empty outbox: %d, %v, %v; want 0 and no time", n, oldest, err)
	}
	first := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	update(t, db, func(tx *Tx) error {
		for i := range 3 {
			m := &Outgoing{From: "pbem@example.org", To: []string{"alice@example.org"}, Data: []byte("x"), Queued: first.Add(time.Duration(i) * time.Hour)}
			if err := tx.Enqueue(m); err != nil {
				return err
			}
		}
		return nil
	})
	n, oldest, err := db.OutboxWaiting()
	if n != 3 || !oldest.Equal(first) || err != nil {
		t.Errorf("three waiting: %d, %v, %v; want 3 since %v", n, oldest, err, first)
	}
}
