package pbem

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/pbem/tournament"
	"github.com/pbemd/pbemd/store"
)

// Limits bound what one mail, one sender, one account and strangers as a
// whole may cost. The counts are kept in the store, so every process on the
// same data (the daemon, each pbemd deliver) and every restart share them.
// A zero field means its default, given in brackets.
type Limits struct {
	// Mails is how many commands that may change state one sender
	// address may send in a Window [60]; beyond, the sender gets one
	// warning, then silence until the window ends.
	Mails int
	// Reads is the same for the commands that only read: help, show and
	// the lists [240].
	Reads int
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
	// Signups is how many accounts mail that proves nothing of its
	// sender may make in a Window, all senders together, and how many
	// authenticated mail of one organizational domain may make, apart
	// [10]: each costs a bcrypt and a record (kept until unusedLife when
	// never used). Most players' providers sign their mail, so few honest
	// signups prove nothing; a flood of forged ones keeps a core busy for
	// this many bcrypts an hour at most.
	Signups int
	// Invitations is how many invitations mail that proves nothing of
	// its sender may make in a Window, per sender address, and how many
	// one player may be sent in the three days an invitation waits [5]
	// (invitations.go).
	Invitations int
	// AnswerBytes is how many bytes of answers (errors, boards shown,
	// help, lists: all but board mails) a mail that is not authenticated
	// gets at its sender's address [32 KiB]; AddressAnswerBytes how many
	// one address gets in a Window [128 KiB]; AllAnswerBytes how many
	// all such senders get together in a Window [16 MiB]. A forged From
	// so draws little to a third party (backscatter.go).
	AnswerBytes, AddressAnswerBytes, AllAnswerBytes int
	// Watchers is how many users may subscribe to one board, and how
	// many may be told of its end [100]; and how many may subscribe to
	// every new board of a game, and how many be told of the end of every
	// one. Each gets every such mail, so this bounds the mails that one
	// move, and one game's end, make.
	Watchers int
	// RobotGames is how many active games one player may have with one
	// robot [3]: a robot's games are shared by every player.
	RobotGames int
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
	// TournamentEntrants is the most players a tournament takes, and
	// the default of its entry limit [1000]; at most
	// tournament.MaxEntrants.
	TournamentEntrants int
	// Tournaments is how many tournaments not over one player may
	// organise [5].
	Tournaments int
	// TournamentShown is how many players the standings of a
	// tournament list in a mail, and how many games of its round [200].
	TournamentShown int
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
	def(&l.Reads, 240)
	def(&l.BadPasswords, 10)
	def(&l.ForeignBadPasswords, 200)
	def(&l.Strangers, 200)
	def(&l.Addresses, 3)
	def(&l.Commands, 20)
	def(&l.Recipients, 10)
	def(&l.MessageBytes, 8000)
	def(&l.Watchers, 100)
	def(&l.Invitations, 5)
	def(&l.Signups, 10)
	def(&l.RobotGames, 3)
	def(&l.AnswerBytes, 32<<10)
	def(&l.AddressAnswerBytes, 128<<10)
	def(&l.AllAnswerBytes, 16<<20)
	def(&l.TournamentEntrants, 1000)
	l.TournamentEntrants = min(l.TournamentEntrants, tournament.MaxEntrants)
	def(&l.Tournaments, 5)
	def(&l.TournamentShown, 200)
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
func senderReadsKey(addr string) string { return "sender-reads:" + addr }
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

// senderScope is whose counts a command is kept in. A forger can write
// anyone's From, but cannot make its domain vouch for him nor know a reply
// token: the counts of authenticated and token-proved mail are kept apart
// from those of mail anyone might have written, so that a flood of forged
// mail silences only mail that proves nothing, never the player's own
// authenticated mail or replies to his board mails (docs/trust.md).
func (r *request) senderScope() string {
	if r.replyAs != "" {
		return "token:" + r.replyAs
	}
	return mailScope(r.sender(), r.authenticated())
}

// mailScope is the scope of a mail's counts from its sender's address.
func mailScope(sender string, authenticated bool) string {
	if authenticated {
		return "auth:" + sender
	}
	return sender
}

// allowSender counts one command of the sender that may change state. It
// reports false when the sender is over his limit of commands or wrong
// passwords: the command is then ignored, and the first ignored one gets a
// warning.
func (r *request) allowSender() (bool, error) { return r.allow(false) }

// allowCommand counts one command of the sender against the budget its
// kind draws on: reading (help, show, lists) has one of its own, larger,
// so that a newcomer who explores is never silenced for his moves, and a
// player who moves a lot can still look.
func (r *request) allowCommand(words []string) (bool, error) { return r.allow(readOnly(words)) }

func (r *request) allow(reading bool) (bool, error) {
	lim := r.s.limits
	sender, scope := r.sender(), r.senderScope()
	key, most, what, other := senderMailsKey(scope), lim.Mails, "commands", "Reading (help, show, lists) has a budget of its own and still works."
	if reading {
		key, most, what, other = senderReadsKey(scope), lim.Reads, "reading commands (help, show, lists)", "Moves and other commands have a budget of their own and still work."
	}
	mails, err := r.counter(key, lim.Window)
	if err != nil {
		return false, err
	}
	bad, err := r.counter(senderBadKey(scope), lim.Window)
	if err != nil {
		return false, err
	}
	mails.Count++
	ok := mails.Count <= most && bad.Count < lim.BadPasswords
	warn := !ok && !mails.Warned
	if warn {
		mails.Warned = true
	}
	if err := r.tx.PutCounter(key, mails); err != nil {
		return false, err
	}
	if warn {
		why := fmt.Sprintf("more than %d %s", most, what)
		until := mails.Start.Add(lim.Window)
		if bad.Count >= lim.BadPasswords {
			why, other = fmt.Sprintf("%d wrong passwords", bad.Count), ""
			if u := bad.Start.Add(lim.Window); u.After(until) {
				until = u
			}
		}
		text := fmt.Sprintf("Mail from %s sent %s within %s. Such mail is ignored until %s; this is the only notice.",
			sender, why, shortDuration(lim.Window), until.UTC().Format(timeFormat))
		if other != "" {
			text += " " + other
		}
		text = model.Wrap([]string{text}, model.LineWidth)[0] + "\n"
		if scope == sender {
			text += proofHint
		}
		r.replyText(sender, "pbemd: too many mails", text)
	}
	return ok, nil
}

// readOnly reports whether command words only read: help, show, the lists.
func readOnly(words []string) bool {
	c := commandOf(words)
	return c != nil && (c.reads || len(words) > 1 && contains(c.readWords, strings.ToLower(words[1])))
}

// proofHint tells a player whose mail proves nothing (anyone could have
// written its From) how his own mail still gets through.
const proofHint = `
Anyone can write your address in a From line, so this may not have
been you. Mail that proves its sender is counted apart and still works:
- reply to one of your board mails (its reply token is your proof);
- send from an address whose domain signs its mail (DKIM);
- or send "reset USERID" for a code to the account's addresses.
`

// passwordLocked reports whether the password checks of the account are
// locked by too many wrong passwords in the current window. Only mail
// that proves nothing is locked out: authenticated mail from one of the
// account's own addresses is always checked, so that no forged mail can
// stop the owner from playing. The first refused check of a lock warns
// the account's addresses; the others are ignored without a reply.
func (r *request) passwordLocked(u *store.User) (bool, error) {
	if r.authenticated() && contains(u.Addresses, r.sender()) {
		return false, nil
	}
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
				"%d wrong passwords for %s came within %s in mail that\n"+
					"proves nothing of its sender. Until %s no password of %s\n"+
					"is checked in such mail, even the right one: it is ignored\n"+
					"without an answer. This is the only notice.\n",
				c.Count, u.ID, shortDuration(lim.Window), c.Start.Add(lim.Window).UTC().Format(timeFormat), u.ID)+proofHint)
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

