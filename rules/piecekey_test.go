package rules

import (
	"strings"
	"testing"
)

// A key longer than a line wraps between entries, never inside one, every
// line within 72 columns, every entry kept in order.
func TestPieceKeyWraps(t *testing.T) {
	names := []string{"Sphinx", "Elk", "Bird", "Angel", "Fish", "Man", "Duck", "Captain", "Turtle", "Hero", "a name long enough to need a line of its own, or nearly"}
	key := PieceKey("SEBAFMDCTHZ", names, CaseNote)
	lines := strings.Split(strings.TrimSuffix(key, "\n"), "\n")
	if len(lines) < 3 || !strings.HasSuffix(key, "\n") {
		t.Fatalf("the key is %q; want three lines or more, ending in a newline", key)
	}
	var entries []string
	for _, l := range lines {
		if len(l) > 72 || l != strings.TrimSpace(l) {
			t.Errorf("line %q: %d columns, or space at an end; want at most 72 and none", l, len(l))
		}
		entries = append(entries, strings.Split(l, "  ")...)
	}
	want := []string{}
	for i, n := range names {
		want = append(want, "SEBAFMDCTHZ"[i:i+1]+" "+n)
	}
	want = append(want, CaseNote)
	if strings.Join(entries, "|") != strings.Join(want, "|") {
		t.Errorf("the key holds %q; want %q", entries, want)
	}
	if got := PieceKey("wW", []string{"White hul", "White tobit"}, ""); got != "w White hul  W White tobit\n" {
		t.Errorf("a key without a note is %q", got)
	}
}
