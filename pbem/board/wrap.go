package board

import (
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// LineWidth is the widest line of prose in a reply (rules.LineWidth).
// Boards, move lists and commands are never broken.
const LineWidth = rules.LineWidth

// Reflow re-wraps the paragraphs of text a player wrote (a comment, a chat,
// a message) to LineWidth columns. A paragraph whose lines all fit is kept
// as written, since its line breaks may be meant; so is one that looks
// preformatted (an indented line, or a run of three spaces inside a line,
// as in a diagram or a table). A word longer than a line stays whole.
func Reflow(text string) string {
	paras := strings.Split(text, "\n\n")
	for i, p := range paras {
		if !preformatted(p) {
			paras[i] = strings.Join(Wrap([]string{p}, LineWidth), "\n")
		}
	}
	return strings.Join(paras, "\n\n")
}

// preformatted reports whether a paragraph must keep its lines: they all
// fit, or their spacing is part of the meaning.
func preformatted(p string) bool {
	fits := true
	for _, l := range strings.Split(p, "\n") {
		if l != "" && (l[0] == ' ' || l[0] == '\t' || strings.Contains(l, "   ")) {
			return true
		}
		fits = fits && len(l) <= LineWidth
	}
	return fits
}

// Wrap breaks each text into lines of at most width columns at spaces,
// so that long notices read well in any mail client. A command written in
// parentheses or double quotes, "(tanbo subscribe 101 userid password)",
// is kept on one line, so it can be copied whole; so is a line of the text
// that starts with two spaces (a command set apart).
func Wrap(texts []string, width int) []string {
	out := make([]string, 0, len(texts))
	for _, t := range texts {
		var lines []string
		for _, para := range strings.Split(t, "\n") {
			if strings.HasPrefix(para, "  ") { // a command on its own line
				lines = append(lines, para)
				continue
			}
			line := ""
			for _, w := range unbreakable(strings.Fields(para), width) {
				if line != "" && len(line)+1+len(w) > width {
					lines = append(lines, line)
					line = ""
				}
				if line != "" {
					line += " "
				}
				line += w
			}
			if line != "" {
				lines = append(lines, line)
			}
		}
		out = append(out, strings.Join(lines, "\n"))
	}
	return out
}

// unbreakable joins the words of a parenthesized or double-quoted group
// into one, when the group fits in width.
func unbreakable(words []string, width int) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		var closer string
		switch {
		case strings.HasPrefix(w, "("):
			closer = ")"
		case strings.HasPrefix(w, `"`) && strings.Count(w, `"`) == 1:
			closer = `"`
		}
		if closer != "" && !strings.Contains(w[1:], closer) {
			group := w
			for j := i + 1; j < len(words) && len(group) <= width; j++ {
				group += " " + words[j]
				if strings.Contains(words[j], closer) {
					if len(group) <= width {
						w, i = group, j
					}
					break
				}
			}
		}
		out = append(out, w)
	}
	return out
}

// WrapText wraps each line of a plain reply longer than LineWidth at
// spaces, as Wrap does, and keeps every other line as written: blank
// lines, and lines set apart by two leading spaces (commands, tables).
func WrapText(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if len(l) > LineWidth && !strings.HasPrefix(l, "  ") {
			lines[i] = Wrap([]string{l}, LineWidth)[0]
		}
	}
	return strings.Join(lines, "\n")
}
