package pbem

import (
	"strings"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
)

// maxPreverified bounds the distinct user and password pairs checked ahead
// for one mail: each costs a bcrypt before any limit of the sender is
// counted, and a mail that names more pays for the rest under the lock,
// where the limits apply.
const maxPreverified = 3

// maxHashesAhead bounds the new passwords one batch of mails hashes before
// the lock (see preverify).
const maxHashesAhead = 4

// Preverify checks, before any write lock, the passwords that the commands
// of the mails name, and remembers the results in the password cache, so
// that handling the mails later checks them without a bcrypt. The users'
// hashes are read from db in one short read transaction (db may be a
// read-only handle of the same file, as "pbemd deliver" opens it before it
// waits for the write lock); bcrypt runs with no transaction open. The
// check under the lock stays the one that counts: a password found wrong
// here is checked again there, and one that changed meanwhile has a new
// hash and misses the cache.
//
// It also hashes ahead the new passwords of the mails' well-formed signup
// and change password commands (the latter once the old password checks
// out), at most maxNewPasswords a mail, so that the command under the lock
// finds its hash made (newHash).
func (s *Service) Preverify(db *store.DB, raws ...[]byte) {
	read := make([]*mailmsg.Incoming, len(raws))
	eachParallel(len(raws), func(i int) {
		if m, err := readMailSafely(s.cfg.Mail, raws[i]); err == nil {
			read[i] = m
		}
	})
	var mails []*mailmsg.Incoming
	for _, m := range read {
		if m != nil {
			mails = append(mails, m)
		}
	}
	s.preverify(db, mails, nil)
}

// preverify is Preverify of read mails; vouched[i] says whether mails[i]
// is authenticated (nil: none is known to be).
func (s *Service) preverify(db *store.DB, mails []*mailmsg.Incoming, vouched []bool) {
	type claim struct {
		user     *store.User
		password string
		stranger bool // from mail that proves nothing of its sender
	}
	var claims []claim
	queued := map[string]bool{} // user id, hash and password of the claims
	var news []newPassword
	signups := map[string]int{} // signups the window still takes, by counter
	strangerSignups := 0        // signups of mail that proves nothing, hashed ahead
	err := db.View(func(tx *store.Tx) error {
		// Passwords from senders that are no address of their account
		// draw on a budget of all senders (Limits.ForeignBadPasswords):
		// a batch checks ahead no more of them than it has left.
		foreign := s.foreignLeft(tx)
		tx.ReadAheadProcessed(mailKeys(mails))
		for k, m := range mails {
			if done, err := tx.Processed(m.Key); err != nil || done {
				continue // a copy of a mail handled before: nothing to check
			}
			auth := vouched != nil && vouched[k]
			for _, n := range s.newPasswords(tx, m) {
				n.stranger = !auth
				switch {
				case n.user == nil:
					// A signup: its kind of mail's budget bounds the
					// hashes of all batches together, and a batch
					// hashes a few of a stranger's, so that it does not
					// keep the players' mails of the batch waiting; the
					// others are refused under the lock, unhashed, and
					// told to send again (strangerSignups).
					key := signupsKey(strings.ToLower(m.From), auth)
					if _, ok := signups[key]; !ok {
						signups[key] = s.left(tx, key, s.limits.Signups)
					}
					if signups[key] == 0 || !auth && strangerSignups == maxHashesAhead {
						continue
					}
					signups[key]--
					if !auth {
						strangerSignups++
					}
				case !contains(n.user.Addresses, m.From):
					if foreign == 0 {
						continue // its old password is checked under the lock
					}
					foreign--
				}
				news = append(news, n)
			}
			if s.senderSpent(tx, m, auth) {
				continue // ignored under the lock, its passwords unchecked
			}
			seen := map[string]bool{} // user id and password
			for _, words := range passwordLines(m) {
				if len(seen) == maxPreverified {
					break
				}
				for i := 1; i+1 < len(words); i++ {
					if noPassword[strings.ToLower(words[i])] {
						break
					}
					u, err := tx.User(words[i])
					if err != nil {
						continue
					}
					if s.lockedBefore(tx, u) {
						break // its checks are locked: nothing to spare
					}
					if !contains(u.Addresses, m.From) {
						if foreign == 0 {
							break // checked under the lock, if at all
						}
						foreign--
					}
					if k := u.ID + "\x00" + words[i+1]; !seen[k] {
						seen[k] = true
						// Another mail of the batch may name the same.
						if q := k + "\x00" + u.PasswordHash; !queued[q] {
							queued[q] = true
							// A claim from another's address takes a
							// stranger's place too, authenticated or not.
							claims = append(claims, claim{u, words[i+1], !auth || !contains(u.Addresses, strings.ToLower(m.From))})
						}
					}
					break
				}
			}
		}
		return nil
	})
	if err != nil {
		return // the handling under the lock will meet the error too
	}
	// New passwords are a stranger's to name (a signup needs no account),
	// and no limit of his is counted yet: a batch hashes ahead the
	// signups that the signup budget still takes (above), and a few
	// changes of password; the rest are hashed under the lock, where the
	// limits apply.
	var ahead []newPassword
	changes := 0
	for _, n := range news {
		if n.user != nil {
			if changes == maxHashesAhead {
				continue
			}
			changes++
		}
		ahead = append(ahead, n)
	}
	news = ahead
	// bcrypt on all cores. A panic here is not the mail's end: the
	// check under the lock, which counts, meets it again.
	eachParallel(len(claims), func(i int) {
		defer s.strangerCPU(claims[i].stranger)()
		safely(func() error { s.passwords.check(claims[i].user, claims[i].password); return nil })
	})
	eachParallel(len(news), func(i int) {
		n := news[i]
		defer s.strangerCPU(n.stranger)()
		safely(func() error {
			if n.user == nil || s.passwords.check(n.user, n.old) {
				s.passwords.hashAhead(n.password, s.hashCost)
			}
			return nil
		})
	})
}

