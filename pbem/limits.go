package pbem

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
)

// Limits bound what one mail, one sender, one account and strangers as a
// whole may cost. The counts are kept in the store, so every process on the
// same data (the daemon, each pbemd deliver) and every restart share them.
// A zero field means its default, given in brackets.
type Limits struct {
	// Mails is how many commands one sender address may send in a Window
	// [60]; beyond, the sender gets one warning, then silence until the
	// window ends.
	Mails int
	// BadPasswords is how many wrong passwords are checked in a Window
	// [10], counted both per sender address (which is then silenced as for
	// Mails) and per account, whose password checks are then refused from
	// every address until the window ends, with one warning to the
	// account's addresses.
	BadPasswords int
	// ForeignBadPasswords is how many wrong passwords are checked in a
	// Window from senders that are no address of the account, all
	// accounts together [200]. Beyond, such a password is not checked
	// until the window ends, while those from an account's own addresses
	// still are: senders are free to forge, each with limits of his own,
	// and each check is a bcrypt of some 60 ms, so that without this bound
	// a stranger could make the server check 10 wrong passwords an hour
	// for every account. (One who knows an account's address can forge
	// it and still make its 10: the bound holds while addresses stay
	// private, as the server keeps them.)
	ForeignBadPasswords int
	// Window is the time the counts above are kept [1h].
	Window time.Duration
	// Strangers is how many mails may go, in a Window, to addresses that
	// belong to no user (how-to-sign-up notes, confirmation requests,
	// answers to strangers), all senders together [200]. Beyond, such
	// mails are dropped and logged.
	Strangers int
	// Addresses is how many addresses an account may have, confirmed or
	// not [3].
	Addresses int
	// Commands is how many commands of one multiple mail are run [20];
	// the rest are answered once, in the same reply.
	Commands int
	// Recipients is how many users one message reaches [10].
	Recipients int
	// MessageBytes is the largest text a message relays [8000].
	MessageBytes int
	// Watchers is how many users may subscribe to one board, and how
	// many may be told of its end [100]; and how many may subscribe to
	// every new board of a game, and how many be told of the end of every
	// one. Each gets every such mail, so this bounds the mails that one
	// move, and one game's end, make.
	Watchers int
	// KeepQuarantined is how long a mail set aside in the store's
	// quarantine is kept for the administrator, and how long the count of
	// a mail's failed tries is kept [720h: 30 days]; the sweep forgets
	// what is older.
	KeepQuarantined time.Duration
	// Repeats is how long a refused mail is remembered [24h]: the same
	// mail again from the same sender, refused for the same reason with
	// no command carried out, gets no answer within it. A naive vacation
	// responder sends the same text to every mail, and each error reply
	// would draw it again; a player who sends a mail twice has had the
	// answer.
	Repeats time.Duration
	// QuarantineBytes bounds the bytes the quarantined mails take
	// together [100 MiB]; beyond, the oldest go first.
	QuarantineBytes int64
}

// DefaultLimits returns the limits the zero Limits stands for.
func DefaultLimits() Limits { return Limits{}.withDefaults() }

// withDefaults returns l with every zero field set to its default.
func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.Mails, 60)
	def(&l.BadPasswords, 10)
	def(&l.ForeignBadPasswords, 200)
	def(&l.Strangers, 200)
	def(&l.Addresses, 3)
	def(&l.Commands, 20)
	def(&l.Recipients, 10)
	def(&l.MessageBytes, 8000)
	def(&l.Watchers, 100)
	if l.Window <= 0 {
		l.Window = time.Hour
	}
	if l.Repeats <= 0 {
		l.Repeats = 24 * time.Hour
	}
	if l.KeepQuarantined <= 0 {
		l.KeepQuarantined = 30 * 24 * time.Hour
	}
	if l.QuarantineBytes <= 0 {
		l.QuarantineBytes = 100 << 20
	}
	return l
}

// shortDuration writes d as 1h or 1h30m rather than 1h0m0s.
func shortDuration(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimSuffix(d.String(), "0s"), "0m")
}

