package pbem

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailmsg"
)

// ultimaGame is a harness with alice (White) and bob on Ultima board 101,
// and the board mails of its start.
func ultimaGame(t *testing.T) (*harness, []reply) {
	h := newHarness(t)
	h.signup("alice", "bob")
	out := h.send("alice@example.org", "ultima challenge alice bob", "")
	boardMails(t, out, "New Ultima Board 101 alice", "alice@example.org", "bob@example.org")
	return h, out
}

// header reads a header field of a reply.
func (r reply) header(name string) string {
	m, err := mailmsg.ReadMail(r.Raw)
	if err != nil {
		panic(err)
	}
	return m.Header.Get(name)
}

// messageID is the reply's Message-ID without brackets.
func (r reply) messageID() string { return strings.Trim(r.header("Message-Id"), "<>") }

// mailTo returns the one reply to the address.
func mailTo(t *testing.T, out []reply, to string) reply {
	t.Helper()
	for _, r := range out {
		if r.To == to {
			return r
		}
	}
	t.Fatalf("no mail to %s in %v", to, subjects(out))
	return reply{}
}

// answer is a reply to board mail r as a mail client writes it: the .eml
// file from testdata/byreply with r's Message-ID and References filled in.
func answer(t *testing.T, file string, r reply, vars ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "byreply", file))
	if err != nil {
		t.Fatal(err)
	}
	refs := "<" + strings.Join(append(r.References, r.messageID()), ">\n <") + ">"
	repl := strings.NewReplacer(append([]string{"${MESSAGE_ID}", r.messageID(), "${REFERENCES}", refs}, vars...)...)
	return bytes.ReplaceAll([]byte(repl.Replace(string(data))), []byte("\n"), []byte("\r\n"))
}

// plainReply is a reply to board mail r from an address, with the body.
func (h *harness) plainReply(from string, r reply, body string) []byte {
	h.n++
	return []byte("From: " + from + "\r\nTo: pbem@example.org\r\nSubject: Re: " + r.Subject +
		"\r\nMessage-ID: <p" + strings.Repeat("x", h.n) + "@client.example>\r\nIn-Reply-To: <" + r.messageID() +
		">\r\nReferences: <" + r.messageID() + ">\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n"))
}

func moves(h *harness) []string {
	var ms []string
	for _, m := range h.game("ultima", 101).Moves {
		ms = append(ms, m.Text)
	}
	return ms
}

// refused checks that out is one error reply to the address, quoting the
// original, and returns it.
func refused(t *testing.T, out []reply, to string) reply {
	t.Helper()
	r := one(t, out, to)
	if !strings.HasSuffix(strings.ToLower(r.Subject), "error") || !strings.Contains(r.Body, "Original message follows:") {
		t.Errorf("not an error reply: %q\n%s", r.Subject, r.Body)
	}
	return r
}

func noSecrets(t *testing.T, out []reply, secrets ...string) {
	t.Helper()
	for _, r := range out {
		for _, s := range secrets {
			if bytes.Contains(r.Raw, []byte(s)) {
				t.Errorf("mail %q to %s holds %q", r.Subject, r.To, s)
			}
		}
	}
}

