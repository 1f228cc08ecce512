package rules

import (
	"strings"
	"testing"
)

func TestFill(t *testing.T) {
	// A heading, its one-space gap, then moves two spaces apart, the
	// continuation indented: each line within LineWidth.
	words := []string{"Turn 12, White:"}
	for i := range 12 {
		words = append(words, strings.Repeat("x", 3+i%3)+"-"+strings.Repeat("y", 4))
	}
	got := Fill(words, " ", "     ")
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) < 2 {
		t.Fatalf("Fill gave one line of %d columns; want it wrapped:\n%s", len(lines[0]), got)
	}
	if !strings.HasPrefix(lines[0], "Turn 12, White: xxx-yyyy  ") {
		t.Errorf("first line %q: want the heading, one space, then words two spaces apart", lines[0])
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "     x") {
			t.Errorf("continuation %q: want five spaces, then a word", l)
		}
	}
	for _, l := range lines {
		if len(l) > LineWidth {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
	if rejoined := strings.Join(strings.Fields(got), " "); rejoined != strings.Join(strings.Fields(strings.Join(words, " ")), " ") {
		t.Errorf("words lost or reordered:\n%s", got)
	}
	// A word longer than a line stands alone and is not cut.
	long := strings.Repeat("z", LineWidth+5)
	if got := Fill([]string{"a", long, "b"}, "  ", ""); got != "a\n"+long+"\nb\n" {
		t.Errorf("Fill with a long word = %q", got)
	}
}
