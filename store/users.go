package store

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// A User is an account.
type User struct {
	ID           string   // lower case, the key
	Name         string   // as written at signup (case kept)
	PasswordHash string   // never the password
	Addresses    []string // where mail goes; first is primary
	Created      time.Time
	Extra        map[string]string `json:",omitempty"` // room for later settings

	// Per game kind (the game's name): ratings, refused challenges, the
	// most active games allowed, and the kinds whose every end he is told.
	Ratings     map[string]*Rating `json:",omitempty"`
	Refuses     []string           `json:",omitempty"`
	Limits      map[string]int     `json:",omitempty"`
	NotifyKinds []string           `json:",omitempty"`
	// SubscribeKinds are the kinds each of whose new boards he subscribes to.
	SubscribeKinds []string   `json:",omitempty"`
	Vacations      []Vacation `json:",omitempty"` // oldest first

	// Unconfirmed are addresses given for the account that have not
	// confirmed yet: they get their confirmation mail and nothing else, and
	// are not in the address index.
	Unconfirmed []Unconfirmed `json:",omitempty"`

	// Verifier proves a password right without a bcrypt: a keyed hash
	// (HMAC-SHA-256) of the id, the PasswordHash and the password, under a
	// key the service keeps outside the store. Empty until the password
	// first checks out with a key set.
	Verifier string `json:",omitempty"`
}

// An Unconfirmed address waits for the code mailed to it.
type Unconfirmed struct {
	Address  string
	CodeHash string // SHA-256 of the code, hex; never the code
	Sent     time.Time
}

// A Rating is a player's standing in one kind of game.
type Rating struct {
	Rating           float64
	Games            int // rated games finished
	Won, Lost, Drawn int
	ProvisionalSum   float64 `json:",omitempty"` // sum of the game values while provisional
}

// A Vacation is a time a user is away: no reminders, no forfeits, and the
// clock of his boards does not run.
type Vacation struct {
	From, Until time.Time
}

// Keys: users by lower-case id; the address index by lower-case address,
// a zero byte and the user id, so that several users may share an address.

// checkKey refuses a key part that is empty or would break the composite
// keys of the indexes.
func checkKey(what, s string) error {
	if s == "" {
		return fmt.Errorf("store: empty %s", what)
	}
	if strings.IndexByte(s, 0) >= 0 {
		return fmt.Errorf("store: %s %q contains a zero byte", what, s)
	}
	return nil
}

func normAddr(addr string) string { return strings.ToLower(strings.TrimSpace(addr)) }

func addrKey(addr, id string) []byte { return []byte(addr + "\x00" + id) }

// User returns the user with the given id, in any case, or ErrNotFound.
func (tx *Tx) User(id string) (*User, error) {
	v := tx.bucket(bucketUsers).Get([]byte(strings.ToLower(id)))
	if v == nil {
		return nil, fmt.Errorf("user %q: %w", id, ErrNotFound)
	}
	return decodeUser(id, v)
}

// UserAddresses returns the addresses of the user with the id, or an
// ErrNotFound error. The store remembers the addresses of the users last
// asked for with the record they were read from, so that a user mailed
// again (a notifier of every game's end, a subscriber, a player) costs no
// decode while his record reads the same bytes. The slice is shared: do
// not change it.
func (tx *Tx) UserAddresses(id string) ([]string, error) {
	key := strings.ToLower(id)
	v := tx.bucket(bucketUsers).Get([]byte(key))
	if v == nil {
		return nil, fmt.Errorf("user %q: %w", id, ErrNotFound)
	}
	if a, ok := tx.book.get(key, v); ok {
		return a, nil
	}
	u, err := decodeUser(key, v)
	if err != nil {
		return nil, err
	}
	tx.book.put(key, v, u.Addresses)
	return u.Addresses, nil
}

// An addressBook holds users' addresses with the record each was read
// from; a record that reads otherwise now misses. It is shared by every
// transaction; a rolled-back write can leave an entry only for bytes that
// are not stored, which no read then finds.
type addressBook struct {
	mu sync.Mutex
	m  map[string]addressEntry
}

type addressEntry struct {
	record []byte
	addrs  []string
}

// addressBookSize bounds the users the book holds: some 2 MB of records.
const addressBookSize = 2000

func (b *addressBook) get(id string, record []byte) ([]string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.m[id]
	if !ok || !bytes.Equal(e.record, record) {
		return nil, false
	}
	return e.addrs, true
}

func (b *addressBook) put(id string, record []byte, addrs []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string]addressEntry{}
	}
	if _, ok := b.m[id]; !ok && len(b.m) >= addressBookSize {
		for k := range b.m { // full: one leaves, any one
			delete(b.m, k)
			break
		}
	}
	b.m[id] = addressEntry{record: bytes.Clone(record), addrs: addrs}
}