// TestPlayByReply plays a game by replies as Thunderbird (bottom-posted,
// format=flowed), Gmail (top-posted, multipart, quoted-printable) and
// Outlook (top-posted, HTML only, quoted-printable Latin-1) write them.
func TestPlayByReply(t *testing.T) {
	t.Parallel()
	h, out := ultimaGame(t)
	toAlice := mailTo(t, out, "alice@example.org")
	has(t, toAlice.Body, "Reply to this mail with your move on the first line.")
	if !strings.HasPrefix(toAlice.messageID(), tokenIDPrefix) {
		t.Fatalf("board mail to a player has Message-ID %q, want a reply token", toAlice.messageID())
	}
	if toAlice.header("Reply-To") != "" {
		t.Errorf("Reply-To %q without a configured reply address", toAlice.header("Reply-To"))
	}

	out = h.deliver(answer(t, "thunderbird-bottom.eml", toAlice))
	toBob := boardMails(t, out, "Ultima Board 101 bob **", "alice@example.org", "bob@example.org")
	says(t, toBob.Body, "alice played Pe2-e5.", "alice writes: Your turn, Bob. Good luck!")
	hasNot(t, toBob.Body, "Alice Example") // the signature is no comment
	toBob = mailTo(t, out, "bob@example.org")

	out = h.deliver(answer(t, "gmail-top.eml", toBob))
	boardMails(t, out, "Ultima Board 101 alice **", "alice@example.org", "bob@example.org")
	says(t, out[0].Body, "bob played Pe7-e6.", "bob writes: Careful — that pawn is lonely.")
	hasNot(t, out[0].Body, "gmail_quote", "On Sun, Nov 22")
	toAlice = mailTo(t, out, "alice@example.org")

	out = h.deliver(answer(t, "outlook-html.eml", toAlice))
	boardMails(t, out, "Ultima Board 101 bob **", "alice@example.org", "bob@example.org")
	says(t, out[0].Body, "alice played Pd2-d4.", "alice writes: Schöner Zug, Bob.")
	hasNot(t, out[0].Body, "Sent:", "Summary of Ultima Board 101\n\nbob played")

	if got := strings.Join(moves(h), " "); got != "Pe2-e5 Pe7-e6 Pd2-d4" {
		t.Errorf("moves stored: %s", got)
	}
	// No password was asked, and none was sent in clear; a player's
	// token goes to him alone.
	noSecrets(t, out, "pw-alice", "pw-bob")
	aliceToken := toAlice.messageID()[len(tokenIDPrefix):strings.IndexByte(toAlice.messageID(), '@')]
	noSecrets(t, []reply{mailTo(t, out, "bob@example.org")}, aliceToken)
}

// TestReplyBounds: a reply counts against the sender's limit like any
// command, and only the first token a mail names is looked up.
func TestReplyBounds(t *testing.T) {
	t.Parallel()
	h, out := ultimaGame(t)
	toAlice := mailTo(t, out, "alice@example.org")
	// A forged token in In-Reply-To hides the live one in References:
	// one lookup a mail, whatever it names.
	forged := tokenIDPrefix + strings.Repeat("a", tokenLen) + "@example.org"
	raw := []byte("From: alice@example.org\r\nSubject: Re: Ultima Board 101 alice\r\nMessage-ID: <f1@client.example>\r\nIn-Reply-To: <" + forged +
		">\r\nReferences: <" + toAlice.messageID() + "> <" + forged + ">\r\n\r\ne2-e5\r\n")
	r := refused(t, h.deliver(raw), "alice@example.org")
	says(t, r.Body, "its reply token is unknown here")

	h.svc.limits.Mails = 2
	for i, body := range []string{"chat one", "chat two"} {
		h.now = h.now.Add(time.Minute)
		out := h.deliver(h.plainReply("alice@example.org", toAlice, body))
		if len(out) != 2 {
			t.Fatalf("chat %d: %v", i, subjects(out))
		}
	}
	// Replies by token have a count of their own, which neither forged
	// mail nor alice's other mail spends: the two chats spent it, and the
	// next reply is ignored with one warning.
	out = h.deliver(h.plainReply("alice@example.org", toAlice, "e2-e5"))
	if r := one(t, out, "alice@example.org"); r.Subject != "pbemd: too many mails" {
		t.Errorf("over the limit: %q", r.Subject)
	}
	if len(moves(h)) != 0 {
		t.Errorf("a reply over the limit was played")
	}
}

