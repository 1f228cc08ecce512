package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strconv"
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
		n, err := tx.PruneReplyTokens(now, 100)
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

// BenchmarkReplyToken measures what a move by reply costs the store: two
// tokens stored (one per player's board mail) and one looked up, in a store
// that already holds 100,000 tokens, inside one transaction per move as
// the service runs it (without fsync, to show the work, not the disk).
func BenchmarkReplyToken(b *testing.B) {
	db, err := Open(filepath.Join(b.TempDir(), FileName), &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	token := func(i int) []byte {
		t := make([]byte, 16)
		binary.BigEndian.PutUint64(t, uint64(i))
		return t
	}
	err = db.Update(func(tx *Tx) error {
		for i := range 100000 {
			if err := tx.PutReplyToken(token(i), &ReplyToken{User: "alice", Kind: "tanbo", Board: 101 + i/40, Move: i % 40, Account: "0123456789abcdef", Expires: now.Add(time.Duration(i) * time.Second)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	// "empty" is the commit of a transaction that changes one note, for
	// comparison: "tokens" adds the lookup and the two tokens.
	b.Run("empty", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := db.Update(func(tx *Tx) error { return tx.SetNote("bench", strconv.Itoa(i)) }); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tokens", func(b *testing.B) { benchTokens(b, db, now, token) })
}

func benchTokens(b *testing.B, db *DB, now time.Time, token func(int) []byte) {
	for i := 0; i < b.N; i++ {
		err := db.Update(func(tx *Tx) error {
			if err := tx.SetNote("bench", strconv.Itoa(i)); err != nil {
				return err
			}
			if _, err := tx.ReplyToken(token(i * 7 % 100000)); err != nil {
				return err
			}
			for k := range 2 {
				t := &ReplyToken{User: "bob", Kind: "tanbo", Board: 101, Move: i, Account: "0123456789abcdef", Expires: now.Add(60 * 24 * time.Hour)}
				if err := tx.PutReplyToken(token(200000+2*i+k), t); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
