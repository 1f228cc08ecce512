package pbem

import (
	"strings"
	"testing"
)

// The board mail body, top to bottom as docs/commands.md lists it: title,
// notices, state line, rating changes, move list with seats and user ids,
// diagram, Subscribers:, the comment block, the time block.
func TestBoardMailOrder(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol")
	h.send("carol@example.org", "tanbo subscribe 101 carol pw-carol", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice b3", "")
	out := h.send("bob@example.org", "tanbo resign 101 bob pw-bob", "Well played.\n\n> old board\n")
	r := boardMails(t, out, "Tanbo Board 101 won by alice **", "alice@example.org", "bob@example.org", "carol@example.org")
	order := []string{
		"Summary of Tanbo Board 101\n",
		"\nbob resigned.\n",
		"\nGame won by alice.\n",
		"\nRating changes:\n",
		"\n      Black: alice  White: bob\n   1. h7         2. b7\n   3. b3\n",
		"\n    a b c d e f g h i\n",
		"\nSubscribers: carol\n",
		"\nbob writes:\nWell played.\n",
		"\nStarted:   2026-11-22 12:00 UTC\nEnded:     2026-11-22 12:00 UTC\n",
	}
	at := -1
	for _, part := range order {
		i := strings.Index(r.Body, part)
		if i < 0 {
			t.Fatalf("board mail lacks %q:\n%s", part, r.Body)
		}
		if i <= at {
			t.Errorf("%q comes before the part above it in the documented order:\n%s", part, r.Body)
		}
		at = i
	}
	if !strings.HasPrefix(r.Body, order[0]) {
		t.Errorf("the board mail does not start with its title:\n%s", r.Body)
	}
	hasNot(t, r.Body, "old board")
}

// Every mail of one board carries the board's References root, the error
// replies about it too ("Tanbo Board 101 Error" showed in no game thread).
func TestErrorRepliesThreadWithTheBoard(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	root := h.game("tanbo", 101).Thread
	if root == "" {
		t.Fatal("board 101 has no thread root")
	}
	for _, subject := range []string{
		"tanbo move 101 bob pw-bob b7",       // not his turn
		"tanbo move 101 alice pw-alice e5",   // illegal
		"tanbo move 101 alice wrong h7",      // wrong password
		"tanbo subscribe 101 alice pw-alice", // a player
	} {
		from := strings.Fields(subject)[3] + "@example.org"
		r := one(t, h.send(from, subject, ""), from)
		if r.Subject != "Tanbo Board 101 Error" {
			t.Errorf("%s: subject %q, want Tanbo Board 101 Error", subject, r.Subject)
		}
		if len(r.References) == 0 || r.References[0] != root {
			t.Errorf("%s: References %q, want the board's root %q first", subject, r.References, root)
		}
		if r.InReplyTo == "" || r.References[len(r.References)-1] != r.InReplyTo {
			t.Errorf("%s: References %q do not end in the player's mail %q", subject, r.References, r.InReplyTo)
		}
	}
}

// Mail goes to the registered addresses, never to Reply-To; what answers the
// sender alone (an error, a show) goes to his From address.
func TestReplyToIsNotUsed(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	move := "From: Alice <alice@example.org>\r\nReply-To: elsewhere@example.net\r\nSubject: tanbo move 101 alice pw-alice h7\r\nMessage-ID: <rt1@client.example>\r\n\r\n"
	boardMails(t, h.deliver([]byte(move)), "Tanbo Board 101 bob", "alice@example.org", "bob@example.org")
	bad := "From: bob@example.org\r\nReply-To: elsewhere@example.net\r\nSubject: tanbo move 101 bob pw-bob zz\r\nMessage-ID: <rt2@client.example>\r\n\r\n"
	one(t, h.deliver([]byte(bad)), "bob@example.org")
	// From another address than his registered one: the board mails still
	// go to the registered address only.
	boardMails(t, h.send("bob@elsewhere.example", "tanbo move 101 bob pw-bob b7", ""), "Tanbo Board 101 alice",
		"alice@example.org", "bob@example.org")
}

// Boards go as 7bit ASCII; a comment with accents makes the mail UTF-8
// quoted-printable and reaches the players intact.
func TestSevenBit(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	has(t, string(out[0].Raw), "Content-Type: text/plain; charset=us-ascii\r\n", "Content-Transfer-Encoding: 7bit\r\n", "Auto-Submitted: auto-replied\r\n")
	out = h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "Grüße aus Köln")
	r := boardMails(t, out, "Tanbo Board 101 alice **", "alice@example.org", "bob@example.org")
	has(t, string(r.Raw), "Content-Type: text/plain; charset=utf-8\r\n", "Content-Transfer-Encoding: quoted-printable\r\n")
	has(t, r.Body, "bob writes:\nGrüße aus Köln\n", "    a b c d e f g h i\n")
}