// TestReplyStale: a reply to a board mail that is no longer the newest is
// refused, whatever it asks and whatever "#n" it adds, and the answer names
// the move due and the full command that would do it.
func TestReplyStale(t *testing.T) {
	t.Parallel()
	h, out := ultimaGame(t)
	firstToBob := mailTo(t, out, "bob@example.org")
	firstToAlice := mailTo(t, out, "alice@example.org")
	out = h.deliver(h.plainReply("alice@example.org", firstToAlice, "e2-e5\n"))
	boardMails(t, out, "Ultima Board 101 bob", "alice@example.org", "bob@example.org")

	// Alice answers her old mail again: a double-sent or stale reply.
	out = h.deliver(h.plainReply("alice@example.org", firstToAlice, "d2-d4\n"))
	r := refused(t, out, "alice@example.org")
	says(t, r.Body, `Your reply answers the board mail of move #1, but Ultima board 101 is at move #2 now, bob's to play, so "d2-d4" was not played; reply to the newest board mail.`)
	hasNot(t, r.Body, "d2-d4#2")
	if r.Subject != "Ultima Board 101 Error" {
		t.Errorf("subject %q", r.Subject)
	}
	for _, cmd := range []string{"resign", "propose", "undo"} {
		r := refused(t, h.deliver(h.plainReply("bob@example.org", firstToBob, cmd)), "bob@example.org")
		says(t, r.Body, "is at move #2 now, bob's to play, so \""+cmd+"\" was not played", "ultima move 101 bob PASSWORD "+cmd+".")
	}
	// A number of its own does not revive the mail: bob's mail of move
	// #1 plays no move #2, nor #3.
	for _, move := range []string{"e7-e6#2", "e7-e6#3"} {
		r = refused(t, h.deliver(h.plainReply("bob@example.org", firstToBob, move)), "bob@example.org")
		says(t, r.Body, "is at move #2 now, bob's to play, so \""+move+"\" was not played", "or send: ultima move 101 bob PASSWORD e7-e6#2.")
	}
	// Nor do chat and queue work from it.
	r = refused(t, h.deliver(h.plainReply("bob@example.org", firstToBob, "chat Nice opening.\nReally.")), "bob@example.org")
	says(t, r.Body, `so "chat" was not played`, "or send: ultima chat 101 bob PASSWORD (the message in the body).")
	r = refused(t, h.deliver(h.plainReply("bob@example.org", firstToBob, "queue e7-e6")), "bob@example.org")
	says(t, r.Body, `so "queue e7-e6" was not played`, "or send: ultima queue 101 bob PASSWORD e7-e6.")
	// A hostile stale reply of 11 long "moves" gets a short answer.
	huge := strings.TrimSpace(strings.Repeat(strings.Repeat("a1", 5000)+" ", 11))
	r = refused(t, h.deliver(h.plainReply("bob@example.org", firstToBob, "queue "+huge)), "bob@example.org")
	if first, _, _ := strings.Cut(r.Body, "\n\n"); len(first) > 1000 {
		t.Errorf("a stale reply of %d bytes got an answer of %d bytes before the board", len(huge), len(first))
	}
	if g := h.game("ultima", 101); g.Over || len(g.Moves) != 1 || len(g.Queue) != 0 {
		t.Fatalf("a stale reply changed the board: %v, queue %v", moves(h), g.Queue)
	}
}

