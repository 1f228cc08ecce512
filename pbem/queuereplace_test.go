package pbem

import "testing"

// TestQueueReplaces: as on pbmserv, a player who queues again to correct
// his move gets the correction alone; "add" keeps both, in order; a forged
// mail without the password replaces nothing.
func TestQueueReplaces(t *testing.T) {
	h := twoPlayers(t)
	one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob b7", ""), "bob@example.org")
	r := one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob h3", ""), "bob@example.org")
	says(t, r.Body, "This replaces what you had queued (b7); to queue a move after others, send \"tanbo queue 101 bob PASSWORD add MOVE\".",
		"Queued for bob: h3.")
	// A forged mail in bob's name cannot put its own move in his queue.
	errorReply(t, h.send("bob@example.org", "tanbo queue 101 bob guessed b9", ""), "bob@example.org",
		"The password for bob is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset bob' and a code comes to the account's addresses.")
	if g := h.game("tanbo", 101); len(g.Queue) != 1 || g.Queue[0].Text != "h3" {
		t.Fatalf("queue after the correction: %+v", g.Queue)
	}
	// alice moves: the correction is played, and nothing is refused.
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	r = one(t, out, "alice@example.org")
	says(t, r.Body, "bob played h3 (queued).")
	if g := h.game("tanbo", 101); len(g.Moves) != 2 || g.Moves[1].Text != "h3" || len(g.Queue) != 0 {
		t.Errorf("moves %+v, queue %+v", g.Moves, g.Queue)
	}

	// "add" extends the queue instead.
	one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob b7", ""), "bob@example.org")
	r = one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob add b9", ""), "bob@example.org")
	says(t, r.Body, "Queued for bob, in this order: b7, b9.")
	hasNot(t, r.Body, "replaces")
}
