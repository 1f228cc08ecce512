package pbem

import (
	"strings"
	"testing"
)

// TestQueueClearAndResignTakeBack: "queue ... clear" empties the queue, a
// second resign takes a waiting one back, the bare form lists the queue,
// and every reply about the queue lists it as it now stands.
func TestQueueClearAndResignTakeBack(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	// alice to move; bob queues two moves, then clears them.
	h.send("bob@example.org", "tanbo queue 101 bob pw-bob h3", "")
	r := one(t, h.send("bob@example.org", "tanbo qboard 101 bob pw-bob add b9", ""), "bob@example.org")
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
	says(t, r.Body, "a second resign takes it back, so you play on. Queued for bob: h3.")
	// alice moves: bob's h3 is played, and the game goes on; bob's board
	// waits for alice's answer.
	r = one(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice b3", ""), "alice@example.org")
	says(t, r.Body, "bob played h3 (queued).")
	if g := h.game("tanbo", 101); g.Over || len(g.Queue) != 0 {
		t.Errorf("after the queue ran: over %v, queue %+v", g.Over, g.Queue)
	}
	has(t, one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body,
		"GAME queue board userid password [add] move[#n]|clear", "a second resign takes a waiting one back")
}

// TestPbmservCommandsHostile: the new forms refuse what is wrong with a
// clear answer and store nothing.
func TestPbmservCommandsHostile(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol")
	big := strings.Repeat("spam ", 2000) // 10,000 bytes, over the 8,000 of a message
	r := errorReply(t, h.send("carol@example.org", "tanbo chat 101 carol pw-carol", big), "carol@example.org",
		"A chat is at most 8000 bytes; this one has 9999. Shorten it, or send it in parts.")
	if len(r.Body) > 20000 {
		t.Errorf("the refusal of a big chat is %d bytes", len(r.Body))
	}
	if g := h.game("tanbo", 101); len(g.Comments) != 0 {
		t.Errorf("a refused chat was stored: %d comments", len(g.Comments))
	}
	errorReply(t, h.send("bob@example.org", "tanbo limit bob pw-bob 99999999999999999999999", ""), "bob@example.org",
		`"99999999999999999999999" is not a limit; write a number of games from 1 to 999, 0 or reject to refuse every challenge, or accept, all or inf for no limit.`)
	errorReply(t, h.send("bob@example.org", "tanbo limit bob pw-bob -3", ""), "bob@example.org",
		`"-3" is not a limit; write a number of games from 1 to 999, 0 or reject to refuse every challenge, or accept, all or inf for no limit.`)
	errorReply(t, h.send("carol@example.org", "tanbo queue 101 carol pw-carol clear", ""), "carol@example.org",
		"carol is not a player of Tanbo board 101; its players are alice and bob.")
	errorReply(t, h.send("carol@example.org", "tanbo subscribe all carol wrong", ""), "carol@example.org",
		"The password for carol is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset carol' and a code comes to the account's addresses.")
	if u := h.user("carol"); len(u.SubscribeKinds) != 0 {
		t.Errorf("subscribe all with a wrong password stored %q", u.SubscribeKinds)
	}
	errorReply(t, h.send("carol@example.org", "tanbo challenge carol bob -", ""), "carol@example.org",
		`"-" is not an option; the options of Tanbo are -size=19|13|9 -swap.`)
}
