package pbem

import "testing"

// TestSubscribeAll: "subscribe all" subscribes to every board of the game,
// those in play too (as pbmserv), not those of other games; "unsubscribe
// all" stops it. Board mails list the notifiers.
func TestSubscribeAll(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol", "dave")
	out := h.send("carol@example.org", "tanbo subscribe all carol pw-carol", "")
	r := one(t, out, "carol@example.org")
	if r.Subject != "Tanbo: subscribe all for carol" {
		t.Errorf("subject %q", r.Subject)
	}
	says(t, r.Body, "carol is subscribed to every new Tanbo board from now on", "Of the boards in play, board 101 is subscribed now.")
	errorReply(t, h.send("carol@example.org", "tanbo sub all carol pw-carol", ""), "carol@example.org",
		"carol subscribes to every Tanbo board already; 'tanbo unsubscribe all carol PASSWORD' stops it.")
	// Board 101 was in play: its moves go to carol.
	boardMails(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""), "Tanbo Board 101 bob",
		"alice@example.org", "bob@example.org", "carol@example.org")
	// A new Tanbo board has her as a subscriber from its first mail on.
	r = boardMails(t, h.send("alice@example.org", "tanbo challenge alice bob -size=9", ""), "New Tanbo Board 102 alice",
		"alice@example.org", "bob@example.org", "carol@example.org")
	has(t, r.Body, "Subscribers: carol\n")
	boardMails(t, h.send("alice@example.org", "tanbo move 102 alice pw-alice h7", ""), "Tanbo Board 102 bob",
		"alice@example.org", "bob@example.org", "carol@example.org")
	// Not a Tobit board.
	if out := h.send("alice@example.org", "tobit challenge alice bob", ""); len(out) != 2 {
		t.Errorf("a tobit board went to carol: %v", subjects(out))
	}
	// A player is never his own subscriber.
	h.send("bob@example.org", "tanbo subscribe all bob pw-bob", "")
	r = boardMails(t, h.send("alice@example.org", "tanbo challenge alice bob -size=9", ""), "New Tanbo Board 103 alice",
		"alice@example.org", "bob@example.org", "carol@example.org")
	has(t, r.Body, "Subscribers: carol\n")

	// The Notifiers line lists who is told of the board's end.
	h.send("dave@example.org", "tanbo notify dave pw-dave 102", "")
	r = boardMails(t, h.send("bob@example.org", "tanbo move 102 bob pw-bob b7", ""), "Tanbo Board 102 alice",
		"alice@example.org", "bob@example.org", "carol@example.org")
	has(t, r.Body, "Subscribers: carol\nNotifiers: dave\n")

	says(t, one(t, h.send("carol@example.org", "tanbo unsubscribe all carol pw-carol", ""), "carol@example.org").Body,
		"carol is no longer subscribed to new Tanbo boards. Of the boards in play, boards 101, 102 and 103 are unsubscribed now.")
	if out := h.send("alice@example.org", "tanbo challenge alice bob -size=9", ""); len(out) != 2 {
		t.Errorf("after unsubscribe all: %v", subjects(out))
	}
	errorReply(t, h.send("carol@example.org", "tanbo unsub all carol pw-carol", ""), "carol@example.org",
		"carol does not subscribe to every Tanbo board; 'tanbo subscribe all carol PASSWORD' starts it.")
	has(t, one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body,
		"GAME subscribe all userid password", "GAME unsubscribe board|all userid password")
}

