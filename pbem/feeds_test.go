package pbem

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/store"
)

var feedURL = regexp.MustCompile(`https://pbem\.example\.org/users/alice/todo\.atom\?key=([a-z2-7]+)`)

// feedKeyIn is the key of the feed address in a mail's body, or "".
func feedKeyIn(body string) string {
	if m := feedURL.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

// validKey reports whether key opens alice's feed, as the web view asks.
func (h *harness) validKey(key string) bool {
	h.t.Helper()
	var ok bool
	err := h.db.View(func(tx *store.Tx) (err error) {
		ok, err = FeedKeyValid(tx, "alice", key)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return ok
}

// TestFeedKey: "feed key" mails the feed's address with its key to the
// account's own addresses, whoever asks; a forged From gets no key, with
// or without the password, and without it gets a refusal; "feed revoke"
// makes every key given so far fail.
func TestFeedKey(t *testing.T) {
	h := newHarness(t)
	h.svc.cfg.PublicURL = "https://pbem.example.org/"
	h.signup("alice", "bob")

	r := one(t, h.send("alice@example.org", "feed key alice pw-alice", ""), "alice@example.org")
	key := feedKeyIn(r.Body)
	if r.Subject != "pbemd: feed key of alice" || len(key) != FeedKeyChars || !h.validKey(key) {
		t.Fatalf("the key mail %q gives key %q (valid %v):\n%s", r.Subject, key, h.validKey(key), r.Body)
	}
	hasNot(t, r.Body, "pw-alice")
	checkWidth(t, "feed key", r)
	last := "a"
	if strings.HasSuffix(key, last) {
		last = "b" // a changed key, not the key again
	}
	if h.validKey(strings.ToUpper(key)) && strings.ToUpper(key) != key || h.validKey(key[:len(key)-1]+last) || h.validKey("") || h.validKey(key+key) {
		t.Errorf("a key changed, empty or doubled opens the feed")
	}
	// Asked again, the key is the same: a feed reader's address holds.
	if again := feedKeyIn(one(t, h.send("alice@example.org", "feed key alice pw-alice", ""), "alice@example.org").Body); again != key {
		t.Errorf("a second request gave key %q, the first %q", again, key)
	}

	// From an address of the account that its domain vouches for, the
	// password may be left out.
	if k := feedKeyIn(one(t, h.send("alice@example.org", "feed key alice", ""), "alice@example.org").Body); k != key {
		t.Errorf("feed key without a password, vouched for: key %q", k)
	}

	// A forged From, the account's own address or another: without the
	// password a refusal to the sender and nothing else, no key anywhere.
	for _, from := range []string{"alice@example.org", "mallory@evil.example"} {
		out := h.deliver(h.forged(from, "feed key alice", ""))
		e := errorReply(t, out, from, `Without the password, feed key works only from an address of alice whose domain signs its mail; send "feed key alice PASSWORD".`)
		if feedKeyIn(e.Body) != "" || strings.Contains(e.Body, key) {
			t.Errorf("the refusal to %s holds the key:\n%s", from, e.Body)
		}
	}
	// Another account's vouched address is no address of alice's.
	errorReply(t, h.send("bob@example.org", "feed key alice", ""), "bob@example.org",
		`Without the password, feed key works only from an address of alice whose domain signs its mail; send "feed key alice PASSWORD".`)

	// With the password from a forged From: the key goes to alice's
	// address alone; the forger is told only where it went.
	out := h.deliver(h.forged("mallory@evil.example", "feed key alice pw-alice", ""))
	if len(out) != 2 {
		t.Fatalf("feed key with the password from a stranger: %v", subjects(out))
	}
	for _, m := range out {
		switch m.To {
		case "alice@example.org":
			if feedKeyIn(m.Body) != key || !strings.Contains(m.Body, "mallory@evil.example") {
				t.Errorf("alice's mail lacks her key or the requester:\n%s", m.Body)
			}
		case "mallory@evil.example":
			if strings.Contains(m.Body, key) || !strings.Contains(m.Body, "mailed to the addresses of the account") {
				t.Errorf("the stranger's note:\n%s", m.Body)
			}
		default:
			t.Errorf("a mail to %s", m.To)
		}
	}
	// A wrong password: an error, and no key.
	out = h.deliver(h.forged("mallory@evil.example", "feed key alice wrongguess", ""))
	if e := one(t, out, "mallory@evil.example"); strings.Contains(e.Body, key) || !strings.Contains(e.Body, "The password for alice is wrong") {
		t.Errorf("a wrong password's answer:\n%s", e.Body)
	}
	// Words that are no feed command, or too many.
	errorReply(t, h.send("alice@example.org", "feed give alice pw-alice", ""), "alice@example.org",
		`"give" is not a feed command; write "feed key USERID PASSWORD" for the key of your feed, or "feed revoke USERID PASSWORD" to make every key given so far fail.`)
	if e := one(t, h.send("alice@example.org", "feed key alice pw-alice extra", ""), "alice@example.org"); strings.Contains(e.Body, "pw-alice") {
		t.Errorf("a usage error quotes the password:\n%s", e.Body)
	}

	// Revoked, the key fails; the next one is another, and works.
	r = one(t, h.send("alice@example.org", "feed revoke alice pw-alice", ""), "alice@example.org")
	says(t, r.Body, "Every key of alice's feed given so far now fails")
	if h.validKey(key) {
		t.Fatalf("the key works after feed revoke")
	}
	next := feedKeyIn(one(t, h.send("alice@example.org", "feed key alice pw-alice", ""), "alice@example.org").Body)
	if next == "" || next == key || !h.validKey(next) {
		t.Errorf("the key after a revoke: %q (the old %q)", next, key)
	}

	// An id signed off and taken again by someone else: no key of the
	// old account opens the new one's feed.
	h.send("alice@example.org", "signoff alice pw-alice", "")
	h.send("carol@example.org", "signup alice pw-carol", "")
	if h.validKey(next) {
		t.Errorf("the old account's key opens the feed of a new account of the same id")
	}
}
