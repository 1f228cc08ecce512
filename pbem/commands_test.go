package pbem

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
)

// twoPlayers signs up alice and bob and starts a 9x9 Tanbo board 101 with
// alice (Black) to move.
func twoPlayers(t *testing.T) *harness {
	h := newHarness(t)
	h.signup("alice", "bob")
	out := h.send("alice@example.org", "tanbo challenge alice bob -size=9", "")
	if len(out) != 2 {
		t.Fatalf("challenge: %v", subjects(out))
	}
	return h
}

func TestSignup(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	out := h.send("Alice@Example.org", "signup Alice secret", "")
	golden(t, "signup", out)
	one(t, out, "alice@example.org")

	// Another address given: the mail goes there, and to the sender.
	out = h.send("carol@home.example", "signup carol secret carol@work.example", "")
	if len(out) != 2 || out[0].To != "carol@work.example" || out[1].To != "carol@home.example" {
		t.Errorf("signup with an address: %v", subjects(out))
	}

	errs := []struct{ subject, want string }{
		{"signup alice 0ther-pw", "The user id alice is taken; choose another one."},
		{"signup ALICE 0ther-pw", "The user id ALICE is taken; choose another one."},
		{"signup 9lives secret", `"9lives" is not a valid user id; a user id is 2 to 16 letters, digits, '_', '-' or '.', starting with a letter.`},
		{"signup dave abc", "A password must have 4 to 64 characters; yours has 3."},
		{"signup dave secret not-an-address", `"not-an-address" is not a mail address; write addresses as name@example.org.`},
		{"signup dave", "The command has the wrong number of words; write it as: signup userid password [address ...] [language]"},
	}
	for _, e := range errs {
		out := h.send("dave@example.org", e.subject, "")
		errorReply(t, out, "dave@example.org", e.want)
	}
	if err := h.db.View(func(tx *store.Tx) error { _, err := tx.User("dave"); return err }); !errNotFound(err) {
		t.Errorf("a refused signup made an account: %v", err)
	}
}

func TestChangePassword(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	out := h.send("alice@example.org", "change password alice pw-alice newpass", "")
	golden(t, "change-password", out)
	errorReply(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""), "alice@example.org",
		"The password for alice is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset alice' and a code comes to the account's addresses.")
	if out := h.send("alice@example.org", "tanbo move 101 alice newpass h7", ""); len(out) != 2 {
		t.Errorf("move with the new password: %v", subjects(out))
	}
	errorReply(t, h.send("alice@example.org", "change password alice wrong x1234", ""), "alice@example.org",
		"The password for alice is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset alice' and a code comes to the account's addresses.")
	errorReply(t, h.send("alice@example.org", "change colour alice newpass red", ""), "alice@example.org",
		`"colour" cannot be changed; write change password userid old new, or change address userid password [address ...].`)
}

func TestChangeAddress(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	out := h.send("alice@example.org", "change address alice pw-alice alice@new.example", "")
	code := confirmCode(t, out[0])
	out[0].Body = strings.Replace(out[0].Body, code, "CODE", 1) // random
	golden(t, "change-address", out)
	// The new address gets its code and nothing else; the old one hears
	// of the change.
	if len(out) != 2 || out[0].To != "alice@new.example" || out[1].To != "alice@example.org" {
		t.Fatalf("change address: %v", subjects(out))
	}
	says(t, out[1].Body, "No address of alice is confirmed yet:\nboard mails go nowhere until one is.",
		"1 other address was mailed a code to confirm;\nit gets mail only once confirmed.")
	out = h.send("alice@somewhere.example", "tanbo move 101 alice pw-alice h7", "")
	if len(out) != 1 || out[0].To != "bob@example.org" {
		t.Errorf("board mails before the confirmation: %v", subjects(out))
	}
	r := one(t, h.send("alice@new.example", "confirm alice "+code, ""), "alice@new.example")
	says(t, r.Body, "The address alice@new.example is confirmed for alice.")
	out = h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	if len(out) != 2 || out[0].To != "alice@new.example" || out[1].To != "bob@example.org" {
		t.Errorf("board mails after the confirmation: %v", subjects(out))
	}
}

