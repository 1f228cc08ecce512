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

// putOldToken stores a token as pbemd did before NewReplyToken: under
// the hash of a token of any 16 bytes, with an entry in the expiry index.
func putOldToken(tx *Tx, token []byte, t *ReplyToken) error {
	b, err := tx.btx.createBucket(bucketTokens)
	if err != nil {
		return err
	}
	exp, err := tx.btx.createBucket(bucketTokenExpiry)
	if err != nil {
		return err
	}
	data, err := encodeToken(t)
	if err != nil {
		return err
	}
	if err := b.Put(tokenHash(token), data); err != nil {
		return err
	}
	return exp.Put(expiryKey(t.Expires, tokenHash(token)), nil)
}

// putMinuteToken stores a token as NewReplyToken did before its key held
// the millisecond: its first four bytes are its expiry's minute, the rest
// anything.
func putMinuteToken(tx *Tx, token []byte, t *ReplyToken) error {
	b, err := tx.btx.createBucket(bucketTimedTokens)
	if err != nil {
		return err
	}
	binary.BigEndian.PutUint32(token, tokenMinute(t.Expires))
	data, err := encodeToken(t)
	if err != nil {
		return err
	}
	return b.Put(minuteKey(token), data)
}

// The tokens of a backlog's moves go after every token made before, in
// the order they were made, not each on a page of its own among them:
// made at later times, they are the bucket's last keys.
func TestReplyTokensStoredTogether(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	life := 60 * 24 * time.Hour
	update(t, db, func(tx *Tx) error {
		// An hour of earlier mail, a token every 100 ms.
		for i := range 36000 {
			if _, err := tx.NewReplyToken(&ReplyToken{User: "a", Expires: start.Add(life + time.Duration(i)*100*time.Millisecond)}); err != nil {
				return err
			}
		}
		return nil
	})
	now := start.Add(time.Hour)
	var made [][]byte
	update(t, db, func(tx *Tx) error {
		for i := range 200 {
			tok, err := tx.NewReplyToken(&ReplyToken{User: "b", Expires: now.Add(life + time.Duration(i)*time.Millisecond)})
			if err != nil {
				return err
			}
			made = append(made, timedKey(tok))
		}
		return nil
	})
	err := db.View(func(tx *Tx) error {
		c := tx.btx.bucket(bucketTimedTokens).Cursor()
		k, _ := c.Last()
		for i := len(made) - 1; i >= 0; i-- {
			if !bytes.Equal(k, made[i]) {
				t.Fatalf("key %d from the end is %x, want the token made %dth of the last transaction, %x", len(made)-i, k, i, made[i])
			}
			k, _ = c.Prev()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestReplyTokens(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	now := time.Date(2026, 11, 22, 12, 0, 30, 0, time.UTC)
	oldLive := bytes.Repeat([]byte{1}, 16)
	oldGone := bytes.Repeat([]byte{2}, 16)
	want := ReplyToken{User: "alice", Kind: "ultima", Board: 101, Move: 3, Account: "f00d", Expires: now.Add(time.Hour)}
	var live, gone, thisMinute []byte
	err := db.Update(func(tx *Tx) error {
		if _, err := tx.ReplyToken(oldLive); !errors.Is(err, ErrNotFound) {
			t.Errorf("a token in an empty store: %v, want ErrNotFound", err)
		}
		var err error
		if live, err = tx.NewReplyToken(&want); err != nil {
			return err
		}
		if gone, err = tx.NewReplyToken(&ReplyToken{User: "carol", Expires: now.Add(-2 * time.Minute)}); err != nil {
			return err
		}
		// Expiring later in the minute of now: not pruned yet, and
		// refused when used (the caller compares Expires).
		if thisMinute, err = tx.NewReplyToken(&ReplyToken{User: "dave", Expires: now.Add(10 * time.Second)}); err != nil {
			return err
		}
		if err := putOldToken(tx, oldLive, &want); err != nil {
			return err
		}
		return putOldToken(tx, oldGone, &ReplyToken{User: "bob", Expires: now.Add(-time.Minute)})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != TokenBytes || bytes.Equal(live[6:], gone[6:]) {
		t.Fatalf("tokens %x and %x: want %d bytes, random after the first 6", live, gone, TokenBytes)
	}
	if n, err := db.ReplyTokens(); err != nil || n != 5 {
		t.Fatalf("ReplyTokens = %d, %v; want 5", n, err)
	}
	err = db.Update(func(tx *Tx) error {
		for _, tok := range [][]byte{live, oldLive} {
			got, err := tx.ReplyToken(tok)
			if err != nil || got.User != want.User || got.Board != 101 || got.Move != 3 || got.Account != "f00d" || !got.Expires.Equal(want.Expires) {
				t.Errorf("ReplyToken(%x) = %+v, %v; want %+v", tok, got, err, want)
			}
		}
		forged := append([]byte(nil), live...)
		forged[15] ^= 1
		for _, tok := range [][]byte{forged, bytes.Repeat([]byte{3}, 16), live[:15], append(live, 0)} {
			if _, err := tx.ReplyToken(tok); !errors.Is(err, ErrNotFound) {
				t.Errorf("a forged token %x: %v, want ErrNotFound", tok, err)
			}
		}
		n, err := tx.PruneReplyTokens(now, 100)
		if n != 2 || err != nil {
			t.Errorf("PruneReplyTokens = %d, %v; want the two expired", n, err)
		}
		for _, tok := range [][]byte{gone, oldGone} {
			if _, err := tx.ReplyToken(tok); !errors.Is(err, ErrNotFound) {
				t.Errorf("a pruned token %x is still found: %v", tok, err)
			}
		}
		for _, tok := range [][]byte{live, oldLive, thisMinute} {
			if _, err := tx.ReplyToken(tok); err != nil {
				t.Errorf("the token %x was pruned: %v", tok, err)
			}
		}
		if n, err := tx.PruneReplyTokens(now.Add(time.Minute), 100); n != 1 || err != nil {
			t.Errorf("PruneReplyTokens a minute later = %d, %v; want the one expired in that minute", n, err)
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
	if bytes.Contains(data, live[6:]) || bytes.Contains(data, oldLive) {
		t.Errorf("the store file holds a token in clear")
	}
}

// Pruning takes at most the number asked, the new tokens first.
func TestPruneReplyTokensBounded(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	update(t, db, func(tx *Tx) error {
		for i := range 5 {
			if _, err := tx.NewReplyToken(&ReplyToken{User: "a", Expires: now.Add(-time.Duration(i+1) * time.Minute)}); err != nil {
				return err
			}
			if err := putOldToken(tx, bytes.Repeat([]byte{byte(i + 1)}, 16), &ReplyToken{User: "b", Expires: now.Add(-time.Hour)}); err != nil {
				return err
			}
		}
		return nil
	})
	for _, want := range []int{3, 3, 3, 1, 0} {
		update(t, db, func(tx *Tx) error {
			if n, err := tx.PruneReplyTokens(now, 3); n != want || err != nil {
				t.Errorf("PruneReplyTokens = %d, %v; want %d", n, err, want)
			}
			return nil
		})
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
	tokens := make([][]byte, 100000)
	err = db.Update(func(tx *Tx) error {
		for i := range tokens {
			var err error
			tokens[i], err = tx.NewReplyToken(&ReplyToken{User: "alice", Kind: "tanbo", Board: 101 + i/40, Move: i % 40, Account: "0123456789abcdef", Expires: now.Add(time.Duration(i) * time.Second)})
			if err != nil {
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
	b.Run("tokens", func(b *testing.B) { benchTokens(b, db, now, tokens) })
}

func benchTokens(b *testing.B, db *DB, now time.Time, tokens [][]byte) {
	for i := 0; i < b.N; i++ {
		err := db.Update(func(tx *Tx) error {
			if err := tx.SetNote("bench", strconv.Itoa(i)); err != nil {
				return err
			}
			if _, err := tx.ReplyToken(tokens[i*7%len(tokens)]); err != nil {
				return err
			}
			for range 2 {
				t := &ReplyToken{User: "bob", Kind: "tanbo", Board: 101, Move: i, Account: "0123456789abcdef", Expires: now.Add(60 * 24 * time.Hour)}
				if _, err := tx.NewReplyToken(t); err != nil {
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

// A spent token stays spent in later transactions, in each form the store
// has kept tokens in, and spending one spends no other; it is still pruned
// at its expiry.
func TestSpendReplyToken(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	tok := ReplyToken{User: "alice", Kind: "ultima", Board: 101, Move: 1, Account: "f00d", Expires: now.Add(time.Hour)}
	old := bytes.Repeat([]byte{1}, 16)
	oldJSON := bytes.Repeat([]byte{2}, 16)
	minute := bytes.Repeat([]byte{4}, 16)
	var spent, other []byte
	err := db.Update(func(tx *Tx) error {
		var err error
		if spent, err = tx.NewReplyToken(&tok); err != nil {
			return err
		}
		if other, err = tx.NewReplyToken(&tok); err != nil {
			return err
		}
		if err := putOldToken(tx, old, &tok); err != nil {
			return err
		}
		if err := putMinuteToken(tx, minute, &tok); err != nil {
			return err
		}
		// The first tokens were JSON, here one with no expiry entry.
		b := tx.btx.bucket(bucketTokens)
		return b.Put(tokenHash(oldJSON), []byte(`{"User":"bob","Kind":"ultima","Board":101,"Move":2,"Expires":"2026-11-22T13:00:00Z"}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		for _, tk := range [][]byte{spent, old, oldJSON, minute} {
			if err := tx.SpendReplyToken(tk); err != nil {
				t.Errorf("SpendReplyToken(%x): %v", tk, err)
			}
		}
		forged := append([]byte(nil), other...)
		forged[15] ^= 1
		if err := tx.SpendReplyToken(forged); !errors.Is(err, ErrNotFound) {
			t.Errorf("spending a token never made: %v, want ErrNotFound", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *Tx) error {
		for _, c := range []struct {
			tok   []byte
			user  string
			spent bool
		}{{spent, "alice", true}, {old, "alice", true}, {oldJSON, "bob", true}, {minute, "alice", true}, {other, "alice", false}} {
			got, err := tx.ReplyToken(c.tok)
			if err != nil || got.Spent != c.spent || got.User != c.user || got.Board != 101 || !got.Expires.Equal(tok.Expires) {
				t.Errorf("ReplyToken(%x) = %+v, %v; want %s's, spent %v", c.tok, got, err, c.user, c.spent)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		if n, err := tx.PruneReplyTokens(now.Add(2*time.Hour), 100); n != 4 || err != nil {
			t.Errorf("PruneReplyTokens = %d, %v; want the four keyed by expiry, spent or not", n, err)
		}
		for _, tk := range [][]byte{spent, minute} {
			if _, err := tx.ReplyToken(tk); !errors.Is(err, ErrNotFound) {
				t.Errorf("the spent token %x outlived its expiry: %v", tk, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDigestTokenBoards: a digest's token keeps the boards it answers,
// spent or not: the boards are what it may play, so losing them would
// play nothing, and keeping them after a spend must not revive it.
func TestDigestTokenBoards(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	want := ReplyToken{User: "alice", Account: "f00d", Boards: "ultima 101 3;tanbo 102 7",
		Expires: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	err := db.Update(func(tx *Tx) error {
		tok, err := tx.NewReplyToken(&want)
		if err != nil {
			return err
		}
		if got, err := tx.ReplyToken(tok); err != nil || *got != want {
			t.Errorf("ReplyToken = %+v, %v; want %+v", got, err, want)
		}
		if err := tx.SpendReplyToken(tok); err != nil {
			return err
		}
		got, err := tx.ReplyToken(tok)
		if err != nil || !got.Spent || got.Boards != want.Boards {
			t.Errorf("after a spend: %+v, %v; want spent with boards %q", got, err, want.Boards)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
