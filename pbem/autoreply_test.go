package pbem

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Issue 25, item 10: automatic replies get no answer. Those that say so
// in their header or subject (RFC 3834, and the spellings of common
// clients) are never answered; a naive responder that says nothing of the
// kind, and sends the same text to every mail it gets, is answered once
// (a day), not once for each of the server's answers.
func TestAutoReplies(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	for name, header := range map[string]string{
		"Auto-Submitted":     "Auto-Submitted: auto-replied\r\n",
		"X-Autoreply":        "X-Autoreply: yes\r\n",
		"X-Autorespond":      "X-Autorespond: I am away\r\n",
		"Precedence":         "Precedence: auto_reply\r\n",
		"Out of Office":      "Subject: Out of Office: Tanbo Board 101 Error\r\n",
		"Automatic reply":    "Subject: Automatic reply: pbemd error\r\n",
		"Out of Office, any": "Subject: OUT OF OFFICE until Monday\r\n",
	} {
		if !strings.Contains(header, "Subject:") {
			header += "Subject: Re: pbemd error\r\n"
		}
		raw := fmt.Sprintf("From: alice@example.org\r\nMessage-ID: <auto-%s@client.example>\r\n%s\r\nI am away until Monday.\r\n", strings.ReplaceAll(name, " ", "-"), header)
		if out := h.deliver([]byte(raw)); len(out) != 0 {
			t.Errorf("%s: answered with %v", name, subjects(out))
		}
	}

	// A naive responder: each of its mails has its own Message-ID and
	// quotes the server's last answer, which differs each time.
	responder := func(from, quoted string) []reply {
		return h.send(from, "Re: Tanbo Board 101 Error", "I am away until Monday.\n\n> "+quoted+"\n")
	}
	if r := one(t, responder("alice@example.org", "first"), "alice@example.org"); r.Subject != "tanbo error" {
		t.Errorf("the responder's first mail: %q", r.Subject)
	}
	for i := range 5 {
		if out := responder("alice@example.org", fmt.Sprint("answer ", i)); len(out) != 0 {
			t.Fatalf("the responder's mail %d was answered: %v", i+2, subjects(out))
		}
	}
	// A stranger's responder: one how-to note.
	if out := responder("away@elsewhere.example", "first"); len(out) != 1 {
		t.Fatalf("a stranger's first mail: %v", subjects(out))
	}
	if out := responder("away@elsewhere.example", "second"); len(out) != 0 {
		t.Fatalf("a stranger's second mail: %v", subjects(out))
	}
	// Other text from the same sender is answered, and so is the same
	// text from another.
	if out := h.send("alice@example.org", "Re: Tanbo Board 101 Error", "Back on Tuesday."); len(out) != 1 {
		t.Errorf("other text: %v", subjects(out))
	}
	if out := responder("bob@example.org", "first"); len(out) != 1 {
		t.Errorf("another sender: %v", subjects(out))
	}
	// After a day the responder is answered once more.
	h.now = h.now.Add(25 * time.Hour)
	if out := responder("alice@example.org", "later"); len(out) != 1 {
		t.Errorf("a day later: %v", subjects(out))
	}
	if out := responder("alice@example.org", "later again"); len(out) != 0 {
		t.Errorf("a day later, again: %v", subjects(out))
	}
}

// A player who sends his move again gets the error that says why it was
// not played again; a third copy within a day, refused for the same
// reason as the second, goes unanswered; once the reason changes (the
// opponent moved), it is answered again. A mail that carries out any
// command is answered however often it comes.
func TestRepeatedMoveAnswered(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	move := func() []reply { return h.send("alice@example.org", "tanbo move 101 alice pw-alice h7#1", "my move") }
	if out := move(); len(out) != 2 {
		t.Fatalf("the move: %v", subjects(out))
	}
	r := one(t, move(), "alice@example.org")
	says(t, r.Body, "It is not your turn on Tanbo board 101")
	if out := move(); len(out) != 0 {
		t.Errorf("the same refusal again: %v", subjects(out))
	}
	// bob moves: the same mail of alice's is refused for another reason.
	if out := h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", ""); len(out) != 2 {
		t.Fatalf("bob: %v", subjects(out))
	}
	r = one(t, move(), "alice@example.org")
	says(t, r.Body, "h7#1 was not played: the next move on Tanbo board 101 is #3, not #1")
	// A multiple that carries out a command and has a line refused:
	// answered each time.
	body := "tanbo show 101\ntanbo show 999\n"
	if out := h.send("alice@example.org", "multiple", body); len(out) == 0 {
		t.Fatalf("the multiple was not answered")
	}
	if out := h.send("alice@example.org", "multiple", body); len(out) == 0 {
		t.Errorf("the multiple sent again was not answered")
	}
}