func TestSignoff(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	out := h.send("bob@example.org", "signoff bob pw-bob", "")
	golden(t, "signoff", out)
	if len(out) != 3 {
		t.Fatalf("signoff: want the final board to both players and the goodbye, got %v", subjects(out))
	}
	// bob had not moved yet: he withdraws, unrated.
	if out[0].Subject != "Tanbo Board 101 withdrawn" || !strings.Contains(out[0].Body, "bob signed off.\n\nGame withdrawn, not rated.\nReason: bob has decided not to play.") {
		t.Errorf("final board: %q\n%s", out[0].Subject, out[0].Body)
	}
	errorReply(t, h.send("bob@example.org", "tanbo show bob", ""), "bob@example.org",
		`There is no user "bob"; user ids are what players signed up with.`)
	errorReply(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""), "alice@example.org",
		"Tanbo board 101 is over; no more moves can be played on it.")
}

func TestChallenge(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	out := h.send("alice@example.org", "tanbo challenge alice bob -size=9", "Good luck!")
	golden(t, "challenge", out)
	if len(out) != 2 || out[0].To != "alice@example.org" || out[1].To != "bob@example.org" {
		t.Fatalf("a new board goes to both players: %v", subjects(out))
	}
	if out[0].Subject != "New Tanbo Board 101 alice **" {
		t.Errorf("subject %q", out[0].Subject)
	}
	out = h.send("carol@example.org", "tanbo chall bob alice --nagtime=3 --forfeittime=10", "")
	if len(out) != 3 || out[0].Subject != "New Tanbo Board 102 bob" || out[2].To != "carol@example.org" {
		t.Fatalf("a challenge by a third party: %v", subjects(out))
	}
	if !strings.Contains(out[0].Body, "Reminder after 3 days, forfeit after 10 days without a move.") {
		t.Errorf("times not shown:\n%s", out[0].Body)
	}

	errs := []struct{ subject, want string }{
		{"tanbo challenge alice", "A challenge names two players, first the one who moves first; write: tanbo challenge userid1 userid2 [-option ...] [--nagtime=DAYS --forfeittime=DAYS] [-clock=CLOCK]."},
		{"tanbo challenge alice alice", "A challenge needs two different players; alice is named twice."},
		{"tanbo challenge alice zed", `There is no user "zed" to play; players must sign up first (signup userid password).`},
		{"tanbo challenge alice bob -size=7", `"-size=7" has a value -size does not take; write -size=19|13|9.`},
		{"tanbo challenge alice bob -fast", `"-fast" is not an option; the options of Tanbo are -size=19|13|9 -swap.`},
		{"tanbo challenge alice bob --nagtime=0", `"--nagtime=0" needs a number of days from 1 to 365, e.g. --nagtime=14.`},
		{"tanbo challenge alice bob --nagtime=30", "The forfeit time (21 days) must be longer than the reminder time (30 days)."},
		{"tanbo challenge alice bob --colour=red", `"--colour=red" is not a server option; the server options are -clock=CLOCK, --nagtime=DAYS and --forfeittime=DAYS.`},
	}
	for _, e := range errs {
		errorReply(t, h.send("alice@example.org", e.subject, ""), "alice@example.org", e.want)
	}
}

