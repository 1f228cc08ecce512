package rules

import (
	"fmt"
	"strings"
)

// A HelpExample is a worked example in a game's help: a position, the
// moves played on it, and what the rules make of them. The help draws it
// with the game's own rules, so the text cannot drift from the play.
type HelpExample struct {
	Title    string   // what it shows, e.g. "The withdrawer captures by moving away"
	Options  []string // the game options of the position, if any
	Position string   // the position in the game's text form; "" for the start, not drawn again
	Moves    []string // played in order on the position
	After    bool     // draw the board after the moves as well
}

// HelpExamples draws the start position of g and each example: the board,
// the moves as the server prints them (with what they take), and the board
// after when asked. An example that is not legal is an error: the help
// would teach a wrong rule.
func HelpExamples(g Game, startOptions []string, examples []HelpExample) (string, error) {
	var b strings.Builder
	opts, err := ParseOptions(g, startOptions)
	if err != nil {
		return "", err
	}
	start, err := g.Start(opts)
	if err != nil {
		return "", err
	}
	label := "The start"
	if len(startOptions) > 0 {
		label += " (" + strings.Join(startOptions, " ") + ")"
	}
	fmt.Fprintf(&b, "%s:\n\n%s\n", label, strings.TrimRight(start.Board(), "\n"))
	for _, ex := range examples {
		opts, err := ParseOptions(g, ex.Options)
		if err != nil {
			return "", fmt.Errorf("example %q: %w", ex.Title, err)
		}
		pos := start.Clone()
		if ex.Position != "" {
			if pos, err = g.ParsePosition(ex.Position, opts); err != nil {
				return "", fmt.Errorf("example %q: %w", ex.Title, err)
			}
		}
		before := unkeyed(g, pos)
		var played []string
		for _, m := range ex.Moves {
			steps, err := pos.Play(m)
			if err != nil {
				return "", fmt.Errorf("example %q: %s: %w", ex.Title, m, err)
			}
			for _, s := range steps {
				played = append(played, s.String())
			}
		}
		if ex.Position == "" { // from the start, drawn above
			fmt.Fprintf(&b, "\n%s:\n\n  %s\n", wrap(ex.Title, 72), strings.Join(played, ", "))
		} else {
			fmt.Fprintf(&b, "\n%s:\n\n%s\n\n  %s\n", wrap(ex.Title, 72), before, strings.Join(played, ", "))
		}
		if ex.After {
			fmt.Fprintf(&b, "\nAfter it:\n\n%s\n", unkeyed(g, pos))
		}
	}
	return b.String(), nil
}

// unkeyed is the board of pos without the key of its letters, which the
// start board above it has already given.
func unkeyed(g Game, pos Position) string {
	board := pos.Board()
	if k, ok := g.(Keyed); ok {
		board = strings.Replace(board, k.PieceKey(), "", 1)
	}
	return strings.TrimRight(board, "\n")
}

// MustHelpExamples is HelpExamples for a game's Help, which has no error to
// return: an illegal example is a bug the game's tests find at once.
func MustHelpExamples(g Game, startOptions []string, examples []HelpExample) string {
	s, err := HelpExamples(g, startOptions, examples)
	if err != nil {
		panic(fmt.Sprintf("%s help: %v", g.Name(), err))
	}
	return s
}

// wrap breaks text at spaces into lines of at most width columns.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case n+1+len(w) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
