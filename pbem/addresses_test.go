package pbem

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
)

var confirmLine = regexp.MustCompile(`(?m)^    confirm (\S+) (\S+)$`)

// confirmCode returns the code of a confirmation mail, checking that the
// mail is the short text it must be: no board, no relayed text.
func confirmCode(t *testing.T, r reply) string {
	t.Helper()
	if !strings.HasPrefix(r.Subject, "pbemd: confirm your address for ") {
		t.Fatalf("not a confirmation mail: %q", r.Subject)
	}
	m := confirmLine.FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("confirmation mail without a confirm line:\n%s", r.Body)
	}
	if len(r.Body) > 600 || strings.Contains(r.Body, "Board") || strings.Contains(r.Body, "writes:") {
		t.Errorf("a confirmation mail carries more than its code (%d bytes):\n%s", len(r.Body), r.Body)
	}
	return m[2]
}

// dbSize is the size of the store's data, as a backup would write it.
func (h *harness) dbSize() int64 {
	h.t.Helper()
	var size int64
	if _, err := h.db.BackupSized(discard{}, func(n int64) error { size = n; return nil }); err != nil {
		h.t.Fatal(err)
	}
	return size
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// A stranger signs up naming 2,000 addresses: one refusal to the sender,
// naming the limit; no account, no mail to any of them, and the store grows
// by the refusal only.
func TestSignupThousandsOfAddresses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var addrs []string
	for i := 1; i <= 2000; i++ {
		addrs = append(addrs, fmt.Sprintf("a%d@x.example", i))
	}
	raw := h.mail("spammer@x.example", "signup spammer pw-spam "+strings.Join(addrs, " "), "")
	before := h.dbSize()
	out := h.deliver(raw)
	grown := h.dbSize() - before
	r := errorReply(t, out, "spammer@x.example",
		"You gave 2000 addresses; an account has at most 3, so name at most 3.")
	t.Logf("mail %d bytes: one reply of %d bytes; store grew by %d bytes", len(raw), len(r.Raw), grown)
	// The reply quotes the mail once; nothing grows with the square of
	// the addresses any more (it was 2,001 mails of 114 KB each).
	if len(r.Raw) > 3*len(raw)+8<<10 {
		t.Errorf("the refusal has %d bytes for a mail of %d", len(r.Raw), len(raw))
	}
	if grown > 8*int64(len(raw))+64<<10 {
		t.Errorf("the store grew by %d bytes for a mail of %d", grown, len(raw))
	}
	h.db.View(func(tx *store.Tx) error {
		if _, err := tx.User("spammer"); !errNotFound(err) {
			t.Errorf("a refused signup made an account: %v", err)
		}
		return nil
	})
}

// Addresses other than the sender's get one short mail with a code and
// nothing else until confirmed; the welcome goes to the sender and names
// only confirmed addresses.
func TestSignupConfirmation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("bob")
	out := h.send("alice@example.org", "signup alice pw-alice alice@example.org alice@home.example victim@other.example", "")
	if len(out) != 3 {
		t.Fatalf("signup with three addresses: %v", subjects(out))
	}
	home := confirmCode(t, one(t, out[:1], "alice@home.example"))
	victim := confirmCode(t, one(t, out[1:2], "victim@other.example"))
	welcome := one(t, out[2:], "alice@example.org")
	says(t, welcome.Body, "Board mails go to: alice@example.org.\n2 other addresses were mailed a code to confirm;")
	if strings.Contains(welcome.Body, "victim") || strings.Contains(welcome.Body, "home.example") {
		t.Errorf("the welcome names unconfirmed addresses:\n%s", welcome.Body)
	}

	// Unconfirmed addresses get no game mail and no message.
	for _, subject := range []string{"tanbo challenge bob alice", "tanbo move 101 bob pw-bob b7", "message bob pw-bob alice"} {
		out := h.send("bob@example.org", subject, "Hello")
		if len(out) < 2 {
			t.Errorf("%s: %v", subject, subjects(out))
		}
		for _, r := range out {
			if r.To != "alice@example.org" && r.To != "bob@example.org" {
				t.Errorf("%s: mail to an unconfirmed address: %s %q", subject, r.To, r.Subject)
			}
		}
	}

	// A wrong code is refused; the right one, sent from anywhere,
	// confirms, and the address gets mail from then on.
	errorReply(t, h.send("alice@home.example", "confirm alice 2222222222", ""), "alice@home.example",
		`"********" is not a code waiting for alice; a code works for 7 days after it was mailed. Ask for a new one by sending change address again.`)
	out = h.send("alice@home.example", "confirm alice "+strings.ToUpper(home), "")
	if len(out) != 2 || out[0].To != "alice@example.org" || out[1].To != "alice@home.example" {
		t.Fatalf("confirm: %v", subjects(out))
	}
	golden(t, "confirmed", out)
	says(t, out[1].Body, "Board mails go to: alice@example.org, alice@home.example.")
	if strings.Contains(out[1].Body, strings.ToUpper(home)) {
		t.Errorf("the code was quoted back")
	}
	errorReply(t, h.send("alice@home.example", "confirm alice "+home, ""), "alice@home.example",
		`"********" is not a code waiting for alice; a code works for 7 days after it was mailed. Ask for a new one by sending change address again.`)
	out = h.send("bob@example.org", "message bob pw-bob alice", "Hello again")
	if got := subjects(out); len(out) != 3 || out[0].To != "alice@example.org" || out[1].To != "alice@home.example" {
		t.Errorf("message after the confirmation: %v", got)
	}

	// The victim is asked once a day whoever asks: another signup naming
	// it mails nothing there and says so.
	out = h.send("mallory@example.org", "signup mallory pw-mallory mallory@example.org victim@other.example", "")
	r := one(t, out, "mallory@example.org")
	says(t, r.Body, "Not mailed now, so not added: victim@other.example. An address is asked to confirm\nat most once a day,")

	// A code works for 7 days only.
	h.now = h.now.Add(7 * 24 * time.Hour)
	errorReply(t, h.send("victim@other.example", "confirm alice "+victim, ""), "victim@other.example",
		`"********" is not a code waiting for alice; a code works for 7 days after it was mailed. Ask for a new one by sending change address again.`)

	// change address has the same bound as signup.
	errorReply(t, h.send("alice@example.org", "change address alice pw-alice a@x.example b@x.example c@x.example d@x.example", ""),
		"alice@example.org", "You gave 4 addresses; an account has at most 3, so name at most 3.")
}

