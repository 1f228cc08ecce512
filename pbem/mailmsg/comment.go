package mailmsg

import (
	"strings"
)

// Comment is the part of a mail body players wrote for everyone: the text
// before the first quoted block ("> " lines), before the reply attribution
// that introduces it ("On <date>, <name> wrote:", Apple Mail's
// "On <date>, at <time>, <name> wrote:", Outlook's "-----Original
// Message-----" or "From: ... Sent: ..." block) and before a signature ("-- ",
// "--" alone, "Sent from my iPhone" and other mobile footers). Blank lines at
// both ends and trailing spaces go; the lines are kept.
func Comment(text string) string {
	lines := strings.Split(normalizeNewlines(text), "\n")
	lines = lines[:bodyEnd(lines)]
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// CommandLines is the body of a "multiple" mail as commands: each non-empty
// line, trimmed, before the signature. It stops where Comment stops (a quoted
// block or its attribution also ends the commands): a quoted line is never a
// command, and running an old board's lines would only produce errors.
func CommandLines(text string) []string {
	lines := strings.Split(normalizeNewlines(text), "\n")
	var cmds []string
	for _, l := range lines[:bodyEnd(lines)] {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "\ufeff")); l != "" {
			cmds = append(cmds, l)
		}
	}
	return cmds
}

// bodyEnd returns the index of the first line that the writer did not write
// for this mail: a quote, an attribution, a forwarded or original message, or
// a signature.
func bodyEnd(lines []string) int {
	for i, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, ">"):
			return attributionBefore(lines, i)
		case isSignature(line):
			return i
		case isSeparator(t):
			return i
		case isUnderline(t) && nextIsHeaderBlock(lines, i+1):
			return i
		case isHeaderBlock(lines, i):
			return i
		case attributionAt(lines, i):
			return i
		}
	}
	return len(lines)
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
