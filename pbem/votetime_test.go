package pbem

import (
	"testing"
	"time"
)

// playersWhoMoved is carol and dave on Tanbo board 101, each with a move
// played (so that a forfeit would be a rated loss), carol to move.
func playersWhoMoved(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t)
	h.signup("carol")
	h.signup("dave")
	h.send("carol@example.org", "tanbo challenge carol dave -size=9", "")
	h.send("carol@example.org", "tanbo move 101 carol pw-carol h7", "")
	h.send("dave@example.org", "tanbo move 101 dave pw-dave b7", "")
	h.outbox()
	return h
}

// TestDrawOfferNobodyAnswers is issue 29's mail session: carol offers a
// draw on her turn and dave never answers. The sweep used to lapse the
// offer and forfeit carol in the same run (1600 to 1400); as on pbmserv,
// her clock stands while her offer is open, and at the forfeit age dave's
// silence accepts it.
func TestDrawOfferNobodyAnswers(t *testing.T) {
	h := playersWhoMoved(t)
	start := h.now
	boardMails(t, h.send("carol@example.org", "tanbo move 101 carol pw-carol propose", ""), "Tanbo Board 101 carol",
		"carol@example.org", "dave@example.org")
	// Day 7: dave is reminded of the offer; carol, whose clock stands, is not.
	h.now = start.Add(7 * day)
	r := one(t, h.sweep(), "dave@example.org")
	says(t, r.Body, "Reminder: carol proposed a draw on Tanbo board 101 7 days ago, and dave has not answered. Without an answer by 2026-12-13 12:00 UTC it counts as accepted.")
	h.now = start.Add(14 * day)
	one(t, h.sweep(), "dave@example.org")
	h.now = start.Add(21*day - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("before the forfeit age: %v", subjects(out))
	}
	h.now = start.Add(21 * day)
	out := h.sweep()
	r = boardMails(t, out, "Tanbo Board 101 tie", "carol@example.org", "dave@example.org")
	says(t, r.Body, "dave did not answer carol's proposal of a draw in 21 days, and silence accepts it: the game is drawn.", "Game was a tie.")
	hasNot(t, r.Body, "forfeit")
	if g := h.game("tanbo", 101); !g.Over || g.Winner != -1 || g.Vote != nil {
		t.Errorf("board after the sweep: over %v, winner %d, vote %+v", g.Over, g.Winner, g.Vote)
	}
	for _, id := range []string{"carol", "dave"} {
		if got := h.user(id).Ratings["tanbo"].Rating; got != 1600 {
			t.Errorf("%s's rating after a draw between equals: %v, want 1600", id, got)
		}
	}
	if out := h.sweep(); len(out) != 0 {
		t.Errorf("a drawn board was swept again: %v", subjects(out))
	}
}

// TestRejectedOfferGivesBackTheTime: the days carol's offer waited do not
// count against her own turn; dave's rejection starts her clock again
// where it stood.
func TestRejectedOfferGivesBackTheTime(t *testing.T) {
	h := playersWhoMoved(t)
	start := h.now
	h.now = start.Add(5 * day)
	h.send("carol@example.org", "tanbo move 101 carol pw-carol propose", "")
	// A forged reject in dave's name changes nothing.
	errorReply(t, h.deliver(h.forged("dave@example.org", "tanbo move 101 dave wrong reject", "")), "dave@example.org",
		"The password for dave is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset dave' and a code comes to the account's addresses.")
	h.now = start.Add(15 * day)
	h.outbox()
	boardMails(t, h.send("dave@example.org", "tanbo move 101 dave pw-dave reject", ""), "Tanbo Board 101 carol",
		"carol@example.org", "dave@example.org")
	// carol used 5 days before her offer: her reminder comes 2 days after
	// the rejection, her forfeit 16 days after it.
	h.now = start.Add(17*day - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("before carol's 7 days: %v", subjects(out))
	}
	h.now = start.Add(17 * day)
	says(t, one(t, h.sweep(), "carol@example.org").Body, "Reminder: it has been carol's turn on Tanbo board 101 for 7 days.")
	h.now = start.Add(31*day - time.Minute)
	for _, r := range h.sweep() {
		hasNot(t, r.Body, "forfeits:")
	}
	h.now = start.Add(31 * day)
	r := boardMails(t, h.sweep(), "Tanbo Board 101 won by dave", "carol@example.org", "dave@example.org")
	says(t, r.Body, "carol forfeits: no move for 21 days.")
}

// TestUndoSilenceAccepts: an undo nobody answers is taken at the forfeit
// age, and the proposer has his turn back with a fresh clock.
func TestUndoSilenceAccepts(t *testing.T) {
	h := playersWhoMoved(t)
	h.send("carol@example.org", "tanbo move 101 carol pw-carol b3", "")
	start := h.now
	h.send("carol@example.org", "tanbo move 101 carol pw-carol undo", "")
	h.now = start.Add(21 * day)
	out := h.sweep()
	r := boardMails(t, out[:2], "Tanbo Board 101 carol", "carol@example.org", "dave@example.org")
	says(t, r.Body, "dave did not answer carol's proposal of an undo in 21 days, and silence accepts it: move 3 (b3) taken back.")
	if g := h.game("tanbo", 101); g.Over || len(g.Moves) != 2 || g.Vote != nil || !g.TurnSince.Equal(h.now) {
		t.Errorf("after the undo: over %v, %d moves, vote %+v, turn since %v", g.Over, len(g.Moves), g.Vote, g.TurnSince)
	}
}

// One proposal a turn: a rejected one gives its time back, so proposing
// again and again would stop the proposer's clock for good.
func TestOneProposalATurn(t *testing.T) {
	h := playersWhoMoved(t)
	h.send("carol@example.org", "tanbo move 101 carol pw-carol propose", "")
	h.send("dave@example.org", "tanbo move 101 dave pw-dave reject", "")
	errorReply(t, h.send("carol@example.org", "tanbo move 101 carol pw-carol propose", ""), "carol@example.org",
		"You have proposed once this turn on Tanbo board 101 and dave rejected it; make your move, and propose again next turn.")
}
