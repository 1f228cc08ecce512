// Package ultima is Robert Abbott's Ultima (Baroque chess) as
// docs/games.md records its rules: seven pieces that capture in seven
// ways, immobilizers that freeze their neighbours, and a king that may never
// be left where the opponent could capture it.
package ultima

import (
	"sort"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// Game is Ultima, also called Baroque chess.
var Game rules.Game = game{}

type game struct{}

func (game) Name() string            { return "ultima" }
func (game) Title() string           { return "Ultima" }
func (game) Aliases() []string       { return []string{"baroque"} }
func (game) Sides() [2]string        { return [2]string{"White", "Black"} }
func (game) Help() string            { return helpText() }
func (game) Options() []rules.Option { return options }

var options = []rules.Option{
	{Name: "singleleap", Help: "a long leaper (and a leaping chameleon) jumps at most one piece and lands directly beyond it"},
	{Name: "pure", Help: "Cambridge rules: a chameleon's leap captures only leapers; a friendly immobilizer or chameleon next to an enemy immobilizer cancels its power"},
	{Name: "stalemate", Values: []string{"loss", "draw"}, Default: "loss", Help: "whether a side with no legal move that is not in check loses or draws"},
}

// StartText is the start position in the position format.
const StartText = "clxwkxli/pppppppp/8/8/8/8/PPPPPPPP/ILXWKXLC w"

func rulesOf(opts rules.Options) ruleset {
	return ruleset{
		pure:          opts.Has("pure"),
		singleLeap:    opts.Has("singleleap"),
		stalemateDraw: opts.Get("stalemate", "loss") == "draw",
	}
}

func (g game) Start(opts rules.Options) (rules.Position, error) {
	return g.ParsePosition(StartText, opts)
}

// pieceLetters are the letters a row of the position format may hold.
const pieceLetters = "KPWLCIXkpwlcix"

func (game) ParsePosition(text string, opts rules.Options) (rules.Position, error) {
	fields := strings.Fields(text)
	if len(fields) != 2 {
		return nil, rules.Errorf(text, "a position is 8 ranks separated by / then w or b for the side to move, e.g. %s", StartText)
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != 8 {
		return nil, rules.Errorf(text, "the position has %d ranks; it needs 8, from rank 8 to rank 1, separated by /", len(rows))
	}
	p := &Position{r: rulesOf(opts)}
	b := &p.b
	b.king = [2]int8{-1, -1}
	var kings [2]int
	for i, row := range rows {
		rank := 7 - i
		full, err := rules.ExpandRow(row, 8, pieceLetters)
		if err != nil {
			return nil, rules.Errorf(text, "rank %d: %v", rank+1, err)
		}
		for f := 0; f < 8; f++ {
			c := full[f]
			if c == '.' {
				continue
			}
			pc := pieceOf(c)
			b.put(rank*8+f, pc)
			if pc.kind() == king {
				kings[pc.color()]++
			}
		}
	}
	switch fields[1] {
	case "w":
		b.side = 0
	case "b":
		b.side = 1
	default:
		return nil, rules.Errorf(text, "the side to move is %q; write w for White or b for Black after the ranks", fields[1])
	}
	for side, n := range kings {
		if n != 1 {
			return nil, rules.Errorf(text, "%s has %d kings; each side needs exactly one king", sideNames[side], n)
		}
	}
	// The side that has just moved may not have left its king capturable.
	mover := int(b.side) ^ 1
	k := int(b.king[mover])
	if a := b.attacker(p.r, k, int(b.side)); a >= 0 {
		return nil, rules.Errorf(text, "%s's king on %s can be captured by the %s on %s with %s to move; the side that has just moved may not leave its king capturable",
			sideNames[mover], squareName(k), pieceName(b.sq[a]), squareName(a), sideNames[b.side])
	}
	return p, nil
}

var sideNames = [2]string{"White", "Black"}

func pieceOf(c byte) piece {
	if c >= 'a' && c <= 'z' {
		return piece(strings.IndexByte(letters, c-'a'+'A')) | black
	}
	return piece(strings.IndexByte(letters, c))
}

// letter is the position-format letter of p.
func letter(p piece) byte {
	c := letters[p.kind()]
	if p.color() == 1 && c != '.' {
		c += 'a' - 'A'
	}
	return c
}

// pieceName is "white pawn" or "black long leaper".
func pieceName(p piece) string {
	return strings.ToLower(sideNames[p.color()]) + " " + kindNames[p.kind()]
}

func squareName(sq int) string {
	return string([]byte{byte('a' + sq%8), byte('1' + sq/8)})
}

// Position is an Ultima game in progress.
type Position struct {
	b board
	r ruleset
}

func (p *Position) String() string {
	var sb strings.Builder
	for rank := 7; rank >= 0; rank-- {
		var row [8]byte
		for f := 0; f < 8; f++ {
			row[f] = letter(p.b.sq[rank*8+f])
		}
		sb.WriteString(rules.CompressRow(string(row[:])))
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteString(" " + string("wb"[p.b.side]))
	return sb.String()
}

func (p *Position) ToMove() int { return int(p.b.side) }

func (p *Position) Clone() rules.Position {
	q := *p
	return &q
}

// legalMoves returns the legal moves of the side to move, in order of their
// from and to squares.
func (p *Position) legalMoves() []move {
	buf := make([]move, maxMoves)
	n := p.b.generate(p.r, buf)
	legal := buf[:0]
	for _, m := range buf[:n] {
		if p.b.legal(p.r, m) {
			legal = append(legal, m)
		}
	}
	sort.Slice(legal, func(i, j int) bool {
		if legal[i].from != legal[j].from {
			return legal[i].from < legal[j].from
		}
		return legal[i].to < legal[j].to
	})
	return legal
}

func (p *Position) hasLegalMove() bool {
	var buf [maxMoves]move
	n := p.b.generate(p.r, buf[:])
	for _, m := range buf[:n] {
		if p.b.legal(p.r, m) {
			return true
		}
	}
	return false
}

func (p *Position) Legal() []string {
	moves := p.legalMoves()
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = p.notation(m)
	}
	return out
}

// notation is the canonical form of m: "Ld2-d8" or "Lc5-off".
func (p *Position) notation(m move) string {
	c := letters[p.b.sq[m.from].kind()]
	if m.to == off {
		return string(c) + squareName(int(m.from)) + "-off"
	}
	return string(c) + squareName(int(m.from)) + "-" + squareName(int(m.to))
}

// Result: a side with no legal move loses, by checkmate when its king is
// attacked and by stalemate otherwise, unless -stalemate=draw.
func (p *Position) Result() rules.Result {
	if p.hasLegalMove() {
		return rules.Ongoing
	}
	winner := rules.Other(int(p.b.side))
	switch {
	case p.b.inCheck(p.r):
		return rules.Win(winner, "checkmate")
	case p.r.stalemateDraw:
		return rules.Drawn("stalemate")
	default:
		return rules.Win(winner, "stalemate")
	}
}

func (p *Position) Perft(depth int) uint64 {
	if depth < 0 {
		return 0
	}
	if depth == 0 {
		return 1
	}
	return newPerft(p.r, &p.b, depth).count(0, depth)
}

func (p *Position) Board() string {
	var sb strings.Builder
	const files = "     a b c d e f g h\n"
	const rule = "   +-----------------+\n"
	sb.WriteString(files)
	sb.WriteString(rule)
	for rank := 7; rank >= 0; rank-- {
		n := string(rune('1' + rank))
		sb.WriteString(" " + n + " |")
		for f := 0; f < 8; f++ {
			sb.WriteByte(' ')
			sb.WriteByte(letter(p.b.sq[rank*8+f]))
		}
		sb.WriteString(" | " + n + "\n")
	}
	sb.WriteString(rule)
	sb.WriteString(files)
	sb.WriteString(pieceKey)
	return sb.String()
}

// pieceKey names the letters under the board.
var pieceKey = rules.PieceKey(letters[1:], kindNames[1:], rules.CaseNote)

func (game) PieceKey() string { return pieceKey }

func (p *Position) Play(text string) ([]rules.Step, error) {
	if r := p.Result(); r.Over {
		return nil, rules.Errorf(text, "the game is over: %s", rules.Status(Game, p))
	}
	m, err := p.parse(text)
	if err != nil {
		return nil, err
	}
	name := p.notation(m)
	caps := p.b.play(p.r, m)
	var captured []string
	for sq := 0; sq < 64; sq++ {
		if caps&bit(sq) != 0 {
			captured = append(captured, squareName(sq))
		}
	}
	return []rules.Step{{Move: name, Captured: captured}}, nil
}