// TestReplyTokenOnce: the attack. A token that played move #1,
// with a From nobody vouches for, plays nothing more: not move #3 with its
// number added, not a chat, not a queued move. A token plays one command
// even while its board stays at its move (a vote), and a refused command
// does not spend it; chat does not spend it either.
func TestReplyTokenOnce(t *testing.T) {
	t.Parallel()
	h, out := ultimaGame(t)
	toAlice := mailTo(t, out, "alice@example.org")
	// A refused move leaves the token as it was, and so does a chat.
	r := refused(t, h.deliver(h.plainReply("alice@example.org", toAlice, "e2-e9")), "alice@example.org")
	hasNot(t, r.Body, "has been played already")
	boardMails(t, h.deliver(h.plainReply("alice@example.org", toAlice, "chat Hello")), "ultima chat 101 alice", "alice@example.org", "bob@example.org")
	out = h.deliver(h.plainReply("alice@example.org", toAlice, "e2-e5"))
	toBob := mailTo(t, out, "bob@example.org")
	out = h.deliver(h.plainReply("bob@example.org", toBob, "e7-e6"))
	boardMails(t, out, "Ultima Board 101 alice", "alice@example.org", "bob@example.org")

	// Whoever holds the spent token of move #1 (a forwarded mail, a
	// mailbox read once) forges alice's From: nothing is played.
	for _, c := range []struct{ body, says string }{
		{"d2-d4#3", `so "d2-d4#3" was not played; reply to the newest board mail, or send: ultima move 101 alice PASSWORD d2-d4#3.`},
		{"chat I resign soon", `so "chat" was not played`},
		{"queue d2-d4", `so "queue d2-d4" was not played`},
		{"propose", `so "propose" was not played`},
	} {
		raw := h.forged("alice@example.org", "Re: "+toAlice.Subject, c.body)
		raw = bytes.Replace(raw, []byte("\r\n\r\n"), []byte("\r\nIn-Reply-To: <"+toAlice.messageID()+">\r\n\r\n"), 1)
		r := refused(t, h.deliver(raw), "alice@example.org")
		says(t, r.Body, "Your reply answers the board mail of move #1, but Ultima board 101 is at move #3 now, alice's to play", c.says)
	}
	if g := h.game("ultima", 101); len(g.Moves) != 2 || len(g.Queue) != 0 || g.Vote != nil {
		t.Fatalf("a spent token changed the board: %v, queue %v, vote %v", moves(h), g.Queue, g.Vote)
	}

	// A vote keeps the board at its move; its token is spent all the same.
	toAlice = mailTo(t, out, "alice@example.org")
	out = h.deliver(h.plainReply("alice@example.org", toAlice, "propose"))
	boardMails(t, out, "Ultima Board 101 alice", "alice@example.org", "bob@example.org")
	for _, body := range []string{"undo", "d2-d4", "chat Please accept."} {
		r := refused(t, h.deliver(h.plainReply("alice@example.org", toAlice, body)), "alice@example.org")
		says(t, r.Body, "Your reply answers a board mail of Ultima board 101 whose reply has been played already, and a board mail takes one")
	}
	// The mail the vote sent has a token of its own.
	out = h.deliver(h.plainReply("alice@example.org", mailTo(t, out, "alice@example.org"), "d2-d4"))
	boardMails(t, out, "Ultima Board 101 bob", "alice@example.org", "bob@example.org")
	if got := strings.Join(moves(h), " "); got != "Pe2-e5 Pe7-e6 Pd2-d4" {
		t.Errorf("moves: %s", got)
	}
}

// TestReplyQueueAndChat: while its board is at its move, a board mail's
// token queues and chats, as often as the player likes, and still plays;
// once the board has moved, it does neither.
func TestReplyQueueAndChat(t *testing.T) {
	t.Parallel()
	h, out := ultimaGame(t)
	toBob := mailTo(t, out, "bob@example.org")
	one(t, h.deliver(h.plainReply("bob@example.org", toBob, "queue d7-d6")), "bob@example.org")
	boardMails(t, h.deliver(h.plainReply("bob@example.org", toBob, "chat Your move.")), "ultima chat 101 bob", "alice@example.org", "bob@example.org")
	one(t, h.deliver(h.plainReply("bob@example.org", toBob, "queue e7-e6")), "bob@example.org")
	// alice moves; bob's second queue, which replaced the first, answers it.
	h.deliver(h.plainReply("alice@example.org", mailTo(t, out, "alice@example.org"), "e2-e5"))
	if got := strings.Join(moves(h), " "); got != "Pe2-e5 Pe7-e6" {
		t.Fatalf("moves: %s", got)
	}
	r := refused(t, h.deliver(h.plainReply("bob@example.org", toBob, "chat Oops.")), "bob@example.org")
	says(t, r.Body, "Your reply answers the board mail of move #1, but Ultima board 101 is at move #3 now, alice's to play")
}

