package pbem

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pbemd/pbemd/store"
)

// restart replaces the service by a new one on the same store, as a new
// pbemd deliver process or a restarted daemon is: nothing is kept in memory.
func (h *harness) restart() {
	cfg := h.svc.cfg
	newID := h.svc.NewID
	h.svc = New(h.db, cfg)
	h.svc.hashCost = bcrypt.MinCost
	h.svc.NewID = newID
}

// 300 guesses at alice's password from 300 addresses that nothing vouches
// for: only the lock's count is checked; the rest are ignored without an
// answer; alice's addresses are warned once, and told how their own mail
// gets through; the lock holds in a new process and ends with its window.
// Alice's authenticated mail is never locked out.
func TestPasswordLockByAccount(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	var wrongReplies, others int
	for i := 0; i < 300; i++ {
		from := fmt.Sprintf("g%d@attack.example", i)
		if i == 150 {
			h.restart() // the count is in the store, not in the process
		}
		for _, r := range h.deliver(h.forged(from, fmt.Sprintf("tanbo move 101 alice guess%d h7", i), "")) {
			switch {
			case r.To == from && strings.HasPrefix(r.Body, "The password for alice is wrong;"):
				wrongReplies++
			case r.To == "alice@example.org" && r.Subject == "pbemd: password checks of alice locked":
				others++
				says(t, r.Body, "10 wrong passwords for alice came within 1h in mail that proves nothing of its sender. Until 2026-11-22 13:00 UTC no password of alice is checked in such mail")
				says(t, r.Body, "reply to one of your board mails")
			default:
				t.Errorf("guess %d: unexpected reply to %s: %q", i, r.To, r.Subject)
			}
		}
	}
	compares := h.svc.passwords.compares.Load() // after the restart: the new service's
	if wrongReplies != 10 || others != 1 || compares != 0 {
		t.Errorf("300 guesses: %d wrong-password replies, %d warnings, %d bcrypt checks after the restart; want 10, 1, 0",
			wrongReplies, others, compares)
	}
	// Locked means locked for mail that proves nothing: the right
	// password is not checked either, even from alice's own address.
	if out := h.deliver(h.forged("alice@example.org", "tanbo move 101 alice pw-alice h7", "")); len(out) != 0 {
		t.Errorf("an unauthenticated move during the lock: %v", subjects(out))
	}
	if g := h.game("tanbo", 101); len(g.Moves) != 0 {
		t.Errorf("an unauthenticated move was played during the lock")
	}
	// Alice's own authenticated mail is checked: no forger stops her.
	if out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""); len(out) != 2 {
		t.Errorf("alice's authenticated move during the lock: %v", subjects(out))
	}
	// Other accounts are not locked.
	if out := h.deliver(h.forged("bob@example.org", "tanbo chat 101 bob pw-bob", "hi")); len(out) != 2 {
		t.Errorf("bob during alice's lock: %v", subjects(out))
	}
	h.now = h.now.Add(time.Hour)
	if out := h.deliver(h.forged("alice@example.org", "tanbo chat 101 alice pw-alice", "back")); len(out) != 2 {
		t.Errorf("an unauthenticated chat after the lock: %v", subjects(out))
	}
}

// Wrong passwords in authenticated mail are the sender's own typos: they
// count against him, never against the account.
func TestAuthenticatedGuessesDoNotLock(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	for i := range 30 {
		h.send(fmt.Sprintf("g%d@attack.example", i), fmt.Sprintf("tanbo resign 101 alice guess%d", i), "")
	}
	if out := h.deliver(h.forged("alice@example.org", "tanbo move 101 alice pw-alice h7", "")); len(out) != 2 {
		t.Errorf("alice's move after 30 authenticated strangers' guesses: %v", subjects(out))
	}
}

