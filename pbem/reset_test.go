package pbem

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

var resetCodeRE = regexp.MustCompile(`reset (\w+) ([a-z2-9]{10}) NEWPASSWORD`)

// resetCodeIn returns the code of the code mail among out, and checks that
// code mails went only to the account's address want.
func resetCodeIn(t *testing.T, out []reply, want string) string {
	t.Helper()
	code := ""
	for _, r := range out {
		m := resetCodeRE.FindStringSubmatch(r.Body)
		if m == nil {
			continue
		}
		if r.To != want {
			t.Fatalf("a reset code went to %s; only %s is the account's", r.To, want)
		}
		code = m[2]
	}
	return code
}

func TestResetFlow(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")

	// A stranger forges nothing: he asks from his own address. The code
	// goes to alice's address; he hears only that a code was sent if the
	// account exists.
	out := h.send("mallory@evil.example", "reset alice", "")
	code := resetCodeIn(t, out, "alice@example.org")
	if code == "" {
		t.Fatalf("no code mailed to alice: %v", subjects(out))
	}
	for _, r := range out {
		for _, l := range strings.Split(r.Body, "\n") {
			if len(l) > 72 {
				t.Errorf("a line of %q is %d columns wide, more than 72:\n%s", r.Subject, len(l), l)
			}
		}
	}
	var toMallory []reply
	for _, r := range out {
		if r.To == "mallory@evil.example" {
			toMallory = append(toMallory, r)
		}
	}
	if len(toMallory) != 1 || strings.Contains(toMallory[0].Body, code) {
		t.Fatalf("mallory got %v; want one note without the code", subjects(toMallory))
	}
	// The same note for an account that does not exist: the sender cannot
	// tell them apart.
	ghost := one(t, h.send("mallory@evil.example", "reset nobody", ""), "mallory@evil.example")
	if strings.ReplaceAll(ghost.Body, "nobody", "alice") != toMallory[0].Body {
		t.Errorf("the note for a missing account differs:\n%s\n---\n%s", ghost.Body, toMallory[0].Body)
	}

	// A forged From: the mail claims to be from alice's address but nothing
	// but her address receives the code.
	h.now = h.now.Add(2 * time.Hour)
	raw := []byte(strings.Replace(string(h.mail("alice@example.org", "reset alice", "")),
		"From: alice@example.org", "From: alice@example.org\r\nReply-To: mallory@evil.example", 1))
	out = h.deliver(raw)
	for _, r := range out {
		if r.To != "alice@example.org" {
			t.Errorf("a reply went to %s", r.To)
		}
	}
	code2 := resetCodeIn(t, out, "alice@example.org")
	if code2 == "" || code2 == code {
		t.Fatalf("a new request made no new code (%q after %q)", code2, code)
	}
	// One live code: the first one died with the second request.
	errorReply(t, h.send("alice@example.org", "reset alice "+code+" newpass1", ""), "alice@example.org",
		"That is not the reset code of alice; copy it from the mail sent to the account's addresses.")

	// The code sets the password; every address hears of it; the code
	// works once.
	out = h.send("alice@example.org", "reset alice "+code2+" newpass1", "")
	if r := one(t, out, "alice@example.org"); !strings.Contains(r.Subject, "password changed") || strings.Contains(r.Body, "newpass1") {
		t.Fatalf("reset with the code: %q\n%s", r.Subject, r.Body)
	}
	errorReply(t, h.send("alice@example.org", "reset alice "+code2+" newpass2", ""), "alice@example.org",
		"alice has no reset code that still works: a code works for 24 hours. Send reset alice for a new one.")
	errorReply(t, h.send("alice@example.org", "change password alice pw-alice x1234", ""), "alice@example.org",
		"The password for alice is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset alice' and a code comes to the account's addresses.")
	one(t, h.send("alice@example.org", "change password alice newpass1 newpass2", ""), "alice@example.org")
}

func TestResetCodeExpires(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("bob")
	code := resetCodeIn(t, h.send("bob@example.org", "reset bob", ""), "bob@example.org")
	h.now = h.now.Add(resetLife)
	errorReply(t, h.send("bob@example.org", "reset bob "+code+" newpass1", ""), "bob@example.org",
		"bob has no reset code that still works: a code works for 24 hours. Send reset bob for a new one.")
	one(t, h.send("bob@example.org", "change password bob pw-bob newpass1", ""), "bob@example.org")
}