// TestReplyReferencesOnly: a token named only in References (a reply to a
// later mail of the thread, such as a chat) threads but plays nothing; the
// answer says to reply to the board mail itself.
func TestReplyReferencesOnly(t *testing.T) {
	t.Parallel()
	h, out := ultimaGame(t)
	toAlice := mailTo(t, out, "alice@example.org")
	for _, inReplyTo := range []string{"In-Reply-To: <chat7@example.org>\r\n", ""} {
		raw := []byte("From: alice@example.org\r\nTo: pbem@example.org\r\nSubject: Re: " + toAlice.Subject +
			"\r\nMessage-ID: <r" + fmt.Sprint(len(inReplyTo)) + "@client.example>\r\n" + inReplyTo +
			"References: <" + toAlice.messageID() + "> <chat7@example.org>\r\n\r\ne2-e5\r\n" +
			// a refused mail sent again alike is not answered again
			"\r\nTry " + fmt.Sprint(len(inReplyTo)) + ".\r\n")
		r := refused(t, h.deliver(raw), "alice@example.org")
		says(t, r.Body, "This reply was not played: it names a board mail of Ultima board 101 only in its References",
			"Reply to the newest board mail itself, or send the full command: ultima move 101 alice PASSWORD MOVE")
	}
	if len(moves(h)) != 0 {
		t.Fatalf("a token in References played %v", moves(h))
	}
	// The token is not spent: a true reply to its mail plays.
	boardMails(t, h.deliver(h.plainReply("alice@example.org", toAlice, "e2-e5")), "Ultima Board 101 bob", "alice@example.org", "bob@example.org")
}

// TestReplyRefused: forged, revoked, expired and misdirected tokens play
// nothing, and their answer says how to send the full command.
func TestReplyRefused(t *testing.T) {
	t.Parallel()
	h, out := ultimaGame(t)
	toAlice := mailTo(t, out, "alice@example.org")
	toBob := mailTo(t, out, "bob@example.org")
	howto := "send the full command in the subject: GAME move BOARD USERID PASSWORD MOVE"

	forged := toAlice
	forged.Raw = bytes.Replace(toAlice.Raw, []byte(toAlice.messageID()[4:10]), []byte("aaaaaa"), 1)
	r := refused(t, h.deliver(h.plainReply("alice@example.org", forged, "e2-e5")), "alice@example.org")
	says(t, r.Body, "its reply token is unknown here", howto)

	// Another's token, or a mail from elsewhere, plays nothing.
	r = refused(t, h.deliver(h.plainReply("mallory@example.org", toAlice, "e2-e5")), "mallory@example.org")
	says(t, r.Body, "it comes from mallory@example.org, which is not an address of alice")
	r = refused(t, h.deliver(h.plainReply("alice@example.org", toBob, "e2-e5")), "alice@example.org")
	says(t, r.Body, "which is not an address of bob")

	// A first line that is no command is answered, not played.
	r = refused(t, h.deliver(h.plainReply("alice@example.org", toAlice, "Thanks for the game!\n\n> Summary")), "alice@example.org")
	says(t, r.Body, `its first line "Thanks for the game!" is not a command for Ultima board 101`, "ultima move 101 alice PASSWORD MOVE")
	r = refused(t, h.deliver(h.plainReply("alice@example.org", toAlice, "On Sun, pbemd wrote:\n> Summary\n")), "alice@example.org")
	says(t, r.Body, "it holds no line of your own")
	if len(moves(h)) != 0 {
		t.Fatalf("refused replies played %v", moves(h))
	}

	// A new password revokes every token of the account.
	one(t, h.send("alice@example.org", "change password alice pw-alice pw-alice2", ""), "alice@example.org")
	r = refused(t, h.deliver(h.plainReply("alice@example.org", toAlice, "e2-e5")), "alice@example.org")
	says(t, r.Body, "the password of alice has changed since it was sent")
	noSecrets(t, []reply{r}, "pw-alice")

	// Expired: sixty days later no token answers.
	h.now = h.now.Add(replyTokenLife)
	r = refused(t, h.deliver(h.plainReply("bob@example.org", toBob, "resign")), "bob@example.org")
	says(t, r.Body, "its reply token has expired")
	if len(moves(h)) != 0 || h.game("ultima", 101).Over {
		t.Fatalf("refused replies changed the board")
	}
	// The sweep forgets expired tokens, from the minute after their expiry.
	h.now = h.now.Add(time.Minute)
	h.sweep()
	if n, err := h.db.ReplyTokens(); err != nil || n != 0 {
		t.Errorf("%d tokens left after the sweep (%v)", n, err)
	}
}

