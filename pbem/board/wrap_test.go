package board

import (
	"strings"
	"testing"
)

func TestReflow(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for _, c := range []struct{ name, in, want string }{
		{"short lines kept", "Good game.\nThanks!", "Good game.\nThanks!"},
		{"long paragraph wrapped", strings.TrimSpace(long),
			strings.TrimSpace(strings.Repeat("word ", 14)) + "\n" + strings.TrimSpace(strings.Repeat("word ", 14)) + "\nword word"},
		{"paragraphs apart", "a\n\n" + strings.TrimSpace(long), "a\n\n" + strings.TrimSpace(strings.Repeat("word ", 14)) + "\n" + strings.TrimSpace(strings.Repeat("word ", 14)) + "\nword word"},
		{"indented kept", "  " + long, "  " + long},
		{"table kept", "a   b" + long, "a   b" + long},
		{"long word whole", strings.Repeat("x", 80), strings.Repeat("x", 80)},
	} {
		if got := Reflow(c.in); got != c.want {
			t.Errorf("%s: Reflow(%q) =\n%s\nwant\n%s", c.name, c.in, got, c.want)
		}
	}
}

// A command in parentheses or quotes stays on one line.
func TestWrapKeepsCommands(t *testing.T) {
	text := "bob neither plays on nor subscribes to Tanbo board 101; subscribe first (tanbo subscribe 101 userid password) to chat there, or send \"tanbo show 101\" to see it."
	got := Wrap([]string{text}, LineWidth)[0]
	for _, cmd := range []string{"(tanbo subscribe 101 userid password)", `"tanbo show 101"`} {
		if !strings.Contains(got, cmd) {
			t.Errorf("%s broken:\n%s", cmd, got)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > LineWidth {
			t.Errorf("line too long: %q", l)
		}
	}
}

// Long lines of plain replies are wrapped; commands and tables set apart
// by two spaces, and blank lines, are kept.
func TestWrapText(t *testing.T) {
	in := strings.Repeat("word ", 30) + "\n\n  tanbo limit bob PASSWORD n " + strings.Repeat("x", 80) + "\nshort"
	out := WrapText(in)
	for _, l := range strings.Split(out, "\n") {
		if len(l) > LineWidth && !strings.HasPrefix(l, "  ") {
			t.Errorf("a line of %d columns: %q", len(l), l)
		}
	}
	if !strings.Contains(out, "\n\n  tanbo limit bob PASSWORD n ") || !strings.HasSuffix(out, "\nshort") {
		t.Errorf("WrapText lost a blank or set-apart line:\n%s", out)
	}
}
