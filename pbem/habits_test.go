package pbem

import (
	"strings"
	"testing"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
)

// The habits of pbmserv's players that issue 27 lists (items 6 and 7),
// each through mails.

// boardSubjects checks that out is one mail per board named, to the
// address, each with a subject a mail filter on "<Game> Board <n>" finds
// and the board's summary.
func boardSubjects(t *testing.T, out []reply, to string, boards ...string) {
	t.Helper()
	if len(out) != len(boards) {
		t.Fatalf("got %v; want one mail for each of %v", subjects(out), boards)
	}
	for i, b := range boards {
		r := out[i]
		if r.To != to || !strings.HasPrefix(r.Subject, b+" ") {
			t.Errorf("mail %d is %q to %s; want the subject to start %q, to %s", i+1, r.Subject, r.To, b+" ", to)
		}
		says(t, r.Body, "Summary of "+b+"\n")
	}
}

// Item 7: "show 101 103", "show bob all" and the shows of a multiple mail
// come one mail per board, as pbmserv sends them, not bundled in one whose
// subject no filter on "Tanbo Board 101" finds.
func TestShowOneMailPerBoard(t *testing.T) {
	h := twoPlayers(t)
	h.send("bob@example.org", "tanbo challenge bob alice -size=9", "")
	h.send("bob@example.org", "tanbo challenge bob alice -size=9", "")
	h.signup("carol")
	boardSubjects(t, h.send("carol@example.org", "tanbo show 101 103", ""), "carol@example.org",
		"Tanbo Board 101", "Tanbo Board 103")
	boardSubjects(t, h.send("carol@example.org", "tanbo show bob all", ""), "carol@example.org",
		"Tanbo Board 101", "Tanbo Board 102", "Tanbo Board 103")
	boardSubjects(t, h.send("carol@example.org", "multiple", "tanbo show 102\ntanbo show 101#0\n"), "carol@example.org",
		"Tanbo Board 102", "Tanbo Board 101")
	// A board named twice is shown once.
	boardSubjects(t, h.send("carol@example.org", "tanbo show 101 101 #101", ""), "carol@example.org", "Tanbo Board 101")
	// What is no board still comes in one mail.
	out := h.send("carol@example.org", "multiple", "tanbo show 101\nhelp move\nlist tanbo\n")
	if got := strings.Join(subjects(out), "|"); got != "carol@example.org: Tanbo Board 101 alice|carol@example.org: pbemd: 2 replies to your mail" {
		t.Errorf("show, help and list: %s", got)
	}
}

// Item 7: a board withdrawn before it was played is no game of the
// history; a game played to its end is.
func TestHistoryLeavesOutWithdrawn(t *testing.T) {
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo challenge alice bob -size=9", "")
	h.send("bob@example.org", "tanbo decline 101 bob pw-bob", "")
	h.send("alice@example.org", "tanbo move 102 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 102 bob pw-bob b7", "")
	h.send("alice@example.org", "tanbo resign 102 alice pw-alice", "")
	for _, subject := range []string{"tanbo history", "tanbo history bob"} {
		r := one(t, h.send("carol@example.org", subject, ""), "carol@example.org")
		has(t, r.Body, "  102  alice - bob")
		hasNot(t, r.Body, "  101  alice - bob", "withdrawn")
	}
	has(t, one(t, h.send("carol@example.org", "tanbo games all", ""), "carol@example.org").Body, "  101  alice - bob", "withdrawn")
}

