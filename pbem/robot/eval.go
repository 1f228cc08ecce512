package robot

import (
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// An evaluation is what the robot knows of one game beyond its rules. It
// reads positions through the rules interface only, mostly their position
// text, so the rules packages know nothing of robots.
type evaluation struct {
	// count is the number of pieces (stones) of each seat in a position:
	// level 1 sees a capture in it.
	count func(pos rules.Position) [2]int
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

// evaluations are what robots know of some games beyond their rules, by
// the games' names in the catalog. Robots play every other game of the
// catalog with the generic evaluation.
var evaluations = map[string]evaluation{
	"ultima":   {count: caseCount, score: ultimaScore},
	"tanbo":    {count: tanboCount, score: tanboScore},
	"taratibu": {count: caseCount, score: taratibuScore},
	"tobit":    {count: tobitCount, score: tobitScore},
}

// evaluationOf is the evaluation robots play game with.
func evaluationOf(game rules.Game) evaluation {
	if ev, ok := evaluations[game.Name()]; ok {
		return ev
	}
	return generic
}

// generic is the evaluation of a game robots know nothing of but its
// rules: material, counted from the position's drawing when it draws
// itself, and mobility.
var generic = evaluation{count: material, score: genericScore}

// genericPiece and genericMobility are the worth of a piece more than the
// opponent has and of one legal move of the side to move.
const (
	genericPiece    = 100
	genericMobility = 4
)

// material counts the pieces of each seat as the position's drawing shows
// them; nothing for a position that does not draw itself.
func material(pos rules.Position) [2]int {
	if d, ok := pos.(rules.Drawer); ok {
		return d.Draw("").Material()
	}
	return [2]int{}
}

// genericScore is the material balance and the number of legal moves, from
// the side to move's view.
func genericScore(pos rules.Position, _ *env) int {
	n := material(pos)
	me := pos.ToMove()
	return genericPiece*(n[me]-n[rules.Other(me)]) + genericMobility*int(pos.Perft(1))
}

// caseCount counts upper-case letters as seat 0's pieces and lower-case
// letters as seat 1's, in the board part of the position text (before the
// space).
func caseCount(pos rules.Position) [2]int {
	var n [2]int
	board, _, _ := strings.Cut(pos.String(), " ")
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
