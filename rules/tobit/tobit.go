// Package tobit implements Tobit, the Khakas draughts game played on the
// points of five long lines crossed by four short ones, as docs/games.md
// records it: huls step forward or sideways and capture in all four
// directions, tobits fly, captures are compulsory with free choice of
// sequence, and Turkish conventions settle the details.
package tobit

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// Game is Tobit.
var Game rules.Game = game{}

type game struct{}

func (game) Name() string            { return "tobit" }
func (game) Title() string           { return "Tobit" }
func (game) Aliases() []string       { return nil }
func (game) Sides() [2]string        { return [2]string{"White", "Black"} }
func (game) Options() []rules.Option { return nil }
func (game) Help() string            { return helpText() }
func (game) Start(rules.Options) (rules.Position, error) {
	return newPosition(startBoard()), nil
}

func startBoard() board {
	var b board
	for p := 1; p <= 12; p++ {
		b.sq[p] = whiteHul
	}
	for p := 27; p <= numPoints; p++ {
		b.sq[p] = blackHul
	}
	b.setKey()
	return b
}

var sideNames = [2]string{"White", "Black"}

// letter is the position-format character of a piece.
func letter(piece uint8) byte {
	switch piece {
	case whiteHul:
		return 'w'
	case blackHul:
		return 'b'
	case whiteTobit:
		return 'W'
	case blackTobit:
		return 'B'
	}
	return '.'
}

func pieceOf(c byte) (uint8, bool) {
	switch c {
	case 'w':
		return whiteHul, true
	case 'b':
		return blackHul, true
	case 'W':
		return whiteTobit, true
	case 'B':
		return blackTobit, true
	case '.':
		return empty, true
	}
	return 0, false
}

// pieceName is "White hul", "Black tobit" and so on.
func pieceName(piece uint8) string {
	kind := "hul"
	if piece&tobitBit != 0 {
		kind = "tobit"
	}
	return sideNames[owner(piece)] + " " + kind
}

const positionFormat = "a position is 38 characters for points 1 to 38 " +
	"(w W b B or .), a space and the side to move (w or b)"

func (game) ParsePosition(text string, _ rules.Options) (rules.Position, error) {
	fields := strings.Fields(text)
	if len(fields) != 2 {
		return nil, rules.Errorf(text, "%s", positionFormat)
	}
	points, side := fields[0], fields[1]
	if len(points) != numPoints {
		return nil, rules.Errorf(text, "the position has %d points, want 38; %s", len(points), positionFormat)
	}
	var b board
	var count [2]int
	for i := 0; i < numPoints; i++ {
		p := i + 1
		piece, ok := pieceOf(points[i])
		if !ok {
			return nil, rules.Errorf(text, "point %d holds %s; a point holds w, W, b, B or .",
				p, strconv.QuoteRuneToASCII(rune(points[i])))
		}
		if piece&tobitBit == 0 && piece != empty && promotes[owner(piece)][p] {
			return nil, rules.Errorf(text, "a %s on point %d would have been promoted; write %c for a tobit",
				pieceName(piece), p, letter(piece|tobitBit))
		}
		if piece != empty {
			count[owner(piece)]++
		}
		b.sq[p] = piece
	}
	for s, n := range count {
		if n > maxCaptures {
			return nil, rules.Errorf(text, "%s has %d pieces; a side has at most 12", sideNames[s], n)
		}
	}
	switch side {
	case "w":
		b.side = white
	case "b":
		b.side = black
	default:
		return nil, rules.Errorf(text, "the side to move is %q; write w or b", side)
	}
	b.setKey()
	return newPosition(b), nil
}

// position is a game in progress: the board and the keys of every position
// since the start (or since it was read), for the repetition rule.
type position struct {
	b       board
	history []key // every position so far, the current one last
	since   int   // history[since:] follows the last irreversible move
}

func newPosition(b board) *position {
	return &position{b: b, history: []key{b.key}}
}

func (p *position) String() string {
	var s strings.Builder
	for i := 1; i <= numPoints; i++ {
		s.WriteByte(letter(p.b.sq[i]))
	}
	if p.b.side == black {
		s.WriteString(" b")
	} else {
		s.WriteString(" w")
	}
	return s.String()
}

func (p *position) ToMove() int { return p.b.side }

func (p *position) Clone() rules.Position {
	q := *p
	q.history = append([]key(nil), p.history...)
	return &q
}

// repeated reports whether the current position stands for the third time.
func (p *position) repeated() bool {
	n := 0
	for _, k := range p.history[p.since:] {
		if k == p.b.key {
			n++
		}
	}
	return n >= 3
}

func (p *position) Result() rules.Result {
	if p.repeated() {
		return rules.Drawn("threefold repetition")
	}
	own := uint8(1) << p.b.side
	pieces := false
	for i := 1; i <= numPoints; i++ {
		if p.b.sq[i]&own != 0 {
			pieces = true
			break
		}
	}
	winner := rules.Other(p.b.side)
	if !pieces {
		return rules.Win(winner, sideNames[p.b.side]+" has no pieces")
	}
	if len(p.moves()) == 0 {
		return rules.Win(winner, sideNames[p.b.side]+" cannot move")
	}
	return rules.Ongoing
}

// moves lists the legal moves in the order of their paths, none when the
// game is drawn.
func (p *position) moves() []move {
	if p.repeated() {
		return nil
	}
	ms := p.b.generate(nil)
	sort.Slice(ms, func(i, j int) bool { return lessPath(&ms[i], &ms[j]) })
	return ms
}

func lessPath(a, b *move) bool {
	for i := 0; i <= int(a.n) && i <= int(b.n); i++ {
		if a.path[i] != b.path[i] {
			return a.path[i] < b.path[i]
		}
	}
	return a.n < b.n
}

func (p *position) Legal() []string {
	ms := p.moves()
	if len(ms) == 0 {
		return nil
	}
	out := make([]string, len(ms))
	for i := range ms {
		out[i] = notation(&ms[i])
	}
	return out
}

// notation is the canonical form of m: 9-16, or every landing 14x16x30.
func notation(m *move) string {
	sep := "-"
	if m.ncap > 0 {
		sep = "x"
	}
	var s strings.Builder
	for i := 0; i <= int(m.n); i++ {
		if i > 0 {
			s.WriteString(sep)
		}
		s.WriteString(strconv.Itoa(int(m.path[i])))
	}
	return s.String()
}

func (p *position) Play(text string) ([]rules.Step, error) {
	if r := p.Result(); r.Over {
		return nil, rules.Errorf(text, "the game is over (%s)", r.Reason)
	}
	m, err := p.find(text)
	if err != nil {
		return nil, err
	}
	step := rules.Step{Move: notation(&m)}
	for i := 0; i < int(m.ncap); i++ {
		step.Captured = append(step.Captured, strconv.Itoa(int(m.caps[i])))
	}
	p.make(&m)
	return []rules.Step{step}, nil
}

// make plays the legal move m and records the position it makes.
func (p *position) make(m *move) {
	if !p.b.isReversible(m) {
		p.since = len(p.history)
	}
	p.b.makeMove(m)
	p.history = append(p.history, p.b.key)
}

func (p *position) Perft(depth int) uint64 {
	if depth < 0 {
		return 0
	}
	if depth == 0 {
		return 1
	}
	if p.repeated() {
		return 0
	}
	s := newSearcher(p, depth)
	return s.perft(0, depth)
}