// Counter keys in the store.
func senderMailsKey(addr string) string { return "sender-mails:" + addr }
func senderBadKey(addr string) string   { return "sender-badpw:" + addr }
func accountBadKey(id string) string    { return "account-badpw:" + id }
func howtoKey(addr string) string       { return "howto:" + addr }
func confirmKey(addr string) string     { return "confirm:" + addr }

const strangersKey = "strangers"

// foreignBadKey counts the wrong passwords from senders that are no
// address of the account.
const foreignBadKey = "foreign-badpw"

// counter returns the stored counter with the key, a fresh one when its
// window of length window has passed.
func (r *request) counter(key string, window time.Duration) (store.Counter, error) {
	c, err := r.tx.Counter(key)
	if err != nil {
		return c, err
	}
	if c.Start.IsZero() || !r.now.Before(c.Start.Add(window)) {
		c = store.Counter{Start: r.now, Expires: r.now.Add(window)}
	}
	return c, nil
}

// allowSender counts one command of the sender. It reports false when the
// sender is over his limit of commands or wrong passwords: the command is
// then ignored, and the first ignored one gets a warning.
func (r *request) allowSender() (bool, error) {
	lim := r.s.limits
	sender := r.sender()
	mails, err := r.counter(senderMailsKey(sender), lim.Window)
	if err != nil {
		return false, err
	}
	bad, err := r.counter(senderBadKey(sender), lim.Window)
	if err != nil {
		return false, err
	}
	mails.Count++
	ok := mails.Count <= lim.Mails && bad.Count < lim.BadPasswords
	warn := !ok && !mails.Warned
	if warn {
		mails.Warned = true
	}
	if err := r.tx.PutCounter(senderMailsKey(sender), mails); err != nil {
		return false, err
	}
	if warn {
		why := fmt.Sprintf("more than %d commands", lim.Mails)
		until := mails.Start.Add(lim.Window)
		if bad.Count >= lim.BadPasswords {
			why = fmt.Sprintf("%d wrong passwords", bad.Count)
			if u := bad.Start.Add(lim.Window); u.After(until) {
				until = u
			}
		}
		r.replyText(sender, "pbemd: too many mails", fmt.Sprintf(
			"You sent %s within %s. Mails from %s are ignored until %s; this is the only notice.\n",
			why, shortDuration(lim.Window), sender, until.UTC().Format(timeFormat)))
	}
	return ok, nil
}

// passwordLocked reports whether the password checks of the account are
// locked by too many wrong passwords in the current window. The first
// refused check of a lock warns the account's addresses; the others are
// ignored without a reply.
func (r *request) passwordLocked(u *store.User) (bool, error) {
	lim := r.s.limits
	c, err := r.counter(accountBadKey(u.ID), lim.Window)
	if err != nil || c.Count < lim.BadPasswords {
		return false, err
	}
	if !c.Warned {
		c.Warned = true
		if err := r.tx.PutCounter(accountBadKey(u.ID), c); err != nil {
			return false, err
		}
		for _, a := range u.Addresses {
			r.replyText(a, "pbemd: password checks of "+u.ID+" locked", fmt.Sprintf(
				"%d wrong passwords for %s came within %s, from any addresses. Until %s no password\n"+
					"of %s is checked and every command that needs it is ignored without an answer,\n"+
					"even with the right password; send it again after that time. This is the only notice.\n",
				c.Count, u.ID, shortDuration(lim.Window), c.Start.Add(lim.Window).UTC().Format(timeFormat), u.ID))
		}
	}
	return true, nil
}

// foreignChecksSpent reports whether the budget of wrong passwords from
// senders that are no address of their account is spent for the window,
// and until when.
func (r *request) foreignChecksSpent() (spent bool, until time.Time, err error) {
	lim := r.s.limits
	c, err := r.counter(foreignBadKey, lim.Window)
	until = c.Start.Add(lim.Window)
	if err != nil || c.Count < lim.ForeignBadPasswords {
		return false, until, err
	}
	if !c.Warned {
		c.Warned = true
		r.logger().Warn("budget of wrong passwords from foreign addresses spent; such passwords are not checked until the window ends",
			"budget", lim.ForeignBadPasswords, "window", lim.Window, "until", until)
		err = r.tx.PutCounter(foreignBadKey, c)
	}
	return true, until, err
}

