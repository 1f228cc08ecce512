package store

import (
	"bytes"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A record that does not decode is an ErrCorrupt where it is read by its
// key, and is passed over by the listings, logged once a process: the
// outbox still sends the other mails, the lists still show the others.
func TestListingsPassOverCorrupt(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	db, err := Open(filepath.Join(t.TempDir(), FileName), &Options{NoSync: true, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	update(t, db, func(tx *Tx) error {
		for _, id := range []string{"alice", "bob", "carol"} {
			if err := tx.PutUser(&User{ID: id, Addresses: []string{id + "@example.org"}, PasswordHash: "h"}); err != nil {
				return err
			}
		}
		for n := 101; n <= 103; n++ {
			if err := tx.PutGame(&Game{Kind: "tanbo", Board: n, Seats: []string{"alice", "bob"}}); err != nil {
				return err
			}
			m := &Outgoing{From: "pbem@example.org", To: []string{"alice@example.org"}, Data: []byte("mail"), Queued: now}
			if err := tx.Enqueue(m); err != nil {
				return err
			}
			q := &Quarantined{Key: string(rune('a' + n)), At: now, Data: []byte("mail")}
			if err := tx.Quarantine(q); err != nil {
				return err
			}
		}
		return nil
	})
	update(t, db, func(tx *Tx) error {
		for _, err := range []error{tx.CorruptUser("Bob"), tx.CorruptGame("tanbo", 102), tx.CorruptOutgoing(2),
			tx.btx.bucket(bucketQuarantine).Put(outKey(2), garbage)} {
			if err != nil {
				return err
			}
		}
		if err := tx.CorruptGame("tanbo", 999); !errors.Is(err, ErrNotFound) {
			t.Errorf("corrupting a board that is not there: %v", err)
		}
		return nil
	})

	err = db.View(func(tx *Tx) error {
		if _, err := tx.Game("tanbo", 102); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Game of the corrupt board: %v; want ErrCorrupt", err)
		}
		if _, err := tx.User("bob"); !errors.Is(err, ErrCorrupt) {
			t.Errorf("User of the corrupt user: %v; want ErrCorrupt", err)
		}
		if _, err := tx.Outgoing(2); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Outgoing of the corrupt mail: %v; want ErrCorrupt", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // logged once, however often listed
		pending, err := db.Pending(now, 0, 0)
		if err != nil || len(pending) != 2 || pending[0].ID != 1 || pending[1].ID != 3 {
			t.Errorf("Pending: %d mails, %v; want 1 and 3", len(pending), err)
		}
		queue, err := db.Queue(0)
		if err != nil || len(queue) != 2 {
			t.Errorf("Queue: %d mails, %v; want 2", len(queue), err)
		}
		quarantined, err := db.Quarantined()
		if err != nil || len(quarantined) != 2 {
			t.Errorf("Quarantined: %d mails, %v; want 2", len(quarantined), err)
		}
		err = db.View(func(tx *Tx) error {
			var users []string
			if err := tx.Users(func(u *User) error { users = append(users, u.ID); return nil }); err != nil {
				return err
			}
			if strings.Join(users, " ") != "alice carol" {
				t.Errorf("Users: %q; want alice and carol", users)
			}
			games, err := tx.GamesBefore("tanbo", 200, 10)
			if err != nil || len(games) != 2 || games[0].Board != 103 || games[1].Board != 101 {
				t.Errorf("GamesBefore: %d boards, %v; want 103 and 101", len(games), err)
			}
			n := 0
			if err := tx.Games("tanbo", func(*Game) error { n++; return nil }); err != nil || n != 2 {
				t.Errorf("Games: %d boards, %v; want 2", n, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 4 {
		t.Errorf("logged %d lines; want one for each of the 4 corrupt records:\n%s", len(lines), logs.String())
	}
	for _, l := range lines {
		if !strings.Contains(l, "level=ERROR") || !strings.Contains(l, "does not decode") {
			t.Errorf("log line %q", l)
		}
	}
}
