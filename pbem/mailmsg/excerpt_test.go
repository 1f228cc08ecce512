package mailmsg

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExcerpt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		lines, max int
		want       string
	}{
		{"short", "From: a\nSubject: b\n\nbody\n", 10, 100, "From: a\nSubject: b\n\nbody"},
		{"too many lines", "1\n2\n3\n4\n5\n", 3, 100, "1\n2\n3\n[... 2 more lines, 3 bytes, not quoted]"},
		{"one more line", "1\n2\n3\n4", 3, 100, "1\n2\n3\n[... 1 more line, 1 bytes, not quoted]"},
		{"long line", "Subject: " + strings.Repeat("x", 100) + "\nbody\n", 10, 20, "Subject: xxxxxxxxxxx\n[... 2 more lines, 94 bytes, not quoted]"},
		{"bytes end at a line break", "abc\ndefgh\n", 10, 4, "abc\n[... 1 more line, 5 bytes, not quoted]"},
		{"UTF-8 kept whole", "\u00e9\u00e9\u00e9", 10, 5, "\u00e9\u00e9\n[... 1 more line, 2 bytes, not quoted]"},
		{"CRLF", "a\r\nb\r\n", 10, 100, "a\nb"},
		{"empty", "", 10, 100, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Excerpt(tt.text, tt.lines, tt.max); got != tt.want {
				t.Errorf("Excerpt = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestExcerptBound checks that a huge input gives an excerpt of at most the
// bytes asked for plus the note, valid UTF-8.
func TestExcerptBound(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		strings.Repeat("\u00e9", 5<<20),                    // one 10 MB line
		strings.Repeat("x\n", 5<<20),                       // millions of lines
		strings.Repeat(strings.Repeat("y", 99)+"\n", 1000), // long lines
	} {
		got := Excerpt(text, 20, 2000)
		if len(got) > 2000+60 || !utf8.ValidString(got) || !strings.HasSuffix(got, "not quoted]") {
			t.Errorf("Excerpt of %d bytes gave %d bytes ending %q", len(text), len(got), got[max(0, len(got)-60):])
		}
	}
}
