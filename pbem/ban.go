package pbem

import (
	"fmt"
	"strings"
	"time"

	"github.com/pbemd/pbemd/store"
)

// Bans are the administrator's: mail from a banned address, or from any
// address of a banned user, is dropped unanswered and logged. They are
// store notes, so the daemon and every pbemd deliver see them.

func banAddressKey(addr string) string { return "ban-address:" + strings.ToLower(addr) }
func banUserKey(id string) string      { return "ban-user:" + strings.ToLower(id) }

// banKey is the note of what, a user id or (with an @) an address.
func banKey(what string) string {
	if strings.Contains(what, "@") {
		return banAddressKey(what)
	}
	return banUserKey(what)
}

// Ban bans (or with on false, unbans) what: a mail address, or a user id.
// It returns what it did, in words for the administrator.
func (s *Service) Ban(what string, on bool, now time.Time) (string, error) {
	what = strings.ToLower(strings.TrimSpace(what))
	if what == "" {
		return "", fmt.Errorf("ban what? Name a mail address or a user id")
	}
	var done string
	err := s.db.Update(func(tx *store.Tx) error {
		if !strings.Contains(what, "@") {
			if _, err := tx.User(what); err != nil {
				return fmt.Errorf("no user %q; name a user id or a mail address", what)
			}
		}
		_, was, err := tx.Note(banKey(what))
		if err != nil {
			return err
		}
		switch {
		case on && was:
			done = what + " was banned already"
		case on:
			done = what + " is banned: its mail is dropped"
			return tx.SetNote(banKey(what), now.UTC().Format(time.RFC3339))
		case was:
			done = what + " is no longer banned"
			return tx.DeleteNote(banKey(what))
		default:
			done = what + " was not banned"
		}
		return nil
	})
	return done, err
}

// banned says why the sender's mail is dropped, or "" when it is not.
func (r *request) banned() (string, error) {
	sender := r.sender()
	if _, ok, err := r.tx.Note(banAddressKey(sender)); err != nil || ok {
		return "the sender's address is banned", err
	}
	users, err := r.tx.UsersByAddress(sender)
	if err != nil {
		return "", err
	}
	for _, u := range users {
		if _, ok, err := r.tx.Note(banUserKey(u.ID)); err != nil || ok {
			return "the sender's user " + u.ID + " is banned", err
		}
	}
	return "", nil
}

// Banned lists what is banned: addresses and user ids.
func (s *Service) Banned() ([]string, error) {
	var list []string
	err := s.db.View(func(tx *store.Tx) error {
		return tx.Notes("ban-", func(key, _ string) error {
			_, what, _ := strings.Cut(key, ":")
			list = append(list, what)
			return nil
		})
	})
	return list, err
}
