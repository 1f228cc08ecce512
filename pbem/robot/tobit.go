package robot

import (
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// Tobit values: a tobit flies along whole lines and is worth several huls;
// a hul gains as it nears its promotion row.
const (
	tobitHul     = 100
	tobitTobit   = 350
	tobitAdvance = 10 // per row a hul has advanced
)

// tobitRow is the row of each point 1..38 from White's side: the White
// endpoints 1-5 are row 0, the Black endpoints 34-38 row 5.
func tobitRow(point int) int {
	switch {
	case point <= 5:
		return 0
	case point <= 33:
		return 1 + (point-6)/7
	default:
		return 5
	}
}

func tobitCount(pos rules.Position) [2]int {
	var n [2]int
	board, _, _ := strings.Cut(pos.String(), " ")
	for i := 0; i < len(board); i++ {
		switch board[i] {
		case 'w', 'W':
			n[0]++
		case 'b', 'B':
			n[1]++
		}
	}
	return n
}

// tobitScore is material and promotion: huls by how far they have come,
// tobits at their full worth.
func tobitScore(pos rules.Position, _ *env) int {
	board, _, _ := strings.Cut(pos.String(), " ")
	white := 0
	for i := 0; i < len(board); i++ {
		row := tobitRow(i + 1)
		switch board[i] {
		case 'w':
			white += tobitHul + tobitAdvance*row
		case 'W':
			white += tobitTobit
		case 'b':
			white -= tobitHul + tobitAdvance*(5-row)
		case 'B':
			white -= tobitTobit
		}
	}
	return fromMover(white, pos.ToMove())
}
