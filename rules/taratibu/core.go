package taratibu

import "math/bits"

// The ten kinds of piece, in the order of the seed's table. Each side has
// exactly one piece of each kind, so a piece is known by its side and kind.
const (
	sphinx = iota
	elk
	bird
	angel
	fish
	man
	duck
	captain
	turtle
	hero
	numKinds
)

// letters are the piece letters of the position format and the diagram,
// White's in upper case, indexed by kind.
const letters = "SEBAFMDCTH"

var kindNames = [numKinds]string{
	"Sphinx", "Elk", "Bird", "Angel", "Fish", "Man", "Duck", "Captain", "Turtle", "Hero",
}

// An order is one of the five families of pieces; each gives one power.
type order uint8

const (
	basic order = iota
	human
	winged
	aquatic
	quadruped
	numOrders
)

var orderNames = [numOrders]string{"basic", "human", "winged", "aquatic", "quadruped"}

// orderMoves says in words how each order's power moves.
var orderMoves = [numOrders]string{
	"one step diagonally",
	"one step orthogonally",
	"a leap of exactly two squares diagonally",
	"a leap of exactly two squares orthogonally",
	"a knight's leap",
}

// orderSteps are the (file, rank) offsets of each order's power.
var orderSteps = [numOrders][][2]int{
	basic:     {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}},
	human:     {{1, 0}, {-1, 0}, {0, 1}, {0, -1}},
	winged:    {{2, 2}, {2, -2}, {-2, 2}, {-2, -2}},
	aquatic:   {{2, 0}, {-2, 0}, {0, 2}, {0, -2}},
	quadruped: {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}},
}

// orders are the two orders of each kind, as the seed's table gives them.
var orders = [numKinds][2]order{
	sphinx:  {winged, quadruped},
	elk:     {basic, quadruped},
	bird:    {winged, basic},
	angel:   {winged, human},
	fish:    {aquatic, basic},
	man:     {human, basic},
	duck:    {winged, aquatic},
	captain: {human, aquatic},
	turtle:  {aquatic, quadruped},
	hero:    {human, quadruped},
}

// The board has 49 squares, indexed (file-1)*7 + (rank-1), so that index
// order is the order of the square numbers file*10+rank. A set of squares is
// a uint64 with bit i for square index i.
const numSquares = 49

// reach[k][i] is the set of squares a piece of kind k on square i can move to
// on an empty board. Leaps jump, so the board never blocks a move: only a
// friendly piece on the target does.
var reach [numKinds][numSquares]uint64

// members[o] is the set of kinds (bit k for kind k) that belong to order o.
var members [numOrders]uint16

func init() {
	for k := range numKinds {
		for _, o := range orders[k] {
			members[o] |= 1 << k
			for i := range numSquares {
				f, r := i/7, i%7
				for _, d := range orderSteps[o] {
					nf, nr := f+d[0], r+d[1]
					if nf >= 0 && nf < 7 && nr >= 0 && nr < 7 {
						reach[k][i] |= 1 << (nf*7 + nr)
					}
				}
			}
		}
	}
}

// squareName is the square number of index i: 11 to 77.
func squareName(i int) int { return (i/7+1)*10 + i%7 + 1 }

// squareIndex is the index of square number n, or -1 when n is no square.
func squareIndex(n int) int {
	f, r := n/10, n%10
	if f < 1 || f > 7 || r < 1 || r > 7 {
		return -1
	}
	return (f-1)*7 + r - 1
}

const (
	white = 0
	black = 1
	// noWinner is state.winner for a drawn game.
	noWinner = -1
	lastTurn = 10
)

// state is a position in a compact, pointer-free form that copies cheaply.
// Play works on a copy and Perft makes and unmakes moves on one.
type state struct {
	// board holds 0 for an empty square, or 1 + side*numKinds + kind.
	board [numSquares]int8
	// at is the square index of each side's piece of each kind, -1 if taken.
	at [2][numKinds]int8
	// occupied is the set of squares of each side's pieces.
	occupied [2]uint64
	// alive is the set of kinds each side still has.
	alive [2]uint16
	side  int8
	turn  int8 // 1 to 10: White plays odd turns, Black even
	made  int8 // single moves made so far in this turn
	// captured is the set of kinds of the side to move that have captured
	// this turn and so may not move again.
	captured uint16
	over     bool
	winner   int8 // the winning side, or noWinner for a draw
}

// undo is what unmake needs to take back one single move.
type undo struct {
	from, to int8
	taken    int8 // the board code on the target before the move
	side     int8
	turn     int8
	made     int8
	captured uint16
	over     bool
	winner   int8
}

