package mailmsg

import "strings"

// ReplyLine is what a reply to a server's mail says on its own: its first
// line the writer wrote, and the lines he wrote after it (a comment), up to
// the signature, above and below quotes as Comment keeps them. Quoted lines ("> "), the attribution above a
// quote and blank lines are skipped to find that first line, so that it is
// the same whether the writer wrote above the quote (top-posting, as Gmail
// and Outlook do) or below it (bottom-posting). A quoted original without
// "> " (Outlook's "From: ... Sent: ..." block, "-----Original
// Message-----"), or a signature, before any line of his own means the
// writer wrote nothing: line is "".
//
// Time is linear in len(text).
func ReplyLine(text string) (line, comment string) {
	lines := strings.Split(normalizeNewlines(text), "\n")
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(strings.TrimPrefix(lines[i], "\ufeff"))
		switch {
		case t == "", strings.HasPrefix(t, ">"):
			continue
		case isSignature(lines[i]), isSeparator(t), isHeaderBlock(lines, i),
			isUnderline(t) && nextIsHeaderBlock(lines, i+1):
			return "", ""
		}
		if n := attributionLen(lines, i); n > 0 {
			i += n - 1
			continue
		}
		rest := lines[i+1:]
		return t, Comment(strings.Join(rest, "\n"))
	}
	return "", ""
}

// attributionLen returns how many lines the attribution of a quote that
// starts at line i has ("On <date>, <name> wrote:" over up to three lines,
// or any line ending in a colon right above a quote), or 0 when there is
// none.
func attributionLen(lines []string, i int) int {
	if attributionAt(lines, i) {
		for k := i; k < len(lines) && k < i+3; k++ {
			if isAttributionEnd(strings.TrimSpace(lines[k])) {
				return k - i + 1
			}
		}
	}
	for k := i; k < len(lines) && k < i+3; k++ {
		t := strings.TrimSpace(lines[k])
		if t == "" {
			return 0
		}
		if strings.HasSuffix(t, ":") {
			j := k + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), ">") && isAttributionBlock(lines[i:k+1]) {
				return k - i + 1
			}
			return 0
		}
	}
	return 0
}

// isAttributionBlock reports whether the lines read like an attribution: the
// last one ends like "wrote:", or the first starts like "On <date>".
func isAttributionBlock(lines []string) bool {
	return isAttributionEnd(strings.TrimSpace(lines[len(lines)-1])) || isAttributionStart(strings.TrimSpace(lines[0]))
}
