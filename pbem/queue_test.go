package pbem

import "testing"

// TestQueueClearAndResignTakeBack: "queue ... clear" empties the queue, a
// second resign takes a waiting one back, the bare form lists the queue,
// and every reply about the queue lists it as it now stands.
func TestQueueClearAndResignTakeBack(t *testing.T) {
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	// alice to move; bob queues two moves, then clears them.
	h.send("bob@example.org", "tanbo queue 101 bob pw-bob h3", "")
	r := one(t, h.send("bob@example.org", "tanbo qboard 101 bob pw-bob b9", ""), "bob@example.org")
	says(t, r.Body, "Queued for bob, in this order: h3, b9.")
	r = one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob", ""), "bob@example.org")
	if r.Subject != "Tanbo Board 101 queue" {
		t.Errorf("subject %q", r.Subject)
	}
	says(t, r.Body, "Queued for bob, in this order: h3, b9.")
	out := h.send("bob@example.org", "tanbo queue 101 bob pw-bob clear", "")
	golden(t, "queue-clear", out)
	r = one(t, out, "bob@example.org")
	if r.Subject != "Tanbo Board 101 queue cleared" {
		t.Errorf("subject %q", r.Subject)
	}
	says(t, r.Body, "2 queued moves were taken off. Your queue on Tanbo board 101 is empty.")
	if g := h.game("tanbo", 101); len(g.Queue) != 0 {
		t.Errorf("queue after clear: %+v", g.Queue)
	}
	errorReply(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob clear", ""), "bob@example.org",
		"Your queue on Tanbo board 101 is empty already; there is nothing to clear.")

	// A resignation waits for bob's turn; a second resign takes it back.
	h.send("bob@example.org", "tanbo moveq 101 bob pw-bob h3", "")
	says(t, one(t, h.send("bob@example.org", "tanbo resign 101 bob pw-bob", ""), "bob@example.org").Body,
		"Queued for bob, in this order: h3, resign.")
	r = one(t, h.send("bob@example.org", "tanbo resign 101 bob pw-bob", ""), "bob@example.org")
	if r.Subject != "Tanbo Board 101 resignation withdrawn" {
		t.Errorf("subject %q", r.Subject)
	}
	says(t, r.Body, "a second resign takes it back, so you play on. Queued for bob, in this order: h3.")
	// alice moves: bob's h3 is played, and the game goes on.
	r = boardMails(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice b3", ""), "Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	says(t, r.Body, "bob played h3 (queued).")
	if g := h.game("tanbo", 101); g.Over || len(g.Queue) != 0 {
		t.Errorf("after the queue ran: over %v, queue %+v", g.Over, g.Queue)
	}
	has(t, one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body,
		"GAME queue board userid password move[#n]|clear", "a second resign takes a waiting one back")
}
