package tobit

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// diagram is the drawing of docs/games.md with one '@' for each point, in the
// order of rows, and keyRows the point numbers of each row, top row first;
// 0 marks the ends of the short rows, where no point is.
const diagram = `                       Black
             @     @     @     @     @
             |     |     |     |     |
   @ ------- @ --- @ --- @ --- @ --- @ ------- @
             |     |     |     |     |
   @ ------- @ --- @ --- @ --- @ --- @ ------- @
             |     |     |     |     |
   @ ------- @ --- @ --- @ --- @ --- @ ------- @
             |     |     |     |     |
   @ ------- @ --- @ --- @ --- @ --- @ ------- @
             |     |     |     |     |
             @     @     @     @     @
                       White
`

var keyRows = [6][7]int{
	{0, 34, 35, 36, 37, 38, 0},
	{27, 28, 29, 30, 31, 32, 33},
	{20, 21, 22, 23, 24, 25, 26},
	{13, 14, 15, 16, 17, 18, 19},
	{6, 7, 8, 9, 10, 11, 12},
	{0, 1, 2, 3, 4, 5, 0},
}

// keyColumn is where the key of point numbers begins on each line.
const keyColumn = 52

func (p *position) Board() string {
	var points []int
	for _, row := range keyRows {
		for _, pt := range row {
			if pt != 0 {
				points = append(points, pt)
			}
		}
	}
	var out strings.Builder
	row := 0
	for i, line := range strings.Split(strings.TrimSuffix(diagram, "\n"), "\n") {
		b := []byte(line)
		hasPoints := false
		for j, c := range b {
			if c == '@' {
				b[j] = letter(p.b.sq[points[0]])
				points = points[1:]
				hasPoints = true
			}
		}
		key := ""
		switch {
		case i == 0:
			key = "   Points"
		case hasPoints:
			key = keyLine(keyRows[row])
			row++
		}
		if key != "" {
			b = append(b, strings.Repeat(" ", keyColumn-len(b))...)
			b = append(b, key...)
		}
		out.WriteString(strings.TrimRight(string(b), " "))
		out.WriteByte('\n')
	}
	out.WriteString(pieceKey)
	return out.String()
}

// pieceKey names the letters under the board.
var pieceKey = rules.PieceKey("wWbB", []string{"White hul", "White tobit", "Black hul", "Black tobit"}, "")

func (game) PieceKey() string { return pieceKey }

// keyLine prints the point numbers of one row, three columns each.
func keyLine(row [7]int) string {
	var s strings.Builder
	for i, pt := range row {
		if i > 0 {
			s.WriteByte(' ')
		}
		if pt == 0 {
			s.WriteString("  ")
		} else {
			fmt.Fprintf(&s, "%2d", pt)
		}
	}
	return s.String()
}

const help = `Tobit (Khakas draughts)

The board is five long lines (chols) crossed by four short ones; every
line runs one point past its last crossing, giving 38 points. Pieces
stand on the points and move along the lines only. The diagram below
shows the point numbers beside the board (the chart "Points"): 1-5 are
White's endpoints, 34-38 Black's.

White (first to move) starts with 12 huls on points 1-12, Black with 12
huls on 27-38.

Moves: a hul (w, b) steps one point forward or sideways, never backward.
A hul reaching the far endpoints (White 34-38, Black 1-5) becomes a
tobit (W, B), which slides any number of empty points along a line in
any direction.

Captures are compulsory. A hul jumps an adjacent enemy piece, forward,
sideways or backward, to the empty point straight beyond it. A tobit
captures a piece anywhere along a line when the points before it are
empty, landing on any empty point beyond it. A piece that has captured
must go on capturing while it can, in the same move. You may choose any
capture sequence (not necessarily the longest), but must finish it.
Captured pieces leave the board at once; a piece may not turn back 180
degrees between two jumps; a hul reaching the far endpoints while
capturing becomes a tobit and its move ends there. A piece on an
endpoint cannot be captured.

The game ends when the side to move has no pieces or no legal move: it
loses. The same position with the same side to move for the third time
is a draw; draws also by agreement.

Notation: a step or slide is from-to, e.g. 9-16. A capture lists every
point the piece lands on: 14x16x30. You may write only the start and end
point (14x30) when exactly one capture sequence matches it.

Options: none.

Example: tobit move 101 alice secret 9-16
`
