package pbem

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// signup userid password [address ...] [language]
func (c *cmd) signup(args []string) error {
	if len(args) < 2 {
		return c.usage("signup userid password [address ...] [language]")
	}
	id, password := args[0], args[1]
	// A last word that is no address but a language offered here is the
	// language of the account's mails, its welcome first among them.
	lang, rest := "", args[2:]
	if n := len(rest); n > 0 && !strings.Contains(rest[n-1], "@") {
		if l, ok := templates.Language(rest[n-1]); ok {
			lang, rest = l, rest[:n-1]
		}
	}
	c.r.checked(password, true)
	if err := checkUserID(id); err != nil {
		return err
	}
	if err := checkPassword(password); err != nil {
		return err
	}
	set, err := c.addresses(rest, nil)
	if err != nil {
		return err
	}
	if _, err := c.r.tx.User(id); err == nil {
		return fail("The user id %s is taken; choose another one", id)
	} else if !errNotFound(err) {
		return err
	}
	// The welcome goes to an address that belonged to no one (the From may
	// be forged): it is charged to the strangers' budget like a how-to note.
	// With that budget spent, nothing could answer the signup: it is
	// dropped before any other work.
	// An authenticated sender is no one's forged victim: his welcome is
	// not charged.
	stranger := false
	if _, err := c.r.tx.UserByAddress(c.r.sender()); errNotFound(err) {
		stranger = !c.r.authenticated()
	} else if err != nil {
		return err
	}
	if stranger {
		if spent, err := c.r.strangersSpent(); err != nil {
			return err
		} else if spent {
			return &failure{Msg: "signup refused: the budget of mails to strangers is spent", silent: true}
		}
	}
	if err := c.r.allowSignup(); err != nil {
		return err
	}
	if stranger {
		ok, err := c.r.allowStranger(c.r.sender())
		if err != nil {
			return err
		}
		if !ok {
			return &failure{Msg: "signup refused: the budget of mails to strangers is spent", silent: true}
		}
	}
	if !c.r.authenticated() && c.r.mail != nil && !c.r.s.passwords.hashedAhead(password) {
		// The batch had its share of a stranger's hashes before the
		// lock (preverify), and they never run under it.
		return fail("This server is making many new accounts at once just now and set this one aside; send the signup again in a few minutes")
	}
	hash, err := c.r.newHash(password)
	if err != nil {
		return err
	}
	u := &store.User{ID: strings.ToLower(id), Name: id, PasswordHash: hash, Created: c.r.now,
		Extra: map[string]string{unusedKey: "1"}}
	if lang != "" {
		u.Extra[languageKey] = lang
	}
	if err := c.r.ask(u, set); err != nil {
		return err
	}
	if err := c.r.tx.PutUser(u); err != nil {
		return err
	}
	if err := c.r.tx.SetNote(unusedNote(u), ""); err != nil {
		return err
	}
	data := set.data(c.r.sender())
	data["User"], data["Help"] = u, c.r.s.helpData()
	return c.r.tellUser(u, "pbemd: welcome "+u.Name, "signup", data)
}

// change password userid old new | change address userid password [address ...]
func (c *cmd) change(args []string) error {
	if len(args) == 0 {
		return c.usage("change password userid old new, or change address userid password [address ...]")
	}
	switch strings.ToLower(args[0]) {
	case "password":
		if len(args) != 4 {
			return c.usage("change password userid old new")
		}
		u, err := c.r.auth(args[1], args[2])
		if err != nil {
			return err
		}
		c.r.checked(args[3], true)
		if err := checkPassword(args[3]); err != nil {
			return err
		}
		if err := c.r.setPassword(u, args[3]); err != nil {
			return err
		}
		return c.r.tellUser(u, "pbemd: password changed", "password", map[string]any{"User": u})
	case "address":
		if len(args) < 3 {
			return c.usage("change address userid password [address ...]")
		}
		u, err := c.r.auth(args[1], args[2])
		if err != nil {
			return err
		}
		set, err := c.addresses(args[3:], u)
		if err != nil {
			return err
		}
		old := u.Addresses
		if err := c.r.ask(u, set); err != nil {
			return err
		}
		if err := c.r.tx.PutUser(u); err != nil {
			return err
		}
		// The old addresses hear of the change too: a stolen account shows.
		data := set.data(c.r.sender())
		data["User"], data["Old"] = u, old
		return c.r.tellUser(u, "pbemd: address changed for "+u.Name, "address", data, old...)
	default:
		return fail("%q cannot be changed; write change password userid old new, or change address userid password [address ...]", args[0])
	}
}

