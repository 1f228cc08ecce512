package admin

import (
	"strings"
	"unicode/utf8"
)

// cellBytes is the most a free text (an error, a reason) takes of a line
// of the tables the actions print.
const cellBytes = 80

// OneLine is s on one line: each run of white space, newlines among them,
// one space; so a text from a mail or an error cannot begin a line of its
// own in a table or a protocol line. Longer than most bytes (0: no bound),
// it is cut at a character's start to end in "..." within them.
func OneLine(s string, most int) string {
	s = strings.Join(strings.Fields(s), " ")
	if most <= 0 || len(s) <= most {
		return s
	}
	cut := max(most-3, 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
