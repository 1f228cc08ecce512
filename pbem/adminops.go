package pbem

import (
	"crypto/rand"
	"fmt"
	"strings"
	"time"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// The administrator's operations that change games and accounts and mail
// their people (pbemd admin): each runs as a mail's command does, in one
// transaction with the mails it causes queued in the outbox.

// adminRun runs fn in a transaction on a request without a mail, then
// queues what it replied. It returns how many mails it queued (r.mails).
func (s *Service) adminRun(fn func(r *request) error) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var mails int
	var after []func()
	err := s.db.Update(func(tx *store.Tx) error {
		r := &request{s: s, tx: tx, now: s.cfg.Now()}
		if err := fn(r); err != nil {
			return err
		}
		if err := r.compose(); err != nil {
			return err
		}
		for _, out := range r.out {
			if err := r.tx.Enqueue(out); err != nil {
				return err
			}
		}
		mails, after = r.mails(), r.after
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, f := range after {
		f()
	}
	return mails, nil
}

// EndBoard ends a running board by the administrator's decision: how is
// "draw", "win" (winner is then a player's user id) or "void" (ended
// without a result and unrated). Players, subscribers and notifiers get
// the final board mail. It returns how many mails it queued.
func (s *Service) EndBoard(kind string, num int, how, winner string) (int, error) {
	g, ok := catalog.Lookup(kind)
	if !ok {
		return 0, fmt.Errorf("no game %q; the games are %s", kind, strings.Join(catalog.Names(), ", "))
	}
	return s.adminRun(func(r *request) error {
		b, err := r.loadBoard(g.Name(), num)
		if err != nil {
			return err
		}
		if b.rec.Over {
			return fmt.Errorf("%s board %d is over already", g.Title(), num)
		}
		var notice string
		switch how {
		case "draw":
			b.end(r.now, rules.Drawn("declared drawn by the administrator"))
			notice = "The administrator ended this game as a draw."
		case "win":
			seat := b.seatOf(strings.ToLower(winner))
			if seat < 0 || winner == "" {
				return fmt.Errorf("%q is not a player of %s board %d; its players are %s", winner, g.Title(), num, strings.Join(b.rec.Seats, " and "))
			}
			b.end(r.now, rules.Win(seat, "awarded to "+b.rec.Seats[seat]+" by the administrator"))
			notice = fmt.Sprintf("The administrator ended this game: %s wins.", b.rec.Seats[seat])
		case "void":
			b.end(r.now, rules.Drawn("voided by the administrator"))
			b.rec.Rated = true // a void game counts in nobody's rating
			notice = "The administrator voided this game: it ends without a result and is not rated."
		default:
			return fmt.Errorf("%q is no way to end a game; want draw, win USER or void", how)
		}
		return r.saveAndAnnounce(b, nil, notice)
	})
}

// NewPassword gives the user a random password and mails it to the
// account's addresses, and returns how many mails it queued. The password
// is never returned nor logged.
func (s *Service) NewPassword(id string) (int, error) {
	return s.adminRun(func(r *request) error {
		u, err := r.tx.User(id)
		if err != nil {
			return err
		}
		password := rand.Text()[:12] // base32: no letter a mail client could mangle
		setReset(u, nil)             // a reset code under way is of no more use
		if err := r.setPassword(u, password); err != nil {
			return err
		}
		body := fmt.Sprintf("The administrator of pbemd has set a new password for %s:\n\n    %s\n\n"+
			"Change it when you like with: change password %s %s NEWPASSWORD\n", u.ID, password, u.ID, password)
		for _, a := range u.Addresses {
			r.replyText(a, "pbemd: new password for "+u.ID, body)
		}
		return nil
	})
}

// lastMailKey is the note of when the user's addresses last sent a mail.
func lastMailKey(id string) string { return "last-mail:" + id }

// lastMailDay is how the note holds the day of a user's last mail (UTC).
const lastMailDay = time.DateOnly

// noteLastMail records the day of the mail for the sender's users, for
// pbemd admin user, which shows the day. It is written at a user's first
// mail of a day only: a note a mail would be a page of the store written
// for each, scattered among the others. A stranger's mail leaves nothing
// in the store.
func (r *request) noteLastMail() error {
	users, err := r.tx.UsersByAddress(r.sender())
	if err != nil {
		return err
	}
	today := r.now.UTC().Format(lastMailDay)
	for _, u := range users {
		key := lastMailKey(u.ID)
		v, _, err := r.tx.Note(key)
		if err != nil {
			return err
		}
		if v == today {
			continue
		}
		if err := r.tx.SetNote(key, today); err != nil {
			return err
		}
	}
	return nil
}

// LastMail returns the day (its start, UTC) a mail last came from one of
// the user's addresses, or the zero time.
func LastMail(tx *store.Tx, id string) time.Time {
	v, ok, err := tx.Note(lastMailKey(strings.ToLower(id)))
	if err != nil || !ok {
		return time.Time{}
	}
	if t, err := time.Parse(lastMailDay, v); err == nil {
		return t
	}
	t, _ := time.Parse(time.RFC3339, v) // written before the day alone was
	return t
}

// IsBanned reports whether a user id or an address is banned.
func IsBanned(tx *store.Tx, what string) bool {
	_, ok, _ := tx.Note(banKey(what))
	return ok
}