func TestMove(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7#1", "")
	golden(t, "move", out)
	if len(out) != 2 || out[0].Subject != "Tanbo Board 101 bob" {
		t.Fatalf("move: %v", subjects(out))
	}
	for _, r := range out {
		if r.InReplyTo != "m4@client.example" || len(r.References) != 2 || !strings.HasPrefix(r.References[0], "tanbo.101.") {
			t.Errorf("threading of %s: In-Reply-To %q References %q", r.To, r.InReplyTo, r.References)
		}
	}
	errs := []struct{ from, subject, want string }{
		{"eve@example.org", "tanbo move 101 eve pw h7", `There is no user "eve"; check the spelling, or sign up first with "signup eve PASSWORD".`},
		{"alice@example.org", "tanbo move 101 alice PW-ALICE b7", "The password for alice is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset alice' and a code comes to the account's addresses."},
		{"alice@example.org", "tanbo move 101 alice pw-alice h6", `It is not your turn on Tanbo board 101: it is bob's turn; send your move when the board mail says it is yours, or queue it now with "tanbo queue 101 alice PASSWORD h6".`},
		{"bob@example.org", "tanbo move 101 bob pw-bob b7#1", "b7#1 was not played: the next move on Tanbo board 101 is #2, not #1; if you still mean b7, send it again with #2."},
		{"bob@example.org", "tanbo move 101 bob pw-bob b7#x", `"b7#x" does not end in a move number; write the move number as #N after the move, e.g. e2-e5#3.`},
		{"bob@example.org", "tanbo move 999 bob pw-bob b7", "There is no Tanbo board 999; send 'tanbo games all' for the boards there are."},
		{"bob@example.org", "tanbo move abc bob pw-bob b7", `"abc" is not a board number; boards are numbered from 101.`},
		{"bob@example.org", "tanbo move 101 bob pw-bob", "The command has the wrong number of words; write it as: tanbo move board userid password move[#n]"},
		{"bob@example.org", "tanbo dance 101", `"dance" is not a command of Tanbo; the commands are accept, challenge, chat, decline, games, help, history, join, limit, move, notify, preview, queue, record, reject, rematch, resign, seek, seeks, show, standings, subscribe, swap, todo, unsubscribe.`},
	}
	for _, e := range errs {
		errorReply(t, h.send(e.from, e.subject, ""), e.from, e.want)
	}
	// An illegal move gets the game's reason, and the board.
	r := one(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob e5", ""), "bob@example.org")
	if r.Subject != "Tanbo Board 101 Error" || !strings.HasPrefix(r.Body, "e5 is not a legal move on Tanbo board 101: ") ||
		!strings.Contains(r.Body, "Summary of Tanbo Board 101") {
		t.Errorf("illegal move reply %q:\n%s", r.Subject, r.Body)
	}
	golden(t, "move-illegal", []reply{r})

	// A third user may not move on the board.
	h.signup("carol")
	errorReply(t, h.send("carol@example.org", "tanbo move 101 carol pw-carol b7", ""), "carol@example.org",
		"carol is not a player of Tanbo board 101; its players are alice and bob.")
	// None of the refused mails changed the board.
	var moves int
	h.db.View(func(tx *store.Tx) error {
		g, err := tx.Game("tanbo", 101)
		if err == nil {
			moves = len(g.Moves)
		}
		return err
	})
	if moves != 1 {
		t.Errorf("board 101 has %d moves after refused mails, want 1", moves)
	}
}

func TestSameMailTwice(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	raw := h.mail("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	if out := h.deliver(raw); len(out) != 2 {
		t.Fatalf("first delivery: %v", subjects(out))
	}
	if out := h.deliver(raw); len(out) != 0 {
		t.Errorf("the same mail again caused replies: %v", subjects(out))
	}
	// Without a Message-ID the content decides.
	noID := []byte("From: bob@example.org\r\nSubject: tanbo move 101 bob pw-bob b7\r\n\r\n")
	if out := h.deliver(noID); len(out) != 2 {
		t.Fatalf("first delivery: %v", subjects(out))
	}
	if out := h.deliver(noID); len(out) != 0 {
		t.Errorf("the same mail again caused replies: %v", subjects(out))
	}
	h.db.View(func(tx *store.Tx) error {
		g, _ := tx.Game("tanbo", 101)
		if len(g.Moves) != 2 {
			t.Errorf("board has %d moves, want 2", len(g.Moves))
		}
		return nil
	})
}

func TestResign(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice b3", "")
	out := h.send("bob@example.org", "tanbo resign 101 bob pw-bob", "Well played.")
	golden(t, "resign", out)
	if len(out) != 2 || out[0].Subject != "Tanbo Board 101 won by alice **" || !strings.Contains(out[0].Body, "Game won by alice.") {
		t.Fatalf("resign: %v\n%s", subjects(out), out[0].Body)
	}
	errorReply(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob resign", ""), "bob@example.org",
		"Tanbo board 101 is already over; there is nothing to resign.")
}

func TestCommentInBoardMail(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	body := "Your move, Bob.\nI think I have you.\n\nOn Sun, 22 Nov 2026, Bob wrote:\n> old board\n"
	out := h.send("alice@example.org", "Re: tanbo move 101 alice pw-alice h7 **", body)
	if len(out) != 2 {
		t.Fatalf("%v", subjects(out))
	}
	for _, r := range out {
		if r.Subject != "Tanbo Board 101 bob **" {
			t.Errorf("subject %q", r.Subject)
		}
		if !strings.Contains(r.Body, "alice writes:\nYour move, Bob.\nI think I have you.\n") || strings.Contains(r.Body, "old board") {
			t.Errorf("comment block wrong:\n%s", r.Body)
		}
	}
}

func TestShowAndGames(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	h.signup("carol")
	out := h.send("carol@example.org", "tanbo show 101", "")
	golden(t, "show", out)
	if r := one(t, out, "carol@example.org"); r.Subject != "Tanbo Board 101 alice" {
		t.Errorf("show subject %q", r.Subject)
	}
	if out2 := h.send("carol@example.org", "tanbo show board 101", ""); len(out2) != 1 || out2[0].Body != out[0].Body {
		t.Errorf("'show board 101' differs from 'show 101'")
	}
	out = h.send("carol@example.org", "tanbo show 101#1", "")
	r := one(t, out, "carol@example.org")
	if r.Subject != "Tanbo Board 101 at move 1" || !strings.Contains(r.Body, "The board as it stood after move 1 of 2.") || !strings.Contains(r.Body, "It is bob's turn.") {
		t.Errorf("show 101#1: %q\n%s", r.Subject, r.Body)
	}
	errorReply(t, h.send("carol@example.org", "tanbo show 101#5", ""), "carol@example.org",
		`"101#5" asks for the board after move 5, but board 101 has moves 0 to 2.`)

	out = h.send("carol@example.org", "tanbo show alice", "")
	if len(out) != 1 || out[0].Subject != "Tanbo Board 101 alice" {
		t.Errorf("show alice: %v", subjects(out))
	}
	if out := h.send("carol@example.org", "tanbo show bob next", ""); len(out) != 1 || out[0].To != "carol@example.org" {
		// bob is not to move: refused with a hint.
		t.Errorf("show bob next: %v", subjects(out))
	} else if !strings.Contains(out[0].Body, "bob has no Tanbo board where bob is to move") {
		t.Errorf("show bob next:\n%s", out[0].Body)
	}

	h.send("carol@example.org", "tanbo challenge carol bob", "")
	out = h.send("carol@example.org", "tanbo games", "")
	golden(t, "games", out)
	r = one(t, out, "carol@example.org")
	if !strings.Contains(r.Body, "  101  alice - bob                     2  to move: alice") ||
		!strings.Contains(r.Body, "  102  carol - bob                     0  to move: carol") {
		t.Errorf("games:\n%s", r.Body)
	}
	r = one(t, h.send("carol@example.org", "tanbo games alice", ""), "carol@example.org")
	if strings.Contains(r.Body, "102") {
		t.Errorf("games alice lists board 102:\n%s", r.Body)
	}
	out = h.send("carol@example.org", "list", "")
	golden(t, "list", out)
}

func TestSubscribe(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol")
	out := h.send("carol@example.org", "tanbo sub 101 carol pw-carol", "")
	golden(t, "subscribe", out)
	one(t, out, "carol@example.org")
	out = h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	if len(out) != 3 || out[2].To != "carol@example.org" || !strings.Contains(out[2].Body, "Subscribers: carol") {
		t.Errorf("a subscriber gets the board: %v", subjects(out))
	}
	errorReply(t, h.send("carol@example.org", "tanbo subscribe 101 carol pw-carol", ""), "carol@example.org",
		"carol already receives every mail of Tanbo board 101.")
	errorReply(t, h.send("alice@example.org", "tanbo subscribe 101 alice pw-alice", ""), "alice@example.org",
		"alice plays on Tanbo board 101 and receives its mails already.")
	one(t, h.send("carol@example.org", "tanbo unsub 101 carol pw-carol", ""), "carol@example.org")
	if out := h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", ""); len(out) != 2 {
		t.Errorf("after unsubscribe: %v", subjects(out))
	}
	errorReply(t, h.send("carol@example.org", "tanbo unsubscribe 101 carol pw-carol", ""), "carol@example.org",
		"carol is not subscribed to Tanbo board 101.")
}

