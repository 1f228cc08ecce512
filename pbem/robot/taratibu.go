package robot

import (
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// taratibuOrders are the three win sets: a player wins when he has taken
// the opponent's Man and all four pieces of one of them.
var taratibuOrders = [3]string{
	"CDFT", // aquatic: Captain, Duck, Fish, Turtle
	"SETH", // quadruped: Sphinx, Elk, Turtle, Hero
	"SBAD", // winged: Sphinx, Bird, Angel, Duck
}

// taratibuSet is the worth of having taken 0..4 pieces of one win set: the
// nearer to complete, the more each further piece counts.
var taratibuSet = [5]int{0, 20, 50, 110, 240}

const (
	taratibuMan   = 120 // the Man is in every win
	taratibuPiece = 15  // any piece taken
	taratibuMove  = 6   // each single move left in the side to move's turn
)

// taratibuScore is progress towards the win sets: for each side, what it
// has taken of the opponent's Man and of the win set it is nearest to
// completing (the others count a little), plus the moves the side to move
// has left in its turn.
func taratibuScore(pos rules.Position, _ *env) int {
	fields := strings.Fields(pos.String())
	var have [2]map[byte]bool
	have[0], have[1] = map[byte]bool{}, map[byte]bool{}
	for i := 0; i < len(fields[0]); i++ {
		switch c := fields[0][i]; {
		case c >= 'A' && c <= 'Z':
			have[0][c] = true
		case c >= 'a' && c <= 'z':
			have[1][c-'a'+'A'] = true
		}
	}
	progress := func(opp map[byte]bool) int {
		p := 0
		if !opp['M'] {
			p += taratibuMan
		}
		bestSet := 0
		for _, set := range taratibuOrders {
			taken := 0
			for j := 0; j < len(set); j++ {
				if !opp[set[j]] {
					taken++
				}
			}
			p += taratibuSet[taken] / 4
			bestSet = max(bestSet, taratibuSet[taken])
		}
		return p + bestSet + taratibuPiece*(10-len(opp))
	}
	me := pos.ToMove()
	score := progress(have[1-me]) - progress(have[me])
	if len(fields) >= 4 {
		turn, _ := strconv.Atoi(fields[2])
		made, _ := strconv.Atoi(fields[3])
		score += taratibuMove * (turn - made)
	}
	return score
}