// PutUser stores u under its id, lower-casing u.ID first, and keeps the
// address index in step with u.Addresses.
func (tx *Tx) PutUser(u *User) error {
	u.ID = strings.ToLower(u.ID)
	if err := checkKey("user id", u.ID); err != nil {
		return err
	}
	for _, a := range u.Addresses {
		if err := checkKey("address", normAddr(a)); err != nil {
			return fmt.Errorf("%w of user %q", err, u.ID)
		}
	}
	old, err := tx.User(u.ID)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	data, err := encodeUser(u)
	if err != nil {
		return fmt.Errorf("store: user %q: %w", u.ID, err)
	}
	if err := tx.bucket(bucketUsers).Put([]byte(u.ID), data); err != nil {
		return err
	}
	// Only the entries missing are written: a user stored for his ratings
	// or his vacation rewrites no index page, and one whose entry was lost
	// gets it back.
	addrs := tx.bucket(bucketAddrs)
	keep := make(map[string]bool)
	for _, a := range u.Addresses {
		keep[normAddr(a)] = true
	}
	had := make(map[string]bool)
	if old != nil {
		for _, a := range old.Addresses {
			a = normAddr(a)
			had[a] = true
			if !keep[a] {
				if err := addrs.Delete(addrKey(a, u.ID)); err != nil {
					return err
				}
			}
		}
	}
	for a := range keep {
		if had[a] && hasKey(addrs, addrKey(a, u.ID)) {
			continue
		}
		if err := addrs.Put(addrKey(a, u.ID), nil); err != nil {
			return err
		}
	}
	return tx.reindex(tx.userEntries(old), tx.userEntries(u))
}

// DeleteUser removes the user and its addresses from the index. It returns
// ErrNotFound when there is no such user. Games keep the id in their seats.
func (tx *Tx) DeleteUser(id string) error {
	u, err := tx.User(id)
	if err != nil {
		return err
	}
	addrs := tx.bucket(bucketAddrs)
	for _, a := range u.Addresses {
		if err := addrs.Delete(addrKey(normAddr(a), u.ID)); err != nil {
			return err
		}
	}
	if err := tx.reindex(tx.userEntries(u), nil); err != nil {
		return err
	}
	return tx.bucket(bucketUsers).Delete([]byte(u.ID))
}

// UserByAddress returns the user registered with the mail address addr,
// compared without regard to case, or ErrNotFound. When several users
// share the address it returns the one with the smallest id.
func (tx *Tx) UserByAddress(addr string) (*User, error) {
	ids := tx.idsByAddress(addr, 1)
	if len(ids) == 0 {
		return nil, fmt.Errorf("address %q: %w", addr, ErrNotFound)
	}
	return tx.User(ids[0])
}

// KnownAddress reports whether a user is registered with the mail address
// addr. It reads the address index only.
func (tx *Tx) KnownAddress(addr string) bool { return len(tx.idsByAddress(addr, 1)) > 0 }

// UsersByAddress returns every user registered with the mail address addr,
// in id order; none is not an error.
func (tx *Tx) UsersByAddress(addr string) ([]*User, error) {
	var users []*User
	for _, id := range tx.idsByAddress(addr, 0) {
		u, err := tx.User(id)
		if err != nil {
			return nil, err
		}
		users = append(users, u)
	}
	return users, nil
}

// idsByAddress returns up to max (0: all) user ids indexed under addr.
func (tx *Tx) idsByAddress(addr string, max int) []string {
	a := normAddr(addr)
	if a == "" {
		return nil
	}
	prefix := []byte(a + "\x00")
	var ids []string
	c := tx.bucket(bucketAddrs).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		ids = append(ids, string(k[len(prefix):]))
		if max > 0 && len(ids) == max {
			break
		}
	}
	return ids
}

// Users calls fn for every user in id order, stopping at the first error
// fn returns, which Users then returns.
func (tx *Tx) Users(fn func(*User) error) error {
	return tx.bucket(bucketUsers).ForEach(func(k, v []byte) error {
		u, err := decodeUser(string(k), v)
		if errors.Is(err, ErrCorrupt) {
			tx.skip("user", k, err)
			return nil
		}
		if err != nil {
			return err
		}
		return fn(u)
	})
}

// hasKey reports whether b holds the key: index entries have empty values,
// which Get does not tell from a missing key.
func hasKey(b bucket, key []byte) bool {
	k, _ := b.Cursor().Seek(key)
	return bytes.Equal(k, key)
}
