package pbem

import (
	"testing"
	"time"
)

// TestTodo: todo lists the boards where it is the sender's move, the most
// urgent first (the nearest end of his clock, then the oldest turn, and
// last a board whose clock stands for his own open proposal), with the
// last move and the command that answers; GAME todo keeps to one game.
func TestTodo(t *testing.T) {
	h := newHarness(t)
	for _, id := range []string{"alice", "bob", "carol"} {
		h.signup(id)
	}
	start := h.now
	// 101: bob to move since the start, days clock: 21 days.
	h.send("alice@example.org", "tanbo challenge alice bob -size=9", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	// 102: bob to move an hour later, a Fischer bank of 2 days: first.
	h.now = start.Add(time.Hour)
	h.send("carol@example.org", "tanbo challenge carol bob -size=9 -clock=fischer:2d+1d/3d", "")
	h.send("carol@example.org", "tanbo move 102 carol pw-carol h7", "")
	// 103: bob to move, but his own draw offer is open: last.
	h.send("bob@example.org", "tanbo challenge bob carol -size=9", "")
	h.send("bob@example.org", "tanbo move 103 bob pw-bob h7", "")
	h.send("carol@example.org", "tanbo move 103 carol pw-carol b7", "")
	h.send("bob@example.org", "tanbo move 103 bob pw-bob propose", "")
	// 104: alice to move; not bob's.
	h.send("bob@example.org", "tanbo challenge alice bob -size=9", "")
	// An ultima board at bob's move, left out by "tanbo todo".
	h.send("carol@example.org", "ultima challenge carol bob", "")
	h.send("carol@example.org", "ultima move 101 carol pw-carol e2-e5", "")
	h.outbox()
	h.now = start.Add(2 * time.Hour)

	r := one(t, h.send("bob@example.org", "tanbo todo", ""), "bob@example.org")
	if r.Subject != "pbemd: todo of bob" {
		t.Errorf("subject %q", r.Subject)
	}
	has(t, r.Body, `The boards where it is bob's move, the most urgent first:

Tanbo board 102 against carol: carol played h7.
  1d23h left, until 2026-11-24 13:00 UTC.
  tanbo move 102 bob PASSWORD MOVE#2

Tanbo board 101 against alice: alice played h7.
  20d22h left, until 2026-12-13 12:00 UTC.
  tanbo move 101 bob PASSWORD MOVE#2

Tanbo board 103 against carol: carol played b7.
  Your clock stands while your proposal is open.
  tanbo move 103 bob PASSWORD MOVE#3
`)
	hasNot(t, r.Body, "board 104", "Ultima")
	says(t, one(t, h.send("bob@example.org", "todo", ""), "bob@example.org").Body, "Ultima board 101 against carol: carol played Pe2-e5.")

	// A forged From gets the list to that account's own address, as
	// anyone may read whose move a board is; a stranger gets no list.
	r = one(t, h.deliver(h.forged("bob@example.org", "todo", "")), "bob@example.org")
	says(t, r.Body, "Tanbo board 102 against carol")
	errorReply(t, h.send("mallory@example.net", "todo", ""), "mallory@example.net",
		"No account has the address mallory@example.net, so there are no boards to list; todo lists the boards of the account of the address it comes from.")
	says(t, one(t, h.send("carol@example.org", "tanbo todo", ""), "carol@example.org").Body,
		"It is not carol's move on any board of Tanbo.")
}
