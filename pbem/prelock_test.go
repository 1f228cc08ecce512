package pbem

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
)

// Preverify checks the passwords a mail's commands name before the write
// lock, and remembers the right ones; it needs no lock of the service.
func TestPreverify(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	cases := []struct {
		subject, body string
		known         int // passwords remembered as right afterwards
	}{
		{"vacation alice pw-alice 0", "", 1},
		{"ultima move 101 bob pw-bob e2-e4", "", 1},
		{"Re: tanbo resign 102 carol pw-carol **", "", 1},
		{"vacation alice wrong 0", "", 0},
		{"ultima show alice bob", "", 0},
		{"multiple", "vacation alice pw-alice 0\nultima move 101 bob pw-bob a1\nultima games carol\n", 2},
		{"signup dave pw-dave", "", 0},
		// At most 3 distinct pairs a mail are checked ahead.
		{"multiple", "vacation alice pw-alice 0\nvacation alice pw-alice 1\nvacation bob pw-bob 0\nvacation carol w1 0\nvacation carol pw-carol 0\n", 2},
	}
	for _, c := range cases {
		svc := New(h.db, Config{Address: "pbem@example.org", Now: func() time.Time { return h.now }, Log: slog.New(slog.DiscardHandler)})
		svc.mu.Lock() // the write path's lock: Preverify must not need it
		svc.Preverify(h.db, h.mail("x@example.org", c.subject, c.body))
		svc.mu.Unlock()
		if got := rightPasswords(svc.passwords); got != c.known {
			t.Errorf("%q: %d passwords remembered as right; want %d", c.subject, got, c.known)
		}
	}
}

// A copy of a mail handled before costs no bcrypt: it will change nothing.
func TestPreverifySkipsHandledMail(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	raw := h.mail("alice@example.org", "vacation alice pw-alice 0", "")
	h.deliver(raw)
	svc := New(h.db, Config{Address: "pbem@example.org", Log: slog.New(slog.DiscardHandler)})
	svc.Preverify(h.db, raw)
	if n := rightPasswords(svc.passwords); n != 0 {
		t.Errorf("%d passwords checked for a mail handled before; want 0", n)
	}
}

// The mails of a batch are checked ahead together, on all cores, and a
// pair that several of them name costs one bcrypt.
func TestPreverifyBatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	svc := New(h.db, Config{Address: "pbem@example.org", Log: slog.New(slog.DiscardHandler)})
	var raws [][]byte
	for i := range 10 {
		raws = append(raws, h.mail("alice@example.org", fmt.Sprintf("vacation alice pw-alice %d", i), ""))
	}
	raws = append(raws,
		h.mail("bob@example.org", "vacation bob pw-bob 0", ""),
		h.mail("carol@example.org", "vacation carol wrong 0", ""),
		h.mail("carol@example.org", "vacation carol wrong 1", ""))
	svc.Preverify(h.db, raws...)
	if n := svc.passwords.compares.Load(); n != 3 {
		t.Errorf("%d bcrypt comparisons for 3 distinct pairs; want 3", n)
	}
	if n := rightPasswords(svc.passwords); n != 2 {
		t.Errorf("%d passwords remembered as right; want 2", n)
	}
}

// rightPasswords counts the passwords the cache remembers as right.
func rightPasswords(c *passwordCache) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, ok := range c.result {
		if ok {
			n++
		}
	}
	return n
}

// Guesses at an account whose checks are locked cost no bcrypt before the
// lock, and a wrong password checked before the lock is not checked again
// under it.
func TestPreverifyLockedAndWrong(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	svc := New(h.db, Config{Address: "pbem@example.org", Now: func() time.Time { return h.now }, Log: slog.New(slog.DiscardHandler)})
	raw := h.mail("x@example.org", "vacation alice guess-1 0", "")
	svc.Preverify(h.db, raw)
	if n := svc.passwords.compares.Load(); n != 1 {
		t.Fatalf("%d bcrypt runs before the lock; want 1", n)
	}
	if _, err := svc.Handle(raw); err != nil {
		t.Fatal(err)
	}
	if n := svc.passwords.compares.Load(); n != 1 {
		t.Errorf("%d bcrypt runs after handling the mail checked before; want still 1", n)
	}
	for i := 2; i <= 12; i++ {
		if _, err := svc.Handle(h.mail(fmt.Sprintf("x%d@example.org", i), fmt.Sprintf("vacation alice guess-%d 0", i), "")); err != nil {
			t.Fatal(err)
		}
	}
	before := svc.passwords.compares.Load()
	svc.Preverify(h.db, h.mail("y@example.org", "vacation alice guess-99 0", ""))
	if n := svc.passwords.compares.Load() - before; n != 0 {
		t.Errorf("%d bcrypt runs before the lock for an account whose checks are locked; want 0", n)
	}
}

