package pbem

import (
	"strings"
	"testing"
)

// TestSwap: on a -swap Tanbo board, bob answers alice's first stone with
// swap: he plays Black from then on, alice White; the result and the
// ratings follow the sides.
func TestSwap(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	h.send("alice@example.org", "tanbo challenge alice bob -size=9 -sw", "")
	errorReply(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob swap", ""), "bob@example.org",
		"A swap answers the first player's first turn; on Tanbo board 101 it can be played only as the second player's first move.")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	errorReply(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice swap", ""), "alice@example.org",
		"Only the second player, bob, may swap on Tanbo board 101, in answer to the first move.")
	errorReply(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob swap", ""), "bob@example.org",
		`"swap" cannot be queued, only moves and resign can; send it now with "tanbo move 101 bob PASSWORD swap".`)
	out := h.send("bob@example.org", "tanbo move 101 bob pw-bob swap", "")
	golden(t, "swap", out[:1])
	r := boardMails(t, out, "Tanbo Board 101 alice", "bob@example.org", "alice@example.org")
	says(t, r.Body, "bob swapped: bob now plays Black, with the first move, and alice plays White.",
		"Pie rule: bob swapped after the first move and plays Black; the first move was alice's.",
		"It is alice's turn.", "White (alice) plays move #2.", "Black: bob  White: alice")
	if g := h.game("tanbo", 101); g.Seats[0] != "bob" || g.Seats[1] != "alice" || g.Swapped != "bob" || len(g.Moves) != 1 {
		t.Errorf("after the swap: seats %q, swapped %q, %d moves", g.Seats, g.Swapped, len(g.Moves))
	}
	errorReply(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob swap", ""), "bob@example.org",
		"The sides of Tanbo board 101 have been swapped already, by bob; a board swaps once.")
	// The first move cannot be taken back past the swap.
	errorReply(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob undo", ""), "bob@example.org",
		"The first move of Tanbo board 101 was answered by a swap, so it cannot be taken back.")
	// Both have played: a resignation is a rated loss. alice (White now)
	// resigns: bob, who played Black, wins, 1600 -> 1800.
	r = boardMails(t, h.send("alice@example.org", "tanbo resign 101 alice pw-alice", ""), "Tanbo Board 101 won by bob", "bob@example.org", "alice@example.org")
	has(t, r.Body, "Game won by bob.", "  bob              1600 -> 1800 (+200) provisional\n  alice            1600 -> 1400 (-200) provisional\n")

	// A board without -swap refuses it.
	h.send("alice@example.org", "tanbo challenge alice bob -size=9", "")
	h.send("alice@example.org", "tanbo move 102 alice pw-alice h7", "")
	errorReply(t, h.send("bob@example.org", "tanbo move 102 bob pw-bob swap", ""), "bob@example.org",
		"Tanbo board 102 was not made with -swap, so the sides cannot be swapped; challenge with -swap for the pie rule.")
	// Games whose rules have no swap refuse the option.
	r = one(t, h.send("alice@example.org", "tobit challenge alice bob -swap", ""), "alice@example.org")
	if !strings.Contains(r.Body, `"-swap" is not an option; Tobit has no options`) {
		t.Errorf("tobit -swap:\n%s", r.Body)
	}
	has(t, one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body, "GAME move board userid password swap")
	has(t, one(t, h.send("x@example.org", "tanbo help", ""), "x@example.org").Body, "-swap")
}

// A proposal open when the sides are swapped was made for the sides as
// they were: the swap mail tells both players it lapses, and no mail
// shows it open after.
func TestSwapLapsesProposal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	h.send("alice@example.org", "tanbo challenge alice bob -size=9 -swap", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	r := boardMails(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice draw", ""), "Tanbo Board 101 bob", "alice@example.org", "bob@example.org")
	says(t, r.Body, "Open proposal: alice proposes a draw")
	out := h.send("bob@example.org", "tanbo move 101 bob pw-bob swap", "")
	boardMails(t, out, "Tanbo Board 101 alice", "bob@example.org", "alice@example.org")
	for _, r := range out {
		says(t, r.Body, "bob swapped: bob now plays Black", "alice's proposal of a draw lapses with the swap.")
		hasNot(t, r.Body, "Open proposal")
	}
	errorReply(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob accept", ""), "bob@example.org",
		"There is no open proposal on Tanbo board 101 to accept: no draw or undo has been proposed there.")
}

// pbmserv's forms of the swap: "swap#2" as a move, its number checked,
// and "GAME swap board userid password".
func TestSwapForms(t *testing.T) {
	t.Parallel()
	for _, subject := range []string{"tanbo move 101 bob pw-bob swap#2", "tanbo swap 101 bob pw-bob"} {
		h := newHarness(t)
		h.signup("alice", "bob")
		h.send("alice@example.org", "tanbo challenge alice bob -size=9 -swap", "")
		h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
		if strings.Contains(subject, "#") {
			errorReply(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob swap#3", ""), "bob@example.org",
				"swap#3 was not played: the next move on Tanbo board 101 is #2; if you still mean to swap, send it again with #2.")
		}
		out := h.send("bob@example.org", subject, "")
		if g := h.game("tanbo", 101); g.Swapped != "bob" {
			t.Errorf("%q: not swapped: %v", subject, subjects(out))
		}
	}
}
