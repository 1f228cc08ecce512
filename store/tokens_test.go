package store

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"time"
)

func TestReplyTokens(t *testing.T) {
	db := openTest(t)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	live := bytes.Repeat([]byte{1}, 16)
	old := bytes.Repeat([]byte{2}, 16)
	want := ReplyToken{User: "alice", Kind: "ultima", Board: 101, Move: 3, Account: "f00d", Expires: now.Add(time.Hour)}
	err := db.Update(func(tx *Tx) error {
		if _, err := tx.ReplyToken(live); !errors.Is(err, ErrNotFound) {
			t.Errorf("a token in an empty store: %v, want ErrNotFound", err)
		}
		if err := tx.PutReplyToken(live, &want); err != nil {
			return err
		}
		if err := tx.PutReplyToken([]byte("short"), &want); err == nil {
			t.Errorf("a 5-byte token was stored")
		}
		return tx.PutReplyToken(old, &ReplyToken{User: "bob", Expires: now.Add(-time.Minute)})
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := db.ReplyTokens(); err != nil || n != 2 {
		t.Fatalf("ReplyTokens = %d, %v; want 2", n, err)
	}
	err = db.Update(func(tx *Tx) error {
		got, err := tx.ReplyToken(live)
		if err != nil || got.User != want.User || got.Board != 101 || got.Move != 3 || got.Account != "f00d" || !got.Expires.Equal(want.Expires) {
			t.Errorf("ReplyToken = %+v, %v; want %+v", got, err, want)
		}
		if _, err := tx.ReplyToken(bytes.Repeat([]byte{3}, 16)); !errors.Is(err, ErrNotFound) {
			t.Errorf("a forged token: %v, want ErrNotFound", err)
		}
		n, err := tx.PruneReplyTokens(now)
		if n != 1 || err != nil {
			t.Errorf("PruneReplyTokens = %d, %v; want the one expired", n, err)
		}
		if _, err := tx.ReplyToken(old); !errors.Is(err, ErrNotFound) {
			t.Errorf("a pruned token is still found: %v", err)
		}
		if _, err := tx.ReplyToken(live); err != nil {
			t.Errorf("the live token was pruned: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Only the hash is kept: the file holds no token.
	db.Close()
	data, err := os.ReadFile(db.path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, live) {
		t.Errorf("the store file holds a token in clear")
	}
}
