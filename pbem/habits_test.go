package pbem

import (
	"strings"
	"testing"
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