// A message reaches at most Limits.Recipients users, with at most
// Limits.MessageBytes of text.
func TestMessageBounds(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	var ids []string
	err := h.db.Update(func(tx *store.Tx) error {
		for i := 0; i < 1000; i++ {
			id := fmt.Sprintf("u%d", i)
			ids = append(ids, id)
			if err := tx.PutUser(&store.User{ID: id, Name: id, Addresses: []string{id + "@example.org"}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	errorReply(t, h.send("alice@example.org", "message alice pw-alice "+strings.Join(ids, " "), "Buy now"), "alice@example.org",
		"A message goes to at most 10 users; this one names 1000. Send it to fewer users.")
	errorReply(t, h.send("alice@example.org", "message alice pw-alice u1", strings.Repeat("spam ", 2000)), "alice@example.org",
		"A message is at most 8000 bytes; this one has 9999. Shorten it, or send it in parts.")
	out := h.send("alice@example.org", "message alice pw-alice "+strings.Join(ids[:10], " ")+" u0", "Hello")
	if len(out) != 11 {
		t.Errorf("a message to 10 users (one named twice): %v", subjects(out))
	}
}

// A signup in mail that proves nothing of its sender does not take its
// From as confirmed: the address gets a code, and no board mail until it
// confirms. So a forged signup cannot have the server mail a stranger, nor
// share a player's address with an account of the forger's.
func TestForgedSignupConfirmsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	out := h.deliver(h.forged("victim@third.example", "signup vv secret1", ""))
	for _, r := range out {
		if r.To != "victim@third.example" {
			t.Errorf("a forged signup mailed %s", r.To)
		}
	}
	if u := h.user("vv"); len(u.Addresses) != 0 || len(u.Unconfirmed) != 1 {
		t.Fatalf("a forged signup's account: addresses %v, unconfirmed %v; want none and one", u.Addresses, u.Unconfirmed)
	}
	h.send("x@elsewhere.example", "tanbo subscribe all vv secret1", "")
	if out := h.send("alice@example.org", "tanbo challenge alice bob", ""); len(out) != 2 {
		t.Errorf("a new board with vv subscribed to all: %v; want the players' two", subjects(out))
	}
	// With alice's address forged: mail from it is still alice's.
	h.deliver(h.forged("alice@example.org", "signup aaa secret2", ""))
	if u, err := ownerOf(h, "alice@example.org"); err != nil || u != "alice" {
		t.Errorf("alice's address belongs to %q (%v); want alice alone", u, err)
	}
}

// ownerOf is the one user an address belongs to.
func ownerOf(h *harness, addr string) (string, error) {
	var id string
	err := h.db.View(func(tx *store.Tx) error {
		us, err := tx.UsersByAddress(addr)
		if err != nil {
			return err
		}
		if len(us) != 1 {
			return fmt.Errorf("%d users", len(us))
		}
		id = us[0].ID
		return nil
	})
	return id, err
}

// The welcome of a signup nothing vouched for says why its own address
// must confirm, within 72 columns.
func TestForgedSignupWelcomeSaysWhy(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, r := range h.deliver(h.forged("newbie@example.net", "signup newbie pw-newbie", "")) {
		says(t, r.Body, "This address was mailed a code to confirm: nothing vouched for your mail (anyone can write a From line), so it gets mail only once you send the confirm line of that mail.")
		hasNot(t, r.Body, "other address")
		checkWidth(t, "forged signup", r)
	}
}
