package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A ReplyToken is what the store keeps of the secret token of one board
// mail: whom it went to, for which board and move. The token itself is
// never stored, only its SHA-256: a copy of the file plays no move.
type ReplyToken struct {
	User  string // the player the mail went to
	Kind  string // the game
	Board int
	Move  int // the number of the move due when the mail was sent
	// Account is a fingerprint of the account's password hash when the
	// mail was sent: a new password makes every older token of the
	// account worthless.
	Account string
	Expires time.Time
}

// The tokens' buckets are created on first write, as the counters' are:
// a file written before them needs no migration. bucketTokens maps the
// SHA-256 of a token to its ReplyToken; bucketTokenExpiry holds the
// big-endian Unix second of expiry followed by that hash, so that the sweep
// finds the expired tokens without reading the others.
var (
	bucketTokens      = []byte("reply-tokens")
	bucketTokenExpiry = []byte("reply-token-expiry")
)

func tokenHash(token []byte) []byte {
	sum := sha256.Sum256(token)
	return sum[:]
}

func expiryKey(at time.Time, hash []byte) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(max(at.Unix(), 0))), hash...)
}

// PutReplyToken stores the token's hash with what it stands for.
func (tx *Tx) PutReplyToken(token []byte, t *ReplyToken) error {
	if len(token) < 16 {
		return fmt.Errorf("store: a reply token has at least 16 bytes, not %d", len(token))
	}
	b, err := tx.btx.CreateBucketIfNotExists(bucketTokens)
	if err != nil {
		return fmt.Errorf("store: reply tokens: %w", err)
	}
	exp, err := tx.btx.CreateBucketIfNotExists(bucketTokenExpiry)
	if err != nil {
		return fmt.Errorf("store: reply tokens: %w", err)
	}
	data, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("store: reply token: %w", err)
	}
	h := tokenHash(token)
	if err := b.Put(h, data); err != nil {
		return err
	}
	return exp.Put(expiryKey(t.Expires, h), nil)
}

// ReplyToken returns what the token stands for, or ErrNotFound when the
// store holds no such token. An expired token not yet pruned is returned:
// the caller compares Expires with its clock.
func (tx *Tx) ReplyToken(token []byte) (*ReplyToken, error) {
	b := tx.btx.Bucket(bucketTokens)
	if b == nil {
		return nil, ErrNotFound
	}
	v := b.Get(tokenHash(token))
	if v == nil {
		return nil, ErrNotFound
	}
	var t ReplyToken
	if err := json.Unmarshal(v, &t); err != nil {
		return nil, fmt.Errorf("store: reply token: %w", err)
	}
	return &t, nil
}

// PruneReplyTokens deletes the tokens expired at now, the oldest first and
// at most as many as most, and returns how many. It reads only the expired
// ones.
func (tx *Tx) PruneReplyTokens(now time.Time, most int) (int, error) {
	b, exp := tx.btx.Bucket(bucketTokens), tx.btx.Bucket(bucketTokenExpiry)
	if b == nil || exp == nil {
		return 0, nil
	}
	return pruneExpired(b, exp, now, most, nil)
}

// pruneExpired takes from the expiry index exp at most most entries up to
// now (expiryKey) and deletes them and their records in b, but for a record
// that live (if not nil) finds alive: only its stale entry goes. It returns
// how many entries it took.
func pruneExpired(b, exp *bolt.Bucket, now time.Time, most int, live func(v []byte) bool) (int, error) {
	end := expiryKey(now, nil)
	var old [][]byte
	c := exp.Cursor()
	for k, _ := c.First(); k != nil && string(k[:8]) <= string(end) && len(old) < most; k, _ = c.Next() {
		old = append(old, append([]byte(nil), k...))
	}
	for _, k := range old {
		if live != nil {
			if v := b.Get(k[8:]); v != nil && live(v) {
				continue
			}
		}
		if err := b.Delete(k[8:]); err != nil {
			return 0, err
		}
	}
	return len(old), deleteKeys(exp, old)
}

// ReplyTokens counts the stored tokens, expired or not.
func (db *DB) ReplyTokens() (int, error) {
	n := 0
	err := db.View(func(tx *Tx) error {
		if b := tx.btx.Bucket(bucketTokens); b != nil {
			n = b.Stats().KeyN
		}
		return nil
	})
	return n, err
}
