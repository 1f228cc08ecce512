package templates

import "testing"

// squeeze folds the blank lines optional sections leave, and keeps every
// other line byte for byte: a board's trailing spaces must arrive as drawn.
func TestSqueeze(t *testing.T) {
	cases := []struct{ in, want string }{
		{"\n\nTitle\n\n\n\nBody\n", "Title\n\nBody\n"},
		{"a\n  \t\nb", "a\n\nb\n"},
		{" 8 | . . |  \n 7 | . . |\n\n\n", " 8 | . . |  \n 7 | . . |\n"},
		{"", "\n"},
	}
	for _, c := range cases {
		if got := squeeze(c.in); got != c.want {
			t.Errorf("squeeze(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEveryTemplateParses(t *testing.T) {
	names := map[string]bool{}
	for _, n := range Names() {
		names[n] = true
	}
	for _, n := range []string{"board", "error", "help", "help-commands", "help-game", "howto", "signup"} {
		if !names[n] {
			t.Errorf("template %s is missing; have %v", n, Names())
		}
	}
	if _, err := Render("nonesuch", nil); err == nil {
		t.Errorf("rendering a missing template gave no error")
	}
}