// The new password of a signup or a change password is hashed before the
// write lock, so the command under the lock makes no bcrypt hash; a
// stranger's mail of many signups costs at most maxNewPasswords hashes,
// the rest of its signups are refused.
func TestNewPasswordsHashedAhead(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	n := func() int64 { return h.svc.passwords.hashes.Load() }
	// Before the lock: the hash waits, made ahead, for the signup.
	raw := h.mail("alice@example.org", "signup alice pw-alice", "")
	h.svc.mu.Lock() // the write path's lock: hashing ahead must not need it
	h.svc.Preverify(h.db, raw)
	h.svc.mu.Unlock()
	if n() != 1 {
		t.Fatalf("%d hashes before the lock; want 1", n())
	}
	if r := one(t, h.deliver(raw), "alice@example.org"); r.Subject != "pbemd: welcome alice" {
		t.Fatalf("signup: %q", r.Subject)
	}
	if n() != 1 {
		t.Errorf("%d hashes after the signup; want 1, made ahead", n())
	}
	// The new password works, the old one not.
	has(t, one(t, h.send("alice@example.org", "change password alice pw-alice New-pw-1", ""), "alice@example.org").Body, "changed")
	if n() != 2 {
		t.Errorf("%d hashes after a change of password; want 2", n())
	}
	has(t, one(t, h.send("alice@example.org", "vacation alice New-pw-1 0", ""), "alice@example.org").Subject, "vacation")
	errorReply(t, h.send("alice@example.org", "vacation alice pw-alice 0", ""), "alice@example.org",
		"The password for alice is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset alice' and a code comes to the account's addresses.")
	// A wrong old password: no hash.
	h.send("alice@example.org", "change password alice wrong-pw Other-pw-2", "")
	if n() != 2 {
		t.Errorf("%d hashes after a change with a wrong password; want 2", n())
	}

	// A stranger's mail of ten signups: two hashes, two accounts.
	var body strings.Builder
	for i := range 10 {
		fmt.Fprintf(&body, "signup user%d pass-%d\n", i, i)
	}
	before := n()
	out := h.send("stranger@example.org", "multiple", body.String())
	if got := n() - before; got != maxNewPasswords {
		t.Errorf("%d hashes for ten signups; want %d", got, maxNewPasswords)
	}
	r := one(t, out, "stranger@example.org")
	has(t, r.Body, "1 of 10: pbemd: welcome user0", "2 of 10: pbemd: welcome user1", "3 of 10: signup error", "10 of 10: signup error")
	says(t, r.Body, "One mail sets at most 2 new passwords (signup, change password, reset); send this command in another mail.")
	hasNot(t, r.Body, "welcome user2", "pass-")
}

