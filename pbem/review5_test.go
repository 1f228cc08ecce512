package pbem

import (
	"strings"
	"testing"
)

// Review of issue 5: the mail service core against mail.md's Commands and
// Replies, and odd subjects that must each get a clear answer.

// The board mail body, top to bottom as mail.md lists it: title, notices,
// state line, rating changes, move list with seats and user ids, diagram,
// Subscribers:, the comment block, the time block.
func TestReview5BoardMailOrder(t *testing.T) {
	h := twoPlayers(t)
	h.signup("carol")
	h.send("carol@example.org", "tanbo subscribe 101 carol pw-carol", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	out := h.send("bob@example.org", "tanbo resign 101 bob pw-bob", "Well played.\n\n> old board\n")
	r := boardMails(t, out, "Tanbo Board 101 won by alice **", "alice@example.org", "bob@example.org", "carol@example.org")
	order := []string{
		"Summary of Tanbo Board 101\n",
		"\nbob resigned.\n",
		"\nGame won by alice.\n",
		"\nRating changes:\n",
		"\n      Black: alice  White: bob\n   1. h7\n",
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
			t.Errorf("%q comes before the part above it in mail.md's order:\n%s", part, r.Body)
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
func TestReview5ErrorRepliesThreadWithTheBoard(t *testing.T) {
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

// "#n" with no move before it is refused as such, by move and by queue;
// the move read "  is not a legal move", and queue stored an empty move.
func TestReview5MoveNumberWithoutMove(t *testing.T) {
	h := twoPlayers(t)
	errorReply(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice #1", ""), "alice@example.org",
		`"#1" has no move before its number; write the move, then #N, e.g. e2-e5#3.`)
	errorReply(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob #2", ""), "bob@example.org",
		`"#2" has no move before its number; write the move, then #N, e.g. e2-e5#3.`)
	errorReply(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice #", ""), "alice@example.org",
		`"#" does not end in a move number; write the move number as #N after the move, e.g. e2-e5#3.`)
	if g := h.game("tanbo", 101); len(g.Moves) != 0 || len(g.Queue) != 0 {
		t.Errorf("refused mails stored moves %+v, queue %+v", g.Moves, g.Queue)
	}
}

// "show board#n" with the board or the number missing says which is
// missing (it read: after move , but board 101 has ...; "" is not a board
// number).
func TestReview5ShowAtMoveWords(t *testing.T) {
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	for _, c := range []struct{ subject, want string }{
		{"tanbo show 101#", `"101#" does not end in a move number; write the board number, then #N for the board after move N, e.g. tanbo show 101#3.`},
		{"tanbo show 101#1#2", `"101#1#2" does not end in a move number; write the board number, then #N for the board after move N, e.g. tanbo show 101#3.`},
		{"tanbo show #", `"#" has no board number; write the board number, then #N for the board after move N, e.g. tanbo show 101#3.`},
		{"tanbo show ##3", `"##3" has no board number; write the board number, then #N for the board after move N, e.g. tanbo show 101#3.`},
		{"tanbo show #1", "There is no Tanbo board 1; send 'tanbo games all' for the boards there are."}, // "#1" is board 1, as in move
		{"tanbo show 101#2", `"101#2" asks for the board after move 2, but board 101 has moves 0 to 1.`},
	} {
		errorReply(t, h.send("carol@example.org", c.subject, ""), "carol@example.org", c.want)
	}
	// "#101" is board 101, as in move.
	if r := one(t, h.send("carol@example.org", "tanbo show #101", ""), "carol@example.org"); r.Subject != "Tanbo Board 101 bob" {
		t.Errorf("show #101: %q", r.Subject)
	}
	if r := one(t, h.send("carol@example.org", "tanbo show #101#1", ""), "carol@example.org"); r.Subject != "Tanbo Board 101 at move 1" {
		t.Errorf("show #101#1: %q", r.Subject)
	}
}

// Odd subjects from a user each get one error reply to him, with a subject
// of mail.md's forms, and change nothing.
func TestReview5OddSubjects(t *testing.T) {
	h := twoPlayers(t)
	h.svc.limits = Limits{Mails: 1000, BadPasswords: 1000}.withDefaults()
	big := "1000000000000000000000000000000"
	words500 := strings.TrimSpace(strings.Repeat("word ", 500))
	for _, c := range []struct{ subject, errSubject, first string }{
		{"", "pbemd error", "The subject is empty; "},
		{"**", "pbemd error", "The subject is empty; "},
		{"Re:", "pbemd error", "The subject is empty; "},
		{"Re: Fwd: **", "pbemd error", "The subject is empty; "},
		{words500, "pbemd error", `"word" is not a command; `},
		{"tanbo move 101 alice pw-alice " + words500, "Tanbo Board 101 Error", "word word word"},
		{"tänbo show 101", "pbemd error", `"tänbo" is not a command; `},
		{"tanbo show " + big, "tanbo error", `"` + big + `" is not a board number; `},
		{"tanbo move " + big + " alice pw-alice h7", "tanbo error", `"` + big + `" is not a board number; `},
		{"tanbo move 101 alice pw-alice h7#" + big, "Tanbo Board 101 Error", `"h7#` + big + `" does not end in a move number; `},
		{"tanbo show 101#" + big, "Tanbo Board 101 Error", `"101#` + big + `" asks for the board after move `},
		{"tanbo move 101 alice pw-alice #", "Tanbo Board 101 Error", `"#" does not end in a move number; `},
		{"tanbo move 101 alice pw-alice ü", "Tanbo Board 101 Error", "ü is not a legal move on Tanbo board 101: "},
		{"tanbo", "tanbo error", `"tanbo" needs a command after it: `},
		{"tanbo show", "tanbo error", "Show needs a board number or a user id; "},
		{"tanbo show board", "tanbo error", "Show needs a board number or a user id; "},
		{"tanbo challenge ? ?", "tanbo error", "A challenge with an open seat names its one player and a ?"},
	} {
		out := h.send("alice@example.org", c.subject, "")
		if len(out) != 1 || out[0].To != "alice@example.org" {
			t.Errorf("%.60q: got %v, want one error reply to alice", c.subject, subjects(out))
			continue
		}
		if out[0].Subject != c.errSubject {
			t.Errorf("%.60q: subject %q, want %q", c.subject, out[0].Subject, c.errSubject)
		}
		if !strings.HasPrefix(out[0].Body, c.first) || !strings.Contains(out[0].Body, "\nOriginal message follows:\n") {
			t.Errorf("%.60q: reply does not start with %q and quote the mail:\n%.600s", c.subject, c.first, out[0].Body)
		}
	}
	if g := h.game("tanbo", 101); len(g.Moves) != 0 {
		t.Errorf("odd subjects played moves: %+v", g.Moves)
	}
	// A stranger's empty or Re:-only subject is no command: one how-to a day.
	one(t, h.send("stranger@example.org", "Re:", ""), "stranger@example.org")
	if out := h.send("stranger@example.org", "**", ""); len(out) != 0 {
		t.Errorf("a second how-to the same day: %v", subjects(out))
	}
}

// User ids are case-insensitive wherever they are written; passwords are not.
func TestReview5CaseOfUserIDsAndPasswords(t *testing.T) {
	h := newHarness(t)
	h.signup("alice")
	one(t, h.send("BOB@Example.org", "signup Bob Secret-Pw", ""), "bob@example.org")
	out := h.send("alice@example.org", "tanbo chall ALICE bob -size=9", "")
	boardMails(t, out, "New Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	if g := h.game("tanbo", 101); g.Seats[0] != "alice" || g.Seats[1] != "bob" {
		t.Errorf("seats %q, want the user ids", g.Seats)
	}
	boardMails(t, h.send("alice@example.org", "tanbo move 101 Alice pw-alice h7", ""), "Tanbo Board 101 bob",
		"alice@example.org", "bob@example.org")
	errorReply(t, h.send("bob@example.org", "tanbo move 101 bob secret-pw b7", ""), "bob@example.org",
		"The password for Bob is wrong; passwords are case-sensitive (a forgotten one can be reset by the server's admin).")
	boardMails(t, h.send("bob@example.org", "tanbo move 101 BOB Secret-Pw b7", ""), "Tanbo Board 101 alice",
		"alice@example.org", "bob@example.org")
	if r := one(t, h.send("x@example.org", "tanbo show BOB", ""), "x@example.org"); r.Subject != "Tanbo Board 101 alice" {
		t.Errorf("show BOB: %q", r.Subject)
	}
	errorReply(t, h.send("x@example.org", "signup ALICE other", ""), "x@example.org",
		"The user id ALICE is taken; choose another one.")
}

// Mail goes to the registered addresses, never to Reply-To; what answers the
// sender alone (an error, a show) goes to his From address.
func TestReview5ReplyToIsNotUsed(t *testing.T) {
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

// The commands of a multiple mail are its body lines up to the signature or
// a quote, each answered on its own, with no comment and no "**".
func TestReview5MultipleBody(t *testing.T) {
	h := twoPlayers(t)
	body := "tanbo move 101 alice pw-alice h7#1\ntanbo move 101 alice pw-alice b3\n\nOn Sun, 22 Nov 2026, bob wrote:\n> tanbo resign 101 alice pw-alice\n"
	out := h.send("alice@example.org", "Re: multiple **", body)
	if len(out) != 3 {
		t.Fatalf("multiple: %v", subjects(out))
	}
	boardMails(t, out[:2], "Tanbo Board 101 bob", "alice@example.org", "bob@example.org")
	hasNot(t, out[0].Body, "writes:", "tanbo move")
	errorReply(t, out[2:], "alice@example.org",
		"It is not your turn on Tanbo board 101: it is bob's turn; send your move when the board mail says it is yours.")
	if g := h.game("tanbo", 101); len(g.Moves) != 1 || g.Over {
		t.Errorf("after the multiple mail: %d moves, over %v; want 1 move, the quoted resign not run", len(g.Moves), g.Over)
	}
}

// Boards go as 7bit ASCII; a comment with accents makes the mail UTF-8
// quoted-printable and reaches the players intact.
func TestReview5SevenBit(t *testing.T) {
	h := twoPlayers(t)
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	has(t, string(out[0].Raw), "Content-Type: text/plain; charset=us-ascii\r\n", "Content-Transfer-Encoding: 7bit\r\n", "Auto-Submitted: auto-replied\r\n")
	out = h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "Grüße aus Köln")
	r := boardMails(t, out, "Tanbo Board 101 alice **", "alice@example.org", "bob@example.org")
	has(t, string(r.Raw), "Content-Type: text/plain; charset=utf-8\r\n", "Content-Transfer-Encoding: quoted-printable\r\n")
	has(t, r.Body, "bob writes:\nGrüße aus Köln\n", "    a b c d e f g h i\n")
}

// FuzzReview5Subject: whatever the subject, a registered user's mail is
// handled without an error and answered.
func FuzzReview5Subject(f *testing.F) {
	for _, s := range []string{"", "**", "Re:", "tanbo move 101 alice pw-alice #", "tanbo show 101#", "tanbo show #",
		"tanbo move 101 alice pw-alice h7#1", "multiple", "tanbo preview new h7", "all show alice", "tanbo games alice next",
		"tanbo chall alice bob -size=9 --nagtime=2", "ultima show 1000000000000000000000000000000", "help tanbo"} {
		f.Add(s, "tanbo show 101\n")
	}
	f.Fuzz(func(t *testing.T, subject, body string) {
		subject = strings.Map(func(r rune) rune {
			if r == '\r' || r == '\n' {
				return ' '
			}
			return r
		}, subject)
		h := twoPlayers(t)
		h.svc.limits = Limits{Mails: 1000, BadPasswords: 1000}.withDefaults()
		raw := h.mail("alice@example.org", subject, body)
		if err := h.svc.Deliver(raw); err != nil {
			t.Fatalf("Deliver(%q): %v", subject, err)
		}
		if out := h.outbox(); len(out) == 0 {
			t.Errorf("subject %q got no reply", subject)
		}
	})
}