func TestHelp(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, c := range []struct{ subject, golden string }{
		{"help", "help"},
		{"HELP commands", "help-commands"},
		{"tanbo help", "help-tanbo"},
		{"ultima help", "help-ultima"},
		{"tobit help", "help-tobit"},
		{"taratibu help", "help-taratibu"},
		{"help tutorial", "help-tutorial"},
		{"help clocks", "help-clocks"},
	} {
		out := h.send("someone@example.org", c.subject, "")
		one(t, out, "someone@example.org")
		golden(t, c.golden, out)
	}
	if a, b := h.send("x@example.org", "help tanbo", ""), h.send("x@example.org", "tanbo help", ""); len(a) != 1 || len(b) != 1 || a[0].Body != b[0].Body {
		t.Errorf("'help tanbo' differs from 'tanbo help'")
	}
	errorReply(t, h.send("x@example.org", "help chess", ""), "x@example.org",
		`There is no help on "chess"; send "help" for the index, "help commands", "help tutorial", "help clocks", "help GAME" with a game of `+strings.Join(gameNames(), ", ")+`, or "help COMMAND" such as "help move".`)
	// One command's forms, by its name or a short form.
	for _, topic := range []string{"move", "mvoe", "chall", "signup", "delete"} {
		r := one(t, h.send("x@example.org", "help "+topic, ""), "x@example.org")
		if strings.Contains(r.Subject, "rror") || !strings.Contains(r.Body, "Example:") {
			t.Errorf("help %s: %q\n%s", topic, r.Subject, r.Body)
		}
		checkWidth(t, "help "+topic, r)
	}
	says(t, one(t, h.send("x@example.org", "help move", ""), "x@example.org").Body, "GAME move board userid password move[#n]")
}

func TestUnknownSenderAndCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	out := h.send("stranger@example.org", "hello there", "Is this the chess club?")
	golden(t, "howto", out)
	one(t, out, "stranger@example.org")
	if out := h.send("stranger@example.org", "hello again", ""); len(out) != 0 {
		t.Errorf("a second how-to within a day: %v", subjects(out))
	}
	h.now = h.now.Add(25 * time.Hour)
	one(t, h.send("stranger@example.org", "hello once more", ""), "stranger@example.org")

	h.signup("alice")
	errorReply(t, h.send("alice@example.org", "chess move 1", ""), "alice@example.org",
		`"chess" is not a command; commands start with a game name (`+strings.Join(gameNames(), ", ")+`) or one of all, broadcast, change, confirm, feed, help, list, message, reset, set, signoff, signup, todo, tournament, vacation, multiple; send 'help' for the list.`)
}

func TestLoopGuard(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	cases := map[string]string{
		"auto-reply": "From: alice@example.org\r\nAuto-Submitted: auto-replied\r\nSubject: tanbo move 101 alice pw-alice h7\r\n\r\n",
		"bulk":       "From: alice@example.org\r\nPrecedence: bulk\r\nSubject: tanbo move 101 alice pw-alice h7\r\n\r\n",
		"list":       "From: alice@example.org\r\nList-Id: <games.example.org>\r\nSubject: tanbo move 101 alice pw-alice h7\r\n\r\n",
		"bounce":     "From: MAILER-DAEMON@example.org\r\nSubject: Undelivered Mail Returned to Sender\r\n\r\nsorry\r\n",
		"no return":  "Return-Path: <>\r\nFrom: alice@example.org\r\nSubject: tanbo move 101 alice pw-alice h7\r\n\r\n",
		"ourselves":  "From: pbemd <pbem@example.org>\r\nSubject: Tanbo Board 101 alice\r\n\r\n",
	}
	for name, raw := range cases {
		if out := h.deliver([]byte(raw)); len(out) != 0 {
			t.Errorf("%s: answered with %v", name, subjects(out))
		}
	}
	h.db.View(func(tx *store.Tx) error {
		g, _ := tx.Game("tanbo", 101)
		if len(g.Moves) != 0 {
			t.Errorf("an ignored mail played a move")
		}
		return nil
	})
}

func TestMultiple(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	body := "tanbo move 101 alice pw-alice h7\n\ntanbo show 101\n-- \nAlice\ntanbo resign 101 alice pw-alice\n"
	out := h.send("alice@example.org", "multiple", body)
	if len(out) != 3 || out[0].Subject != "Tanbo Board 101 bob" || out[2].To != "alice@example.org" {
		t.Fatalf("multiple: %v", subjects(out))
	}
	errorReply(t, h.send("alice@example.org", "multiple", ""), "alice@example.org",
		"A multiple mail needs one command per line in its body; the body held none.")
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.svc.limits = Limits{Mails: 100, BadPasswords: 3, Window: time.Hour}.withDefaults()
	for i := 0; i < 3; i++ {
		errorReply(t, h.send("mallory@example.org", fmt.Sprintf("tanbo move 101 alice guess%d h7", i), ""), "mallory@example.org",
			"The password for alice is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset alice' and a code comes to the account's addresses.")
	}
	r := one(t, h.send("mallory@example.org", "tanbo move 101 alice guess3 h7", ""), "mallory@example.org")
	if r.Subject != "pbemd: too many mails" || !strings.Contains(r.Body, "3 wrong passwords") {
		t.Errorf("the warning: %q\n%s", r.Subject, r.Body)
	}
	for i := 0; i < 5; i++ {
		if out := h.send("mallory@example.org", "tanbo move 101 alice pw-alice h7", ""); len(out) != 0 {
			t.Fatalf("a blocked sender got %v", subjects(out))
		}
	}
	// Others are not affected; after the window the sender is heard again.
	if out := h.send("alice@example.org", "tanbo show 101", ""); len(out) != 1 {
		t.Errorf("alice: %v", subjects(out))
	}
	h.now = h.now.Add(61 * time.Minute)
	if out := h.send("mallory@example.org", "tanbo show 101", ""); len(out) != 1 {
		t.Errorf("after the window: %v", subjects(out))
	}
}

