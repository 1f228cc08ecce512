package pbem

import (
	"strings"
	"testing"
)

// "show board#n" with the board or the number missing says which is
// missing (it read: after move , but board 101 has ...; "" is not a board
// number).
func TestShowAtMoveWords(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	for _, c := range []struct{ subject, want string }{
		{"tanbo show 101#", `"101#" does not end in a move number; write the board number, then #N for the board after move N, e.g. tanbo show 101#3.`},
		{"tanbo show 101#1#2", `"101#1#2" does not end in a move number; write the board number, then #N for the board after move N, e.g. tanbo show 101#3.`},
		{"tanbo show #", `"#" has no board number; write the board number, then #N for the board after move N, e.g. tanbo show 101#3.`},
		{"tanbo show ##3", `"##3" has no board number; write the board number, then #N for the board after move N, e.g. tanbo show 101#3.`},
		{"tanbo show #1", "There is no Tanbo board 1; send 'tanbo games all' for the boards there are."}, // "#1" is board 1, as in move
		{"tanbo show 101#2", `"101#2" asks for the board after move 2, but board 101 has moves 0 to 1.`},
	} {
		errorReply(t, h.send("carol@example.org", c.subject, ""), "carol@example.org", c.want)
	}
	// "#101" is board 101, as in move.
	if r := one(t, h.send("carol@example.org", "tanbo show #101", ""), "carol@example.org"); r.Subject != "Tanbo Board 101 bob" {
		t.Errorf("show #101: %q", r.Subject)
	}
	if r := one(t, h.send("carol@example.org", "tanbo show #101#1", ""), "carol@example.org"); r.Subject != "Tanbo Board 101 at move 1" {
		t.Errorf("show #101#1: %q", r.Subject)
	}
}

// "next" means the boards where it is the player's turn; a board waiting
// for an opponent is nobody's turn, as its mail says.
func TestNextLeavesOutOpenSeats(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol")
	h.send("carol@example.org", "tanbo challenge carol ?", "")
	errorReply(t, h.send("bob@example.org", "all show carol next", ""), "bob@example.org",
		"carol has no board where carol is to move in any game; try \"all show carol all\".")
	body := one(t, h.send("bob@example.org", "tanbo games carol next", ""), "bob@example.org").Body
	hasNot(t, body, "  102  carol - ?")
	has(t, one(t, h.send("bob@example.org", "tanbo games alice next", ""), "bob@example.org").Body, "  101  alice - bob")
}

// Every error is one sentence.
func TestShowWithoutWhat(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	errorReply(t, h.send("x@example.org", "tanbo show", ""), "x@example.org",
		"Show needs a board number or a user id; write: tanbo show board[#n] ..., or tanbo show userid ... [all|active|inactive|next].")
}

// pbmserv's players write the filter before the user too, in any case.
func TestGamesFilterFirst(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	for _, subject := range []string{"tanbo games next alice", "tanbo games alice NEXT"} {
		r := one(t, h.send("bob@example.org", subject, ""), "bob@example.org")
		if strings.Contains(r.Subject, "rror") || !strings.Contains(r.Body, "101") {
			t.Errorf("%q: %q\n%s", subject, r.Subject, r.Body)
		}
	}
}
