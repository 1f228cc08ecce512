package robot

import (
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// ultimaValue is each piece's worth in hundredths of a pawn. The king is
// beyond price: checkmate is found by the search, not counted.
var ultimaValue = [128]int{
	'P': 100, 'W': 350, 'L': 400, 'C': 350, 'I': 450, 'X': 400,
	'p': 100, 'w': 350, 'l': 400, 'c': 350, 'i': 450, 'x': 400,
}

// ultimaMobility is the worth of one legal move more than the opponent has.
const ultimaMobility = 4

// ultimaScore is material and mobility. A frozen piece (next to an enemy
// immobilizer, or an immobilizer next to an enemy chameleon) counts half:
// it moves nowhere and guards nothing until freed. Mobility is the number of
// legal moves of each side; the opponent's is counted in the same position
// with him to move, when that is a position the rules accept (it is not
// when the side to move gives check, which the material then decides).
func ultimaScore(pos rules.Position, e *env) int {
	text := pos.String()
	board, side, _ := strings.Cut(text, " ")
	rows := grid(board, 8, "KPWLCIXkpwlcix")
	at := func(r, f int) byte {
		if r < 0 || r > 7 || f < 0 || f > 7 {
			return '.'
		}
		return rows[r][f]
	}
	white := 0
	for r := 0; r < 8; r++ {
		for f := 0; f < 8; f++ {
			c := rows[r][f]
			v := ultimaValue[c]
			if v == 0 {
				continue
			}
			if ultimaFrozen(c, r, f, at) {
				v /= 2
			}
			if c >= 'a' {
				v = -v
			}
			white += v
		}
	}
	mover := int(pos.Perft(1))
	other := mover
	flip := board + " w"
	if side == "w" {
		flip = board + " b"
	}
	if q, err := e.game.ParsePosition(flip, e.opts); err == nil {
		other = int(q.Perft(1))
	}
	return fromMover(white, pos.ToMove()) + ultimaMobility*(mover-other)
}

// ultimaFrozen reports whether piece c on (r, f) stands next to an enemy
// immobilizer, or is an immobilizer next to an enemy chameleon.
func ultimaFrozen(c byte, r, f int, at func(r, f int) byte) bool {
	enemyI, enemyX := byte('i'), byte('x')
	if c >= 'a' {
		enemyI, enemyX = 'I', 'X'
	}
	for dr := -1; dr <= 1; dr++ {
		for df := -1; df <= 1; df++ {
			n := at(r+dr, f+df)
			if n == enemyI || (n == enemyX && (c == 'I' || c == 'i')) {
				return true
			}
		}
	}
	return false
}