func TestDeliverAll(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	move := h.mail("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	errs := h.svc.DeliverAll([][]byte{
		move,
		h.mail("bob@example.org", "tanbo move 101 bob pw-bob b7", ""),
		move, // sent twice in one batch: played once
		nil,  // no mail at all
		[]byte("From: MAILER-DAEMON@example.org\r\nSubject: bounce\r\n\r\n"),
		h.mail("alice@example.org", "tanbo move 101 alice pw-alice h6", ""),
	})
	for i, err := range errs {
		if (err != nil) != (i == 3) {
			t.Errorf("mail %d: error %v", i, err)
		}
	}
	out := h.outbox()
	want := []string{"Tanbo Board 101 bob", "Tanbo Board 101 bob", "Tanbo Board 101 alice", "Tanbo Board 101 alice", "Tanbo Board 101 bob", "Tanbo Board 101 bob"}
	if len(out) != len(want) {
		t.Fatalf("replies %v", subjects(out))
	}
	for i, r := range out {
		if r.Subject != want[i] {
			t.Errorf("reply %d: %q, want %q", i, r.Subject, want[i])
		}
	}
}

func TestSweepForgetsOldMailKeys(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	raw := h.mail("x@example.org", "help", "")
	one(t, h.deliver(raw), "x@example.org")
	if err := h.svc.Sweep(h.now.Add(89 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	if out := h.deliver(raw); len(out) != 0 {
		t.Fatalf("a mail handled 89 days ago was handled again")
	}
	if err := h.svc.Sweep(h.now.Add(91 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	one(t, h.deliver(raw), "x@example.org")
}

func TestOnMovesCountsGameMoves(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	var played []int
	h.svc.cfg.OnMoves = func(n int) { played = append(played, n) }
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob e5", "") // illegal: no move
	h.send("bob@example.org", "tanbo show 101", "")
	h.send("alice@example.org", "taratibu challenge alice bob", "")
	h.send("alice@example.org", "taratibu move 101 alice pw-alice 7264", "")
	h.send("bob@example.org", "taratibu move 101 bob pw-bob 4765 6564", "") // a turn of two single moves
	if fmt.Sprint(played) != "[1 1 2]" {
		t.Errorf("OnMoves told %v; want [1 1 2]", played)
	}
}

// "list" shows at most listMost boards of a game and says there are more;
// "games" lists them a page at a time, each with who is to move.
func TestListIsBounded(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t) // board 101
	// More boards than list shows, and than a page of games.
	for i := 0; i < pageRows+1; i++ {
		h.send("alice@example.org", "tanbo challenge bob alice -size=9", "")
	}
	r := one(t, h.send("carol@example.org", "list tanbo", ""), "carol@example.org")
	if n := strings.Count(r.Body, "  to move: "); n != listMost {
		t.Errorf("list shows %d boards; want %d", n, listMost)
	}
	if !strings.Contains(r.Body, `  and more: send "tanbo games" for them, a page at a time`) {
		t.Errorf("list does not say there are more:\n%s", r.Body)
	}
	r = one(t, h.send("carol@example.org", "tanbo games", ""), "carol@example.org")
	if n := strings.Count(r.Body, "  to move: "); n != pageRows {
		t.Errorf("games shows %d boards on its first page; want %d", n, pageRows)
	}
	if !strings.Contains(r.Body, "  101  alice - bob                     0  to move: alice") {
		t.Errorf("games lacks board 101:\n%s", r.Body)
	}
	if !strings.HasSuffix(r.Body, "\nMore follow. For the next page send: tanbo games active page 2\n") {
		t.Errorf("games does not say how to ask for the next page:\n%s", r.Body)
	}
	r = one(t, h.send("carol@example.org", "tanbo games active page 2", ""), "carol@example.org")
	if n := strings.Count(r.Body, "  to move: bob"); n != 2 || strings.Contains(r.Body, "More follow") {
		t.Errorf("games page 2 shows %d boards; want the last 2 and no next page:\n%s", n, r.Body)
	}
}