// TestReplyKeepsFullCommands: a reply whose subject is a command of its own
// (pbmserv's "ultima board 101 alice PASSWORD MOVE") runs it as before.
func TestReplyKeepsFullCommands(t *testing.T) {
	t.Parallel()
	h, out := ultimaGame(t)
	toAlice := mailTo(t, out, "alice@example.org")
	raw := bytes.Replace(h.plainReply("alice@example.org", toAlice, "> Summary of Ultima Board 101\n"),
		[]byte("Subject: Re: New Ultima Board 101 alice"), []byte("Subject: Re: Ultima board 101 alice pw-alice e2-e5"), 1)
	out = h.deliver(raw)
	boardMails(t, out, "Ultima Board 101 bob", "alice@example.org", "bob@example.org")
	noSecrets(t, out, "pw-alice")

	// Mails with no token are untouched: a plain "e2-e5" is no command.
	r := refused(t, h.send("bob@example.org", "e7-e6", ""), "bob@example.org")
	says(t, r.Body, `"e7-e6" is not a command`)
}

// TestReplySubaddress: with a reply address configured, board mails carry
// the token in Reply-To, and a reply to that address plays even without
// In-Reply-To or References.
func TestReplySubaddress(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.svc.cfg.ReplyAddress = "pbem+{token}@example.org"
	h.signup("alice", "bob")
	out := h.send("alice@example.org", "ultima challenge alice bob", "")
	out = h.deliver(h.plainReply("alice@example.org", mailTo(t, out, "alice@example.org"), "e2-e5"))
	toBob := mailTo(t, out, "bob@example.org")
	replyTo := toBob.header("Reply-To")
	tok := strings.TrimPrefix(strings.Split(toBob.messageID(), "@")[0], tokenIDPrefix)
	if replyTo != "pbem+"+tok+"@example.org" {
		t.Fatalf("Reply-To %q, want the token %s of the Message-ID %s", replyTo, tok, toBob.messageID())
	}
	if mailTo(t, out, "alice@example.org").header("Reply-To") == replyTo {
		t.Errorf("alice's mail has bob's Reply-To")
	}
	// Some servers fold the local part to upper or lower case.
	out = h.deliver(answer(t, "webmail-subaddress.eml", toBob, "${TO}", strings.ToUpper("pbem+"+tok)+"@example.org"))
	boardMails(t, out, "Ultima Board 101 alice **", "alice@example.org", "bob@example.org")
	if got := strings.Join(moves(h), " "); got != "Pe2-e5 Pf7-f6" {
		t.Errorf("moves: %s", got)
	}
}

func TestReplyLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ text, line, comment string }{
		{"e2-e5\n", "e2-e5", ""},
		{"\n\ne2-e5\nGood luck\n\nOn Sun, Nov 22, 2026 at 12:00 PM pbemd <pbem@example.org> wrote:\n> board\n", "e2-e5", "Good luck"},
		{"On Sun, Nov 22, 2026 at 12:00 PM pbemd\n<pbem@example.org> wrote:\n> board\n> more\n\nresign\nSorry.\n-- \nsig\n", "resign", "Sorry."},
		{"pbemd schrieb:\n> board\n\nundo\n", "undo", ""},
		{"> board\n> more\nchat hello\nthere\n> again\n", "chat hello", "there"},
		{"-- \nsig\n", "", ""},
		{"-----Original Message-----\nFrom: pbemd\ne2-e5\n", "", ""},
		{"From: pbemd <pbem@example.org>\nSent: Sunday\n\ne2-e5", "", ""},
		{"> only quoted\n", "", ""},
	} {
		line, comment := mailmsg.ReplyLine(c.text)
		if line != c.line || comment != c.comment {
			t.Errorf("ReplyLine(%q) = %q, %q; want %q, %q", c.text, line, comment, c.line, c.comment)
		}
	}
}