// The bcrypt checks of one process are counted: with a fresh service from
// the start, 300 guesses cost at most the lock's count of bcrypt runs.
func TestPasswordGuessesCostBoundedChecks(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	for i := 0; i < 300; i++ {
		h.deliver(h.forged(fmt.Sprintf("g%d@attack.example", i), fmt.Sprintf("tanbo resign 101 alice guess%d", i), ""))
	}
	if n := h.svc.passwords.compares.Load(); n != 10 {
		t.Errorf("300 guesses ran %d bcrypt checks; want 10, the lock's count", n)
	}
}

// A sender over his limit gets one warning, in a new process too.
func TestSenderLimitSurvivesRestart(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.svc.cfg.Limits.Reads = 5
	h.restart()
	for i := 0; i < 5; i++ {
		one(t, h.send("carol@example.org", "tanbo show 101", ""), "carol@example.org")
	}
	h.restart()
	r := one(t, h.send("carol@example.org", "tanbo show 101", ""), "carol@example.org")
	if r.Subject != "pbemd: too many mails" {
		t.Errorf("sixth mail: %q", r.Subject)
	}
	says(t, r.Body, "Mail from carol@example.org sent more than 5 reading commands (help, show, lists) within 1h.",
		"Moves and other commands have a budget of their own and still work.")
	checkWidth(t, "too many mails", r)
	h.restart()
	if out := h.send("carol@example.org", "tanbo show 101", ""); len(out) != 0 {
		t.Errorf("seventh mail, after another restart: %v", subjects(out))
	}
}

// A newcomer who explores spends the reading budget, never his moves'.
func TestReadingHasABudgetOfItsOwn(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.svc.limits.Reads, h.svc.limits.Mails = 3, 3
	for range 5 {
		h.send("alice@example.org", "help", "")
		h.send("alice@example.org", "tanbo show 101", "")
	}
	if out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""); len(out) != 2 {
		t.Errorf("a move after the reading budget was spent: %v", subjects(out))
	}
}

