package pbem

import (
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