// TestProposalReminders: a draw proposal left unanswered reminds the
// silent player after the nag time, and at the forfeit time his silence
// accepts it, as on pbmserv; both players are told.
func TestProposalReminders(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	h.send("alice@example.org", "tanbo challenge alice bob -size=9 --nagtime=3 --forfeittime=8", "")
	start := h.now
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	// alice proposes a draw and plays on; bob must answer, and move.
	h.send("alice@example.org", "tanbo move 101 alice pw-alice propose", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice b3", "")
	h.now = start.Add(2 * day)
	h.send("bob@example.org", "tanbo show 101", "") // no answer
	h.outbox()
	h.now = start.Add(3*day - 1)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("before 3 days: %v", subjects(out))
	}
	// Day 3: bob is reminded of the move and, apart, of the proposal.
	h.now = start.Add(3 * day)
	out := h.sweep()
	if len(out) != 2 || out[0].To != "bob@example.org" || out[1].To != "bob@example.org" {
		t.Fatalf("day 3: %v", subjects(out))
	}
	golden(t, "proposal-nag", out[:1])
	if out[0].Subject != "Nag: Tanbo Board 101 bob" {
		t.Errorf("subject %q", out[0].Subject)
	}
	says(t, out[0].Body, "Reminder: alice proposed a draw on Tanbo board 101 3 days ago, and bob has not answered. Without an answer by 2026-11-30 12:00 UTC it counts as accepted.")
	// Not again within the nag time.
	h.now = start.Add(5 * day)
	for _, r := range h.sweep() {
		hasNot(t, r.Body, "proposed a draw")
	}
	// bob moves, but a move by the one who must answer declines: so let
	// bob stay silent; at 8 days his silence accepts the draw (and he does
	// not forfeit as well, although his move is as late).
	h.now = start.Add(8 * day)
	out = h.sweep()
	if len(out) != 2 {
		t.Fatalf("day 8: %v", subjects(out))
	}
	says(t, out[0].Body, "bob did not answer alice's proposal of a draw in 8 days, and silence accepts it: the game is drawn.", "Game was a tie.")
	if out[0].To != "alice@example.org" || out[1].To != "bob@example.org" {
		t.Errorf("lapse told to %v, want both players", subjects(out[:2]))
	}
	if g := h.game("tanbo", 101); g.Vote != nil || !g.Over || g.Winner != -1 {
		t.Errorf("after the silence: vote %+v, over %v, winner %d", g.Vote, g.Over, g.Winner)
	}
}

// TestWatchersLimit: a board's subscribers and those told of its end, and
// the users asking for every board of a game, are bounded (limits.watchers),
// so that one move or one game's end makes a bounded number of mails. The
// refusal says what may be done instead.
func TestWatchersLimit(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol", "dave", "erin")
	h.svc.limits.Watchers = 2
	for _, id := range []string{"carol", "dave"} {
		one(t, h.send(id+"@example.org", "tanbo subscribe all "+id+" pw-"+id, ""), id+"@example.org")
	}
	errorReply(t, h.send("erin@example.org", "tanbo subscribe all erin pw-erin", ""), "erin@example.org",
		"As many users as may be (2) subscribe to every Tanbo board already; subscribe to boards one by one: 'tanbo subscribe BOARD erin PASSWORD'.")
	// A lower limit later: a new board takes the first ones only.
	h.svc.limits.Watchers = 1
	r := boardMails(t, h.send("alice@example.org", "tanbo challenge alice bob -size=9", ""), "New Tanbo Board 102 alice",
		"alice@example.org", "bob@example.org", "carol@example.org")
	has(t, r.Body, "Subscribers: carol\n")
	errorReply(t, h.send("erin@example.org", "tanbo subscribe 102 erin pw-erin", ""), "erin@example.org",
		"Tanbo board 102 has the most subscribers a board may have (1); 'tanbo notify erin PASSWORD 102' sends erin its final mail instead.")

	one(t, h.send("carol@example.org", "tanbo notify carol pw-carol", ""), "carol@example.org")
	errorReply(t, h.send("dave@example.org", "tanbo notify dave pw-dave", ""), "dave@example.org",
		`As many users as may be (1) are told of the end of every Tanbo game already; name the boards instead: "tanbo notify dave PASSWORD BOARD ...".`)
	one(t, h.send("dave@example.org", "tanbo notify dave pw-dave 102", ""), "dave@example.org")
	errorReply(t, h.send("erin@example.org", "tanbo notify erin pw-erin 102", ""), "erin@example.org",
		"As many users as may be (1) are told of the end of Tanbo board 102 already.")
}