// Mail to addresses of no user has one budget for all senders, kept in the
// store; the how-to note goes at most once a day to an address.
func TestStrangersBudget(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.svc.cfg.Limits.Strangers = 5
	h.restart()
	answered := 0
	for i := 0; i < 20; i++ {
		if i == 10 {
			h.restart()
		}
		answered += len(h.send(fmt.Sprintf("s%d@example.net", i), "hello", ""))
	}
	if answered != 5 {
		t.Errorf("20 strangers got %d how-to notes; want the budget's 5", answered)
	}
	// A signup's welcome goes to an address of no one (the From may be
	// forged): it is charged too, and dropped while the budget is spent.
	if out := h.deliver(h.forged("carol@example.org", "signup carol pw-carol", "")); len(out) != 0 {
		t.Errorf("a signup with the budget spent got %v; want nothing", subjects(out))
	}
	// Not so an authenticated one: its From is nobody's forged victim.
	one(t, h.send("dave@example.org", "signup dave pw-dave", ""), "dave@example.org")
	// A stranger the budget left unanswered is answered in the next window.
	h.now = h.now.Add(time.Hour)
	one(t, h.send("s19@example.net", "hello", ""), "s19@example.net")
	// A user's answers are not strangers' mail: more than the budget go.
	h.signup("alice")
	for range 10 {
		one(t, h.send("alice@example.org", "help", ""), "alice@example.org")
	}

	// The sweep forgets counters whose window has passed.
	if err := h.svc.Sweep(h.now.Add(25 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	h.db.View(func(tx *store.Tx) error {
		for _, key := range []string{strangersKey, howtoKey("s19@example.net"), senderMailsKey("s19@example.net")} {
			if c, err := tx.Counter(key); err != nil || c.Count != 0 {
				t.Errorf("counter %s after the sweep: %+v, %v", key, c, err)
			}
		}
		return nil
	})
}

// Guesses from forged senders at many accounts: beyond the budget of wrong
// passwords from addresses that are not the account's, no password from
// such an address is checked (no bcrypt), and the sender is told why; the
// accounts' own addresses are still checked, a pair checked before still
// passes, and the budget comes back with the window. ("vacation ID PW 0"
// of a player not away answers that he is not away: the password passed.)
func TestForeignWrongPasswordsBudget(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.svc.cfg.Limits.ForeignBadPasswords = 5
	h.restart()
	ids := []string{"alice", "bob", "carol", "dave", "erin", "frank"}
	h.signup(ids...)
	tries := 0
	passed := func(from, id, password string) {
		t.Helper()
		// "Not on vacation" is an error: the same mail again within a
		// day would not be answered.
		tries++
		r := one(t, h.send(from, fmt.Sprintf("vacation %s %s 0", id, password), fmt.Sprint("try ", tries)), from)
		says(t, r.Body, id+" is not on vacation")
	}
	// bob, from another address, is known right before the flood.
	passed("bob@work.example", "bob", "pw-bob")
	before := h.svc.passwords.compares.Load()
	for i := range 60 {
		id := ids[i%len(ids)]
		from := fmt.Sprintf("g%d@attack.example", i)
		r := one(t, h.send(from, fmt.Sprintf("vacation %s guess%d 0", id, i), ""), from)
		if i < 5 {
			says(t, r.Body, "The password for "+id+" is wrong")
		} else {
			says(t, r.Body, "Your password was not checked: too many wrong passwords came lately from addresses that are not their account's, so until 2026-11-22 13:00 UTC")
		}
	}
	if n := h.svc.passwords.compares.Load() - before; n != 5 {
		t.Errorf("60 guesses from forged senders ran %d bcrypt checks; want the budget's 5", n)
	}
	// The accounts' own addresses are checked, right or wrong.
	passed("alice@example.org", "alice", "pw-alice")
	r := one(t, h.send("carol@example.org", "vacation carol wrong 0", ""), "carol@example.org")
	says(t, r.Body, "The password for carol is wrong")
	// A pair checked before costs no bcrypt, and passes from anywhere.
	passed("bob@work.example", "bob", "pw-bob")
	// The right password from a new address waits for the window.
	r = one(t, h.send("dave@elsewhere.example", "vacation dave pw-dave 0", ""), "dave@elsewhere.example")
	says(t, r.Body, "Send this from an address of dave, or again after that time")
	h.now = h.now.Add(time.Hour)
	passed("dave@elsewhere.example", "dave", "pw-dave")
}

// Checks ahead of the lock draw on the same budget: a batch of guesses from
// forged senders runs no more bcrypt before the lock than the budget has
// left, and none once it is spent.
func TestPreverifyForeignBudget(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.svc.cfg.Limits.ForeignBadPasswords = 3
	h.restart()
	ids := []string{"alice", "bob", "carol"}
	h.signup(ids...)
	batch := func() [][]byte {
		var raws [][]byte
		for i := range 20 {
			id := ids[i%len(ids)]
			raws = append(raws, h.mail(fmt.Sprintf("g%d@attack.example", i), fmt.Sprintf("vacation %s guess%d 0", id, i), "")) // a fresh mail each
		}
		// Change password checks the old password ahead too.
		return append(raws, h.mail("g@attack.example", "change password alice guess pw-new", ""))
	}
	for round, want := range []int64{3, 0} {
		h.restart()
		h.svc.Preverify(h.db, batch()...)
		if n := h.svc.passwords.compares.Load(); n != want {
			t.Errorf("round %d: %d bcrypt checks ahead of the lock; want %d", round, n, want)
		}
		h.svc.DeliverAll(batch())
	}
	// Their own addresses are not held back.
	h.restart()
	h.svc.Preverify(h.db, h.mail("alice@example.org", "vacation alice pw-alice 0", ""))
	if n := rightPasswords(h.svc.passwords); n != 1 {
		t.Errorf("alice from her own address: %d passwords checked ahead, want 1", n)
	}
}