// badPassword counts a wrong password against the sender; against the
// account only when the mail proves nothing (an authenticated sender's
// typos are his own, and cannot lock the account); and against the foreign
// addresses' budget when the sender is no address of the account.
func (r *request) badPassword(u *store.User) error { return r.badGuess(u, true) }

// badGuess counts a wrong password, or a wrong code when password is
// false: a code's guesses do not lock the account's password.
func (r *request) badGuess(u *store.User, password bool) error {
	keys := []string{senderBadKey(r.senderScope())}
	if password && !r.authenticated() {
		keys = append(keys, accountBadKey(u.ID))
	}
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

// signupsKey is the counter of the signups of a kind of mail: one for all
// mail that proves nothing, one per organizational domain for
// authenticated mail (a domain that signs has as many addresses as its
// owner likes).
func signupsKey(sender string, authenticated bool) string {
	if authenticated {
		return "signups-authenticated:" + mailauth.Organization(sender)
	}
	return "signups"
}

// allowSignup counts a signup against the budget of its kind of mail, and
// refuses it when the budget is spent.
func (r *request) allowSignup() error {
	lim := r.s.limits
	key := signupsKey(r.sender(), r.authenticated())
	c, err := r.counter(key, lim.Window)
	if err != nil {
		return err
	}
	if c.Count >= lim.Signups {
		if !c.Warned {
			c.Warned = true
			r.logger().Warn("budget of signups spent; more are refused until the window ends",
				"key", key, "budget", lim.Signups, "until", c.Start.Add(lim.Window))
			if err := r.tx.PutCounter(key, c); err != nil {
				return err
			}
		}
		return fail("This server takes no more new accounts until %s: %d were made within %s. Send the signup again after that time",
			c.Start.Add(lim.Window).UTC().Format(timeFormat), c.Count, shortDuration(lim.Window))
	}
	c.Count++
	return r.tx.PutCounter(key, c)
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
