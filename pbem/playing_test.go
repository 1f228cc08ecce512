package pbem

import (
	"strings"
	"testing"
)

// "#n" with no move before it is refused as such, by move and by queue;
// the move read "  is not a legal move", and queue stored an empty move.
func TestMoveNumberWithoutMove(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	errorReply(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice #1", ""), "alice@example.org",
		`"#1" has no move before its number; write the move, then #N, e.g. e2-e5#3.`)
	errorReply(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob #2", ""), "bob@example.org",
		`"#2" has no move before its number; write the move, then #N, e.g. e2-e5#3.`)
	errorReply(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice #", ""), "alice@example.org",
		`"#" does not end in a move number; write the move number as #N after the move, e.g. e2-e5#3.`)
	if g := h.game("tanbo", 101); len(g.Moves) != 0 || len(g.Queue) != 0 {
		t.Errorf("refused mails stored moves %+v, queue %+v", g.Moves, g.Queue)
	}
}

// A preview of a finished board cannot play anything; the refusal says so
// and what to do instead (it read "over after , so h7 cannot be played").
func TestPreviewOfFinishedBoard(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo resign 101 alice pw-alice", "")
	errorReply(t, h.send("carol@example.org", "tanbo preview 101 h7", ""), "carol@example.org",
		"Tanbo board 101 is over, so no moves can be tried on it; preview a new game instead: tanbo preview new MOVE ....")
}

// An accepted undo drops the queued moves of the board; their owners are
// told, as for a queued move that could not be played.
func TestUndoTellsOfDroppedQueue(t *testing.T) {
	t.Parallel()
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
