package admin

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A text from a mail or an error (a quarantined mail's reason, a send's
// last error, the daemon's answer to "pbemd admin") never starts a line of
// its own: a newline in it cannot forge an "OK" of the control protocol or
// a row of a table.
func TestOneLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		most int
		want string
	}{
		{"550 no such\r\nOK\n\tuser", 0, "550 no such OK user"},
		{"  short  ", 80, "short"},
		{strings.Repeat("x", 80), 80, strings.Repeat("x", 80)},
		{strings.Repeat("x", 81), 80, strings.Repeat("x", 77) + "..."},
		// Cut within a character: the whole character goes.
		{strings.Repeat("x", 76) + "éééé", 80, strings.Repeat("x", 76) + "..."},
		{strings.Repeat("long line ", 1000), 0, strings.TrimSpace(strings.Repeat("long line ", 1000))},
	} {
		got := OneLine(c.in, c.most)
		if got != c.want {
			t.Errorf("OneLine(%q, %d) = %q; want %q", c.in, c.most, got, c.want)
		}
		if !utf8.ValidString(got) || strings.ContainsAny(got, "\r\n") {
			t.Errorf("OneLine(%q, %d) = %q: not one line of UTF-8", c.in, c.most, got)
		}
	}
}