// Item 6: pbmserv's "subscribe userid password board...|userid" forms, and
// "subscribe all" taking the boards in play as well as the new ones.
func TestSubscribePbmservForms(t *testing.T) {
	h := twoPlayers(t)                                                 // tanbo 101 alice-bob
	h.send("bob@example.org", "tanbo challenge bob alice -size=9", "") // 102
	h.signup("carol")
	h.signup("dave")
	r := one(t, h.send("carol@example.org", "tanbo subscribe carol pw-carol 101 102", ""), "carol@example.org")
	says(t, r.Body, "For carol, Tanbo boards 101 and 102 are subscribed now: they get every mail of them.", "  tanbo show 101 102\n")
	boardMails(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""), "Tanbo Board 101 bob",
		"alice@example.org", "bob@example.org", "carol@example.org")
	// A player's boards in play; one already subscribed is passed over.
	h.send("carol@example.org", "tanbo unsub carol pw-carol 102", "")
	r = one(t, h.send("carol@example.org", "tanbo sub carol pw-carol bob", ""), "carol@example.org")
	says(t, r.Body, "For carol, Tanbo board 102 is subscribed now", "Passed over: carol already receives every mail of Tanbo board 101.")
	// Nothing to do is an error that ends with the command.
	r = errorReply(t, h.send("carol@example.org", "tanbo subscribe carol pw-carol 101", ""), "carol@example.org",
		"carol already receives every mail of Tanbo board 101.")
	says(t, r.Body, "Write the command as:\n  tanbo subscribe board userid password\n  tanbo subscribe userid password board|userid ...\n")
	// A wrong password subscribes nothing, and a forged From cannot
	// subscribe another.
	errorReply(t, h.deliver(h.forged("dave@example.org", "tanbo subscribe dave guess 101", "")), "dave@example.org",
		"The password for dave is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset dave' and a code comes to the account's addresses.")
	if g := h.game("tanbo", 101); contains(g.Subscribers, "dave") {
		t.Errorf("a wrong password subscribed dave: %v", g.Subscribers)
	}
	// Thousands of words subscribe at most ten boards.
	errorReply(t, h.send("dave@example.org", "tanbo subscribe dave pw-dave"+strings.Repeat(" 101 102 103 104 105 106 107 108 109 110 111", 500), ""),
		"dave@example.org", "There is no Tanbo board 103; send 'tanbo games all' for the boards there are.")

	// subscribe all: boards in play too (carol's already are).
	r = one(t, h.send("dave@example.org", "tanbo subscribe dave pw-dave all", ""), "dave@example.org")
	says(t, r.Body, "Of the boards in play, boards 101 and 102 are subscribed now.")
	boardMails(t, h.send("bob@example.org", "tanbo move 102 bob pw-bob h7", ""), "Tanbo Board 102 alice",
		"bob@example.org", "alice@example.org", "carol@example.org", "dave@example.org")
}

// Item 6: "seek" asks anyone for a game (an open seat the password
// proves), one at a time; "accept board" takes it.
func TestSeek(t *testing.T) {
	h := twoPlayers(t) // tanbo 101
	out := h.deliver(h.forged("alice@example.org", "tanbo seek alice pw-alice -size=9 --nagtime=3 --forfeittime=10", ""))
	r := one(t, out, "alice@example.org")
	if !strings.HasPrefix(r.Subject, "New Tanbo Board 102") {
		t.Fatalf("seek: %q", r.Subject)
	}
	// Proved by the password, alice is seated, not invited, even from
	// mail nothing vouches for.
	if g := h.game("tanbo", 102); g.Seats[0] != "alice" || len(model.Invited(g)) > 0 || g.Extra["nagtime"] != "3" {
		t.Errorf("seek board: seats %q, invited %v, extra %v", g.Seats, model.Invited(g), g.Extra)
	}
	for _, list := range []string{"tanbo games open", "tanbo seeks"} {
		has(t, one(t, h.send("carol@example.org", list, ""), "carol@example.org").Body, "  102  alice - ?")
	}
	errorReply(t, h.send("alice@example.org", "tanbo seek alice pw-alice", ""), "alice@example.org",
		`alice seeks a Tanbo game already: board 102 waits for a player; one seek a game at a time. "tanbo decline 102 alice PASSWORD" withdraws it.`)
	errorReply(t, h.deliver(h.forged("bob@example.org", "tanbo seek bob guess", "")), "bob@example.org",
		"The password for bob is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset bob' and a code comes to the account's addresses.")
	r = errorReply(t, h.send("bob@example.org", "tanbo seek bob pw-bob now please", ""), "bob@example.org",
		`"now" is no option of a seek; options start with "-" (see "tanbo help").`)
	hasNot(t, r.Body, "pw-bob")
	boardMails(t, h.send("bob@example.org", "tanbo accept 102 bob pw-bob", ""), "New Tanbo Board 102 alice",
		"alice@example.org", "bob@example.org")
	if g := h.game("tanbo", 102); g.Seats[1] != "bob" {
		t.Errorf("accept: seats %q", g.Seats)
	}
}

