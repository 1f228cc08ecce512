package pbem

import (
	"strings"
	"testing"
)

func TestReflow(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// A shortened message ends at a word's end with " ...", never in a word.
func TestShortenAtWords(t *testing.T) {
	t.Parallel()
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

// Long lines of plain replies are wrapped; commands and tables set apart
// by two spaces, and blank lines, are kept.
func TestWrapText(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("word ", 30) + "\n\n  tanbo limit bob PASSWORD n " + strings.Repeat("x", 80) + "\nshort"
	out := wrapText(in)
	for _, l := range strings.Split(out, "\n") {
		if len(l) > lineWidth && !strings.HasPrefix(l, "  ") {
			t.Errorf("a line of %d columns: %q", len(l), l)
		}
	}
	if !strings.Contains(out, "\n\n  tanbo limit bob PASSWORD n ") || !strings.HasSuffix(out, "\nshort") {
		t.Errorf("wrapText lost a blank or set-apart line:\n%s", out)
	}
}
