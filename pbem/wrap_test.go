package pbem

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
		if got := reflow(c.in); got != c.want {
			t.Errorf("%s: reflow(%q) =\n%s\nwant\n%s", c.name, c.in, got, c.want)
		}
	}
}

// A command in parentheses or quotes stays on one line.
func TestWrapKeepsCommands(t *testing.T) {
	text := "bob neither plays on nor subscribes to Tanbo board 101; subscribe first (tanbo subscribe 101 userid password) to chat there, or send \"tanbo show 101\" to see it."
	got := wrapAll([]string{text}, lineWidth)[0]
	for _, cmd := range []string{"(tanbo subscribe 101 userid password)", `"tanbo show 101"`} {
		if !strings.Contains(got, cmd) {
			t.Errorf("%s broken:\n%s", cmd, got)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > lineWidth {
			t.Errorf("line too long: %q", l)
		}
	}
}
