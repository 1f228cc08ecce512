package store

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"
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
	// Spent is set when the token has played its command: a token
	// authorises one command, never a second.
	Spent bool
	// Boards is set for a digest's token, which answers several boards:
	// the boards it lists at their move numbers, "GAME BOARD MOVE" each,
	// separated by ";". Kind and Board are empty then.
	Boards string
}

// The tokens' buckets are created on first write, as the counters' are:
// a file written before them needs no migration.
//
// bucketTimedTokens holds the tokens NewReplyToken makes. Their first four
// bytes are their expiry, in minutes since 1970, and the next two the
// millisecond of that minute, big-endian; the bucket's key is those six
// bytes and the SHA-256 of the token. The tokens made together are stored
// together, after all the others, so that the commits of a backlog write
// a page or two of them each, not a page a token scattered over the
// bucket; and the expired ones are the bucket's first keys, found with no
// index of their own. Tokens made before the millisecond was added (four
// bytes of time, then the hash) are looked up under that key too, until
// they expire.
//
// bucketTokens holds the tokens made before, under the SHA-256 of the
// token alone, and bucketTokenExpiry the big-endian Unix second of their
// expiry followed by that hash; they are read and pruned until the last
// has expired.
var (
	bucketTimedTokens = []byte("reply-tokens-by-time")
	bucketTokens      = []byte("reply-tokens")
	bucketTokenExpiry = []byte("reply-token-expiry")
)

// TokenBytes is the length of a reply token.
const TokenBytes = 16

func tokenHash(token []byte) []byte {
	sum := sha256.Sum256(token)
	return sum[:]
}

func expiryKey(at time.Time, hash []byte) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(max(at.Unix(), 0))), hash...)
}

// tokenMinute is the minute of t, as a token's first four bytes hold it.
func tokenMinute(t time.Time) uint32 { return uint32(max(t.Unix(), 0) / 60) }

// timedKey is a token's key in bucketTimedTokens; minuteKey the key of a
// token made before the millisecond was.
func timedKey(token []byte) []byte  { return append(token[:6:6], tokenHash(token)...) }
func minuteKey(token []byte) []byte { return append(token[:4:4], tokenHash(token)...) }

// NewReplyToken makes a token that stands for t: its expiry's minute and
// millisecond, and 80 bits from crypto/rand. Only its hash is stored.
func (tx *Tx) NewReplyToken(t *ReplyToken) ([]byte, error) {
	b, err := tx.btx.createBucket(bucketTimedTokens)
	if err != nil {
		return nil, fmt.Errorf("store: reply tokens: %w", err)
	}
	data, err := encodeToken(t)
	if err != nil {
		return nil, fmt.Errorf("store: reply token: %w", err)
	}
	token := make([]byte, TokenBytes)
	binary.BigEndian.PutUint32(token, tokenMinute(t.Expires))
	binary.BigEndian.PutUint16(token[4:], uint16(max(t.Expires.UnixMilli(), 0)%60000))
	rand.Read(token[6:]) // never fails (crypto/rand, Go 1.24+)
	if err := b.Put(timedKey(token), data); err != nil {
		return nil, err
	}
	return token, nil
}

// ReplyToken returns what the token stands for, or ErrNotFound when the
// store holds no such token. An expired token not yet pruned is returned:
// the caller compares Expires with its clock.
func (tx *Tx) ReplyToken(token []byte) (*ReplyToken, error) {
	_, _, t, err := tx.findToken(token)
	return t, err
}

// SpendReplyToken marks the token spent, in the transaction that runs its
// command: ReplyToken reports it Spent from then on, until it expires. A
// token the store does not hold is ErrNotFound.
func (tx *Tx) SpendReplyToken(token []byte) error {
	b, key, t, err := tx.findToken(token)
	if err != nil {
		return err
	}
	t.Spent = true
	data, err := encodeToken(t)
	if err != nil {
		return fmt.Errorf("store: reply token: %w", err)
	}
	return b.Put(key, data)
}