func (s *state) put(side, kind, sq int) {
	s.board[sq] = int8(1 + side*numKinds + kind)
	s.at[side][kind] = int8(sq)
	s.occupied[side] |= 1 << sq
	s.alive[side] |= 1 << kind
}

// pieceAt returns the side and kind of the piece on square index sq, and
// whether there is one.
func (s *state) pieceAt(sq int) (side, kind int, ok bool) {
	c := int(s.board[sq])
	if c == 0 {
		return 0, 0, false
	}
	return (c - 1) / numKinds, (c - 1) % numKinds, true
}

// hasLost reports whether side has lost its Man and every piece of one of
// the orders aquatic, quadruped or winged.
func (s *state) hasLost(side int) bool {
	a := s.alive[side]
	return a&(1<<man) == 0 &&
		(a&members[aquatic] == 0 || a&members[quadruped] == 0 || a&members[winged] == 0)
}

// movable is the set of kinds of the side to move that may still move.
func (s *state) movable() uint16 { return s.alive[s.side] &^ s.captured }

// hasMove reports whether the side to move has any legal single move.
func (s *state) hasMove() bool {
	own := s.occupied[s.side]
	for m := s.movable(); m != 0; m &= m - 1 {
		k := bits.TrailingZeros16(m)
		if reach[k][s.at[s.side][k]]&^own != 0 {
			return true
		}
	}
	return false
}

// countMoves is the number of legal single moves of the side to move.
func (s *state) countMoves() int {
	own := s.occupied[s.side]
	n := 0
	for m := s.movable(); m != 0; m &= m - 1 {
		k := bits.TrailingZeros16(m)
		n += bits.OnesCount64(reach[k][s.at[s.side][k]] &^ own)
	}
	return n
}

// settle ends turns that are over: the quota is met, or the side to move has
// no legal single move (mid-turn the turn ends early, at its start the turn
// passes). After turn 10 the game is drawn. Each pass of the loop moves to a
// later turn, so it ends.
func (s *state) settle() {
	for !s.over && (s.made >= s.turn || !s.hasMove()) {
		if s.turn >= lastTurn {
			s.over, s.winner = true, noWinner
			return
		}
		s.turn++
		s.side ^= 1
		s.made = 0
		s.captured = 0
	}
}

// make plays the single move from square index from to square index to,
// which must be legal, and returns what unmake needs to take it back.
func (s *state) make(from, to int) undo {
	u := undo{
		from: int8(from), to: int8(to), taken: s.board[to],
		side: s.side, turn: s.turn, made: s.made, captured: s.captured,
		over: s.over, winner: s.winner,
	}
	side := int(s.side)
	code := s.board[from]
	kind := int(code) - 1 - side*numKinds
	s.board[to] = code
	s.board[from] = 0
	s.at[side][kind] = int8(to)
	s.occupied[side] ^= 1<<from | 1<<to
	if u.taken != 0 {
		opp := side ^ 1
		victim := int(u.taken) - 1 - opp*numKinds
		s.at[opp][victim] = -1
		s.alive[opp] &^= 1 << victim
		s.occupied[opp] &^= 1 << to
		s.captured |= 1 << kind
		if s.hasLost(opp) {
			s.over, s.winner = true, int8(side)
		}
	}
	s.made++
	s.settle()
	return u
}

// unmake takes back the move that returned u.
func (s *state) unmake(u undo) {
	from, to := int(u.from), int(u.to)
	side := int(u.side)
	code := s.board[to]
	kind := int(code) - 1 - side*numKinds
	s.board[from] = code
	s.board[to] = u.taken
	s.at[side][kind] = u.from
	s.occupied[side] ^= 1<<from | 1<<to
	if u.taken != 0 {
		opp := side ^ 1
		victim := int(u.taken) - 1 - opp*numKinds
		s.at[opp][victim] = u.to
		s.alive[opp] |= 1 << victim
		s.occupied[opp] |= 1 << to
	}
	s.side, s.turn, s.made, s.captured = u.side, u.turn, u.made, u.captured
	s.over, s.winner = u.over, u.winner
}

// perft counts the sequences of depth single moves from s. It leaves s as
// it found it.
func (s *state) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if s.over {
		return 0
	}
	if depth == 1 {
		return uint64(s.countMoves())
	}
	var n uint64
	side := s.side
	own := s.occupied[side]
	for m := s.movable(); m != 0; m &= m - 1 {
		k := bits.TrailingZeros16(m)
		from := int(s.at[side][k])
		for t := reach[k][from] &^ own; t != 0; t &= t - 1 {
			u := s.make(from, bits.TrailingZeros64(t))
			n += s.perft(depth - 1)
			s.unmake(u)
		}
	}
	return n
}
