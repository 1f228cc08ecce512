package pbem

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pbemd/pbemd/store"
)

// Password reset by mail: "reset userid" mails a one-time code to the
// account's confirmed addresses (never to the sender as such: a From line
// is easily forged, so whoever reads the code reads the account's mail);
// "reset userid code newpassword" then sets the password. The sender of
// the request learns only that a code was sent if the account exists.
const (
	// resetLife is how long a reset code works.
	resetLife = 24 * time.Hour
	// resetTries is how many wrong codes killed a code, as codes stored
	// by earlier versions count them; wrong codes no longer kill one.
	resetTries = 5
	// resetRemail is how long before a new request mails a new code: the
	// account's addresses get at most one such mail in that time.
	resetRemail = time.Hour
	// resetsADay is how many codes an account is mailed in a day.
	resetsADay = 3
	// resetExtra is the key of the live code in store.User.Extra, so that
	// it goes with the account: "hash sent-unix tries".
	resetExtra = "reset"
)

// resetsKey is the counter of the codes mailed to an account.
func resetsKey(id string) string { return "resets:" + id }

// A resetCode is the one live reset code of an account.
type resetCode struct {
	hash  string // hashCode of the code; never the code
	sent  time.Time
	tries int // wrong codes sent so far
}

// liveReset returns u's reset code, or nil when it has none that lives at now.
func liveReset(u *store.User, now time.Time) *resetCode {
	f := strings.Fields(u.Extra[resetExtra])
	if len(f) != 3 {
		return nil
	}
	sent, err1 := strconv.ParseInt(f[1], 10, 64)
	tries, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil {
		return nil
	}
	c := &resetCode{hash: f[0], sent: time.Unix(sent, 0), tries: tries}
	if now.Sub(c.sent) >= resetLife || c.tries >= resetTries {
		return nil
	}
	return c
}

// setReset stores c as u's code, or removes u's code when c is nil.
func setReset(u *store.User, c *resetCode) {
	if c == nil {
		delete(u.Extra, resetExtra)
		return
	}
	if u.Extra == nil {
		u.Extra = map[string]string{}
	}
	u.Extra[resetExtra] = fmt.Sprintf("%s %d %d", c.hash, c.sent.Unix(), c.tries)
}

// reset userid [code newpassword]
func (c *cmd) reset(args []string) error {
	switch len(args) {
	case 1:
		return c.resetRequest(args[0])
	case 3:
		return c.resetWithCode(args[0], args[1], args[2])
	}
	for i, w := range args {
		if i > 0 {
			c.r.secret(w) // any of them may be the new password
		}
	}
	return c.usage()
}

// resetRequest mails a new code to the account's confirmed addresses and
// tells the sender, in words that do not say whether the account exists.
func (c *cmd) resetRequest(id string) error {
	c.r.outcome.user = strings.ToLower(id)
	if err := checkUserID(id); err != nil {
		return err
	}
	u, err := c.r.tx.User(id)
	if err != nil && !errNotFound(err) {
		return err
	}
	if u != nil && len(u.Addresses) > 0 {
		if err := c.r.mailResetCode(u); err != nil {
			return err
		}
	}
	if c.r.silenced {
		return nil
	}
	c.r.replyText(c.r.sender(), "pbemd: reset of "+strings.ToLower(id), fmt.Sprintf(
		"If there is a user %s, a code to set a new password has been\n"+
			"mailed to the addresses of the account (not to the address a\n"+
			"request comes from). The code works for %d hours. Then send:\n\n"+
			"    reset %s CODE NEWPASSWORD\n",
		strings.ToLower(id), resetLife/time.Hour, strings.ToLower(id)))
	return nil
}

// mailResetCode gives u a new code, the one live code (an older one dies),
// and mails it to u's addresses; within resetRemail of the last code the
// request mails nothing, so that strangers cannot flood the account.
func (r *request) mailResetCode(u *store.User) error {
	if old := liveReset(u, r.now); old != nil && r.now.Sub(old.sent) < resetRemail {
		return nil
	}
	// At most resetsADay codes a day: anyone may ask for them, and each
	// kills the one before, which its owner may be about to use.
	c, err := r.counter(resetsKey(u.ID), day)
	if err != nil || c.Count >= resetsADay {
		return err
	}
	c.Count++
	if err := r.tx.PutCounter(resetsKey(u.ID), c); err != nil {
		return err
	}
	code := newCode()
	setReset(u, &resetCode{hash: hashCode(code), sent: r.now})
	if err := r.tx.PutUser(u); err != nil {
		return err
	}
	body, err := render("reset", map[string]any{"User": u.ID, "Code": code, "Address": r.s.cfg.Address,
		"Until": r.now.Add(resetLife).UTC().Format(timeFormat), "From": r.sender()})
	if err != nil {
		return err
	}
	// The code is not a secret of the request (those are masked in every
	// mail): it is new, and only this mail holds it.
	for _, a := range u.Addresses {
		r.replyText(a, "pbemd: password reset code for "+u.ID, body)
	}
	return nil
}

// resetWithCode sets a new password with the code of a reset.
func (c *cmd) resetWithCode(id, code, password string) error {
	c.r.secret(code)
	c.r.checked(password, true)
	c.r.outcome.user = strings.ToLower(id)
	u, err := c.r.tx.User(id)
	if errNotFound(err) {
		return fail("There is no user %q; check the user id in the mail with the code", id)
	}
	if err != nil {
		return err
	}
	// A reset gets through even while the account's password checks are
	// locked: the code came to the account's own addresses, so whoever
	// has it reads the owner's mail. Its ten letters cannot be guessed
	// within the sender's limits, so a wrong one does not kill it either:
	// a forger cannot spend the owner's code.
	live := liveReset(u, c.r.now)
	if live == nil {
		return fail("%s has no reset code that still works: a code works for %d hours. Send reset %s for a new one",
			u.ID, resetLife/time.Hour, u.ID)
	}
	if hashCode(code) != live.hash {
		if err := c.r.badGuess(u, false); err != nil {
			return err
		}
		return fail("That is not the reset code of %s; copy it from the mail sent to the account's addresses", u.ID)
	}
	if err := checkPassword(password); err != nil {
		return err
	}
	setReset(u, nil)
	if err := c.r.setPassword(u, password); err != nil {
		return err
	}
	// The guesses that locked the old password do not lock the new one.
	if err := c.r.tx.PutCounter(accountBadKey(u.ID), store.Counter{Start: c.r.now, Expires: c.r.now.Add(c.r.s.limits.Window)}); err != nil {
		return err
	}
	return c.r.tellUser(u, "pbemd: password changed", "password", map[string]any{"User": u, "Reset": true})
}

// checksLocked is the silent failure of a code or password check of an
// account locked by too many wrong ones, or nil when it is not locked.
func (r *request) checksLocked(u *store.User) error {
	if locked, err := r.passwordLocked(u); err != nil {
		return err
	} else if locked {
		return &failure{Msg: "checks of " + u.ID + " are locked", silent: true}
	}
	return nil
}

// setPassword gives u a new password and stores u. Every change of a
// password (change password, reset, the admin's) goes through here.
func (r *request) setPassword(u *store.User, password string) error {
	hash, err := r.newHash(password)
	if err != nil {
		return err
	}
	u.PasswordHash = hash
	return r.tx.PutUser(u)
}