// Wrong codes, from anyone, do not kill the code, nor lock the account: a
// forger cannot spend the owner's way back. And a reset gets through while
// forged guesses lock the account's password checks, and ends the lock.
func TestResetGetsThroughForgedGuesses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("carol")
	code := resetCodeIn(t, h.send("carol@example.org", "reset carol", ""), "carol@example.org")
	for i := range 20 {
		h.deliver(h.forged(fmt.Sprintf("x%d@evil.example", i), fmt.Sprintf("reset carol wrongcode%c newpass1", 'a'+i), ""))
		h.deliver(h.forged(fmt.Sprintf("y%d@evil.example", i), fmt.Sprintf("change password carol guess%d newpass1", i), ""))
	}
	// The lock holds for carol's unauthenticated mail...
	if out := h.deliver(h.forged("carol@example.org", "change password carol pw-carol newpass1", "")); len(out) != 0 {
		t.Fatalf("a password check during the lock: %v", subjects(out))
	}
	// ... but the code, from the same kind of mail, sets a new password.
	out := h.deliver(h.forged("carol@example.org", "reset carol "+code+" newpass1", ""))
	if r := one(t, out, "carol@example.org"); !strings.Contains(r.Subject, "password changed") {
		t.Fatalf("reset with the code during the lock: %q\n%s", r.Subject, r.Body)
	}
	// And the new password is not locked by the old one's guesses.
	if out := h.deliver(h.forged("carol@example.org", "change password carol newpass1 newpass2", "")); len(out) != 1 || !strings.Contains(out[0].Subject, "password changed") {
		t.Errorf("the new password after the reset: %v", subjects(out))
	}

	// A flood of requests mails the account at most once an hour.
	h.now = h.now.Add(2 * time.Hour)
	n := 0
	for range 5 {
		if resetCodeIn(t, h.send("x@evil.example", "reset carol", ""), "carol@example.org") != "" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("5 requests within an hour mailed %d codes; want 1", n)
	}
}

func TestResetStoresNoCodeNorPassword(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("dave")
	out := h.send("dave@example.org", "reset dave", "")
	code := resetCodeIn(t, out, "dave@example.org")
	var dump strings.Builder
	if _, err := h.db.Backup(&dump); err != nil {
		t.Fatal(err)
	}
	// The mail that carried the code to dave was in the outbox until it
	// went, and its bytes may stay in the file's free pages: every copy of
	// the code in the file must be that mail's line, none another record.
	line := ""
	for l := range strings.Lines(out[0].Body) {
		if strings.Contains(l, code) {
			line = strings.TrimSuffix(l, "\n")
		}
	}
	if n, inMail := strings.Count(dump.String(), code), strings.Count(dump.String(), line); line == "" || n != inMail {
		t.Errorf("the store holds the reset code in clear %d times, %d of them in the mail that carried it", n, inMail)
	}
	out = h.send("dave@example.org", "reset dave "+code+" s3cretpw", "")
	for _, r := range out {
		if strings.Contains(string(r.Raw), "s3cretpw") {
			t.Errorf("a reply quotes the new password:\n%s", r.Raw)
		}
	}
	dump.Reset()
	if _, err := h.db.Backup(&dump); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(dump.String(), "s3cretpw") {
		t.Error("the store holds the new password in clear")
	}
}

// A forger who spends the limits of carol's address with forged mail does
// not stop her reset: its code still goes to her, and the code still works.
func TestResetGetsThroughSpentLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("carol")
	h.svc.limits.Mails = 5
	for range 10 {
		h.deliver(h.forged("carol@example.org", "help", ""))
	}
	out := h.deliver(h.forged("carol@example.org", "reset carol", ""))
	code := resetCodeIn(t, out, "carol@example.org")
	if code == "" || len(out) != 1 {
		t.Fatalf("a reset from a spent address: %v", subjects(out))
	}
	out = h.deliver(h.forged("carol@example.org", "reset carol "+code+" newpass1", ""))
	if r := one(t, out, "carol@example.org"); !strings.Contains(r.Subject, "password changed") {
		t.Fatalf("reset with the code from a spent address: %q", r.Subject)
	}
}

// A reset gets past a sender's spent limits once a mail, and an account is
// mailed at most resetsADay codes a day, whoever asks.
func TestResetsBounded(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("p0", "p1", "p2")
	h.svc.limits.Mails = 2
	for range 3 {
		h.deliver(h.forged("x@evil.example", "help", ""))
		h.deliver(h.forged("x@evil.example", "tanbo games p0", ""))
		h.deliver(h.forged("x@evil.example", "signup zz", ""))
	}
	out := h.deliver(h.forged("x@evil.example", "multiple", "reset p0\nreset p1\nreset p2\n"))
	if len(out) != 1 || out[0].To != "p0@example.org" {
		t.Errorf("a multiple of three resets over the limits: %v; want p0's code alone", subjects(out))
	}
	// Ten more requests, an hour apart, from anyone: two more codes.
	codes := 1
	for i := range 10 {
		h.now = h.now.Add(resetRemail)
		for _, r := range h.deliver(h.forged(fmt.Sprintf("y%d@evil.example", i), "reset p0", "")) {
			if r.To == "p0@example.org" {
				codes++
			}
		}
	}
	if codes != resetsADay {
		t.Errorf("p0 was mailed %d codes in a day; want %d", codes, resetsADay)
	}
}
