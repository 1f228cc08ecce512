package mailmsg

import (
	"fmt"
	"strings"
)

// Excerpt returns the start of text, for quoting a mail in a reply: at most
// maxLines lines and maxBytes bytes of it, with "\n" line ends. When text
// is longer, the excerpt ends with a line that says how much was left out,
// such as "[... 2 more lines, 10485731 bytes, not quoted]", so that a reply
// quoting a stranger's mail is small whatever he sent. Lines are cut at
// maxBytes, never inside a UTF-8 character.
func Excerpt(text string, maxLines, maxBytes int) string {
	text = strings.TrimRight(normalizeNewlines(text), "\n")
	var b strings.Builder
	rest := text
	for n := 0; rest != "" && n < maxLines; n++ {
		line, after, found := strings.Cut(rest, "\n")
		room := maxBytes - b.Len()
		if n > 0 {
			room-- // the line break before it
		}
		cut := len(line) > room
		if cut {
			if room <= 0 {
				break
			}
			line = cutText(line, room)
			after, found = rest[len(line):], true // the rest of the line is left out
		}
		if n > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
		if !found {
			after = ""
		}
		rest = after
		if cut {
			break
		}
	}
	if rest == "" {
		return b.String()
	}
	lines := strings.Count(rest, "\n") + 1
	what := "1 more line"
	if lines > 1 {
		what = fmt.Sprintf("%d more lines", lines)
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[... %s, %d bytes, not quoted]", what, len(rest))
	return b.String()
}
