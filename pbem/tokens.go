package pbem

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pbemd/pbemd/store"
)

// The tokens of the return path (bounces.go) and of List-Unsubscribe
// (unsubscribe.go) are not stored: each is an HMAC, with a secret kept in
// the store, over what it acts on (the address, and the board or the day),
// so that nobody without the data file can make one, one made for an
// address acts for that address alone, and a board mail in copies to a
// hundred watchers needs no record per copy. The outbox puts them on each
// recipient's copy as it leaves (Tokens.Stamp).

const (
	tokenSecret = "tokens" // the name of the HMAC key in the store
	// macChars is the length of a token's HMAC in base32: 80 bits, too
	// many to guess within any sender's limits.
	macChars = 16

	bounceTokenPrefix = "b."
	unsubTokenPrefix  = "u."
)

// Tokens makes and checks the return path and List-Unsubscribe tokens.
// Its methods are safe for concurrent use.
type Tokens struct {
	db  *store.DB
	cfg Config

	mu  sync.Mutex
	key []byte // the HMAC key, once read
}

// NewTokens returns the tokens of the service configured by cfg on db.
func NewTokens(db *store.DB, cfg Config) *Tokens {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Tokens{db: db, cfg: cfg}
}

// secret returns the HMAC key: from tx when given (a request's own
// transaction: no other may be opened in it), else from a transaction of
// its own, made on first use. Only a key read from a committed
// transaction is kept: one made in a request's transaction that then
// rolls back is no key. The lock is not held while the store is read:
// the outbox's first stamp may wait for the write transaction of a
// request that is itself asking for the key.
func (t *Tokens) secret(tx *store.Tx) ([]byte, error) {
	t.mu.Lock()
	key := t.key
	t.mu.Unlock()
	if key != nil {
		return key, nil
	}
	var err error
	if tx != nil {
		if key, err = tx.Secret(tokenSecret); err != nil {
			return nil, fmt.Errorf("the key of the mail tokens: %w", err)
		}
		return key, nil
	}
	err = t.db.Update(func(tx *store.Tx) error {
		key, err = tx.Secret(tokenSecret)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("the key of the mail tokens: %w", err)
	}
	t.mu.Lock()
	t.key = key
	t.mu.Unlock()
	return key, nil
}

// mac is the HMAC of the parts under key, in base32, macChars long.
func mac(key []byte, parts ...string) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(strings.Join(parts, "\x00")))
	return tokenEncoding.EncodeToString(h.Sum(nil))[:macChars]
}

// tokenAddress is the address pattern (a local part with
// ReplyTokenPlace) with the token in its place.
func tokenAddress(pattern, token string) string {
	return strings.Replace(pattern, ReplyTokenPlace, token, 1)
}

// tokenOf returns the token of addr when addr is the pattern with a token
// in its place, or "". The pattern's case does not matter: some servers
// fold a local part to lower case.
func tokenOf(pattern, addr string) string {
	before, after, ok := strings.Cut(strings.ToLower(pattern), ReplyTokenPlace)
	addr = strings.ToLower(strings.TrimSpace(addr))
	if !ok || len(addr) <= len(before)+len(after) || !strings.HasPrefix(addr, before) || !strings.HasSuffix(addr, after) {
		return ""
	}
	return addr[len(before) : len(addr)-len(after)]
}

// unsubscribePattern is the address pattern the unsubscribe mails go to:
// the return path's, else the reply address's; "" when neither is set.
func (c *Config) unsubscribePattern() string {
	if c.Bounces.ReturnPath != "" {
		return c.Bounces.ReturnPath
	}
	return c.ReplyAddress
}

// Stamp returns the envelope sender of one recipient's copy of m and the
// header fields it gets as it leaves, as name, value pairs. The sender is
// the return path with a token of the recipient and the day (bounces.go)
// when Bounces.ReturnPath is set, else m.From. A board's mail to its
// watchers (m.List) gets List-Unsubscribe (RFC 2369), and with a web view
// List-Unsubscribe-Post (RFC 8058), for that board and recipient. The
// fields are covered by the DKIM signature (mailauth), which RFC 8058 asks
// for.
func (t *Tokens) Stamp(m *store.Outgoing, to string) (from string, fields []string, err error) {
	from = m.From
	if t.cfg.Bounces.ReturnPath == "" && m.List == "" {
		return from, nil, nil
	}
	key, err := t.secret(nil)
	if err != nil {
		return "", nil, err
	}
	if t.cfg.Bounces.ReturnPath != "" {
		from = tokenAddress(t.cfg.Bounces.ReturnPath, bounceToken(key, to, t.cfg.Now()))
	}
	if m.List != "" {
		if v, post := t.cfg.listUnsubscribe(key, m.List, to); v != "" {
			fields = append(fields, "List-Unsubscribe", v)
			if post {
				fields = append(fields, "List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
			}
		}
	}
	return from, fields, nil
}

// epochDay is the number of the day of t since 1970, in UTC.
func epochDay(t time.Time) int64 { return t.Unix() / 86400 }

// parseDay reads a day number of a token.
func parseDay(s string) (int64, bool) {
	d, err := strconv.ParseInt(s, 10, 64)
	return d, err == nil && d > 0 && len(s) <= 8
}
