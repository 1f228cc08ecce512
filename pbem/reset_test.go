package pbem

import (
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
		"That is not the reset code of alice; 4 more tries before the code dies. Copy it from the mail sent to the account.")

	// The code sets the password; every address hears of it; the code
	// works once.
	out = h.send("alice@example.org", "reset alice "+code2+" newpass1", "")
	if r := one(t, out, "alice@example.org"); !strings.Contains(r.Subject, "password changed") || strings.Contains(r.Body, "newpass1") {
		t.Fatalf("reset with the code: %q\n%s", r.Subject, r.Body)
	}
	errorReply(t, h.send("alice@example.org", "reset alice "+code2+" newpass2", ""), "alice@example.org",
		"alice has no reset code that still works: a code works for 24 hours and for 5 tries. Send reset alice for a new one.")
	errorReply(t, h.send("alice@example.org", "change password alice pw-alice x1234", ""), "alice@example.org",
		"The password for alice is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset alice' and a code comes to the account's addresses.")
	one(t, h.send("alice@example.org", "change password alice newpass1 newpass2", ""), "alice@example.org")
}

func TestResetCodeExpires(t *testing.T) {
	h := newHarness(t)
	h.signup("bob")
	code := resetCodeIn(t, h.send("bob@example.org", "reset bob", ""), "bob@example.org")
	h.now = h.now.Add(resetLife)
	errorReply(t, h.send("bob@example.org", "reset bob "+code+" newpass1", ""), "bob@example.org",
		"bob has no reset code that still works: a code works for 24 hours and for 5 tries. Send reset bob for a new one.")
	one(t, h.send("bob@example.org", "change password bob pw-bob newpass1", ""), "bob@example.org")
}

func TestResetCodeDiesAfterWrongTries(t *testing.T) {
	h := newHarness(t)
	h.signup("carol")
	code := resetCodeIn(t, h.send("carol@example.org", "reset carol", ""), "carol@example.org")
	for i := 1; i < resetTries; i++ {
		h.send("x@evil.example", "reset carol wrongcode"+string(rune('a'+i))+" newpass1", "")
	}
	out := h.send("x@evil.example", "reset carol wrongcodez newpass1", "")
	errorReply(t, out, "x@evil.example", "That is not the reset code of carol, and 5 wrong codes have killed it. Send reset carol for a new one.")
	// The right code no longer works.
	errorReply(t, h.send("carol@example.org", "reset carol "+code+" newpass1", ""), "carol@example.org",
		"carol has no reset code that still works: a code works for 24 hours and for 5 tries. Send reset carol for a new one.")

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
