// Package taratibu is Glenn Overby's Taratibu (2005): ten pieces of five
// orders on a 7x7 board, played as progressive chess over ten turns, where
// turn n is n single moves.
package taratibu

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// Game is Taratibu for the rules interface.
var Game rules.Game = game{}

const startText = "dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 1 0 -"

var sideNames = [2]string{"White", "Black"}

type game struct{}

func (game) Name() string            { return "taratibu" }
func (game) Title() string           { return "Taratibu" }
func (game) Aliases() []string       { return nil }
func (game) Sides() [2]string        { return sideNames }
func (game) Options() []rules.Option { return nil }
func (game) Help() string            { return helpText() }
func (g game) Start(opts rules.Options) (rules.Position, error) {
	return g.ParsePosition(startText, opts)
}

// position is a game of Taratibu in progress.
type position struct {
	s state
}

func (p *position) ToMove() int           { return int(p.s.side) }
func (p *position) Clone() rules.Position { q := *p; return &q }

// Perft counts sequences of depth single moves, across turns, on a copy.
func (p *position) Perft(depth int) uint64 {
	if depth < 0 {
		return 0
	}
	s := p.s
	return s.perft(depth)
}

func (p *position) Result() rules.Result {
	switch {
	case !p.s.over:
		return rules.Ongoing
	case p.s.winner == noWinner:
		return rules.Drawn("turn 10 ended")
	default:
		return rules.Win(int(p.s.winner), winReason(p.s.alive[p.s.winner^1]))
	}
}

// winReason says what the winner took: "Man and all winged pieces taken".
func winReason(loser uint16) string {
	var gone []string
	for _, o := range []order{aquatic, quadruped, winged} {
		if loser&members[o] == 0 {
			gone = append(gone, orderNames[o])
		}
	}
	return "Man and all " + strings.Join(gone, " and ") + " pieces taken"
}

// Legal lists the single moves the side to move may play next.
func (p *position) Legal() []string {
	if p.s.over {
		return nil
	}
	var moves []string
	side := int(p.s.side)
	own := p.s.occupied[side]
	for m := p.s.movable(); m != 0; m &= m - 1 {
		k := bits.TrailingZeros16(m)
		from := int(p.s.at[side][k])
		for t := reach[k][from] &^ own; t != 0; t &= t - 1 {
			moves = append(moves, moveText(from, bits.TrailingZeros64(t)))
		}
	}
	sort.Strings(moves)
	return moves
}

func moveText(from, to int) string {
	return strconv.Itoa(squareName(from)) + strconv.Itoa(squareName(to))
}

func isSeparator(r rune) bool { return r == ' ' || r == ',' || r == '\t' }

// Play plays one submission: one or more single moves of the side to move,
// all or nothing.
func (p *position) Play(text string) ([]rules.Step, error) {
	moves := strings.FieldsFunc(text, isSeparator)
	if len(moves) == 0 {
		return nil, rules.Errorf(text, "no move given; a move is four digits FRfr such as 7264, and several are separated by spaces or commas")
	}
	if p.s.over {
		return nil, rules.Errorf(text, "the game is over (%s); no more moves can be played", p.outcome())
	}
	left := int(p.s.turn - p.s.made)
	if len(moves) > left {
		return nil, rules.Errorf(text, "%s given, but %s has only %s left in turn %d",
			plural(len(moves), "move"), sideNames[p.s.side], plural(left, "move"), p.s.turn)
	}
	s := p.s // the submission plays on a copy, kept only if every move is legal
	steps := make([]rules.Step, 0, len(moves))
	for i, m := range moves {
		fail := func(msg string) error {
			if len(moves) == 1 {
				return rules.Errorf(text, "%s", msg)
			}
			return rules.Errorf(text, "move %d of %d %q: %s", i+1, len(moves), m, msg)
		}
		switch {
		case s.over:
			return nil, fail(fmt.Sprintf("the game ended with move %d (%s); no moves may follow", i, outcome(&s)))
		case s.turn != p.s.turn:
			return nil, fail(fmt.Sprintf("turn %d ended after move %d because %s had no legal move left",
				p.s.turn, i, sideNames[p.s.side]))
		}
		from, to, msg := s.check(m)
		if msg != "" {
			return nil, fail(msg)
		}
		step := rules.Step{Move: moveText(from, to)}
		if s.board[to] != 0 {
			step.Captured = []string{strconv.Itoa(squareName(to))}
		}
		s.make(from, to)
		steps = append(steps, step)
	}
	p.s = s
	return steps, nil
}

