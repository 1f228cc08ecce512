package pbem

import (
	"testing"
)

// A challenger over his own limit is told to raise it, not to challenge
// another player.
func TestOwnLimit(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo limit alice pw-alice 1", "")
	errorReply(t, h.send("alice@example.org", "tanbo challenge alice bob", ""), "alice@example.org",
		"alice already plays 1 active Tanbo game, the limit alice set; wait until one ends, or raise the limit with \"tanbo limit alice PASSWORD NUMBER\".")
}

// A player who signs off withdraws his open seat boards, as resign does:
// nobody won them (the mail said "Game won by ?").
func TestSignoffWithdrawsOpenSeat(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("carol", "bob")
	h.send("carol@example.org", "tanbo challenge carol ?", "")
	out := h.send("carol@example.org", "signoff carol pw-carol", "")
	if len(out) != 2 {
		t.Fatalf("signoff: %v", subjects(out))
	}
	if out[0].Subject != "Tanbo Board 101 withdrawn" {
		t.Errorf("subject %q, want Tanbo Board 101 withdrawn", out[0].Subject)
	}
	hasNot(t, out[0].Body, "won by ?")
	body := one(t, h.send("bob@example.org", "tanbo history", ""), "bob@example.org").Body
	hasNot(t, body, "won by  (")
}

// A finished board that never got its second player is listed by its end,
// not as an open seat, and join says it is over.
func TestFinishedOpenSeatBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("carol", "bob")
	h.send("carol@example.org", "tanbo challenge carol ?", "")
	h.send("carol@example.org", "tanbo resign 101 carol pw-carol", "")
	body := one(t, h.send("bob@example.org", "tanbo games all", ""), "bob@example.org").Body
	has(t, body, "  101  carol - ?                       0  withdrawn\n")
	errorReply(t, h.send("bob@example.org", "tanbo join 101 bob pw-bob", ""), "bob@example.org",
		"Tanbo board 101 is over, so its seat cannot be taken; send 'tanbo games open' for the boards waiting for a player.")
}