func TestParseReplyCommand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line string
		verb string
		ok   bool
	}{
		{"Pe2-e5", "move", true}, {"e2-e5#3", "move", true}, {"3153 5364", "move", true},
		{"suicide c5", "move", true}, {"move 9-16", "move", true}, {"resign", "resign", true},
		{"Propose", "move", true}, {"queue b7", "queue", true}, {"chat hi all", "chat", true},
		{"Thanks!", "", false}, {"resign now", "", false}, {"queue", "", false}, {"e2-e5 good luck", "", false},
		{"", "", false}, {strings.Repeat("a1 ", 20), "", false},
	} {
		rc, ok := parseReplyCommand(c.line)
		if ok != c.ok || ok && rc.verb != c.verb {
			t.Errorf("parseReplyCommand(%q) = %q, %v; want %q, %v", c.line, rc.verb, ok, c.verb, c.ok)
		}
	}
}

// hasToken reports whether a reply carries a reply token.
func hasToken(r reply) bool { return strings.HasPrefix(r.messageID(), tokenIDPrefix) }

// TestReplyToErrorAndShow (issue 27, item 1): a player who made a typo
// replies to the error with the right move, and it is played; so is a
// reply to a show mail. Whoever else replies is told why nothing moved.
func TestReplyToErrorAndShow(t *testing.T) {
	t.Parallel()
	h, _ := ultimaGame(t)
	typo := refused(t, h.send("alice@example.org", "ultima move 101 alice pw-alice e2-z9", ""), "alice@example.org")
	if !hasToken(typo) {
		t.Fatalf("error mail to the player to move has Message-ID %q, want a reply token", typo.messageID())
	}
	has(t, typo.Body, "Reply to this mail with your move on the first line.")
	// Someone else answering alice's error mail plays nothing.
	r := refused(t, h.deliver(h.plainReply("mallory@example.org", typo, "e2-e5")), "mallory@example.org")
	says(t, r.Body, "which is not an address of alice")
	boardMails(t, h.deliver(h.plainReply("alice@example.org", typo, "e2-e5")), "Ultima Board 101 bob", "alice@example.org", "bob@example.org")

	show := one(t, h.send("bob@example.org", "ultima show 101", ""), "bob@example.org")
	if !hasToken(show) {
		t.Fatalf("show mail to the player to move has Message-ID %q, want a reply token", show.messageID())
	}
	has(t, show.Body, "Reply to this mail with your move on the first line.")
	boardMails(t, h.deliver(h.plainReply("bob@example.org", show, "e7-e6")), "Ultima Board 101 alice", "alice@example.org", "bob@example.org")
	if got := strings.Join(moves(h), " "); got != "Pe2-e5 Pe7-e6" {
		t.Fatalf("moves stored: %s", got)
	}

	// Beyond the boards one mail gets in mails of their own, answers are
	// merged; that mail carries no token, so it does not say to reply to it.
	h.svc.cfg.Limits.Commands = ownMails + 2
	h.restart()
	both := h.send("alice@example.org", "multiple", strings.Repeat("ultima show 101\n", ownMails+2))
	m := merged(t, both)
	if hasToken(m) || !strings.Contains(m.Body, "Summary of Ultima Board 101") {
		t.Errorf("merged show: token %v, body:\n%s", hasToken(m), m.Body)
	}
	hasNot(t, m.Body, "Reply to this mail")

	// A forged show in bob's name answers bob's own address alone: the
	// forger gets no token.
	forged := h.deliver(h.forged("bob@example.org", "ultima show 101", ""))
	if len(forged) != 1 || forged[0].To != "bob@example.org" {
		t.Fatalf("a forged show got %v, want one mail to bob's address", subjects(forged))
	}

	// A user who plays no part gets the board, no token, no reply line;
	// replying to it with a move is told why it played nothing.
	h.signup("carol")
	show = one(t, h.send("carol@example.org", "ultima show 101", ""), "carol@example.org")
	if hasToken(show) {
		t.Errorf("show mail to a non-player carries a reply token")
	}
	hasNot(t, show.Body, "Reply to this mail")
	r = refused(t, h.deliver(h.plainReply("carol@example.org", show, "d2-d4")), "carol@example.org")
	says(t, r.Body, `its first line is "d2-d4", but carol@example.org is no address of a player of Ultima board 101 (alice and bob)`)
	hasNot(t, r.Body, "no move on its first line")

	// A mail of the board that carries no token of alice's (a show of a
	// past move) is answered truly, and that answer carries her token.
	past := one(t, h.send("alice@example.org", "ultima show 101#1", ""), "alice@example.org")
	r = refused(t, h.deliver(h.plainReply("alice@example.org", past, "d2-d4")), "alice@example.org")
	says(t, r.Body, `its first line is "d2-d4", but the mail it answers carries no reply token of alice`)
	hasNot(t, r.Body, "no move on its first line")
	boardMails(t, h.deliver(h.plainReply("alice@example.org", r, "d2-d4")), "Ultima Board 101 bob", "alice@example.org", "bob@example.org")
	if got := strings.Join(moves(h), " "); got != "Pe2-e5 Pe7-e6 Pd2-d4" {
		t.Errorf("moves stored: %s", got)
	}
}

