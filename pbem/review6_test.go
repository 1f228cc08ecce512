package pbem

import (
	"strings"
	"testing"
)

// Review of issue 6: behaviour a player would find wrong, each with the
// scenario that showed it.

// A preview of a finished board cannot play anything; the refusal says so
// and what to do instead (it read "over after , so h7 cannot be played").
func TestReviewPreviewOfFinishedBoard(t *testing.T) {
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo resign 101 alice pw-alice", "")
	errorReply(t, h.send("carol@example.org", "tanbo preview 101 h7", ""), "carol@example.org",
		"Tanbo board 101 is over, so no moves can be tried on it; preview a new game instead: tanbo preview new MOVE ....")
}

// "next" means the boards where it is the player's turn; a board waiting
// for an opponent is nobody's turn, as its mail says.
func TestReviewNextLeavesOutOpenSeats(t *testing.T) {
	h := twoPlayers(t)
	h.signup("carol")
	h.send("carol@example.org", "tanbo challenge carol ?", "")
	errorReply(t, h.send("bob@example.org", "all show carol next", ""), "bob@example.org",
		"carol has no next boards in any game; try 'all show carol all'.")
	body := one(t, h.send("bob@example.org", "tanbo games carol next", ""), "bob@example.org").Body
	hasNot(t, body, "  102  carol - ?")
	has(t, one(t, h.send("bob@example.org", "tanbo games alice next", ""), "bob@example.org").Body, "  101  alice - bob")
}

// A player who signs off withdraws his open seat boards, as resign does:
// nobody won them (the mail said "Game won by ?").
func TestReviewSignoffWithdrawsOpenSeat(t *testing.T) {
	h := newHarness(t)
	h.signup("carol")
	h.signup("bob")
	h.send("carol@example.org", "tanbo challenge carol ?", "")
	out := h.send("carol@example.org", "signoff carol pw-carol", "")
	if len(out) != 2 {
		t.Fatalf("signoff: %v", subjects(out))
	}
	if out[0].Subject != "Tanbo Board 101 tie" {
		t.Errorf("subject %q, want Tanbo Board 101 tie", out[0].Subject)
	}
	hasNot(t, out[0].Body, "won by ?")
	body := one(t, h.send("bob@example.org", "tanbo history", ""), "bob@example.org").Body
	hasNot(t, body, "won by  (")
}

// A finished board that never got its second player is listed by its end,
// not as an open seat, and join says it is over.
func TestReviewFinishedOpenSeatBoard(t *testing.T) {
	h := newHarness(t)
	h.signup("carol")
	h.signup("bob")
	h.send("carol@example.org", "tanbo challenge carol ?", "")
	h.send("carol@example.org", "tanbo resign 101 carol pw-carol", "")
	body := one(t, h.send("bob@example.org", "tanbo games all", ""), "bob@example.org").Body
	has(t, body, "  101  carol - ?                       0  tie\n")
	errorReply(t, h.send("bob@example.org", "tanbo join 101 bob pw-bob", ""), "bob@example.org",
		"Tanbo board 101 is over, so its seat cannot be taken; send 'tanbo games open' for the boards waiting for a player.")
}

// A challenger over his own limit is told to raise it, not to challenge
// another player.
func TestReviewOwnLimit(t *testing.T) {
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo limit alice pw-alice 1", "")
	errorReply(t, h.send("alice@example.org", "tanbo challenge alice bob", ""), "alice@example.org",
		"alice already plays 1 active Tanbo games, the limit alice set; wait until one ends, or raise the limit with: tanbo limit alice PASSWORD NUMBER.")
}

// Every error is one sentence.
func TestReviewShowWithoutWhat(t *testing.T) {
	h := newHarness(t)
	errorReply(t, h.send("x@example.org", "tanbo show", ""), "x@example.org",
		"Show needs a board number or a user id; write: tanbo show board[#n] ..., or tanbo show userid ... [all|active|inactive|next].")
}

// An accepted undo drops the queued moves of the board; their owners are
// told, as for a queued move that could not be played.
func TestReviewUndoTellsOfDroppedQueue(t *testing.T) {
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob h3", ""), "bob@example.org")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob undo", "")
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice accept", "")
	var told bool
	for _, r := range out {
		if r.To == "bob@example.org" && strings.Contains(strings.Join(strings.Fields(r.Body), " "), "The undo on Tanbo board 101 dropped your queued moves (h3)") {
			told = true
		}
		if r.To == "alice@example.org" && strings.Contains(r.Body, "h3") {
			t.Errorf("alice learns of bob's queued move:\n%s", r.Body)
		}
	}
	if !told {
		t.Errorf("bob is not told that his queued h3 was dropped: %v", subjects(out))
	}
}

// help shows every command with an example, multiple and GAME help too.
func TestReviewHelpExamples(t *testing.T) {
	h := newHarness(t)
	body := one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body
	has(t, body, "Example: multiple", "GAME help", "Example: tanbo help")
}
