package rules

import "strings"

// Fill sets words on lines of at most LineWidth columns, two spaces
// apart, as a piece key and a row of moves print them. A word that would
// pass the width starts a new line, which begins with indent. headGap
// stands between the first word and the second instead of two spaces,
// for a heading such as "Turn 3, White:". A word longer than a line has
// a line of its own.
func Fill(words []string, headGap, indent string) string {
	var b strings.Builder
	line := ""
	wrapped := false
	for i, w := range words {
		if line != "" && len(line)+2+len(w) > LineWidth {
			b.WriteString(line + "\n")
			line, wrapped = indent, true
		}
		switch {
		case i == 0 || wrapped && line == indent:
		case i == 1 && !wrapped:
			line += headGap
		default:
			line += "  "
		}
		line += w
	}
	return b.String() + line + "\n"
}