// signoff userid password: the account goes, its running games are forfeited.
func (c *cmd) signoff(args []string) error {
	if len(args) != 2 {
		return c.usage("signoff userid password")
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	refs, err := c.r.tx.GamesOf(u.ID)
	if err != nil {
		return err
	}
	var forfeited []string
	for _, ref := range refs {
		b, err := c.r.loadBoard(ref.Kind, ref.Board)
		if err != nil {
			return err
		}
		if b.rec.Over {
			continue
		}
		seat := b.seatOf(u.ID)
		if b.open() || !b.hasMoved(seat) {
			// Nobody has joined, or he has not moved yet: he withdraws, as by resign.
			if err := c.r.withdraw(b, seat, nil, fmt.Sprintf("%s signed off.", u.Name)); err != nil {
				return err
			}
			continue
		}
		b.end(c.r.now, rules.Win(1-seat, u.Name+" signed off"))
		if err := c.r.saveAndAnnounce(b, nil, c.r.say("%s signed off and forfeits this game.", u.Name)); err != nil {
			return err
		}
		forfeited = append(forfeited, fmt.Sprintf("%s board %d", b.game.Title(), b.rec.Board))
	}
	if err := c.r.tellUser(u, "pbemd: goodbye "+u.Name, "signoff", map[string]any{"User": u, "Forfeited": forfeited}); err != nil {
		return err
	}
	return c.r.tx.DeleteUser(u.ID)
}

// auth checks a user id and password. A wrong password counts towards the
// sender's limit and the account's; an account locked by too many is not
// checked at all, and the command is ignored (passwordLocked).
func (r *request) auth(id, password string) (*store.User, error) {
	if r.replyAs != "" && strings.EqualFold(id, r.replyAs) {
		return r.tx.User(r.replyAs) // a reply's token stands for the password
	}
	r.secret(password)
	r.outcome.user = strings.ToLower(id)
	u, err := r.tx.User(id)
	if errNotFound(err) {
		return nil, fail("There is no user %q; check the spelling, or sign up first with \"signup %s PASSWORD\"", id, id)
	}
	if err != nil {
		return nil, err
	}
	if r.robot != "" && u.ID == r.robot && isRobot(u) {
		return u, nil // robots have no password; robots.go vouches for them
	}
	if locked, err := r.passwordLocked(u); err != nil {
		return nil, err
	} else if locked {
		return nil, &failure{Msg: "password checks of " + u.ID + " are locked", silent: true}
	}
	if !contains(u.Addresses, r.sender()) && !r.s.passwords.known(u, password) {
		if spent, until, err := r.foreignChecksSpent(); err != nil {
			return nil, err
		} else if spent {
			return nil, fail("Your password was not checked: too many wrong passwords came lately from addresses that are not their account's, so until %s passwords are checked only when they come from one of the account's own addresses. Send this from an address of %s, or again after that time", until.UTC().Format(timeFormat), u.ID)
		}
	}
	ok := r.s.passwords.check(u, password)
	r.checked(password, ok)
	if !ok {
		if err := r.badPassword(u); err != nil {
			return nil, err
		}
		return nil, fail("The password for %s is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset %s' and a code comes to the account's addresses", u.Name, u.ID)
	}
	if v := r.s.passwords.verifier(u, password); v != "" && v != u.Verifier {
		// Kept, the next start of the daemon checks it without a bcrypt.
		u.Verifier = v
		if err := r.tx.PutUser(u); err != nil {
			return nil, err
		}
	}
	r.proved = u.ID
	return u, r.used(u)
}

// proves reports whether the mail proves that it comes from user id: its
// From domain vouches for it, or it carries his password or reply token.
func (r *request) proves(id string) bool {
	return r.authenticated() || r.replyAs == id || r.proved == id
}

// Accounts made and never used expire, so that a flood of signups leaves
// nothing behind for good: a new account is marked unused, with a note
// named by its time in the store, until its password first proves a
// command; the sweep deletes those still unused after unusedLife that
// hold no seat.
const (
	unusedKey  = "unused"
	unusedLife = 30 * day
)

// unusedNote is the store note of an unused account, named so that the
// notes sort by the account's age.
func unusedNote(u *store.User) string {
	return fmt.Sprintf("unused:%012d:%s", u.Created.Unix(), u.ID)
}

// used notes that u's password has proved a command.
func (r *request) used(u *store.User) error {
	if u.Extra[unusedKey] == "" {
		return nil
	}
	delete(u.Extra, unusedKey)
	if err := r.tx.PutUser(u); err != nil {
		return err
	}
	return r.tx.DeleteNote(unusedNote(u))
}

// pruneUnused deletes up to most accounts made before now less unusedLife
// and never used, and reports how many notes it read.
func pruneUnused(tx *store.Tx, now time.Time, most int) (int, error) {
	stop := errors.New("stop")
	end := fmt.Sprintf("unused:%012d:", now.Add(-unusedLife).Unix()+1) // made at the cutoff or before
	var names []string
	err := tx.Notes("unused:", func(name, _ string) error {
		if name >= end || len(names) == most {
			return stop
		}
		names = append(names, name)
		return nil
	})
	if err != nil && err != stop {
		return 0, err
	}
	for _, name := range names {
		if err := tx.DeleteNote(name); err != nil {
			return 0, err
		}
		id := name[strings.LastIndexByte(name, ':')+1:]
		u, err := tx.User(id)
		if errNotFound(err) {
			continue
		}
		if err != nil {
			return 0, err
		}
		refs, err := tx.GamesOf(u.ID)
		if err != nil {
			return 0, err
		}
		if u.Extra[unusedKey] != "" && len(refs) == 0 {
			if err := tx.DeleteUser(u.ID); err != nil {
				return 0, err
			}
		}
	}
	return len(names), nil
}

// checkUserID accepts ids of 2 to 16 letters, digits, '_', '-' or '.',
// starting with a letter.
func checkUserID(id string) error {
	ok := len(id) >= 2 && len(id) <= 16 && isLetter(id[0])
	for i := 0; ok && i < len(id); i++ {
		ch := id[i]
		ok = isLetter(ch) || ch >= '0' && ch <= '9' || ch == '_' || ch == '-' || ch == '.'
	}
	if !ok {
		return fail("%q is not a valid user id; a user id is 2 to 16 letters, digits, '_', '-' or '.', starting with a letter", id)
	}
	return nil
}

func isLetter(ch byte) bool { return ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' }

// minPassword is the length of the shortest password.
const minPassword = 4

func checkPassword(p string) error {
	if len(p) < minPassword || len(p) > 64 {
		return fail("A password must have %d to 64 characters; yours has %d", minPassword, len(p))
	}
	return nil
}

// maxNewPasswords bounds the bcrypt hashes one mail makes of new passwords
// (signup, change password, reset): each costs as much as a password
// check. The pre-lock step hashes up to as many ahead (Preverify), and a
// mail that sets more is refused the rest.
const maxNewPasswords = 2

// newHash returns the bcrypt hash of a new password: the one Preverify
// made ahead, out of the lock, or else one made now, at most
// maxNewPasswords in all for a mail.
func (r *request) newHash(password string) (string, error) {
	if h, ok := r.s.passwords.takeHash(password); ok {
		r.hashed++
		return h, nil
	}
	if r.mail != nil && r.hashed >= maxNewPasswords {
		return "", fail("One mail sets at most %d new passwords (signup, change password, reset); send this command in another mail", maxNewPasswords)
	}

	r.hashed++
	return r.s.passwords.hash(password, r.s.hashCost)
}

// passwordCache remembers the outcome of passwords already checked against
// a user's bcrypt hash, keyed by an HMAC (under a key that lives only in this
// process) of the user, the hash and the password, so that a player's tenth
// move in a day costs no second bcrypt, and a password checked before the
// lock (Preverify) is not checked again under it, right or wrong. The
// password itself is never kept.
//
// It also holds the hashes of new passwords made before the lock, keyed by
// an HMAC of the password, each until it is used once: two accounts never
// share a hash.
type passwordCache struct {
	mu     sync.Mutex
	key    [32]byte
	result map[[32]byte]bool // HMAC of user id, hash and password -> right
	// verifierKey keys the verifiers kept in the store (Config.PasswordKey);
	// nil keeps none.
	verifierKey []byte
	ahead       map[[32]byte]string // HMAC of a new password -> its bcrypt hash

	compares atomic.Int64 // bcrypt comparisons run, for tests
	hashes   atomic.Int64 // bcrypt hashes made, for tests
}

// maxCached bounds each map of the cache; a full one starts again empty.
const maxCached = 100000

func newPasswordCache(verifierKey []byte) *passwordCache {
	c := &passwordCache{result: map[[32]byte]bool{}, ahead: map[[32]byte]string{}, verifierKey: verifierKey}
	rand.Read(c.key[:])
	return c
}

// mac is the cache key of the parts.
func (c *passwordCache) mac(parts ...string) [32]byte { return keyedHash(c.key[:], parts...) }

// keyedHash is the HMAC-SHA-256 under key of the parts, each ended by a NUL
// (which no part holds), so that no two lists of parts share a hash.
func keyedHash(key []byte, parts ...string) [32]byte {
	mac := hmac.New(sha256.New, key)
	for _, part := range parts {
		mac.Write([]byte(part))
		mac.Write([]byte{0})
	}
	var k [32]byte
	copy(k[:], mac.Sum(nil))
	return k
}

// check reports whether password is u's, running bcrypt only for a pair
// neither seen before nor proved by u's stored verifier.
func (c *passwordCache) check(u *store.User, password string) bool {
	k := c.mac(u.ID, u.PasswordHash, password)
	c.mu.Lock()
	ok, found := c.result[k]
	c.mu.Unlock()
	if found {
		return ok
	}
	if v := c.verifier(u, password); v != "" && hmac.Equal([]byte(v), []byte(u.Verifier)) {
		ok = true
	} else {
		// A verifier that does not match proves nothing wrong: it may
		// be stale, or made under another key.
		c.compares.Add(1)
		ok = bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(password)) == nil
	}
	c.mu.Lock()
	if len(c.result) > maxCached {
		clear(c.result)
	}
	c.result[k] = ok
	c.mu.Unlock()
	return ok
}

// verifier returns the stored proof (store.User.Verifier) that password is
// u's, or "" when the service keeps none. It names u's password hash, so
// that a new password makes the old verifier prove nothing.
func (c *passwordCache) verifier(u *store.User, password string) string {
	if c.verifierKey == nil {
		return ""
	}
	k := keyedHash(c.verifierKey, u.ID, u.PasswordHash, password)
	return string(k[:])
}

// known reports whether the outcome of the password is remembered: its
// check costs no bcrypt.
func (c *passwordCache) known(u *store.User, password string) bool {
	k := c.mac(u.ID, u.PasswordHash, password)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, found := c.result[k]
	return found
}

// hash makes the bcrypt hash of a new password.
func (c *passwordCache) hash(password string, cost int) (string, error) {
	c.hashes.Add(1)
	h, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	return string(h), err
}

// hashAhead makes and keeps the hash of a new password, unless one is kept.
func (c *passwordCache) hashAhead(password string, cost int) {
	k := c.mac(password)
	c.mu.Lock()
	_, found := c.ahead[k]
	c.mu.Unlock()
	if found {
		return
	}
	h, err := c.hash(password, cost)
	if err != nil {
		return // made again under the lock, which reports the error
	}
	c.mu.Lock()
	if len(c.ahead) > maxCached {
		clear(c.ahead)
	}
	c.ahead[k] = h
	c.mu.Unlock()
}

// takeHash returns, and forgets, the hash of password made ahead.
// hashedAhead reports whether a hash of password was made ahead.
func (c *passwordCache) hashedAhead(password string) bool {
	k := c.mac(password)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.ahead[k]
	return ok
}

func (c *passwordCache) takeHash(password string) (string, bool) {
	k := c.mac(password)
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.ahead[k]
	delete(c.ahead, k)
	return h, ok
}

// union is a followed by the strings of b not in a.
func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, s := range b {
		if !contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