// strangerCPU takes, for the bcrypt work of a mail that proves nothing of
// its sender, the one place such work has, and returns its release: a
// flood of forged mail keeps one core busy at most, and every other
// player's mail finds the others free. Other mail takes no place.
func (s *Service) strangerCPU(stranger bool) (release func()) {
	if !stranger {
		return func() {}
	}
	s.strangers <- struct{}{}
	return func() { <-s.strangers }
}

// A newPassword is one a command of a mail sets: signup's, or change
// password's once old is user's password.
type newPassword struct {
	user     *store.User // nil for a signup
	old      string
	password string
	stranger bool // from mail that proves nothing of its sender
}

// newPasswords returns the new passwords of the mail's well-formed signup
// commands for a free user id and change password commands of an account
// whose checks are not locked, at most maxNewPasswords.
func (s *Service) newPasswords(tx *store.Tx, m *mailmsg.Incoming) []newPassword {
	var news []newPassword
	for _, words := range mailCommands(m, 2*maxNewPasswords) {
		if len(news) == maxNewPasswords {
			break
		}
		switch {
		case len(words) >= 3 && strings.EqualFold(words[0], "signup"):
			if checkUserID(words[1]) != nil || checkPassword(words[2]) != nil {
				continue
			}
			if _, err := tx.User(words[1]); errNotFound(err) {
				news = append(news, newPassword{password: words[2]})
			}
		case len(words) == 5 && strings.EqualFold(words[0], "change") && strings.EqualFold(words[1], "password"):
			if checkPassword(words[4]) != nil {
				continue
			}
			if u, err := tx.User(words[2]); err == nil && !s.lockedBefore(tx, u) {
				news = append(news, newPassword{user: u, old: words[3], password: words[4]})
			}
		}
	}
	return news
}

// lockedBefore reports whether u's password checks are locked by too many
// wrong passwords, as the check under the lock will find: a guesser's
// mails then cost no bcrypt at all.
func (s *Service) lockedBefore(tx *store.Tx, u *store.User) bool {
	return s.left(tx, accountBadKey(u.ID), s.limits.BadPasswords) == 0
}

// senderSpent reports whether the mail's sender is over his limit of
// wrong passwords, as the handling under the lock will find (allowSender):
// his mail is then ignored, and its passwords cost no bcrypt here either.
func (s *Service) senderSpent(tx *store.Tx, m *mailmsg.Incoming, authenticated bool) bool {
	return s.left(tx, senderBadKey(mailScope(strings.ToLower(m.From), authenticated)), s.limits.BadPasswords) == 0
}

// foreignLeft is how many wrong passwords from senders that are no
// address of their account may still be checked in the current window.
func (s *Service) foreignLeft(tx *store.Tx) int {
	return s.left(tx, foreignBadKey, s.limits.ForeignBadPasswords)
}

// left is how much of a budget of a Window the counter with the key has
// left, as read before the lock (a counter that does not read leaves all).
func (s *Service) left(tx *store.Tx, key string, budget int) int {
	c, err := tx.Counter(key)
	if err != nil || !s.cfg.Now().Before(c.Start.Add(s.limits.Window)) {
		return budget
	}
	return max(budget-c.Count, 0)
}

// passwordLines returns the command lines of the mail that may name a user
// and a password: the Subject's, or a multiple mail's body lines.
func passwordLines(m *mailmsg.Incoming) [][]string {
	if words := commandWords(m.Subject); len(words) == 0 || noPassword[strings.ToLower(words[0])] {
		return nil
	}
	return mailCommands(m, 2*maxPreverified)
}

// mailCommands returns the words of the mail's commands: the Subject's, or
// the first most body lines of a multiple mail.
func mailCommands(m *mailmsg.Incoming, most int) [][]string {
	words := commandWords(m.Subject)
	if len(words) == 0 || !strings.EqualFold(words[0], "multiple") {
		return [][]string{words}
	}
	var lines [][]string
	for _, l := range mailmsg.CommandLines(m.Text) {
		if len(lines) == most {
			break
		}
		lines = append(lines, commandWords(l))
	}
	return lines
}

// SetStore points the service at db, keeping its caches: "pbemd deliver"
// checks the passwords on a read-only handle, closes it, and only then
// waits for the write lock.
func (s *Service) SetStore(db *store.DB) { s.db, s.tokens.db = db, db }