// A flood of signup mails that prove nothing: the hashes made before the
// lock, and all hashes, are bounded by the signup budget, whatever the
// batches; the accounts beyond it are refused, with no bcrypt.
func TestSignupFloodBounded(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.svc.limits.Signups = 3
	var raws [][]byte
	for i := range 10 {
		raws = append(raws, h.forged(fmt.Sprintf("s%d@example.org", i), "multiple",
			fmt.Sprintf("signup new%da pass-%da\nsignup new%db pass-%db\n", i, i, i, i)))
	}
	before := h.svc.passwords.hashes.Load()
	h.svc.Preverify(h.db, raws...)
	if got := h.svc.passwords.hashes.Load() - before; got != 3 {
		t.Errorf("%d new passwords hashed before the lock for 20 signups; want the budget's 3", got)
	}
	for i, err := range h.svc.DeliverAll(raws) {
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	if got := h.svc.passwords.hashes.Load() - before; got != 3 {
		t.Errorf("20 signups hashed %d passwords in all; want the 3 made ahead", got)
	}
	made := 0
	h.db.View(func(tx *store.Tx) error {
		return tx.Users(func(*store.User) error { made++; return nil })
	})
	if made != 3 {
		t.Errorf("20 forged signups made %d accounts; want the budget's 3", made)
	}
	out := h.outbox()
	refusals := 0
	for _, r := range out {
		refusals += strings.Count(r.Body, "This server takes no more new accounts until")
	}
	if refusals != 17 {
		t.Errorf("%d signups were told the budget is spent; want 17", refusals)
	}
	// Authenticated mail has a budget of its own.
	h.signup("alice")
}

// Accounts never used expire in the sweep; used ones, and those with a
// board, stay.
func TestUnusedAccountsExpire(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("idle", "player", "named")
	h.send("player@example.org", "tanbo games player pw-player", "") // no password needed: not a use
	h.send("player@example.org", "vacation player pw-player 0", "")
	h.send("x@example.org", "tanbo challenge named player", "")
	h.now = h.now.Add(unusedLife - time.Hour)
	h.sweep()
	h.now = h.now.Add(time.Hour)
	h.sweep()
	h.db.View(func(tx *store.Tx) error {
		for id, want := range map[string]bool{"idle": false, "player": true, "named": true} {
			if _, err := tx.User(id); (err == nil) != want {
				t.Errorf("after %v unused: user %s there: %v, want %v", unusedLife, id, err == nil, want)
			}
		}
		return nil
	})
}

// A batch of strangers' signups hashes a few ahead and none under the
// lock: the rest are told to send again, so that the players' mails of
// the batch do not wait on a stranger's bcrypt.
func TestSignupsOfABatchBounded(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var raws [][]byte
	for i := range 10 {
		raws = append(raws, h.forged(fmt.Sprintf("s%d@example.org", i), fmt.Sprintf("signup new%d pass-%d", i, i), ""))
	}
	before := h.svc.passwords.hashes.Load()
	for i, err := range h.svc.DeliverAll(raws) {
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	if got := h.svc.passwords.hashes.Load() - before; got != maxHashesAhead {
		t.Errorf("a batch of 10 strangers' signups hashed %d passwords; want %d", got, maxHashesAhead)
	}
	busy := 0
	for _, r := range h.outbox() {
		if strings.Contains(r.Body, "making many new accounts at once") {
			busy++
		}
	}
	if busy != 10-maxHashesAhead {
		t.Errorf("%d signups were told to send again; want %d", busy, 10-maxHashesAhead)
	}
}

// A sender over his limit of wrong passwords costs no more bcrypt before
// the lock, whatever his mails name: the review's 40 authenticated mails
// of three guesses each, from one address of the guesser's own.
func TestGuesserOverHisLimitCostsNoBcrypt(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	before := h.svc.passwords.compares.Load()
	for i := range 40 {
		body := fmt.Sprintf("tanbo move 101 bob wrong%da h7\ntanbo move 101 bob wrong%db h7\ntanbo move 101 bob wrong%dc h7\n", i, i, i)
		h.send("mal@evil.example", "multiple", body)
	}
	if n := h.svc.passwords.compares.Load() - before; n > int64(DefaultLimits().BadPasswords)+2 {
		t.Errorf("120 guesses of a sender over his limit ran %d bcrypt checks; want about his limit, %d", n, DefaultLimits().BadPasswords)
	}
}

// Authenticated signups have a budget per organizational domain: one
// signing domain spends its own, not another's.
func TestSignupBudgetPerDomain(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.svc.limits.Signups = 2
	for i := range 3 {
		h.send(fmt.Sprintf("u%d@mail.evil.example", i), fmt.Sprintf("signup evil%d pw-evil%d", i, i), "")
	}
	errorReply(t, h.send("u9@evil.example", "signup evil9 pw-evil9", ""), "u9@evil.example",
		"This server takes no more new accounts until 2026-11-22 13:00 UTC: 2 were made within 1h. Send the signup again after that time.")
	h.signup("alice") // example.org has its own
}
