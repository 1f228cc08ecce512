package robot

import (
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// An evaluation is what the robot knows of one game beyond its rules. It
// reads positions through the rules interface only, mostly their position
// text, so the rules packages know nothing of robots.
type evaluation struct {
	// count is the number of pieces (stones) of each seat in a position
	// text: level 1 sees a capture in it.
	count func(text string) [2]int
	// score rates a position that is not over from the view of its side to
	// move, in hundredths of the game's least piece or so.
	score func(pos rules.Position, e *env) int
}

// env is what a score may need besides the position.
type env struct {
	game  rules.Game
	opts  rules.Options
	tanbo *tanboScratch
}

// evaluations are the games robots play, by name.
var evaluations = map[string]evaluation{
	"ultima":   {count: caseCount, score: ultimaScore},
	"tanbo":    {count: tanboCount, score: tanboScore},
	"taratibu": {count: caseCount, score: taratibuScore},
	"tobit":    {count: tobitCount, score: tobitScore},
}

// caseCount counts upper-case letters as seat 0's pieces and lower-case
// letters as seat 1's, in the board part of the text (before the space).
func caseCount(text string) [2]int {
	var n [2]int
	board, _, _ := strings.Cut(text, " ")
	for i := 0; i < len(board); i++ {
		switch c := board[i]; {
		case c >= 'A' && c <= 'Z':
			n[0]++
		case c >= 'a' && c <= 'z':
			n[1]++
		}
	}
	return n
}

// grid expands the rows of a FEN-like board text (rows separated by '/',
// digits for runs of empty points) into one string per row.
func grid(board string, width int, pieces string) []string {
	rows := strings.Split(board, "/")
	for i, r := range rows {
		full, err := rules.ExpandRow(r, width, pieces)
		if err != nil {
			full = strings.Repeat(".", width) // the rules wrote it: cannot happen
		}
		rows[i] = full
	}
	return rows
}

// fromMover turns a score from seat 0's view into one from the view of the
// side to move.
func fromMover(score, toMove int) int {
	if toMove == 1 {
		return -score
	}
	return score
}