// check reads one single move and tells whether the side to move may play
// it. It returns the square indexes, or a message saying what is wrong.
func (s *state) check(m string) (from, to int, msg string) {
	if len(m) != 4 {
		return 0, 0, fmt.Sprintf("a move is four digits FRfr (from square, to square) such as 7264, not %s", plural(len(m), "character"))
	}
	for i := 0; i < len(m); i++ {
		if m[i] < '0' || m[i] > '9' {
			return 0, 0, fmt.Sprintf("a move is four digits FRfr (from square, to square) such as 7264; %q is not a digit", m[i])
		}
	}
	fromName, _ := strconv.Atoi(m[:2])
	toName, _ := strconv.Atoi(m[2:])
	for _, n := range []int{fromName, toName} {
		if squareIndex(n) < 0 {
			return 0, 0, fmt.Sprintf("%02d is not a square; a square is file and rank, each 1 to 7, from 11 to 77", n)
		}
	}
	from, to = squareIndex(fromName), squareIndex(toName)
	me := int(s.side)
	side, kind, ok := s.pieceAt(from)
	switch {
	case !ok:
		return 0, 0, fmt.Sprintf("%d is empty; %s must move one of its own pieces", fromName, sideNames[me])
	case side != me:
		return 0, 0, fmt.Sprintf("the piece on %d is %s's %s; %s moves only its own pieces",
			fromName, sideNames[side], kindNames[kind], sideNames[me])
	case from == to:
		return 0, 0, fmt.Sprintf("the move starts and ends on %d; a piece must move to another square", fromName)
	case s.captured&(1<<kind) != 0:
		return 0, 0, fmt.Sprintf("the %s on %d has already captured this turn and may not move again", kindNames[kind], fromName)
	case reach[kind][from]&(1<<to) == 0:
		o := orders[kind]
		return 0, 0, fmt.Sprintf("the %s on %d cannot reach %d: a %s is %s (%s) and %s (%s)",
			kindNames[kind], fromName, toName, kindNames[kind],
			orderNames[o[0]], orderMoves[o[0]], orderNames[o[1]], orderMoves[o[1]])
	}
	if side, victim, ok := s.pieceAt(to); ok && side == me {
		return 0, 0, fmt.Sprintf("the %s on %d cannot move onto %d: %s's own %s stands there",
			kindNames[kind], fromName, toName, sideNames[me], kindNames[victim])
	}
	return from, to, ""
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func (p *position) outcome() string { return outcome(&p.s) }

// outcome says how a finished game ended: "White won", "a draw".
func outcome(s *state) string {
	if s.winner == noWinner {
		return "turn 10 ended in a draw"
	}
	return sideNames[s.winner] + " won"
}

// String is the position format: ranks 7 to 1, side, turn, moves made, and
// the squares of the pieces that have captured this turn.
func (p *position) String() string {
	var b strings.Builder
	for r := 6; r >= 0; r-- {
		row := make([]byte, 7)
		for f := range 7 {
			row[f] = p.s.letter(f*7 + r)
		}
		b.WriteString(rules.CompressRow(string(row)))
		if r > 0 {
			b.WriteByte('/')
		}
	}
	fmt.Fprintf(&b, " %c %d %d %s", "wb"[p.s.side], p.s.turn, p.s.made, p.capturedText(","))
	return b.String()
}

// letter is the character of square index sq: a piece letter or '.'.
func (s *state) letter(sq int) byte {
	side, kind, ok := s.pieceAt(sq)
	switch {
	case !ok:
		return '.'
	case side == white:
		return letters[kind]
	default:
		return letters[kind] + 'a' - 'A'
	}
}

// capturedSquares are the square numbers of the pieces that have captured
// this turn, in ascending order.
func (s *state) capturedSquares() []int {
	var sq []int
	for m := s.captured; m != 0; m &= m - 1 {
		sq = append(sq, squareName(int(s.at[s.side][bits.TrailingZeros16(m)])))
	}
	sort.Ints(sq)
	return sq
}

func (p *position) capturedText(sep string) string {
	sq := p.s.capturedSquares()
	if len(sq) == 0 {
		return "-"
	}
	parts := make([]string, len(sq))
	for i, n := range sq {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, sep)
}

// ParsePosition reads the position format. A position where the side to
// move has no legal move is read as the rules go on from it: the turn ends
// (or passes), and after turn 10 the game is drawn.
func (game) ParsePosition(text string, _ rules.Options) (rules.Position, error) {
	fail := func(format string, args ...any) error { return rules.Errorf(text, format, args...) }
	fields := strings.Fields(text)
	if len(fields) != 5 {
		return nil, fail("a position has 5 fields (board, side to move, turn, moves made, squares that captured) such as %q; this has %d", startText, len(fields))
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 7 {
		return nil, fail("the board has %d ranks; it needs 7, from rank 7 to rank 1, separated by /", len(ranks))
	}
	var s state
	for i := range s.at {
		for k := range s.at[i] {
			s.at[i][k] = -1
		}
	}
	for i, row := range ranks {
		rank := 7 - i
		cells, err := rules.ExpandRow(row, 7, letters+strings.ToLower(letters))
		if err != nil {
			return nil, fail("rank %d: %v", rank, err)
		}
		for f := range 7 {
			c := cells[f]
			if c == '.' {
				continue
			}
			side, kind := white, strings.IndexByte(letters, c)
			if kind < 0 {
				side, kind = black, strings.IndexByte(letters, c-'a'+'A')
			}
			if s.at[side][kind] >= 0 {
				return nil, fail("%s has two %ss (%c); each side has at most one piece of each kind",
					sideNames[side], kindNames[kind], c)
			}
			s.put(side, kind, f*7+rank-1)
		}
	}
	switch fields[1] {
	case "w":
		s.side = white
	case "b":
		s.side = black
	default:
		return nil, fail("the side to move is w or b, not %q", fields[1])
	}
	turn, err := strconv.Atoi(fields[2])
	if err != nil || turn < 1 || turn > lastTurn {
		return nil, fail("the turn is a number from 1 to 10, not %q", fields[2])
	}
	if want := turn%2 == 0; want != (s.side == black) {
		return nil, fail("turn %d is %s's (White plays odd turns, Black even ones), not %s's",
			turn, sideNames[turn%2^1], sideNames[s.side])
	}
	s.turn = int8(turn)
	lost := [2]bool{s.hasLost(white), s.hasLost(black)}
	if lost[white] && lost[black] {
		return nil, fail("both sides have lost their Man and a whole order; only one side can have won")
	}
	made, err := strconv.Atoi(fields[3])
	maxMade := turn - 1
	if lost[white] || lost[black] || turn == lastTurn {
		maxMade = turn // a finished game may stop with the turn complete
	}
	if err != nil || made < 0 || made > maxMade {
		return nil, fail("moves made in turn %d is a number from 0 to %d, not %q", turn, maxMade, fields[3])
	}
	s.made = int8(made)
	if fields[4] != "-" {
		for _, name := range strings.Split(fields[4], ",") {
			n, err := strconv.Atoi(name)
			sq := squareIndex(n)
			if err != nil || sq < 0 {
				return nil, fail("%q is not a square; the pieces that captured this turn are given by squares 11 to 77, separated by commas, or - for none", name)
			}
			side, kind, ok := s.pieceAt(sq)
			if !ok || side != int(s.side) {
				return nil, fail("square %d is listed as having captured this turn, but holds no piece of %s, the side to move", n, sideNames[s.side])
			}
			if s.captured&(1<<kind) != 0 {
				return nil, fail("square %d is listed twice among the squares that captured", n)
			}
			s.captured |= 1 << kind
		}
		if c := bits.OnesCount16(s.captured); c > made {
			return nil, fail("more pieces are listed as having captured this turn (%d) than moves were made in it (%d)", c, made)
		}
	}
	switch {
	case lost[black]:
		s.over, s.winner = true, white
	case lost[white]:
		s.over, s.winner = true, black
	default:
		s.settle()
	}
	return &position{s: s}, nil
}
