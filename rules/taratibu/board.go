package taratibu

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

const (
	fileRuler = "    10  20  30  40  50  60  70\n"
	rankLine  = "  +---+---+---+---+---+---+---+\n"
)

// pieceKey names the letters under the board.
var pieceKey = rules.PieceKey(letters, kindNames[:], rules.CaseNote)

func (game) PieceKey() string { return pieceKey }

// Board is the diagram of the seed: rank 7 on top, file numbers above and
// below, rank numbers either side; then the key of the letters, the turn,
// the moves left in it, the pieces that may not move again, and the
// pieces each side has lost.
func (p *position) Board() string {
	s := &p.s
	var b strings.Builder
	b.WriteString(fileRuler)
	b.WriteString(rankLine)
	for r := 6; r >= 0; r-- {
		fmt.Fprintf(&b, "%d |", r+1)
		for f := range 7 {
			fmt.Fprintf(&b, " %c |", s.letter(f*7+r))
		}
		fmt.Fprintf(&b, " %d\n", r+1)
		b.WriteString(rankLine)
	}
	b.WriteString(fileRuler)
	b.WriteString(pieceKey)
	side := sideNames[s.side]
	switch {
	case s.over && s.winner == noWinner:
		fmt.Fprintf(&b, "Game over: turn 10 ended without a winner, a draw.\n")
	case s.over:
		fmt.Fprintf(&b, "Game over: %s won with move %d of turn %d.\n", sideNames[s.winner], s.made, s.turn)
	default:
		fmt.Fprintf(&b, "Turn %d of 10, %s: %s of %d left.\n",
			s.turn, side, plural(int(s.turn-s.made), "move"), s.turn)
		if s.captured != 0 {
			fmt.Fprintf(&b, "Captured this turn, may not move again: %s.\n", p.capturedText(", "))
		}
	}
	for sd := range 2 {
		fmt.Fprintf(&b, "Lost by %s: %s.\n", sideNames[sd], lostNames(s.alive[sd]))
	}
	return b.String()
}

// lostNames lists the kinds missing from alive: "Angel, Man", or "none".
func lostNames(alive uint16) string {
	var names []string
	for k := range numKinds {
		if alive&(1<<k) == 0 {
			names = append(names, kindNames[k])
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

const help = `Taratibu (Glenn Overby, 2005): ten pieces, ten turns, on a 7x7 board.

Squares are numbered file*10 + rank: files 1 to 7 from White's left,
ranks 1 to 7 from White's side, so White's left corner is 11.

Each side has ten pieces; each belongs to two orders and has the move
of both:
  basic      one step diagonally
  human      one step orthogonally
  winged     a leap of exactly two squares diagonally
  aquatic    a leap of exactly two squares orthogonally
  quadruped  a knight's leap
Leaps jump over anything between.
  S Sphinx   winged, quadruped     F Fish     aquatic, basic
  E Elk      basic, quadruped      M Man      human, basic
  B Bird     winged, basic         D Duck     winged, aquatic
  A Angel    winged, human         C Captain  human, aquatic
  H Hero     human, quadruped      T Turtle   aquatic, quadruped
White's letters are upper case, Black's lower case.

Turns: turn n (1 to 10) is n single moves; White plays the odd turns
(1, 3, 5, 7, 9), Black the even ones. A piece may move more than once in
a turn, but a piece that has captured may not move again that turn. A
move onto an enemy piece captures it; onto a friendly piece is illegal.
If a side has no legal move left, its turn ends early.

Winning: you win the moment you have captured the enemy Man and all four
enemy pieces of one order: aquatic (Captain, Duck, Fish, Turtle),
quadruped (Sphinx, Elk, Turtle, Hero) or winged (Sphinx, Bird, Angel,
Duck), even in the middle of a turn. Taking the Man alone wins nothing.
If turn 10 ends without a winner, the game is a draw.

Notation: a move is four digits, from square and to square: 7264 moves
the piece on 72 to 64. Captures are not written. Send a turn's moves in
one mail, separated by spaces or commas, or spread them over several
mails: the turn passes when all its moves are made. If one move of a
mail is illegal, none of the mail is played.

Options: none.

Example, White's third turn on board 101:
  taratibu move 101 alice secret 3153 5364 5232
`
