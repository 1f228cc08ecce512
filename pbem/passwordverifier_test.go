package pbem

import (
	"bytes"
	"testing"

	"github.com/pbemd/pbemd/pbem/populate"
	"github.com/pbemd/pbemd/store"
)

// restartWith starts h's service again (restart) with the verifier key
// key, and returns it.
func (h *harness) restartWith(key []byte) *Service {
	h.svc.cfg.PasswordKey = key
	h.restart()
	return h.svc
}

// A daemon just started checks a password that checked out before its
// start by the verifier stored with the account, without a bcrypt; the
// verifier proves only the password it was made of, of the password hash
// it names, under the key it was made with.
func TestPasswordVerifierSpansRestarts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	key := bytes.Repeat([]byte{7}, 32)

	svc := h.restartWith(key)
	one(t, h.send("alice@example.org", "vacation alice pw-alice 1", ""), "alice@example.org")
	if n := svc.passwords.compares.Load(); n != 1 {
		t.Fatalf("first check of alice's password: %d bcrypt runs, want 1", n)
	}
	var stored string
	h.db.View(func(tx *store.Tx) error {
		u, err := tx.User("alice")
		if err != nil {
			t.Fatal(err)
		}
		stored = u.Verifier
		return nil
	})
	if stored == "" {
		t.Fatal("no verifier kept after alice's password checked out")
	}

	// Started again: the right password costs no bcrypt.
	svc = h.restartWith(key)
	one(t, h.send("alice@example.org", "vacation alice pw-alice 2", ""), "alice@example.org")
	if n := svc.passwords.compares.Load(); n != 0 {
		t.Errorf("alice's password after a restart: %d bcrypt runs, want 0", n)
	}
	// Before the lock too (Preverify reads the same record).
	svc = h.restartWith(key)
	svc.Preverify(h.db, h.mail("alice@example.org", "vacation alice pw-alice 3", ""))
	if n := svc.passwords.compares.Load(); n != 0 {
		t.Errorf("alice's password checked ahead after a restart: %d bcrypt runs, want 0", n)
	}

	// A wrong password is not taken for right: the verifier does not
	// match, and bcrypt says no.
	svc = h.restartWith(key)
	r := one(t, h.deliver(h.forged("mallory@example.net", "vacation alice pw-alicf 4", "")), "mallory@example.net")
	says(t, r.Body, "is wrong")
	if n := svc.passwords.compares.Load(); n != 1 {
		t.Errorf("a wrong password: %d bcrypt runs, want 1", n)
	}

	// Under another key the stored verifier proves nothing: bcrypt runs,
	// and the verifier is made again under the new key.
	svc = h.restartWith(bytes.Repeat([]byte{8}, 32))
	one(t, h.send("alice@example.org", "vacation alice pw-alice 5", ""), "alice@example.org")
	if n := svc.passwords.compares.Load(); n != 1 {
		t.Errorf("alice's password under a new key: %d bcrypt runs, want 1", n)
	}

	// Without a key nothing is kept or used, and what is kept stays.
	svc = h.restartWith(nil)
	one(t, h.send("alice@example.org", "vacation alice pw-alice 6", ""), "alice@example.org")
	if n := svc.passwords.compares.Load(); n != 1 {
		t.Errorf("alice's password with no key: %d bcrypt runs, want 1", n)
	}
}

// A new password makes the old verifier prove nothing: the old password
// is refused after a restart, and the new one checks out.
func TestPasswordVerifierOfChangedPassword(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	key := bytes.Repeat([]byte{7}, 32)
	h.restartWith(key)
	one(t, h.send("alice@example.org", "vacation alice pw-alice 7", ""), "alice@example.org")
	h.send("alice@example.org", "change password alice pw-alice new-secret", "")

	svc := h.restartWith(key)
	r := one(t, h.deliver(h.forged("mallory@example.net", "vacation alice pw-alice 8", "")), "mallory@example.net")
	says(t, r.Body, "is wrong")
	one(t, h.send("alice@example.org", "vacation alice new-secret 9", ""), "alice@example.org")
	if n := svc.passwords.compares.Load(); n != 2 {
		t.Errorf("old and new password after a change: %d bcrypt runs, want 2", n)
	}
}

// A verifier names its account: bob's, copied into alice's record, does
// not make bob's password hers; with none kept, bcrypt decides.
func TestPasswordVerifierOfAnotherAccount(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	key := bytes.Repeat([]byte{7}, 32)
	h.restartWith(key)
	one(t, h.send("bob@example.org", "vacation bob pw-bob 1", ""), "bob@example.org")
	err := h.db.Update(func(tx *store.Tx) error {
		bob, err := tx.User("bob")
		if err != nil {
			return err
		}
		alice, err := tx.User("alice")
		if err != nil {
			return err
		}
		if bob.Verifier == "" {
			t.Fatal("no verifier kept for bob")
		}
		alice.Verifier = bob.Verifier
		return tx.PutUser(alice)
	})
	if err != nil {
		t.Fatal(err)
	}
	h.restartWith(key)
	r := one(t, h.deliver(h.forged("mallory@example.net", "vacation alice pw-bob 2", "")), "mallory@example.net")
	says(t, r.Body, "is wrong")

	// No verifier kept and no password given: bcrypt says no.
	c := newPasswordCache(key)
	var alice *store.User
	h.db.View(func(tx *store.Tx) error { alice, err = tx.User("alice"); return err })
	alice.Verifier = ""
	if err != nil || c.check(alice, "") || c.compares.Load() != 1 {
		t.Errorf("the empty password with no verifier: taken for right, or %d bcrypt runs (%v)", c.compares.Load(), err)
	}
}

// A store made by pbemd populate holds accounts as a server that has run
// a while does: each with its verifier, so that the first mail of every
// player after a start costs no bcrypt, as it would not on that server.
// A wrong password still does.
func TestPopulatedAccountsKeepVerifiers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.restartWith(bytes.Repeat([]byte{7}, 32))
	h.populate(populate.Options{Games: 20, Players: 4, Seed: 5})

	svc := h.restartWith(bytes.Repeat([]byte{7}, 32))
	player := populate.PlayerID(2)
	r := one(t, h.send(player+"@example.org", "vacation "+player+" secret 1", ""), player+"@example.org")
	says(t, r.Body, "vacation")
	if n := svc.passwords.compares.Load(); n != 0 {
		t.Errorf("a populated player's first password after a start: %d bcrypt runs, want 0", n)
	}
	r = one(t, h.send(player+"@example.org", "vacation "+player+" secreT 1", ""), player+"@example.org")
	says(t, r.Body, "is wrong")
	if n := svc.passwords.compares.Load(); n != 1 {
		t.Errorf("a wrong password: %d bcrypt runs, want 1", n)
	}
}