// Item 6: "rematch" after a finished game challenges the other player
// again, sides swapped, same options; a mail nothing vouches for only
// invites him.
func TestRematch(t *testing.T) {
	h := twoPlayers(t) // tanbo 101 alice (first) - bob, -size=9
	h.signup("carol")
	errorReply(t, h.send("alice@example.org", "tanbo rematch 101 alice pw-alice", ""), "alice@example.org",
		`Tanbo board 101 is still in play; a rematch follows a finished game, so finish this one first, or challenge anew with "tanbo challenge alice USERID".`)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	h.send("alice@example.org", "tanbo resign 101 alice pw-alice", "")
	errorReply(t, h.send("carol@example.org", "tanbo rematch 101 carol pw-carol", ""), "carol@example.org",
		"carol is not a player of Tanbo board 101; its players are alice and bob.")
	boardMails(t, h.send("alice@example.org", "tanbo rematch 101 alice pw-alice", ""), "New Tanbo Board 102 bob",
		"bob@example.org", "alice@example.org")
	g := h.game("tanbo", 102)
	if strings.Join(g.Seats, " ") != "bob alice" || strings.Join(g.Options, " ") != "-size=9" || len(model.Invited(g)) > 0 {
		t.Errorf("rematch: seats %q, options %q, invited %v", g.Seats, g.Options, model.Invited(g))
	}
	// From mail nothing vouches for, the password proves alice, and bob
	// is only invited.
	h.deliver(h.forged("alice@example.org", "tanbo rematch 101 alice pw-alice", ""))
	if g := h.game("tanbo", 103); strings.Join(model.Invited(g), " ") != "bob" {
		t.Errorf("a forged rematch invites %v; want bob alone", model.Invited(g))
	}
}

// Item 6: "broadcast", an administrator's message to every player: only
// from an administrator, with his password, in mail his domain vouches
// for; queued as one outbox mail in copies.
func TestBroadcast(t *testing.T) {
	h := newHarness(t)
	h.svc.cfg.Admins = []string{"root"}
	h.restart()
	for _, id := range []string{"root", "alice", "bob", "carol"} {
		h.signup(id)
	}
	nobody := func(out []reply) {
		t.Helper()
		for _, r := range out {
			if strings.Contains(r.Subject, "news") {
				t.Errorf("a refused broadcast went to %s", r.To)
			}
		}
	}
	// A forged From, even with the password, reaches nobody.
	out := h.deliver(h.forged("root@example.org", "broadcast root pw-root", "Free games for all!"))
	errorReply(t, out, "root@example.org", "A broadcast reaches every player, so it must come from an address whose domain signs its mail (DKIM or DMARC), and nothing vouched for this one; send it from such an address.")
	out = h.send("alice@example.org", "broadcast alice pw-alice", "Vote for me")
	r := errorReply(t, out, "alice@example.org", "Only the server's administrators may broadcast, and alice is none; to write to players, send: message USERID PASSWORD TO-USERID ....")
	hasNot(t, r.Body, "pw-alice")
	nobody(out)
	nobody(h.send("root@example.org", "broadcast root wrong", "x"))
	errorReply(t, h.send("root@example.org", "broadcast root pw-root", ""), "root@example.org",
		"A broadcast is the mail body, and this body is empty; write the message below the subject.")

	if err := h.svc.Deliver(h.mail("root@example.org", "broadcast root pw-root", "The server moves on Sunday.")); err != nil {
		t.Fatal(err)
	}
	pending, err := h.db.Pending(h.now.Add(time.Hour), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 2 || len(pending[0].To) != 4 {
		t.Fatalf("the outbox holds %d mails; want the broadcast in copies to 4 and a receipt", len(pending))
	}
	out = h.outbox()
	news := 0
	for _, r := range out {
		if r.Subject == "pbemd: news from root" {
			news++
			says(t, r.Body, "root writes to every player:\n\nThe server moves on Sunday.\n")
		}
	}
	if news != 4 {
		t.Errorf("the broadcast reached %d players; want 4: %v", news, subjects(out))
	}
	has(t, out[len(out)-1].Body, "Your broadcast goes to 4 players.")
}
