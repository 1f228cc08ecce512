package pbem

import (
	"strings"
	"testing"
)

// A shortened message ends at a word's end with " ...", never in a word.
func TestShortenAtWords(t *testing.T) {
	msg := "its first line is not a command; write your move there, or resign, propose, accept, reject, undo, queue MOVE, or chat and your message, above or below the quoted board"
	for n := 100; n < len(msg); n += 7 {
		got := shorten(msg, n)
		kept, ok := strings.CutSuffix(got, " ...")
		if !ok || len(kept) > n || !strings.HasPrefix(msg, kept) || msg[len(kept)] != ' ' && msg[len(kept)] != ',' {
			t.Errorf("shorten(%d): %q", n, got)
		}
	}
	if got := shorten(strings.Repeat("x", 300), 200); got != strings.Repeat("x", 200)+" ..." {
		t.Errorf("a long word: %q", got)
	}
	if got := shorten("short", 200); got != "short" {
		t.Errorf("a short text: %q", got)
	}
}
