package pbem

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/mail"
	"strings"
	"time"

	"github.com/pbemd/pbemd/store"
)

// An account's addresses: the sender's own address is confirmed by the mail
// that names it; any other address gets one mail with a code and nothing
// else until someone there sends "confirm userid code". Until then it is
// not in the address index and gets no game mail, no relayed message and no
// notice, so signup and change address cannot make the server mail
// strangers more than once.

// Confirmation codes are codeLen characters of codeAlphabet (no 0/o, 1/l/i):
// about 49 bits, against guessing that the account's lock on wrong
// passwords and codes slows to a few tries an hour.
const (
	codeAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	codeLen      = 10
	// codeLife is how long a code confirms; the address is dropped after.
	codeLife = 7 * 24 * time.Hour
	// remailAfter is how long before an unconfirmed address is mailed a
	// new code, and how long between confirmation mails to one address
	// from any accounts.
	remailAfter = 24 * time.Hour
)

// addressSet is what a signup or change address asks for.
type addressSet struct {
	confirmed []string // may get mail now: the sender's, or already confirmed
	asked     []string // to confirm first
	mailed    int      // of asked: mailed a code by this command
	notMailed []string // of asked: not mailed now (asked within a day, or too many strangers mailed), so left out
}

// addresses reads the addresses of signup or change address for u (nil for
// a new account); none means the sender's. More than the limit is refused.
//
// The sender's own address counts as confirmed only when the mail is
// authenticated: the From of any other mail may be forged, and a forged
// signup must not have the server mail someone who never asked.
func (c *cmd) addresses(words []string, u *store.User) (*addressSet, error) {
	if len(words) == 0 {
		words = []string{c.r.sender()}
	}
	most := c.r.s.limits.Addresses
	if len(words) > most {
		return nil, fail("You gave %d addresses; an account has at most %d, so name at most %d", len(words), most, most)
	}
	set := &addressSet{}
	for _, w := range words {
		a, err := mail.ParseAddress(w)
		if err != nil || !strings.Contains(a.Address, "@") {
			return nil, fail("%q is not a mail address; write addresses as name@example.org", shorten(w, 100))
		}
		addr := strings.ToLower(a.Address)
		switch {
		case contains(set.confirmed, addr) || contains(set.asked, addr):
		case addr == c.r.sender() && c.r.authenticated() || u != nil && contains(u.Addresses, addr):
			set.confirmed = append(set.confirmed, addr)
		default:
			set.asked = append(set.asked, addr)
		}
	}
	return set, nil
}

// ask sets u's addresses to the set's confirmed ones and mails a code to each
// address to confirm that has not had one within a day. Call it before
// storing u.
func (r *request) ask(u *store.User, set *addressSet) error {
	u.Addresses = set.confirmed
	var keep []store.Unconfirmed
	for _, a := range set.asked {
		if old := unconfirmed(u, a); old != nil && r.now.Sub(old.Sent) < remailAfter {
			keep = append(keep, *old) // its code is on its way
			continue
		}
		// The strangers' budget is checked first, so that a mail it would
		// drop does not use up the address's one request of the day.
		spent, err := r.strangersSpent()
		if err != nil {
			return err
		}
		ok := false
		if !spent {
			if ok, err = r.oncePer(confirmKey(a), remailAfter); err != nil {
				return err
			}
		}
		if !ok {
			set.notMailed = append(set.notMailed, a)
			continue
		}
		code := newCode()
		keep = append(keep, store.Unconfirmed{Address: a, CodeHash: hashCode(code), Sent: r.now})
		body, err := render("confirm", map[string]any{"User": u.ID, "Code": code, "Address": r.s.cfg.Address,
			"Until": r.now.Add(codeLife).UTC().Format(timeFormat)})
		if err != nil {
			return err
		}
		r.replyText(a, "pbemd: confirm your address for "+u.ID, body)
		set.mailed++
	}
	u.Unconfirmed = keep
	return nil
}

// unconfirmed returns u's unconfirmed entry of the address, or nil.
func unconfirmed(u *store.User, addr string) *store.Unconfirmed {
	for i := range u.Unconfirmed {
		if strings.EqualFold(u.Unconfirmed[i].Address, addr) {
			return &u.Unconfirmed[i]
		}
	}
	return nil
}

// addressData is what the signup and address templates say of the set.
// The sender's own address among those mailed a code is told apart: it
// was asked because nothing vouched for the mail.
func (set *addressSet) data(sender string) map[string]any {
	mailed, self := set.mailed, false
	if contains(set.asked, sender) && !contains(set.notMailed, sender) {
		mailed, self = mailed-1, true
	}
	return map[string]any{"Mailed": mailed, "Self": self, "NotMailed": set.notMailed}
}

// confirm userid code: the address the code was mailed to joins the account.
func (c *cmd) confirm(args []string) error {
	if len(args) != 2 {
		return c.usage()
	}
	code := strings.ToLower(args[1])
	c.r.secret(args[1])
	u, err := c.r.tx.User(args[0])
	if errNotFound(err) {
		return fail("There is no user %q; check the user id in the confirmation mail", args[0])
	}
	if err != nil {
		return err
	}
	// Codes are guessed as passwords are: the same lock bounds the tries.
	if err := c.r.checksLocked(u); err != nil {
		return err
	}
	var found *store.Unconfirmed
	var rest []store.Unconfirmed
	for _, p := range u.Unconfirmed {
		switch {
		case c.r.now.Sub(p.Sent) >= codeLife:
			// expired: dropped
		case found == nil && p.CodeHash == hashCode(code):
			found = &p
		default:
			rest = append(rest, p)
		}
	}
	if found == nil {
		if err := c.r.badPassword(u); err != nil {
			return err
		}
		return fail("%q is not a code waiting for %s; a code works for %d days after it was mailed. Ask for a new one by sending change address again",
			shorten(args[1], 40), u.ID, codeLife/(24*time.Hour))
	}
	u.Unconfirmed = rest
	if !contains(u.Addresses, found.Address) {
		if len(u.Addresses) >= c.r.s.limits.Addresses {
			return fail("%s has %d addresses already, the most an account may have; remove one with change address first", u.ID, len(u.Addresses))
		}
		u.Addresses = append(u.Addresses, found.Address)
	}
	if err := c.r.tx.PutUser(u); err != nil {
		return err
	}
	return c.r.tellAddresses(u.Addresses, "pbemd: address confirmed for "+u.ID, "confirmed",
		map[string]any{"User": u, "Address": found.Address})
}

// newCode returns a fresh confirmation code.
func newCode() string {
	code := make([]byte, 0, codeLen)
	var b [1]byte
	for len(code) < codeLen {
		rand.Read(b[:])
		// Bytes past the last whole round of the alphabet would favour
		// its first letters.
		if n := int(b[0]); n < 256/len(codeAlphabet)*len(codeAlphabet) {
			code = append(code, codeAlphabet[n%len(codeAlphabet)])
		}
	}
	return string(code)
}

func hashCode(code string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(code)))
	return hex.EncodeToString(sum[:])
}