// badPassword counts a wrong password against the sender and the account,
// and against the foreign addresses' budget when the sender is no address
// of the account.
func (r *request) badPassword(u *store.User) error {
	keys := []string{senderBadKey(r.sender()), accountBadKey(u.ID)}
	if !contains(u.Addresses, r.sender()) {
		keys = append(keys, foreignBadKey)
	}
	for _, key := range keys {
		c, err := r.counter(key, r.s.limits.Window)
		if err != nil {
			return err
		}
		c.Count++
		if err := r.tx.PutCounter(key, c); err != nil {
			return err
		}
	}
	return nil
}

// oncePer reports whether the event with the key may happen now, at most
// once per period, and counts it when it may.
func (r *request) oncePer(key string, period time.Duration) (bool, error) {
	c, err := r.counter(key, period)
	if err != nil || c.Count > 0 {
		return false, err
	}
	c.Count++
	return true, r.tx.PutCounter(key, c)
}

// strangersSpent reports whether the budget of mails to strangers is spent
// for the current window, without counting a mail.
func (r *request) strangersSpent() (bool, error) {
	c, err := r.counter(strangersKey, r.s.limits.Window)
	return c.Count >= r.s.limits.Strangers, err
}

// allowStranger counts one mail to an address of no user against the
// server's budget, and reports whether it may go.
func (r *request) allowStranger(to string) (bool, error) {
	lim := r.s.limits
	c, err := r.counter(strangersKey, lim.Window)
	if err != nil {
		return false, err
	}
	if c.Count >= lim.Strangers {
		if !c.Warned {
			c.Warned = true
			r.logger().Warn("budget of mails to strangers spent; more are dropped until the window ends",
				"budget", lim.Strangers, "window", lim.Window, "until", c.Start.Add(lim.Window))
			return false, r.tx.PutCounter(strangersKey, c)
		}
		return false, nil
	}
	c.Count++
	return true, r.tx.PutCounter(strangersKey, c)
}

// quietRepeat takes back the answers to the sender of a mail that was
// refused and changed nothing, when the same mail from the same sender
// was refused for the same reason within Limits.Repeats: an automatic
// responder that echoes the same text (without the headers of RFC 3834)
// gets one answer, not one an hour for as long as its owner is away. A
// mail that carried out any command is answered as always, so a player
// who sends his move again gets the error that says why it was not played
// again; a third copy, refused as the second was, gets none.
func (r *request) quietRepeat() error {
	if r.outcome.result != resultRefused || r.outcome.carried {
		return nil
	}
	if ok, err := r.oncePer(repeatKey(r.sender(), r.mail, r.outcome.why), r.s.limits.Repeats); ok || err != nil {
		return err
	}
	r.parts = slices.DeleteFunc(r.parts, func(p *part) bool { return p.to == r.sender() })
	r.outcome.result = resultIgnored
	r.outcome.why = "the same mail was refused within " + shortDuration(r.s.limits.Repeats) + ": not answered again"
	return nil
}

// repeatKey is the counter of a refused mail: a short hash of the sender,
// the command words, the comment (without the quoted text, which differs
// with each answer quoted) and why it was refused, all with runs of white
// space as one space.
func repeatKey(sender string, m *mailmsg.Incoming, why string) string {
	h := sha256.New()
	for _, s := range []string{sender, strings.Join(commandWords(m.Subject), " "), mailmsg.Comment(m.Text), why} {
		h.Write([]byte(strings.Join(strings.Fields(s), " ")))
		h.Write([]byte{0})
	}
	return "repeat:" + hex.EncodeToString(h.Sum(nil)[:12])
}