// findToken returns the bucket, key and record of a token, or ErrNotFound:
// the tokens NewReplyToken makes first, then those made before.
func (tx *Tx) findToken(token []byte) (bucket, []byte, *ReplyToken, error) {
	if len(token) != TokenBytes {
		return nil, nil, nil, ErrNotFound
	}
	b, key := tx.btx.bucket(bucketTimedTokens), timedKey(token)
	var v []byte
	if b != nil {
		if v = b.Get(key); v == nil {
			key = minuteKey(token)
			v = b.Get(key)
		}
	}
	if v == nil {
		b, key = tx.btx.bucket(bucketTokens), tokenHash(token)
		if b != nil {
			v = b.Get(key)
		}
	}
	if v == nil {
		return nil, nil, nil, ErrNotFound
	}
	var t ReplyToken
	var err error
	if isJSON(v) { // written before the binary form
		err = json.Unmarshal(v, &t)
	} else {
		err = readRecord(v, func(r *recordReader) { tokenFields(r, &t) })
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("store: reply token: %w: %w", ErrCorrupt, err)
	}
	return b, key, &t, nil
}

// A token is stored in the binary form of games and users (record.go):
// two are written a move, so their size is pages written. Field numbers
// are for ever.
func encodeToken(t *ReplyToken) ([]byte, error) {
	w := newRecordWriter(64)
	w.string(1, t.User)
	w.string(2, t.Kind)
	w.int(3, t.Board)
	w.int(4, t.Move)
	w.string(5, t.Account)
	w.time(6, t.Expires)
	w.bool(7, t.Spent)
	if t.Boards != "" {
		w.string(8, t.Boards)
	}
	return w.b, w.err
}

func tokenFields(r *recordReader, t *ReplyToken) {
	r.each(func(field, kind int) {
		switch field {
		case 1:
			t.User = r.string(kind)
		case 2:
			t.Kind = r.string(kind)
		case 3:
			t.Board = r.int(kind)
		case 4:
			t.Move = r.int(kind)
		case 5:
			t.Account = r.string(kind)
		case 6:
			t.Expires = r.time(kind)
		case 7:
			t.Spent = r.bool(kind)
		case 8:
			t.Boards = r.string(kind)
		default:
			r.skip(kind)
		}
	})
}

// PruneReplyTokens deletes the tokens expired at now, the oldest first and
// at most as many as most, and returns how many. It reads only the expired
// ones.
func (tx *Tx) PruneReplyTokens(now time.Time, most int) (int, error) {
	n := 0
	if b := tx.btx.bucket(bucketTimedTokens); b != nil {
		// A key's minute is its token's expiry, rounded down: one before
		// now's has expired.
		var old [][]byte
		c := b.Cursor()
		for k, _ := c.First(); k != nil && binary.BigEndian.Uint32(k) < tokenMinute(now) && len(old) < most; k, _ = c.Next() {
			old = append(old, append([]byte(nil), k...))
		}
		if err := deleteKeys(b, old); err != nil {
			return 0, err
		}
		n = len(old)
	}
	b, exp := tx.btx.bucket(bucketTokens), tx.btx.bucket(bucketTokenExpiry)
	if b == nil || exp == nil || n == most {
		return n, nil
	}
	m, err := pruneExpired(b, exp, now, most-n, nil)
	return n + m, err
}

// pruneExpired takes from the expiry index exp at most most entries up to
// now (expiryKey) and deletes them and their records in b, but for a record
// that live (if not nil) finds alive: only its stale entry goes. It returns
// how many entries it took.
func pruneExpired(b, exp bucket, now time.Time, most int, live func(v []byte) bool) (int, error) {
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
		for _, name := range [][]byte{bucketTimedTokens, bucketTokens} {
			if b := tx.btx.bucket(name); b != nil {
				n += b.KeyN()
			}
		}
		return nil
	})
	return n, err
}
