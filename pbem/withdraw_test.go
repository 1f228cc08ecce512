package pbem

import (
	"testing"
	"time"
)

// rating is a user's Tanbo rating and games, or 1600 and 0 for none.
func (h *harness) rating(id string) (float64, int) {
	h.t.Helper()
	if r := h.user(id).Ratings["tanbo"]; r != nil {
		return r.Rating, r.Games
	}
	return startRating, 0
}

// unrated checks that nobody's rating changed.
func unrated(t *testing.T, h *harness, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if r, n := h.rating(id); r != startRating || n != 0 {
			t.Errorf("%s: rating %.0f after %d games, want 1600 and no rated game", id, r, n)
		}
	}
}

// TestResignBeforeFirstMoveWithdraws: bob, challenged, resigns before his
// first move (out of turn, too): the board ends withdrawn, unrated, and
// everyone on it is told.
func TestResignBeforeFirstMoveWithdraws(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol")
	h.send("carol@example.org", "tanbo subscribe 101 carol pw-carol", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	out := h.send("bob@example.org", "tanbo resign 101 bob pw-bob", "I did not ask for this game.")
	golden(t, "withdraw-resign", out[:1])
	r := boardMails(t, out, "Tanbo Board 101 withdrawn **", "alice@example.org", "bob@example.org", "carol@example.org")
	says(t, r.Body, "bob resigned before making a move.", "Game withdrawn, not rated.\nReason: bob has decided not to play.",
		"bob writes:\nI did not ask for this game.")
	hasNot(t, r.Body, "Rating changes")
	unrated(t, h, "alice", "bob")
	if g := h.game("tanbo", 101); !g.Over || g.Withdrawn != "bob" {
		t.Errorf("board: over %v, withdrawn %q", g.Over, g.Withdrawn)
	}
	// Unplayed, it is no game of the history (pbmserv's leaves it out).
	hasNot(t, one(t, h.send("x@example.org", "tanbo history", ""), "x@example.org").Body, "  101  alice - bob")
	has(t, one(t, h.send("x@example.org", "tanbo games all", ""), "x@example.org").Body, "withdrawn")

	// alice, who moves first, may resign before her first move too, out of
	// nobody's turn but her own.
	h.send("bob@example.org", "tanbo challenge alice bob -size=9", "")
	r = boardMails(t, h.send("alice@example.org", "tanbo move 102 alice pw-alice resign", ""), "Tanbo Board 102 withdrawn",
		"alice@example.org", "bob@example.org")
	says(t, r.Body, "alice resigned before making a move.")
	unrated(t, h, "alice", "bob")
}

// TestDecline: "decline" before one's first move withdraws, unrated;
// after it, it is refused and names resign.
func TestDecline(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	errorReply(t, h.send("alice@example.org", "tanbo decline 101 alice", ""), "alice@example.org",
		"The command has the wrong number of words; write it as: tanbo decline board userid password")
	h.signup("carol")
	errorReply(t, h.send("carol@example.org", "tanbo decline 101 carol pw-carol", ""), "carol@example.org",
		"carol is not a player of Tanbo board 101; its players are alice and bob.")
	out := h.send("bob@example.org", "tanbo decline 101 bob pw-bob", "")
	golden(t, "decline", out[:1])
	r := boardMails(t, out, "Tanbo Board 101 withdrawn", "alice@example.org", "bob@example.org")
	says(t, r.Body, "bob declined the game.", "Game withdrawn, not rated.\nReason: bob has decided not to play.")
	unrated(t, h, "alice", "bob")
	errorReply(t, h.send("bob@example.org", "tanbo decline 101 bob pw-bob", ""), "bob@example.org",
		"Tanbo board 101 is over already; there is nothing to decline.")

	// Once he has moved, a player can no longer decline.
	h.send("alice@example.org", "tanbo challenge alice bob -size=9", "")
	h.send("alice@example.org", "tanbo move 102 alice pw-alice h7", "")
	errorReply(t, h.send("alice@example.org", "tanbo decline 102 alice pw-alice", ""), "alice@example.org",
		"alice has played on Tanbo board 102 already, so it can no longer be declined; to give up, send: tanbo resign 102 alice PASSWORD.")
	// A rated loss after both have moved: 1600 -> 1400 and 1600 -> 1800.
	h.send("bob@example.org", "tanbo move 102 bob pw-bob b7", "")
	h.send("alice@example.org", "tanbo move 102 alice pw-alice b3", "")
	r = boardMails(t, h.send("bob@example.org", "tanbo resign 102 bob pw-bob", ""), "Tanbo Board 102 won by alice", "alice@example.org", "bob@example.org")
	has(t, r.Body, "  alice            1600 -> 1800 (+200) provisional\n  bob              1600 -> 1400 (-200) provisional\n")
	// The help names decline.
	has(t, one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body, "GAME decline board userid password")
}

// TestDeclineReopensOpenSeat: who took an open seat and withdraws gives the
// seat back; the board waits for another player and goes on from there.
func TestDeclineReopensOpenSeat(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	h.send("alice@example.org", "tanbo challenge alice ? -size=9", "")
	h.send("bob@example.org", "tanbo join 101 bob pw-bob", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	out := h.send("bob@example.org", "tanbo decline 101 bob pw-bob", "")
	// alice hears it with the board; bob, no player any more, too.
	if len(out) != 2 || out[0].To != "alice@example.org" || out[1].To != "bob@example.org" {
		t.Fatalf("decline of a joined seat: %v", subjects(out))
	}
	if out[0].Subject != "Tanbo Board 101 ?" {
		t.Errorf("subject %q", out[0].Subject)
	}
	says(t, out[0].Body, "bob declined the game. bob has decided not to play: the seat is open again", "Waiting for an opponent; anyone may take the open seat with:", "   1. h7")
	says(t, out[1].Body, "bob has decided not to play")
	if g := h.game("tanbo", 101); g.Over || g.Seats[1] != "" || len(g.Moves) != 1 {
		t.Errorf("board after the decline: over %v, seats %q, %d moves", g.Over, g.Seats, len(g.Moves))
	}
	unrated(t, h, "alice", "bob")
	// carol takes the seat and plays on.
	boardMails(t, h.send("carol@example.org", "tanbo join 101 carol pw-carol", ""), "New Tanbo Board 101 carol", "alice@example.org", "carol@example.org")
	boardMails(t, h.send("carol@example.org", "tanbo move 101 carol pw-carol b7", ""), "Tanbo Board 101 alice", "alice@example.org", "carol@example.org")
}

// TestForfeitBeforeFirstMoveWithdraws: silent before his first move, a
// player is withdrawn at the forfeit time, unrated; silent after it, he
// loses, rated.
func TestForfeitBeforeFirstMoveWithdraws(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	start := h.now
	h.now = start.Add(21 * day)
	out := h.sweep()
	golden(t, "withdraw-forfeit", out[:1])
	r := boardMails(t, out, "Tanbo Board 101 withdrawn", "alice@example.org", "bob@example.org")
	says(t, r.Body, "alice did not move for 21 days.", "Game withdrawn, not rated.\nReason: alice has decided not to play.")
	unrated(t, h, "alice", "bob")

	// On an open seat board, the silent joiner's seat opens again.
	h.signup("carol")
	h.send("carol@example.org", "tanbo challenge ? carol -size=9", "")
	h.send("bob@example.org", "tanbo join 102 bob pw-bob", "")
	h.now = h.now.Add(21*day + time.Minute)
	out = h.sweep()
	if len(out) != 2 || out[0].Subject != "Tanbo Board 102 ?" {
		t.Fatalf("silent joiner: %v", subjects(out))
	}
	says(t, out[0].Body, "bob did not move for 21 days. bob has decided not to play: the seat is open again")
	if g := h.game("tanbo", 102); g.Over || g.Seats[0] != "" {
		t.Errorf("board 102: over %v, seats %q", g.Over, g.Seats)
	}
	// Nobody is reminded of a board waiting for a player; it lapses
	// unplayed (TestSeekLapses).
	h.now = h.now.Add(seekLife - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Errorf("an open board was swept: %v", subjects(out))
	}
}
