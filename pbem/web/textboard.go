package web

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/pbemd/pbemd/rules"
)

// A drawn board is also told in words, for a reader who does not see it
// (docs/accessibility.md): the SVG's title names the board and its state,
// its desc says what the drawing shows, and the page puts under it the
// board as mails show it and its pieces square by square. All of it comes
// from the board model and the game's Drawing, so it knows no game.

// describe is the accessible name and description of b drawn as d: which
// board at which move and whose turn, the size of the board, the pieces
// each side has and the last move.
func (b *boardAt) describe(d rules.Drawing) (title, desc string) {
	at := fmt.Sprintf("after move %d", b.at)
	if b.at == 0 {
		at = "at the start"
	}
	title = fmt.Sprintf("%s board %d %s. %s", b.game.Title(), b.rec.Board, at, b.status())
	cells := "squares"
	if d.Points {
		cells = "points"
	}
	sides, n := b.game.Sides(), d.Material()
	desc = fmt.Sprintf("A board of %d by %d %s. %s has %s, %s %d.", d.Cols, d.Rows, cells, sides[0], plural(n[0], "piece"), sides[1], n[1])
	if last := b.lastMove(); last != "" {
		desc += " The last move, " + last + ", is marked."
	}
	return title, desc + " The pieces by square follow the board."
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// sidePieces are the pieces of one side, each as its name and square.
type sidePieces struct {
	Side   string
	Pieces []string // "king e1", or the square alone for a plain stone
}

// bySquare lists d's pieces side by side, in the order of the board's
// squares as drawn: the top row first, each row from the left.
func bySquare(g rules.Game, d rules.Drawing) []sidePieces {
	pieces := slices.Clone(d.Pieces)
	slices.SortStableFunc(pieces, func(a, b rules.Piece) int {
		return cmp.Or(cmp.Compare(a.At.Row, b.At.Row), cmp.Compare(a.At.Col, b.At.Col))
	})
	sides := g.Sides()
	out := []sidePieces{{Side: sides[0]}, {Side: sides[1]}}
	for _, p := range pieces {
		if p.Seat != 0 && p.Seat != 1 {
			continue
		}
		name := p.Square
		if p.Name != "" {
			name = p.Name + " " + p.Square
		}
		out[p.Seat].Pieces = append(out[p.Seat].Pieces, name)
	}
	return out
}
