package ultima

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

const moveForms = "write a move as Pe2-e5, e2-e5, e2e5 or e2xe5, a leap as Ld2-d4-d6-d8, or a suicide as Lc5-off or suicide c5"

// written is a move as the player wrote it, before it is checked against
// the position.
type written struct {
	letter  byte  // the piece letter in upper case, or 0 when none was given
	squares []int // from, any path squares, to; only from for a suicide
	suicide bool
}

// read parses the notation of one move, case-insensitively.
func read(text string) (written, error) {
	s := strings.ToLower(strings.TrimSpace(text))
	var w written
	if rest, ok := strings.CutPrefix(s, "suicide"); ok {
		s = strings.TrimSpace(rest) + "-off"
	}
	s = strings.Join(strings.Fields(s), "")
	i := 0
	if len(s) >= 3 && isLetter(s[0]) && isLetter(s[1]) && s[2] >= '0' && s[2] <= '9' {
		c := s[0] - 'a' + 'A'
		if strings.IndexByte(letters[1:], c) < 0 {
			return w, rules.Errorf(text, "%c is not a piece letter; the letters are K P W L C I X", c)
		}
		w.letter = c
		i = 1
	}
	for {
		sq, n, err := readSquare(text, s[i:])
		if err != nil {
			return w, err
		}
		w.squares = append(w.squares, sq)
		i += n
		if i == len(s) {
			break
		}
		if s[i] == '-' || s[i] == 'x' {
			i++
		}
		if s[i:] == "off" && len(w.squares) == 1 {
			w.suicide = true
			return w, nil
		}
		if len(w.squares) == 10 {
			return w, rules.Errorf(text, "not a move; %s", moveForms)
		}
	}
	if len(w.squares) < 2 {
		return w, rules.Errorf(text, "not a move: it names only one square; %s", moveForms)
	}
	return w, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }

// readSquare reads a square at the start of s and returns it and the
// number of bytes read.
func readSquare(text, s string) (int, int, error) {
	if len(s) < 2 || !isLetter(s[0]) || s[1] < '0' || s[1] > '9' {
		return 0, 0, rules.Errorf(text, "not a move; %s", moveForms)
	}
	n := 2
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if s[0] > 'h' || n > 2 || s[1] < '1' || s[1] > '8' {
		return 0, 0, rules.Errorf(text, "%s is not a square; squares are a1 to h8", s[:n])
	}
	return int(s[1]-'1')*8 + int(s[0]-'a'), n, nil
}

// parse reads text as a move of the side to move and returns it if it is
// legal, or an error that says why it is not.
func (p *Position) parse(text string) (move, error) {
	w, err := read(text)
	if err != nil {
		return move{}, err
	}
	b := &p.b
	side := int(b.side)
	from := w.squares[0]
	pc := b.sq[from]
	switch {
	case pc == empty:
		return move{}, rules.Errorf(text, "there is no piece on %s", squareName(from))
	case pc.color() != side:
		return move{}, rules.Errorf(text, "%s holds a %s; %s is to move", squareName(from), pieceName(pc), sideNames[side])
	case w.letter != 0 && w.letter != letters[pc.kind()]:
		return move{}, rules.Errorf(text, "%s holds %s (%c), not %s (%c)", squareName(from), withArticle(kindNames[pc.kind()]),
			letters[pc.kind()], withArticle(kindNames[strings.IndexByte(letters, w.letter)]), w.letter)
	}
	frozen := b.frozen(side, p.r.pure)&bit(from) != 0
	if w.suicide {
		switch {
		case pc.kind() == king:
			return move{}, rules.Errorf(text, "the king may never be removed; only a frozen piece other than the king may commit suicide")
		case !frozen:
			return move{}, rules.Errorf(text, "the %s on %s is not frozen; only a frozen piece may be removed", kindNames[pc.kind()], squareName(from))
		}
		m := move{uint8(from), off}
		return m, p.checkSafe(text, m)
	}
	to := w.squares[len(w.squares)-1]
	if err := checkPath(text, w.squares); err != nil {
		return move{}, err
	}
	if frozen {
		return move{}, rules.Errorf(text, "the %s on %s is frozen by the %s on %s and cannot move; a frozen piece may only be removed, e.g. %c%s-off",
			kindNames[pc.kind()], squareName(from), pieceName(b.sq[p.freezer(from)]), squareName(p.freezer(from)), letters[pc.kind()], squareName(from))
	}
	var buf [32]move
	n := b.pieceMoves(p.r, from, buf[:], 0)
	for _, m := range buf[:n] {
		if int(m.to) == to {
			return m, p.checkSafe(text, m)
		}
	}
	return move{}, rules.Errorf(text, "no legal move from %s to %s: %s", squareName(from), squareName(to), p.whyNot(from, to))
}

