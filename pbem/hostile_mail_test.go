package pbem

import (
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailmsg/mailmsgtest"
)

// TestHostileMail runs the hostile corpus through the service: each mail
// is handled (a mail that is no mail at all excepted), gets at most one
// reply, to its sender (the first address of a From that lists many), of a
// few kilobytes.
func TestHostileMail(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, c := range mailmsgtest.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			if err := h.svc.Deliver(c.Raw); err != nil {
				if c.Name == "bytes-only-random" {
					return // no header: not a mail; the transport keeps it
				}
				t.Fatalf("Deliver: %v", err)
			}
			out := h.outbox()
			if len(out) > 1 {
				t.Fatalf("%d replies: %v", len(out), subjects(out))
			}
			for _, r := range out {
				if r.To != mailmsgtest.From && !strings.HasPrefix(c.Name, "addresses-from-") {
					t.Errorf("reply to %s, want the sender %s", r.To, mailmsgtest.From)
				}
				if len(r.Raw) > 16<<10 {
					t.Errorf("reply %q of %d bytes", r.Subject, len(r.Raw))
				}
			}
			h.now = h.now.Add(25 * time.Hour) // past the daily how-to bound
		})
	}
}

// TestHugeWordsInCommands: a player's command with a word of 100 KB (a
// move, an option, an unknown verb, a user id, a multiple mail's lines) is
// refused with a reply of a few kilobytes that quotes the word cut short.
func TestHugeWordsInCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	h.send("alice@example.org", "ultima challenge alice bob", "")
	huge := strings.Repeat("e2", 50000)
	line := strings.Repeat("x", 12000)
	for _, c := range []struct{ subject, body string }{
		{"ultima move 101 alice pw-alice " + huge, ""},
		{"ultima challenge alice bob -" + huge, ""},
		{huge + " alice", ""},
		{"ultima " + huge, ""},
		{"ultima show " + huge, ""},
		{"vacation " + huge + " pw 3", ""},
		{"multiple", strings.Repeat(line+"\n", 20)},
	} {
		out := h.send("alice@example.org", c.subject, c.body)
		if len(out) != 1 {
			t.Fatalf("%.40s: %d replies; want 1", c.subject, len(out))
		}
		// A multiple mail's reply has a section for each of its (at most
		// 20) commands.
		max := 16 << 10
		if c.subject == "multiple" {
			max = 32 << 10
		}
		if n := len(out[0].Raw); n > max {
			t.Errorf("%.40s: a reply of %d bytes; want at most %d", c.subject, n, max)
		}
		if !strings.Contains(out[0].Body, "...") {
			t.Errorf("%.40s: the reply does not show the word cut short:\n%.600s", c.subject, out[0].Body)
		}
	}
}

// TestShowManyWords: a show with thousands of board numbers or user ids
// shows at most ten boards, a word written again once, so the replies stay
// few and small.
func TestShowManyWords(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	for range 12 {
		h.send("alice@example.org", "ultima challenge alice bob", "")
	}
	for _, subject := range []string{
		"ultima show" + strings.Repeat(" 101", 10000),
		"ultima show" + strings.Repeat(" alice", 20000),
		"ultima show" + strings.Repeat(" 101 alice", 3000),
	} {
		out := h.send("nobody@evil.test", subject, "")
		if len(out) == 0 || len(out) > 2 {
			t.Fatalf("%.30s: %d replies %v; want a board and an error at most", subject, len(out), subjects(out))
		}
		n := 0
		for _, r := range out {
			n += len(r.Raw)
		}
		if n > 64<<10 {
			t.Errorf("%.30s: replies of %d bytes; want at most ten boards' worth", subject, n)
		}
		h.now = h.now.Add(25 * time.Hour)
	}
}

// TestChallengeRelaysNoStrangersText: a stranger's challenge names two
// players but relays none of its text to them; a player's comment is cut to
// the message bound.
func TestChallengeRelaysNoStrangersText(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	spam := strings.Repeat("buy cheap pills now\n", 13000)
	for _, r := range h.send("spammer@evil.test", "ultima challenge alice bob", spam) {
		if strings.Contains(r.Body, "cheap pills") {
			t.Errorf("the mail to %s relays the stranger's text", r.To)
		}
	}
	for _, r := range h.send("alice@example.org", "ultima challenge alice bob", spam) {
		if !strings.Contains(r.Body, "cheap pills") {
			t.Errorf("the mail to %s lost the challenger's comment", r.To)
		}
		if len(r.Raw) > 16<<10 {
			t.Errorf("the mail to %s is %d bytes; want the comment cut to 8000", r.To, len(r.Raw))
		}
	}
}

// TestUsageErrorsMaskPasswords: a change password or reset with the wrong
// number of words quotes the command with its passwords masked.
func TestUsageErrorsMaskPasswords(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	for _, subject := range []string{
		"change password alice pw-alice NewSecret1 extra",
		"change password alice pw-alice",
		"reset alice abcdefghjk NewSecret1 x",
	} {
		for _, r := range h.send("alice@example.org", subject, "") {
			for _, pw := range []string{"pw-alice", "NewSecret1"} {
				if strings.Contains(string(r.Raw), pw) {
					t.Errorf("%q: the reply holds %q:\n%s", subject, pw, r.Body)
				}
			}
		}
	}
}
