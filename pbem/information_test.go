package pbem

import (
	"testing"
)

// help shows every command with an example, multiple and GAME help too.
func TestHelpExamples(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	body := one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body
	has(t, body, "Example: multiple", "GAME help", "Example: tanbo help")
}

// The commands of a multiple mail are its body lines up to the signature or
// a quote, each answered on its own, with no comment and no "**".
func TestMultipleBody(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	body := "tanbo move 101 alice pw-alice h7#1\ntanbo move 101 alice pw-alice b3\n\nOn Sun, 22 Nov 2026, bob wrote:\n> tanbo resign 101 alice pw-alice\n"
	out := h.send("alice@example.org", "Re: multiple **", body)
	if len(out) != 3 {
		t.Fatalf("multiple: %v", subjects(out))
	}
	boardMails(t, out[:2], "Tanbo Board 101 bob", "alice@example.org", "bob@example.org")
	hasNot(t, out[0].Body, "writes:", "tanbo move")
	errorReply(t, out[2:], "alice@example.org",
		`It is not your turn on Tanbo board 101: it is bob's turn; send your move when the board mail says it is yours, or queue it now with "tanbo queue 101 alice PASSWORD b3".`)
	if g := h.game("tanbo", 101); len(g.Moves) != 1 || g.Over {
		t.Errorf("after the multiple mail: %d moves, over %v; want 1 move, the quoted resign not run", len(g.Moves), g.Over)
	}
}