// checkPath checks that the squares of a path lie in order on one line.
func checkPath(text string, squares []int) error {
	from, to := squares[0], squares[len(squares)-1]
	if from == to {
		return rules.Errorf(text, "the move starts and ends on %s; a move goes to another square", squareName(from))
	}
	prev := from
	for _, sq := range squares[1 : len(squares)-1] {
		if between[prev][to]&bit(sq) == 0 {
			return rules.Errorf(text, "%s is not on the way from %s to %s; the squares of a path lie in order on the move's line",
				squareName(sq), squareName(prev), squareName(to))
		}
		prev = sq
	}
	return nil
}

// checkSafe refuses m if it leaves the mover's king capturable.
func (p *Position) checkSafe(text string, m move) error {
	next := p.b
	next.play(p.r, m)
	s := int(p.b.side)
	k := int(next.king[s])
	if a := next.attacker(p.r, k, s^1); a >= 0 {
		return rules.Errorf(text, "the move leaves the %s on %s open to capture by the %s on %s; a move may not leave its own king capturable",
			pieceName(next.sq[k]), squareName(k), pieceName(next.sq[a]), squareName(a))
	}
	return nil
}

// freezer returns the square of a piece that freezes the piece on sq.
func (p *Position) freezer(sq int) int {
	b := &p.b
	side := b.sq[sq].color()
	o := side ^ 1
	for d := 0; d < 8; d++ {
		t := int(nbr[sq][d])
		if t < 0 {
			continue
		}
		switch b.sq[t] {
		case of(o, immobilizer):
			if !p.r.pure {
				return t
			}
			helpers := adj[t] & (b.bb[of(side, immobilizer)] | b.bb[of(side, chameleon)]) &^ bit(sq)
			if helpers == 0 {
				return t
			}
		case of(o, chameleon):
			if b.sq[sq].kind() == immobilizer {
				return t
			}
		}
	}
	return sq
}

// whyNot explains why the unfrozen piece on from has no move to to.
func (p *Position) whyNot(from, to int) string {
	b := &p.b
	pc := b.sq[from]
	name := kindNames[pc.kind()]
	d := int(dirTo[from][to])
	df, dr := abs(to%8-from%8), abs(to/8-from/8)
	switch {
	case pc.kind() == king && max(df, dr) > 1:
		return fmt.Sprintf("a king moves one square, and %s is %d squares away", squareName(to), max(df, dr))
	case d < 0:
		return fmt.Sprintf("%s is not on a rank, file or diagonal through %s", squareName(to), squareName(from))
	case pc.kind() == pawn && d >= 4:
		return "a pawn moves only along ranks and files, not diagonally"
	case pc.kind() == king && b.sq[to].color() == pc.color():
		return fmt.Sprintf("%s holds your own %s", squareName(to), kindNames[b.sq[to].kind()])
	case pc.kind() == king:
		return fmt.Sprintf("the king may not capture the %s", pieceName(b.sq[to]))
	case b.sq[to] != empty:
		return fmt.Sprintf("%s holds a %s; only the king moves onto an occupied square", squareName(to), pieceName(b.sq[to]))
	}
	for t := int(nbr[from][d]); t != to; t = int(nbr[t][d]) {
		q := b.sq[t]
		if q == empty {
			continue
		}
		next := int(nbr[t][d])
		blocks := fmt.Sprintf("the %s on %s blocks the way", pieceName(q), squareName(t))
		switch {
		case pc.kind() != leaper && pc.kind() != chameleon:
			return blocks
		case q.color() == pc.color():
			return blocks + fmt.Sprintf("; a %s never jumps a piece of its own side", name)
		case pc.kind() == chameleon && q.kind() != leaper:
			return blocks + "; a chameleon jumps only long leapers"
		case b.sq[next] != empty:
			return fmt.Sprintf("a %s cannot jump the two pieces in a row on %s and %s", name, squareName(t), squareName(next))
		case p.r.singleLeap && between[t][to]&(b.occ[0]|b.occ[1]) != 0:
			return fmt.Sprintf("with -singleleap a %s jumps only one piece per move", name)
		case p.r.singleLeap && next != to:
			return fmt.Sprintf("with -singleleap a %s lands directly beyond the piece it jumps, on %s", name, squareName(next))
		}
	}
	return "it is not a move of the rules"
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// withArticle puts "a" or "an" before a piece name: "an immobilizer".
func withArticle(name string) string {
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}
