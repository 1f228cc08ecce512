package store

import (
	"slices"
	"testing"
	"time"
)

// The sender's look for due mail, with some mails waiting for a retry,
// answers as before and reads the retry entries in one walk beside the
// mails: on etcd a few requests, not one a mail.
func TestPendingWalksRetries(t *testing.T) {
	t.Parallel()
	c := etcdConfig(t)
	db := openEtcdTest(t, c)
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	err := db.Update(func(tx *Tx) error {
		for range 50 {
			if err := tx.Enqueue(&Outgoing{From: "pbem@x.test", To: []string{"p@x.test"}, Data: []byte("board"), Queued: now}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Every fifth waits an hour; one is due again already.
	for id := uint64(5); id <= 50; id += 5 {
		next := now.Add(time.Hour)
		if id == 25 {
			next = now
		}
		if err := db.Defer(id, now, next, "452 mailbox full"); err != nil {
			t.Fatal(err)
		}
	}
	db = openEtcdTest(t, c) // another node: nothing cached
	before := requests(db)
	due, err := db.Pending(now, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint64
	for _, m := range due {
		got = append(got, m.ID)
	}
	var want []uint64
	for id := uint64(1); id <= 50; id++ {
		if id%5 != 0 || id == 25 {
			want = append(want, id)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("Pending = %v, want %v", got, want)
	}
	if n := requests(db) - before; n > 3 {
		t.Errorf("Pending of 50 mails took %d requests, want at most 3 (markers, mails, retries)", n)
	}
}
