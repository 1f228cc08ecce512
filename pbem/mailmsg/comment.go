package mailmsg

import (
	"strings"
)

// Comment is the part of a mail body players wrote for everyone: the text
// above and below quoted blocks ("> " lines), which go with the reply
// attribution that introduces them ("On <date>, <name> wrote:"), up to a
// signature ("-- ", "--" alone, "Sent from my iPhone" and other mobile
// footers) or an earlier mail quoted whole without "> " (Outlook's
// "-----Original Message-----" or "From: ... Sent: ..." block, an
// attribution with no quote after it). So a top-posted and a bottom-posted
// reply both keep what the player wrote. A blank line stands where a quote
// was; blank lines at both ends and trailing spaces go; the lines are kept.
func Comment(text string) string {
	lines := ownLines(strings.Split(normalizeNewlines(text), "\n"))
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	var out []string
	for _, l := range lines {
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

// CommandLines is the body of a "multiple" mail as commands: each non-empty
// line, trimmed, that Comment keeps: a quoted line is never a command, and
// running an old board's lines would only produce errors.
func CommandLines(text string) []string {
	var cmds []string
	for _, l := range ownLines(strings.Split(normalizeNewlines(text), "\n")) {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "\ufeff")); l != "" {
			cmds = append(cmds, l)
		}
	}
	return cmds
}

// ownLines returns the lines the writer wrote for this mail: those above and
// below quotes, without the quotes and their attributions, up to a
// signature or an earlier mail quoted whole. A blank line replaces each
// quote, so that the text on either side stays two paragraphs.
func ownLines(lines []string) []string {
	var own []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, ">"):
			// The attribution above the quote is no text of the writer.
			drop := i - attributionBefore(lines, i)
			for k := 0; k < drop && len(own) > 0; k++ {
				own = own[:len(own)-1]
			}
			for i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), ">") {
				i++
			}
			own = append(own, "")
			continue
		case isSignature(line), isSeparator(t):
			return own
		case isUnderline(t) && nextIsHeaderBlock(lines, i+1):
			return own
		case isHeaderBlock(lines, i):
			return own
		case attributionAt(lines, i) && !quoteFollows(lines, i):
			return own
		}
		own = append(own, line)
	}
	return own
}

// quoteFollows reports whether the attribution starting at line i is
// followed, within its three lines and blank lines after it, by a quote.
func quoteFollows(lines []string, i int) bool {
	k := i
	for k < len(lines) && k < i+3 && !isAttributionEnd(strings.TrimSpace(lines[k])) {
		k++
	}
	for k++; k < len(lines) && strings.TrimSpace(lines[k]) == ""; k++ {
	}
	return k < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[k]), ">")
}

// attributionEnds are the endings of attribution lines, in the languages
// players of pbmserv wrote in.
var attributionEnds = []string{
	"wrote:", "writes:", "schrieb:", "a écrit :", "a écrit:", "escribió:",
	"ha scritto:", "schreef:", "skrev:", "kirjoitti:", "napisał:",
}

// attributionStarts are the first words of attribution lines that name a
// date before the writer ("On Sat, Nov 21, 2026 at 9:15 AM Alice wrote:").
var attributionStarts = []string{"On ", "Am ", "Le ", "El ", "Il ", "Op ", "Den ", "W dniu "}

func isAttributionEnd(t string) bool {
	for _, e := range attributionEnds {
		if strings.HasSuffix(t, e) {
			return true
		}
	}
	return false
}

func isAttributionStart(t string) bool {
	for _, s := range attributionStarts {
		if strings.HasPrefix(t, s) {
			return true
		}
	}
	return false
}

// attributionBefore returns where the quote starting at line q begins,
// including the attribution just above it: a line ending in "wrote:" (or its
// translation), or a block of up to three lines that starts like "On <date>"
// and ends in a colon, as in Thunderbird's German "Am <date> schrieb
// <name>:". Clients wrap long attributions over several lines.
func attributionBefore(lines []string, q int) int {
	j := q - 1
	for j >= 0 && strings.TrimSpace(lines[j]) == "" {
		j--
	}
	if j < 0 {
		return q
	}
	last := strings.TrimSpace(lines[j])
	if !strings.HasSuffix(last, ":") {
		return q
	}
	for k := j; k >= 0 && k > j-3; k-- {
		t := strings.TrimSpace(lines[k])
		if t == "" {
			break
		}
		if isAttributionStart(t) {
			return k
		}
	}
	if isAttributionEnd(last) {
		return j
	}
	return q
}

// attributionAt reports whether an "On <date>, <name> wrote:" attribution
// starts at line i, whether or not a quote follows (Outlook and some mobile
// clients quote without "> ").
func attributionAt(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if !isAttributionStart(t) {
		return false
	}
	n := 0
	for k := i; k < len(lines) && k < i+3; k++ {
		t := strings.TrimSpace(lines[k])
		n += len(t)
		if t == "" || n > 300 {
			return false
		}
		if isAttributionEnd(t) {
			return true
		}
	}
	return false
}

// isSignature reports whether line starts a signature: the "-- " separator,
// "--" alone, or a mobile client's footer.
func isSignature(line string) bool {
	if strings.TrimRight(line, " \t") == "--" {
		return true
	}
	t := strings.ToLower(strings.TrimSpace(line))
	if len(t) > 60 {
		return false
	}
	for _, p := range []string{"sent from my ", "sent from mail for windows", "sent from outlook", "get outlook for ", "sent from yahoo mail", "sent from proton mail", "sent with proton mail", "von meinem iphone gesendet", "envoyé de mon iphone"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// isSeparator reports whether t introduces an earlier mail: "-----Original
// Message-----" (Outlook), "---------- Forwarded message ---------" (Gmail),
// "Begin forwarded message:" (Apple Mail) and their kin.
func isSeparator(t string) bool {
	if strings.HasPrefix(t, "--") || strings.HasPrefix(t, "__") {
		core := strings.ToLower(strings.TrimSpace(strings.Trim(t, "-_ ")))
		switch core {
		case "original message", "forwarded message", "ursprüngliche nachricht", "message d'origine", "weitergeleitete nachricht", "message transféré":
			return true
		}
	}
	return t == "Begin forwarded message:"
}

// isUnderline reports whether t is the rule of underscores Outlook puts
// above the header block of the mail it answers.
func isUnderline(t string) bool {
	return len(t) >= 10 && strings.Trim(t, "_") == ""
}

func nextIsHeaderBlock(lines []string, i int) bool {
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	return i < len(lines) && isHeaderBlock(lines, i)
}

// isHeaderBlock reports whether line i starts the header block of a quoted
// mail as Outlook writes it: "From: ..." and, within the next lines,
// "Sent: ..." or "Date: ...". Outlook's plain text marks the names bold
// ("*From:*").
func isHeaderBlock(lines []string, i int) bool {
	field := func(s string) string {
		s = strings.TrimLeft(strings.TrimSpace(s), "*")
		name, _, ok := strings.Cut(s, ":")
		if !ok {
			return ""
		}
		return strings.ToLower(strings.TrimRight(name, " *"))
	}
	switch field(lines[i]) {
	case "from", "von", "de":
	default:
		return false
	}
	for k := i + 1; k < len(lines) && k <= i+4; k++ {
		switch field(lines[k]) {
		case "sent", "date", "gesendet", "datum", "envoyé", "date d'envoi":
			return true
		}
	}
	return false
}