// TestReplyNotYourTurn (issue 27, items 1 and 2): a player who is not to
// move is not told to reply with his move; if he does, he is told why it
// was not played and how to queue it, by reply too.
func TestReplyNotYourTurn(t *testing.T) {
	t.Parallel()
	h, out := ultimaGame(t)
	hasNot(t, mailTo(t, out, "bob@example.org").Body, "Reply to this mail")
	out = h.deliver(h.plainReply("alice@example.org", mailTo(t, out, "alice@example.org"), "e2-e5"))
	toAlice, toBob := mailTo(t, out, "alice@example.org"), mailTo(t, out, "bob@example.org")
	hasNot(t, toAlice.Body, "Reply to this mail") // she has just moved
	has(t, toBob.Body, "Reply to this mail with your move on the first line.")

	r := refused(t, h.deliver(h.plainReply("alice@example.org", toAlice, "d2-d4")), "alice@example.org")
	says(t, r.Body, `It is not your turn on Ultima board 101: it is bob's turn, so your reply "d2-d4" was not played`,
		`reply to this mail with "queue d2-d4" on the first line`)
	hasNot(t, r.Body, "Reply to this mail with your move")
	one(t, h.deliver(h.plainReply("alice@example.org", r, "queue d2-d4")), "alice@example.org")
	// bob's move plays alice's queued one.
	h.deliver(h.plainReply("bob@example.org", toBob, "e7-e6"))
	if got := strings.Join(moves(h), " "); got != "Pe2-e5 Pe7-e6 Pd2-d4" {
		t.Errorf("moves stored: %s", got)
	}
}

// TestReplyToProposal (issue 27, item 2): the player who must answer a
// proposal is told to reply accept or reject, and doing so works; the
// proposer is not told to answer it.
func TestReplyToProposal(t *testing.T) {
	t.Parallel()
	h, out := ultimaGame(t)
	out = h.deliver(h.plainReply("alice@example.org", mailTo(t, out, "alice@example.org"), "propose"))
	toAlice, toBob := mailTo(t, out, "alice@example.org"), mailTo(t, out, "bob@example.org")
	has(t, toAlice.Body, "Reply to this mail with your move on the first line.")
	hasNot(t, toAlice.Body, "accept or reject on the first line")
	has(t, toBob.Body, "Reply to this mail with accept or reject on the first line.")
	hasNot(t, toBob.Body, "with your move")
	h.deliver(h.plainReply("bob@example.org", toBob, "accept"))
	if g := h.game("ultima", 101); !g.Over {
		t.Errorf("bob's accept by reply did not end the game in a draw")
	}
}

// Answers to mail that proves nothing of its sender mint one token of a
// move at most, however many a forger draws to the player's address;
// his own authenticated mail always gets one.
func TestForgedAnswersMintOneToken(t *testing.T) {
	t.Parallel()
	h, _ := ultimaGame(t)
	tokens := 0
	for range 5 {
		if hasToken(one(t, h.deliver(h.forged("alice@example.org", "ultima show 101", "")), "alice@example.org")) {
			tokens++
		}
	}
	if tokens != 1 {
		t.Errorf("5 forged shows drew %d tokens; want 1", tokens)
	}
	if !hasToken(one(t, h.send("alice@example.org", "ultima show 101", ""), "alice@example.org")) {
		t.Error("alice's own show carries no token")
	}
}
